"""The web table without a browser: the socket vocabulary's strict parser, Telegram's initData
and the signed sessions, the views' hidden information, page edits on the buttons' path
(one turn made half by buttons, half on the page), metering, the HTTP side."""

from __future__ import annotations

import asyncio
import gzip
import hashlib
import hmac
import json
import re
import time
from urllib.parse import urlencode

import aiohttp
import pytest
from web_browser import ALICE, BOB, BOT_TOKEN, SECRET, serving

from bot.core.fair_use import SLOW_DOWN, FairUse
from bot.core.record import Record
from bot.core.service import Actor, pack
from bot.games.rummy.records import state_of
from bot.web import auth, protocol
from bot.web.auth import Session
from bot.web.protocol import Edit, Hello, Review

# -- the vocabulary -------------------------------------------------------------------------


def test_the_socket_vocabulary_takes_exactly_its_messages():
    assert protocol.parse('{"t":"hello","v":3}') == Hello(3)
    assert protocol.parse('{"t":"review","v":3}') == Review(3)
    assert protocol.parse('{"t":"edit","v":3,"op":"place","cards":["7H#1","*#0"],"to":null}') \
        == Edit(3, "place", ("7H#1", "*#0"), None, None)
    assert protocol.parse('{"t":"edit","v":3,"op":"move","cards":["10R#0"],"from":0,"to":2}') \
        == Edit(3, "move", ("10R#0",), 0, 2)
    assert protocol.parse('{"t":"edit","v":0,"op":"act","name":"done"}') == Edit(0, "act",
                                                                                name="done")
    assert protocol.parse('{"t":"edit","v":0,"op":"play","cards":["SHIFT#1"],"to":null}') \
        == Edit(0, "play", ("SHIFT#1",), None, None)


@pytest.mark.parametrize("raw", [
    "", "[]", "null", '"hello"', "{", '{"t":"hello"}', '{"t":"hello","v":-1}',
    '{"t":"hello","v":1.0}', '{"t":"hello","v":true}', '{"t":"hello","v":1,"x":0}',
    '{"t":"hello","v":10000000000}', '{"t":"edit","v":1,"op":"act","name":"eval"}',
    '{"t":"edit","v":1,"op":"place","cards":[],"to":0}',
    '{"t":"edit","v":1,"op":"place","cards":["7H#1","7H#1"],"to":0}',
    '{"t":"edit","v":1,"op":"place","cards":["7H"],"to":0}',
    '{"t":"edit","v":1,"op":"place","cards":["7H#1"],"to":200}',
    '{"t":"edit","v":1,"op":"place","cards":["7H#1"],"to":"0"}',
    '{"t":"edit","v":1,"op":"place","cards":["7H#1"]}',
    '{"t":"edit","v":1,"op":"take","cards":["7H#1"],"from":null}',
    '{"t":"edit","v":1,"op":"joker","cards":["SWAP#0"],"to":null}',
    '{"t":"edit","v":1,"op":"place","cards":' + json.dumps(["7H#1"] * 21) + ',"to":0}',
    '{"t":"edit","v":1,"op":"place","cards":["7H#1"],"to":0,"pad":"' + "x" * 3000 + '"}',
    '{"t":"review","v":1,"round":2}', '{"t":"review"}',
    "[" * 5000, '{"t":"edit","v":1,"op":"__proto__","cards":["7H#1"],"to":0}',
])
def test_anything_else_is_refused_without_an_exception(raw):
    assert protocol.parse(raw) is None


# -- who a page speaks for ---------------------------------------------------------------


def signed_init_data(fields: dict[str, str], token: str = BOT_TOKEN) -> str:
    """initData as Telegram signs it (core.telegram.org/bots/webapps), written out here."""
    check = "\n".join(f"{k}={v}" for k, v in sorted(fields.items()))
    key = hmac.new(b"WebAppData", token.encode(), hashlib.sha256).digest()
    return urlencode({**fields, "hash": hmac.new(key, check.encode(), hashlib.sha256).hexdigest()})


def telegram_fields(user_id: int = 1, when: float | None = None, game: str = "7") -> dict:
    user = json.dumps({"id": user_id, "first_name": "Alice", "language_code": "he"})
    return {"auth_date": str(int(when if when is not None else time.time())), "user": user,
            "query_id": "AAH", "start_param": game}


def test_genuine_init_data_is_taken_and_forged_or_stale_is_not():
    now = time.time()
    user, start = auth.telegram_user(signed_init_data(telegram_fields()), BOT_TOKEN, now)
    assert user["id"] == 1 and start == "7"
    day_old = signed_init_data(telegram_fields(when=now - 86400))  # Telegram Desktop's
    assert auth.telegram_user(day_old, BOT_TOKEN, now) is not None
    week_old = signed_init_data(telegram_fields(when=now - 7 * 86400))
    assert auth.telegram_user(week_old, BOT_TOKEN, now) is None
    other_bot = signed_init_data(telegram_fields(), token="999:other")
    assert auth.telegram_user(other_bot, BOT_TOKEN, now) is None
    tampered = signed_init_data(telegram_fields()).replace("start_param=7", "start_param=8")
    assert auth.telegram_user(tampered, BOT_TOKEN, now) is None
    doubled = signed_init_data(telegram_fields()) + "&start_param=8"
    assert auth.telegram_user(doubled, BOT_TOKEN, now) is None
    for junk in ("", "hash=", "a" * 5000, None, 12, "%%%", "user=&hash=00"):
        assert auth.telegram_user(junk, BOT_TOKEN, now) is None


def test_a_session_token_is_only_what_it_says_for_as_long_as_it_says():
    now = 1_000_000.0
    session = Session("telegram", "1", "Alice", 7, "he", now + 60)
    token = auth.session_token(SECRET, session)
    assert auth.read_session(SECRET, token, now) == session
    assert auth.read_session(SECRET, token, now + 61) is None  # expired
    assert auth.read_session(b"another worker's secret", token, now) is None
    _payload, mac = token.split(".")
    other = auth.session_token(SECRET, Session("telegram", "2", "Bob", 7, "he", now + 60))
    assert auth.read_session(SECRET, other.split(".")[0] + "." + mac, now) is None  # forged
    link = auth.link_token(SECRET, "discord", "1", "Alice", 7, "en", now)
    assert auth.read_session(SECRET, link, now) is None  # a link is not a session
    assert auth.read_link(SECRET, link, now) is not None
    assert auth.read_link(SECRET, link, now + auth.LINK_SECONDS + 1) is None
    for junk in ("", ".", "x" * 700, None, 3, "é.é"):
        assert auth.read_session(SECRET, junk, now) is None


# -- views and edits ---------------------------------------------------------------------


@pytest.fixture
async def web(tmp_path, sqlite_template):
    async with serving(tmp_path, sqlite_template) as opened:
        yield opened


def frame_text(web, session: Session, record: Record) -> str:
    return json.dumps(web.server.table.frame(session, record))


async def manipulation(web) -> int:
    game = await web.game("manipulation", BOB)
    await web.rig(game, {0: ["5H", "6H", "QS", "2C"], 1: ["3D", "4D", "KC"]},
                  [["7H", "8H", "9H", "10H"]], turn=0)
    return game


def tokens(cards) -> set[str]:
    return {f'"{c.token}"' for c in cards}


async def test_pages_alike_share_one_view_and_each_gets_its_own(web, monkeypatch):
    """Issue 38: a save builds one frame per seat and language, not one per page — twelve
    watchers in two languages and the two seats cost four views — and every page gets the
    frame its own session would (no seat's hand reaches a watcher)."""
    from bot.web.table import Page

    game = await manipulation(web)
    table = web.server.table
    record = await web.record(game)
    sessions = [Session("test", "1", "Alice", game, "en", 0),
                Session("test", "2", "Bob", game, "he", 0)]
    sessions += [Session("test", str(100 + k), f"W{k}", game, "en" if k % 2 else "ru", 0)
                 for k in range(12)]
    pages = [Page(session, send=None) for session in sessions]
    made = []
    rummy = table.service.unit.game_of(record)
    real = type(rummy).web_view
    monkeypatch.setattr(type(rummy), "web_view",
                        lambda self, rec, seat: made.append(seat) or real(self, rec, seat))
    table.pages[game] = set(pages)
    try:
        table.saved(game, record)
    finally:
        del table.pages[game]
    assert sorted(made, key=str) == sorted([0, 1, None, None], key=str)
    for page in pages:
        assert json.loads(page.owed_text) == table.frame(page.session, record)
        assert page.owed_text == json.dumps(page.owed)


async def test_a_view_holds_no_other_hand_no_stock_and_no_one_elses_working_copy(web):
    game = await manipulation(web)
    table = web.server.table
    alice = Session("test", "1", "Alice", game, "en", 0)
    bob = Session("test", "2", "Bob", game, "en", 0)
    watcher = Session("", "", "", game, "", 0)
    # Alice starts a group on her working copy: 5H is hers until Done
    reply = await table.edit(alice, Edit(0, "place", (
        next(c.token for c in state_of(await web.record(game)).hands[0] if c.face == "5H"),),
        None, None))
    assert reply["alert"] is False
    record = await web.record(game)
    state = state_of(record)
    hands, stock = state.hands, state.stock
    mine = frame_text(web, alice, record)
    assert all(t in mine for t in tokens(hands[0]))
    assert not any(t in mine for t in tokens(hands[1]) | tokens(stock))
    seen = frame_text(web, bob, record)
    assert not any(t in seen for t in tokens(hands[0]) | tokens(stock))
    assert '"B"' not in seen  # Alice's new group is her working copy's
    watched = frame_text(web, watcher, record)
    assert not any(t in watched for t in tokens(hands[0]) | tokens(hands[1]) | tokens(stock))
    assert json.loads(watched)["view"]["hand"] is None
    assert json.loads(mine)["view"]["groups"][1]["bad"] is True


async def test_a_build_to_ten_view_holds_no_other_hand_nor_the_stocks(web):
    game = await web.game("build-to-ten", BOB)
    record = await web.record(game)
    state = record.state
    for seat, user in ((0, "1"), (1, "2"), (None, "")):
        text = frame_text(web, Session("test" if user else "", user, "", game, "en", 0), record)
        others = [h for i, h in enumerate(state["hands"]) if i != seat]
        hidden = [c for h in others for c in h] + state["general"] + [
            c for s in state["stocks"] for c in s[1:]]
        assert not any(f'"{c}"' in text for c in hidden)


async def test_one_turn_half_by_buttons_half_on_the_page(web):
    """The page and the buttons edit the same private copy: select + New group by buttons,
    a card moved between groups on the page, Done by button."""
    game = await manipulation(web)
    state = state_of(await web.record(game))
    five, six = (next(c for c in state.hands[0] if c.face == f) for f in ("5H", "6H"))
    seven = next(c for c in state.table[0] if c.face == "7H")
    service, v = web.service, state.version
    await service.press(ALICE, pack(game, v, f"s1:{five.token}"))
    await service.press(ALICE, pack(game, v, f"s1:{six.token}"))
    out = await service.press(ALICE, pack(game, v, "new"))
    assert not out.alert, out.reply
    alice = Session("test", "1", "Alice", game, "en", 0)
    reply = await web.server.table.edit(alice, Edit(v + 1, "move", (seven.token,), 0, 1))
    assert reply == {"t": "reply", "text": "", "alert": False}
    # the chat's private screen was sent the page's edit
    assert "B 5♥6♥7♥" in web.delivered[-1].private[ALICE.user].text
    out = await service.press(ALICE, pack(game, v + 2, "done"))
    assert not out.alert, out.reply
    state = state_of(await web.record(game))
    assert sorted([c.face for c in g] for g in state.table) == [["5H", "6H", "7H"],
                                                                ["8H", "9H", "10H"]]


async def test_page_edits_pass_the_buttons_checks(web):
    game = await manipulation(web)
    state = state_of(await web.record(game))
    five = next(c for c in state.hands[0] if c.face == "5H")
    table = web.server.table
    bob = Session("test", "2", "Bob", game, "en", 0)
    alice = Session("test", "1", "Alice", game, "en", 0)
    watcher = Session("", "", "", game, "", 0)
    elsewhere = Session("discord", "1", "Alice", game, "en", 0)  # another platform's "1"
    three = next(c for c in state.hands[1] if c.face == "3D")
    assert (await table.edit(bob, Edit(0, "place", (three.token,), None, None)))["alert"]
    assert (await table.edit(watcher, Edit(0, "act", name="done")))["alert"]
    assert (await table.edit(elsewhere, Edit(0, "place", (five.token,), None, None)))["alert"]
    stale = await table.edit(alice, Edit(5, "place", (five.token,), None, None))
    assert "out of date" in stale["text"]
    not_hers = await table.edit(alice, Edit(0, "place", (three.token,), None, None))
    assert not_hers["alert"]
    assert (await table.edit(alice, Edit(0, "take", (five.token,), 7, None)))["alert"]
    assert state_of(await web.record(game)).draft is None  # nothing of it was saved


# -- the HTTP side ---------------------------------------------------------------------


async def test_sessions_are_exchanged_and_refused_clearly(web):
    game = await manipulation(web)
    async with aiohttp.ClientSession() as http:
        url = f"{web.base}/web/session"
        ok = await http.post(url, json={"init_data": signed_init_data(telegram_fields(
            game=auth.watch_param(SECRET, game)))})  # the group's link: user 1 watches
        body = await ok.json()
        assert ok.status == 200 and body["game"] == game and body["words"]["dir"] == "rtl"
        session = auth.read_session(SECRET, body["token"], time.time())
        assert session.platform == "telegram" and session.user == "1"
        for forged in (signed_init_data(telegram_fields(game=str(game)), token="1:x"),
                       signed_init_data(telegram_fields(when=time.time() - 9 * 86400))):
            answer = await http.post(url, json={"init_data": forged})
            assert answer.status == 403
            assert "not valid" in (await answer.json())["error"]
        for junk in (b"[]", b"{", b'{"game": 1, "link": 2}', b"x" * 9000):
            answer = await http.post(url, data=junk)
            assert answer.status == 403
        socket = await http.get(f"{web.base}/web/socket")
        assert socket.status == 403


async def test_the_menu_button_opens_the_game_one_sits_in(web):
    """The bot's menu button names no game: initData without one opens the newest game still
    on in which that person sits; someone who sits in none is refused clearly."""
    alice = Actor("telegram", "-100", "1", "Alice")  # telegram_fields' user 1
    game = (await web.service.new_game(alice, "manipulation")).game_id
    await web.lobby_press(alice, game, "cpu:easy")
    await web.lobby_press(alice, game, "start")
    async with aiohttp.ClientSession() as http:
        url = f"{web.base}/web/session"
        mine = {k: v for k, v in telegram_fields().items() if k != "start_param"}
        answer = await http.post(url, json={"init_data": signed_init_data(mine)})
        assert answer.status == 200 and (await answer.json())["game"] == game
        other = {k: v for k, v in telegram_fields(user_id=2).items() if k != "start_param"}
        answer = await http.post(url, json={"init_data": signed_init_data(other)})
        assert answer.status == 403
    assert (await web.service.store.player("telegram", "1", "Alice")) is not None


async def test_socket_messages_are_metered_before_any_work(web):
    game = await manipulation(web)
    web.service.fair_use = FairUse(user_rate=0.001, user_burst=3, chat_rate=0.001,
                                   chat_burst=100)
    calls = []
    real = web.server.table.edit

    async def counted(*args):
        calls.append(args)
        return await real(*args)

    web.server.table.edit = counted
    token = auth.session_token(SECRET, Session("test", "1", "Alice", game, "en",
                                               time.time() + 60))
    async with aiohttp.ClientSession() as http:
        ws = await http.ws_connect(f"{web.base}/web/socket", protocols=("rummy", token))
        for _ in range(6):
            await ws.send_str('{"t":"edit","v":9,"op":"act","name":"hint"}')
        replies = [await ws.receive_json(timeout=5) for _ in range(6)]
        slow = [r for r in replies if r.get("text") == SLOW_DOWN]
        assert len(slow) == 3 and len(calls) == 3  # past the burst: answered, no work
        await ws.close()
        big = await http.ws_connect(f"{web.base}/web/socket", protocols=("rummy", token))
        await big.send_str("x" * (protocol.MAX_MESSAGE + 1))
        message = await big.receive(timeout=5)
        assert message.type in (aiohttp.WSMsgType.CLOSE, aiohttp.WSMsgType.CLOSED,
                                aiohttp.WSMsgType.CLOSING)


async def test_the_page_loads_small_with_a_strict_policy_and_versioned_assets(web):
    async with aiohttp.ClientSession(auto_decompress=False) as http:
        page = await http.get(f"{web.base}/web/table?g=1", headers={"Accept-Encoding": "gzip"})
        csp = page.headers["Content-Security-Policy"]
        assert "script-src 'self'" in csp and "unsafe" not in csp and "default-src 'none'" in csp
        html = (await http.get(f"{web.base}/web/table?g=1")).headers
        assert html["Cache-Control"] == "no-store"
        body = await page.read()
        total = len(body)
        version = web.server.version
        # one ES module (it imports the rest); Telegram's vendored script is not on the page:
        # the page loads it itself only inside Telegram
        zipped = page.headers.get("Content-Encoding") == "gzip"
        text = (gzip.decompress(body) if zipped else body).decode()
        scripts = re.findall(r'<script([^>]*) src="([^"]+)"', text)
        assert scripts == [(' type="module"', f"/web/static/{version}/page.js")], scripts
        assert "telegram-web-app.js" in web.server.assets and "telegram-web-app" not in text
        assert "user-scalable" not in text and "maximum-scale" not in text  # zoom allowed
        # each game's board module is served from its wing
        assert {"board-rummy.js", "board-buildten.js"} <= set(web.server.assets)
        favicon = await http.get(f"{web.base}/favicon.ico", allow_redirects=True)
        assert favicon.status == 200 and favicon.headers["Content-Type"] == "image/svg+xml"
        for name in web.server.assets:
            asset = await http.get(f"{web.base}/web/static/{version}/{name}",
                                   headers={"Accept-Encoding": "gzip"})
            assert asset.status == 200 and asset.headers["Content-Encoding"] == "gzip"
            assert "immutable" in asset.headers["Cache-Control"]
            if name != "telegram-web-app.js":  # fetched inside Telegram only
                total += len(await asset.read())
        assert total <= 30 * 1024, total  # issue 42's first load outside Telegram
        old = await http.get(f"{web.base}/web/static/000000000000/page.js")
        assert old.status == 404
        sneaky = await http.get(f"{web.base}/web/static/{version}/..%2f..%2fauth.py")
        assert sneaky.status == 404


async def test_a_saved_change_reaches_every_page_of_the_game(web):
    game = await manipulation(web)
    token = auth.session_token(SECRET, Session("test", "2", "Bob", game, "en",
                                               time.time() + 60))
    async with aiohttp.ClientSession() as http:
        ws = await http.ws_connect(f"{web.base}/web/socket", protocols=("rummy", token))
        await ws.send_str('{"t":"hello","v":0}')
        first = await ws.receive_json(timeout=5)
        assert first["view"]["hand"] and first["view"]["mine"] is False
        await web.service.press(ALICE, pack(game, first["view"]["version"], "draw"))
        pushed = await ws.receive_json(timeout=5)
        assert pushed["view"]["version"] > first["view"]["version"]
        assert pushed["view"]["seat"] == 1 and pushed["view"]["mine"] is False
        await ws.close()
    for _ in range(50):
        if not web.server.table.pages:
            break
        await asyncio.sleep(0.02)
    assert not web.server.table.pages  # a closed page is forgotten


async def test_a_build_to_ten_review_on_the_page_is_its_picture_and_text(web):
    """🔎 Review on the page for Build-to-Ten (issue 32): the platform's review path gives the
    page's seat its text and its picture, as rummy's; the other seat's page gets its own."""
    import base64
    import io

    from PIL import Image
    from test_review_buildten import play_game

    from bot.games.buildten.review import review_screen

    player = await web.store.player("test", "1", "Alice")
    record = play_game(user="1", name="Alice", player_id=player)
    row = await web.store.create_game("test", "-5", record.to_dict(), status="finished")
    table = web.server.table
    assert table.frame(Session("test", "1", "Alice", row.id, "en", 0), record)["review"] == 1
    got = await table.review(Session("test", "1", "Alice", row.id, "en", 2e9))
    assert got["t"] == "review"
    assert got["text"] == review_screen(row.id, record, 0, None).text
    head, data = got["image"].split(",", 1)
    assert head == "data:image/png;base64"
    assert Image.open(io.BytesIO(base64.b64decode(data))).width == 800
    stranger = await table.review(Session("test", "9", "Eve", row.id, "en", 2e9))
    assert stranger["t"] == "reply" and stranger["alert"] and "image" not in stranger


# -- the page's words (issue 42) ------------------------------------------------------------


def test_the_local_seat_is_named_in_the_players_language(monkeypatch):
    import getpass

    from bot.cli import _your_name

    monkeypatch.setattr(getpass, "getuser", lambda: "root")
    assert [_your_name(lang) for lang in ("en", "he", "ru")] == ["Player", "שחקן", "Игрок"]
    monkeypatch.setattr(getpass, "getuser", lambda: "dana")
    assert _your_name("ru") == "Dana"


def test_build_to_tens_russian_forms_agree():
    from bot.games.buildten.narrate import log_lines, refusal
    from bot.i18n import strip_bidi, t, using
    from engine.buildten import Event
    from engine.errors import IllegalAction as BuildIllegal

    with using("ru"):
        needs = strip_bidi(refusal(BuildIllegal("x", code="bt_wrong_number", card="7H#0",
                                                 pile=0, needed=1)))
        pile = strip_bidi(t("pile {n} needs {needed}", n=1, needed=5))
        played = strip_bidi(" ".join(log_lines(
            [Event("played", 0, {"card": "AS#0", "pile": 0, "number": 1, "source": "hand"})],
            {0: "Дана"})))
    assert "нужна туз" not in needs and "нужно: туз" in needs, needs
    assert pile == "стопке 1 нужно: 5"
    assert "на стопка" not in played and "→ стопка 1" in played, played


async def test_a_rematch_only_after_the_game_by_its_players_and_only_once(web):
    from bot.core.unit import Refusal

    game = await manipulation(web)
    stranger = Actor("test", "-1", "9", "Mallory")
    with pytest.raises(Refusal):
        await web.service.rematch(ALICE, game)  # not over yet
    row = await web.store.get_game(game)
    await web.store.save_game(game, row.record, expected_version=row.version,
                              status="finished")
    with pytest.raises(Refusal):
        await web.service.rematch(stranger, game)
    waiting = await web.service.rematch(BOB, game)  # Bob is in; Alice not yet
    assert waiting.notes and "Waiting for: Alice" in waiting.notes[0].text
    assert await web.store.active_game("test", "-1") is None
    out = await web.service.rematch(ALICE, game)  # all in: it starts
    new = out.game_id
    assert new is not None and new != game
    again = await web.service.rematch(ALICE, game)  # made already: nothing more
    assert again.game_id is None
    old, fresh = await web.record(game), await web.record(new)
    assert old.rematch == new and fresh.rematch is None
    assert (fresh.rulebook, fresh.options) == (old.rulebook, old.options)
    assert [(s.user, s.computer) for s in fresh.seats] == [(s.user, s.computer)
                                                         for s in old.seats]
    assert fresh.state is not None  # started
    # every page of the old game is told, and gets a session for the new one
    session = Session("test", BOB.user, "Bob", game, "en", time.time() + 60)
    frame = await web.server.table.current(session)
    assert frame["rematch"] == new
    follow = await web.server._follow(session)
    assert follow["game"] == new
    assert auth.read_session(SECRET, follow["token"], time.time()).game == new
    assert protocol.parse('{"t":"follow","v":0}') == protocol.Follow(0)


# -- the local table: `rummy play --web` ----------------------------------------------------


async def run_local(data, lines: list[str]):
    """`play --web` on port 0 over `data` until the returned event is set: (task, stop, base,
    the printed link)."""
    from bot.adapters.console import Setup, store_url
    from bot.web.local import play_web

    stop = asyncio.Event()
    start = len(lines)
    task = asyncio.create_task(play_web(Setup(computers=["easy"]), url=store_url(data),
                                        data=data, port=0, write=lines.append, stop=stop))
    for _ in range(400):
        printed = [line for line in lines[start:] if "http://" in line]
        if printed or task.done():
            break
        await asyncio.sleep(0.025)
    assert printed, lines
    address = printed[0].split()[-1]
    base, _sep, query = address.partition("/web/table?")
    return task, stop, base, dict(p.split("=", 1) for p in query.split("&"))["k"]


async def test_the_local_table_takes_its_pages_back_after_a_restart(tmp_path):
    """The local secret lives in the data directory (0600, made once): after a restart the
    open page's token is taken again, and a refused link says where a fresh one is."""
    import os
    import stat

    lines: list[str] = []
    task, stop, base, link = await run_local(tmp_path, lines)
    try:
        async with aiohttp.ClientSession() as http:
            answer = await http.post(f"{base}/web/session", json={"link": link})
            assert answer.status == 200
            token = (await answer.json())["token"]
    finally:
        stop.set()
        await task
    kept = tmp_path / "web-secret"
    assert stat.S_IMODE(os.stat(kept).st_mode) == 0o600
    secret = kept.read_bytes()
    task, stop, base, _link = await run_local(tmp_path, lines)  # a new app, the same data
    try:
        assert kept.read_bytes() == secret  # made once
        async with aiohttp.ClientSession() as http:
            ws = await http.ws_connect(f"{base}/web/socket", protocols=("rummy", token))
            await ws.send_str('{"t":"hello","v":0}')
            frame = await ws.receive_json(timeout=10)
            assert frame["t"] == "state" and frame["view"]["seat"] == 0
            await ws.close()
            answer = await http.post(f"{base}/web/session", json={"link": link + "x"})
            assert answer.status == 403
            refused = await answer.json()
            assert "printed in the terminal" in refused["error"]
            assert refused["words"]["refused"] == refused["error"]
            answer = await http.post(f"{base}/web/session", json={"link": "x"},
                                     headers={"Accept-Language": "he-IL,he;q=0.9"})
            assert "בטרמינל" in (await answer.json())["error"]
    finally:
        stop.set()
        await task


def test_a_chats_refused_link_says_to_reopen_the_table_from_the_chat():
    from bot import i18n
    from bot.web.local import LOCAL_REFUSED
    from bot.web.words import WORDS

    for lang in ("en", "he", "ru"):
        with i18n.using(lang):
            chat, local = i18n._(WORDS["refused"]), i18n._(LOCAL_REFUSED)
        assert chat != local
        if lang != "en":  # translated, both
            assert chat != WORDS["refused"] and local != LOCAL_REFUSED


def test_the_local_secret_is_made_once_whole_and_kept_private(tmp_path):
    import os
    import stat

    from bot.web.local import SECRET_FILE, local_secret

    first = local_secret(tmp_path)
    assert len(first) == 32 and local_secret(tmp_path) == first
    path = tmp_path / SECRET_FILE
    assert stat.S_IMODE(os.stat(path).st_mode) == 0o600
    assert sorted(p.name for p in tmp_path.iterdir()) == [SECRET_FILE]  # no draft left
    os.chmod(path, 0o644)  # copied in with looser rights
    assert local_secret(tmp_path) == first and stat.S_IMODE(os.stat(path).st_mode) == 0o600
    path.write_text("torn")  # a crash mid-write of something else: made again, whole
    again = local_secret(tmp_path)
    assert len(again) == 32 and again != first and local_secret(tmp_path) == again


async def test_a_frame_carries_the_turn_timer_seconds_left(web):
    """Issue 42 (whose turn): the turn timer counts down on the page. The frame says how many
    seconds are left by the server's clock (a phone's clock may be off); no timer, no field."""
    from test_review_buildten import play_game

    player = await web.store.player("test", "1", "Alice")
    record = play_game(user="1", name="Alice", player_id=player)
    row = await web.store.create_game("test", "-5", record.to_dict())
    table = web.server.table
    session = Session("test", "1", "Alice", row.id, "en", 0)
    assert "left" not in table.frame(session, record)
    record.deadline = web.service.clock() + 42.4
    assert table.frame(session, record)["left"] == 42
    record.deadline = web.service.clock() - 5  # overdue: the timer's take-over is on its way
    assert table.frame(session, record)["left"] == 0
    from bot.web.words import page_words

    assert page_words("ru")["left"].format(s=7) == "⏱ до конца хода: 7 с"
