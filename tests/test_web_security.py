"""No one locks a player out, no stranger looks in (issue 42, item 8): the web table's door
against the attacks run on loopback — malformed initData, a watcher's flood, watchers filling
the caps, guessed game ids, a flood of session requests — on the real aiohttp app.

Clients come from different loopback addresses (127.0.0.2, 127.0.0.3, …: Linux answers the
whole 127/8), so "per address" is the server's own reading of the peer, as in production. The
limiters are the production ones on a clock the test holds (bot/clock.py): no sleeps."""

from __future__ import annotations

import asyncio
import json
import time
from urllib.parse import quote

import aiohttp
import pytest
from hypothesis import HealthCheck, example, given, settings
from hypothesis import strategies as st
from test_web_table import signed_init_data, telegram_fields
from web_browser import ALICE, BOB, BOT_TOKEN, SECRET, close_web, open_web

from bot.adapters.telegram import WebEntry
from bot.clock import CallableClock
from bot.core.fair_use import SLOW_DOWN
from bot.core.service import Actor
from bot.web import auth
from bot.web.auth import Session
from bot.web.server import client_address
from bot.web.table import LIMITS

EVE = "5"  # a Telegram user in no game


class Frozen(CallableClock):
    """Time that moves only when the test says so."""

    def __init__(self) -> None:
        self.t = time.time()
        super().__init__(lambda: self.t)


@pytest.fixture
async def web(tmp_path, sqlite_template):
    clock = Frozen()
    opened, runner = await open_web(tmp_path, sqlite_template, clock=clock)
    opened.server.table.time = clock  # the watchers' meters too
    opened.clock = clock
    try:
        yield opened
    finally:
        await close_web(opened, runner)


def client(address: str) -> aiohttp.ClientSession:
    """An HTTP client whose connections come from `address` (a loopback one)."""
    return aiohttp.ClientSession(connector=aiohttp.TCPConnector(local_addr=(address, 0)))


async def watch_token(http: aiohttp.ClientSession, web, game: int) -> str:
    answer = await http.post(f"{web.base}/web/session",
                             json={"game": auth.watch_param(SECRET, game)})
    assert answer.status == 200, await answer.text()
    return (await answer.json())["token"]


async def game_in(web, chat: str) -> int:
    """A game of Alice and Bob running in chat `chat` (one game a chat)."""
    host, guest = Actor("test", chat, ALICE.user, "Alice"), Actor("test", chat, BOB.user, "Bob")
    game = (await web.service.new_game(host, "manipulation")).game_id
    await web.lobby_press(guest, game, "join")
    await web.lobby_press(host, game, "start")
    return game


def seat_token(actor: Actor, game: int) -> str:
    return auth.session_token(SECRET, Session(actor.platform, actor.user, actor.name, game,
                                              "en", time.time() + 3600))


async def first_frame(ws: aiohttp.ClientWebSocketResponse, timeout: float = 5) -> dict | int:
    """The page's first answer to a hello: its frame, or the close code it got instead."""
    if not ws.closed:
        await ws.send_str('{"t":"hello","v":0}')
    message = await ws.receive(timeout=timeout)
    if message.type == aiohttp.WSMsgType.TEXT:
        return json.loads(message.data)
    return ws.close_code or message.data


# -- malformed initData: 403, never 500 ---------------------------------------------------


async def test_a_non_ascii_hash_or_a_deep_user_is_refused_not_a_crash(web):
    genuine = signed_init_data(telegram_fields())
    head, _sep, _hash = genuine.rpartition("hash=")
    for bad_hash in ("é" * 64, "%C3%A9" * 32, "ä", "\u0663" * 64):  # (٣: a digit, not ASCII)
        assert auth.telegram_user(head + "hash=" + bad_hash, BOT_TOKEN, time.time()) is None
    # signed by Telegram, and a user nested deeper than json goes (not under hypothesis: it
    # raises the recursion limit while it runs)
    deep = _signed("[" * 1300, "")
    assert auth.telegram_user(deep, BOT_TOKEN, time.time()) is None
    async with aiohttp.ClientSession() as http:
        for init_data in (head + "hash=" + "é" * 64, head + "hash=" + quote("é" * 64), deep):
            answer = await http.post(f"{web.base}/web/session", json={"init_data": init_data})
            assert answer.status == 403
            assert "not valid" in (await answer.json())["error"]


_FRAGMENTS = st.sampled_from([
    "%", "%zz", "%e9", "%ff%fe", "%C3%A9", "%00", "&", "&&", "=", "==", "+", ";", "hash=",
    "hash=é", "user=", "user=%7B%22id%22%3A1%7D", "auth_date=", "auth_date=1e9", "start_param=",
    "query_id=AAH", "é", "\x00", "\ud7ff", "[" * 50, "%5B" * 200, "a" * 300,
])


def _signed(user: str, start: str) -> str:
    """initData Telegram really signed, whatever its fields hold (the bot's own token)."""
    return signed_init_data({"auth_date": str(int(time.time())), "user": user,
                             "start_param": start})


def _users() -> st.SearchStrategy[str]:
    return st.one_of(
        st.text(max_size=60),
        st.builds(lambda n: "[" * n, st.integers(1000, 1300)),  # deeper than json goes
        st.builds(json.dumps, st.fixed_dictionaries({"id": st.one_of(
            st.integers(), st.floats(), st.booleans(), st.text(max_size=5), st.none())},
            optional={"first_name": st.text(max_size=80), "language_code": st.text(max_size=20)})),
    )


def _init_data() -> st.SearchStrategy[object]:
    genuine = signed_init_data(telegram_fields())
    head = genuine.rpartition("hash=")[0]
    return st.one_of(
        st.text(max_size=300),
        st.text(alphabet=st.characters(codec="ascii"), max_size=300),
        st.builds(lambda h: head + "hash=" + h, st.text(max_size=80)),  # any hash at all
        st.builds(lambda parts: "".join(parts), st.lists(_FRAGMENTS, max_size=20)),
        st.builds(lambda parts: genuine + "".join(parts), st.lists(_FRAGMENTS, max_size=6)),
        st.builds(lambda k: genuine + f"&{k}=x", st.sampled_from(
            ["hash", "user", "auth_date", "start_param", "query_id"])),  # a key twice
        st.text(min_size=4097, max_size=6000),  # huge (still inside the body's bound)
        st.builds(_signed, _users(), st.text(max_size=70)),  # genuine, odd inside
        st.recursive(st.none() | st.booleans() | st.integers() | st.floats(),
                     lambda inner: st.lists(inner, max_size=3)
                     | st.dictionaries(st.text(max_size=5), inner, max_size=3), max_leaves=8),
    )


def _bodies() -> st.SearchStrategy[bytes]:
    return st.one_of(
        st.binary(max_size=600),
        st.builds(lambda n: b"[" * n, st.integers(1, 8000)),  # deeper than the parser goes
        st.builds(lambda n: b'{"game":' + b"[" * n, st.integers(1, 8000)),
        st.builds(lambda d: json.dumps(d).encode(), st.dictionaries(
            st.sampled_from(["init_data", "link", "game", "x"]),
            st.one_of(st.text(max_size=40), st.integers(), st.none(),
                      st.lists(st.integers(), max_size=3)), max_size=3)),
    )


def test_any_init_data_or_body_answers_403_never_500(tmp_path, sqlite_template):
    """Hypothesis against the real app on loopback: every malformed sign-in is a clear 403."""
    loop = asyncio.new_event_loop()

    class Moving(CallableClock):  # the meters' time a minute on at each reading: the door
        def __init__(self) -> None:  # never shuts (the tokens' time is the wall clock's)
            self.t = time.monotonic()
            super().__init__(time.time)

        def monotonic(self) -> float:
            self.t += 60
            return self.t

    async def start():
        opened, runner = await open_web(tmp_path, sqlite_template, clock=Moving())
        return opened, runner, aiohttp.ClientSession()

    opened, runner, http = loop.run_until_complete(start())
    url = f"{opened.base}/web/session"

    async def status(**kwargs) -> tuple[int, str]:
        async with http.post(url, **kwargs) as answer:
            return answer.status, await answer.text()

    @settings(max_examples=400, deadline=None, suppress_health_check=list(HealthCheck))
    @given(_init_data(), st.one_of(st.none(), st.text(max_size=30)))
    @example(_signed('{"id": 1}', "7_" + "é" * 16), None)  # a non-ASCII watch key
    def init_data(value: object, game: str | None) -> None:
        body = {"init_data": value} if game is None else {"init_data": value, "game": game}
        code, text = loop.run_until_complete(status(json=body))
        assert code == 403, (code, text)
        assert "error" in json.loads(text)

    @settings(max_examples=300, deadline=None, suppress_health_check=list(HealthCheck))
    @given(_bodies())
    def bodies(body: bytes) -> None:
        code, text = loop.run_until_complete(status(data=body))
        assert code == 403, (code, text)

    try:
        init_data()
        bodies()
    finally:
        async def stop():
            await http.close()
            await close_web(opened, runner)

        loop.run_until_complete(stop())
        loop.close()


# -- watchers are metered per connection and per address ----------------------------------


async def test_a_watchers_flood_leaves_another_games_watcher_answered(web):
    flooded = await game_in(web, "-1")
    other = await game_in(web, "-2")
    table = web.server.table
    worked: list[int] = []
    real = table.current

    async def counted(session):
        worked.append(session.game)
        return await real(session)

    table.current = counted
    async with client("127.0.0.2") as attacker, client("127.0.0.3") as bystander:
        flood = await attacker.ws_connect(f"{web.base}/web/socket", protocols=(
            "rummy", await watch_token(attacker, web, flooded)))
        watch = await bystander.ws_connect(f"{web.base}/web/socket", protocols=(
            "rummy", await watch_token(bystander, web, other)))
        for _ in range(800):
            try:
                await flood.send_str('{"t":"hello","v":0}')
            except ConnectionError:  # shut out mid-flood
                break
        started = time.perf_counter()
        frame = await first_frame(watch)
        assert isinstance(frame, dict) and frame["t"] == "state", frame
        assert frame["view"]["hand"] is None  # a watcher's view
        assert time.perf_counter() - started < 2.0
        # the flood did the work of its bucket at most (the clock stands still), was told to
        # slow down, then shut out
        answers = []
        while (message := await flood.receive(timeout=5)).type == aiohttp.WSMsgType.TEXT:
            answers.append(json.loads(message.data))
        assert flood.close_code == 4029
        assert worked.count(flooded) <= LIMITS.watcher_burst
        assert any(a.get("text") == SLOW_DOWN for a in answers)
        assert worked.count(other) == 1


async def test_watchers_of_one_address_share_its_meter(web):
    game = await web.game("manipulation", BOB)
    async with client("127.0.0.2") as http:
        token = await watch_token(http, web, game)
        pages = [await http.ws_connect(f"{web.base}/web/socket", protocols=("rummy", token))
                 for _ in range(8)]
        frames = []
        for _ in range(LIMITS.watcher_burst):  # each page well inside its own bucket...
            for ws in pages:
                await ws.send_str('{"t":"hello","v":0}')
                frames.append(await ws.receive_json(timeout=5))
        # ...but the address as a whole past its own
        slow = [f for f in frames if f.get("text") == SLOW_DOWN]
        assert len(frames) - len(slow) == LIMITS.address_burst
        web.clock.t += 60  # a minute later the address may speak again
        await pages[0].send_str('{"t":"hello","v":0}')
        assert (await pages[0].receive_json(timeout=5))["t"] == "state"


# -- a seat's page is never refused because watchers filled a cap -----------------------------


async def test_watchers_fill_their_caps_and_the_seats_page_still_gets_in(web):
    game = await web.game("manipulation", BOB)
    addresses = [f"127.0.0.{i}" for i in range(2, 8)]
    held: list[aiohttp.ClientWebSocketResponse] = []
    refused: dict[str, int] = {}
    clients = [client(a) for a in addresses]
    try:
        for address, http in zip(addresses, clients, strict=True):
            token = await watch_token(http, web, game)
            for _ in range(LIMITS.watchers_per_address + 2):
                ws = await http.ws_connect(f"{web.base}/web/socket", protocols=("rummy", token))
                answer = await first_frame(ws)
                if isinstance(answer, dict):
                    held.append(ws)
                else:
                    assert answer == 4008
                    refused[address] = refused.get(address, 0) + 1
        # 6 addresses x 18 tries: each address up to its own cap, the game up to its cap
        assert len(held) == LIMITS.watchers_per_game == 64
        assert refused[addresses[0]] == 2  # the first address: past its 16
        # the seats' own pages get in, even from an address whose watchers are at its cap
        for actor, http in ((ALICE, clients[0]), (BOB, clients[-1])):
            ws = await http.ws_connect(f"{web.base}/web/socket",
                                       protocols=("rummy", seat_token(actor, game)))
            frame = await first_frame(ws)
            assert isinstance(frame, dict), frame
            assert frame["view"]["hand"], "the seat's own view"
            await ws.close()
    finally:
        for ws in held:
            await ws.close()
        for http in clients:
            await http.close()


async def test_a_seat_opening_page_after_page_keeps_the_newest(web):
    game = await web.game("manipulation", BOB)
    async with aiohttp.ClientSession() as http:
        token = seat_token(ALICE, game)
        pages = []
        for _ in range(LIMITS.seat_pages + 1):
            ws = await http.ws_connect(f"{web.base}/web/socket", protocols=("rummy", token))
            assert isinstance(await first_frame(ws), dict)
            pages.append(ws)
        oldest = await pages[0].receive(timeout=5)  # the oldest page made way
        assert oldest.type == aiohttp.WSMsgType.CLOSE and pages[0].close_code == 4009
        assert isinstance(await first_frame(pages[-1]), dict)
        for ws in pages:
            await ws.close()


async def test_one_address_holds_a_bounded_number_of_watcher_sockets(web):
    """The issue's 19,900 sockets from one client: now its cap, over any number of games."""
    games = [await game_in(web, f"-{i}") for i in range(1, 4)]
    async with client("127.0.0.2") as http:
        held, refused = [], 0
        for game in games:
            web.clock.t += 60  # (the door's meter refilled: the caps are what is tested)
            token = await watch_token(http, web, game)
            for _ in range(LIMITS.watchers_per_address):
                ws = await http.ws_connect(f"{web.base}/web/socket", protocols=("rummy", token))
                if isinstance(await first_frame(ws), dict):
                    held.append(ws)
                else:
                    refused += 1
        assert len(held) == LIMITS.watchers_per_address
        assert refused == 2 * LIMITS.watchers_per_address
        for ws in held:
            await ws.close()


# -- watching takes the game's watch link ---------------------------------------------------


async def test_a_guessed_game_id_is_refused(web):
    game = await web.game("manipulation", BOB)
    param = auth.watch_param(SECRET, game)
    key = param.partition("_")[2]
    async with aiohttp.ClientSession() as http:
        url = f"{web.base}/web/session"
        for guess in (str(game), f"{game}_", f"{game}_{'A' * len(key)}", f"{game + 1}_{key}",
                      f"0{game}_{key}", f"{game}_{key}x", f"{game}-{key}"):
            answer = await http.post(url, json={"game": guess})
            assert answer.status == 403, guess
        answer = await http.post(url, json={"game": param})
        assert answer.status == 200
        session = auth.read_session(SECRET, (await answer.json())["token"], time.time())
        assert (session.user, session.game) == ("", game)


async def test_on_telegram_a_guessed_id_is_refused_and_the_seat_needs_no_key(web):
    alice = Actor("telegram", "-100", "1", "Alice")  # telegram_fields' user 1
    game = (await web.service.new_game(alice, "manipulation")).game_id
    await web.lobby_press(alice, game, "cpu:easy")
    await web.lobby_press(alice, game, "start")
    param = auth.watch_param(SECRET, game)
    async with aiohttp.ClientSession() as http:
        url = f"{web.base}/web/session"

        async def sign_in(user: int, start: str, game_field: str | None = None) -> int:
            fields = telegram_fields(user_id=user, game=start)
            body = {"init_data": signed_init_data(fields)}
            if game_field is not None:
                body["game"] = game_field
            return (await http.post(url, json=body)).status

        assert await sign_in(int(EVE), str(game)) == 403  # a stranger guessing the id
        assert await sign_in(int(EVE), "", str(game)) == 403  # ... through the page's ?g=
        assert await sign_in(int(EVE), param) == 200  # the group's Direct Link
        assert await sign_in(1, str(game)) == 200  # the seat: her own game, any link
        assert await sign_in(1, "", str(game)) == 200  # (her private chat's button)


def test_the_group_is_posted_the_games_watch_link():
    entry = WebEntry("https://table.example", "table",
                     watch=lambda game: auth.watch_param(SECRET, game))
    group = entry.row("rummy_bot", 7, True, "en")[0]
    assert group.url == f"https://t.me/rummy_bot/table?startapp={auth.watch_param(SECRET, 7)}"
    assert auth.read_game(group.url.rpartition("=")[2]) == (7, auth.watch_key(SECRET, 7))
    private = entry.row("rummy_bot", 7, False, "en")[0]
    assert private.web_app.url == f"https://table.example/web/table?g={auth.watch_param(SECRET, 7)}"
    # a link's start parameter: A-Z a-z 0-9 _ - (within a bot's /start bound of 64)
    assert len(auth.watch_param(SECRET, auth.MAX_GAME_ID)) <= 64
    assert auth.watch_key(SECRET, 7) != auth.watch_key(b"another secret", 7)
    assert auth.watch_key(SECRET, 7) != auth.watch_key(SECRET, 8)


# -- the door: sessions and socket opens metered per address --------------------------------


async def test_many_sessions_from_one_address_are_metered(web):
    game = await web.game("manipulation", BOB)
    param = auth.watch_param(SECRET, game)
    async with client("127.0.0.2") as flood, client("127.0.0.3") as other:
        url = f"{web.base}/web/session"
        codes = [(await flood.post(url, json={"game": param})).status
                 for _ in range(int(LIMITS.door_burst) + 20)]
        assert codes.count(200) == LIMITS.door_burst and codes.count(429) == 20
        slow = await flood.post(url, json={"game": param})
        assert slow.status == 429 and slow.headers["Retry-After"]
        assert (await slow.json())["error"] == SLOW_DOWN
        assert (await other.post(url, json={"game": param})).status == 200  # another address
        web.clock.t += 10
        assert (await flood.post(url, json={"game": param})).status == 200  # a moment later


async def test_socket_opens_are_metered_per_address_too(web):
    game = await web.game("manipulation", BOB)
    token = seat_token(ALICE, game)
    async with client("127.0.0.2") as http:
        statuses = []
        for _ in range(int(LIMITS.door_burst) + 5):
            try:
                ws = await http.ws_connect(f"{web.base}/web/socket", protocols=("rummy", token))
                statuses.append(101)
                await ws.close()
            except aiohttp.WSServerHandshakeError as error:
                statuses.append(error.status)
        assert statuses.count(101) == LIMITS.door_burst and statuses.count(429) == 5


async def test_a_refused_token_closes_the_socket_saying_so(web):
    async with aiohttp.ClientSession() as http:
        stale = auth.session_token(SECRET, Session("test", "1", "Alice", 1, "en",
                                                   time.time() - 1))
        for token in (stale, "forged.token"):
            ws = await http.ws_connect(f"{web.base}/web/socket", protocols=("rummy", token))
            message = await ws.receive(timeout=5)
            assert message.type == aiohttp.WSMsgType.CLOSE and ws.close_code == 4003
        assert (await http.get(f"{web.base}/web/socket")).status == 403  # no upgrade asked


# -- where a request comes from -------------------------------------------------------------


@pytest.mark.parametrize(("peer", "forwarded", "proxies", "expected"), [
    ("10.0.0.1", None, 0, "10.0.0.1"),
    ("10.0.0.1", "1.2.3.4", 0, "10.0.0.1"),  # no proxy trusted: the header is anyone's
    ("10.0.0.1", "6.6.6.6, 1.2.3.4", 1, "1.2.3.4"),  # the proxy appended the client's
    ("10.0.0.1", "6.6.6.6, 1.2.3.4, 10.0.0.9", 2, "1.2.3.4"),
    ("10.0.0.1", "1.2.3.4", 2, "10.0.0.1"),  # fewer hops than proxies: a misconfiguration
    ("10.0.0.1", "not an address", 1, "10.0.0.1"),
    ("10.0.0.1", "2001:db8:1:2:3:4:5:6", 1, "2001:db8:1:2::/64"),  # an IPv6 client: its /64
    ("2001:db8:1:2::9", None, 0, "2001:db8:1:2::/64"),
    (None, None, 0, "?"),
])
def test_a_requests_address_is_the_peer_or_what_trusted_proxies_say(peer, forwarded, proxies,
                                                                      expected):
    class Request:
        remote = peer
        headers = {"X-Forwarded-For": forwarded} if forwarded else {}

    assert client_address(Request(), proxies) == expected  # type: ignore[arg-type]


def test_the_number_of_trusted_proxies_is_read_strictly(monkeypatch):
    from bot.app import web_proxies

    monkeypatch.delenv("RUMMY_WEB_PROXIES", raising=False)
    assert web_proxies() == 0
    monkeypatch.setenv("RUMMY_WEB_PROXIES", "1")
    assert web_proxies() == 1
    for bad in ("-1", "one", "99", "²"):
        monkeypatch.setenv("RUMMY_WEB_PROXIES", bad)
        with pytest.raises(SystemExit):
            web_proxies()
