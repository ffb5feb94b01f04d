"""`rummy party` in real browsers (issue 37): Debian's Chromium, one context per phone at phone
size with touch. Three phones open the printed address, the first is the host, picks Rummikub
and one computer and starts; a whole round is played by dragging (the computer plays its own
turns), one phone reloads mid-turn and keeps its seat and its draft; the scores; the host's one
tap on ↻ Rematch and every page follows. A fourth context watches and never receives a hand
(every frame it gets is read); a forged seat key is refused; Hebrew and Russian lobbies."""

from __future__ import annotations

import asyncio
import json
import shutil

import pytest
import pytest_asyncio
from test_party import SECRET, close_room, open_room
from web_browser import (  # noqa: F401  (browser, contexts: fixtures)
    BROWSER_TESTS,
    PHONE,
    Web,
    browser,
    contexts,
    new_context,
    touch_drag,
)

from bot.core.record import Record
from bot.store.rows import StaleGame
from bot.web.party import PLATFORM, ROOM, new_key

pytestmark = BROWSER_TESTS
WAIT = 10_000  # ms


async def phone(browser, *, locale: str = "en-US", init: str | None = None, axe: bool = False):
    # axe is injected into the page: only then is the page's strict CSP set aside
    context = await new_context(browser, viewport=PHONE, has_touch=True, is_mobile=True,
                                device_scale_factor=1, locale=locale, reduced_motion="reduce",
                                bypass_csp=axe)
    if init:
        await context.add_init_script(init)
    return await context.new_page()


@pytest_asyncio.fixture(loop_scope="module")
async def room(tmp_path, sqlite_template):
    path = tmp_path / "party.db"
    shutil.copy(sqlite_template, path)
    opened = await open_room(path, delay=0.5)
    try:
        yield opened
    finally:
        await close_room(opened)


async def join(page, address: str, name: str) -> None:
    await page.goto(address)
    await page.wait_for_selector("#name", timeout=WAIT)
    await page.fill("#name", name)
    await page.locator('button[data-do="join"]').tap()
    await page.wait_for_selector("[data-seats] li.me", timeout=WAIT)


async def seats_shown(page, n: int) -> None:
    await page.wait_for_selector(f"[data-seats] li:nth-child({n})", timeout=WAIT)
    assert await page.locator("[data-seats] li").count() == n


async def turn_is_mine(page) -> None:
    await page.wait_for_selector('body[data-mine="yes"]', state="attached", timeout=WAIT)


async def test_three_phones_a_round_by_dragging_scores_and_rematch(browser, room):
    address = room.party.address  # what the terminal printed
    alice = await phone(browser)
    bob = await phone(browser)
    carol = await phone(browser)
    watcher = await phone(browser)
    frames: dict[str, list[dict]] = {"bob": [], "watcher": []}

    def listen(page, who: str) -> None:
        def on_socket(ws) -> None:
            ws.on("framereceived", lambda payload: frames[who].append(json.loads(payload)))
        page.on("websocket", on_socket)

    listen(bob, "bob")
    listen(watcher, "watcher")
    # the lobby: Alice first (the host), Bob; the fourth phone only watches
    await join(alice, address, "Alice")
    assert await alice.locator("[data-host]").count() == 1
    await join(bob, address, "Bob")
    assert await bob.locator("[data-host]").count() == 0
    await join(carol, address, "Carol")
    await watcher.goto(address)
    await watcher.wait_for_selector('button[data-do="watch"]', timeout=WAIT)
    await watcher.locator('button[data-do="watch"]').tap()
    await seats_shown(alice, 3)
    await alice.locator('select[data-choose="game"]').select_option("rummy/rummikub")
    await alice.wait_for_selector('[data-game-title]:text-matches("^Rummikub")', timeout=WAIT)
    await alice.locator('button[data-do="cpu"][data-arg="easy"]').tap()
    await seats_shown(alice, 4)
    await seats_shown(watcher, 4)
    await alice.locator('button[data-do="start"]').tap()
    # every phone goes to its own table: rig the deal the moment the game is on
    for _ in range(100):
        row = await room.store.active_game(PLATFORM, ROOM)
        if row.status == "playing":
            break
        await asyncio.sleep(0.05)
    game = row.id
    web = Web(room.service, room.store, room.party.web, room.base)
    for _ in range(20):  # (the computer may have moved first: rig the newest version)
        try:
            await web.rig(game, {0: ["10R", "11R", "12R", "13R"], 1: ["1O", "2O", "3O", "7B"],
                                 2: ["7B", "8B", "9B", "10B", "2K"], 3: ["1K", "5O", "9O"]},
                          [], turn=0)
            break
        except StaleGame:
            await asyncio.sleep(0.05)
    else:
        raise AssertionError("the deal could not be rigged")
    row = await room.store.get_game(game)
    room.party.table.saved(game, Record.from_dict(row.record))  # the pages hear of it
    for page in (alice, bob, carol, watcher):
        await page.wait_for_url("**/web/table?**", timeout=WAIT)
        await page.wait_for_selector("[data-status]", timeout=WAIT)
    await alice.wait_for_selector('[data-hand] [data-card="10R"]', timeout=WAIT)
    await turn_is_mine(alice)
    hers = set(await alice.locator("[data-hand] [data-card]").evaluate_all(
        "ns => ns.map(n => n.dataset.id)"))
    assert len(hers) == 4
    # Alice's first meld, dragged tile by tile (10 + 11 + 12 = 33)
    await touch_drag(alice, alice.locator('[data-hand] [data-card="10R"]'),
                     alice.locator('[data-drop="new"]'))
    await alice.wait_for_selector('[data-group="A"] [data-card="10R"]', timeout=WAIT)
    for face in ("11R", "12R"):
        await touch_drag(alice, alice.locator(f'[data-hand] [data-card="{face}"]'),
                         alice.locator('[data-group="A"]'))
        await alice.wait_for_selector(f'[data-group="A"] [data-card="{face}"]', timeout=WAIT)
    await alice.locator('[data-action="done"]').tap()
    # Bob's turn: a draft on the table, then his phone reloads mid-turn
    await turn_is_mine(bob)
    await touch_drag(bob, bob.locator('[data-hand] [data-card="1O"]'),
                     bob.locator('[data-drop="new"]'))
    await bob.wait_for_selector('[data-group="B"] [data-card="1O"]', timeout=WAIT)
    await touch_drag(bob, bob.locator('[data-hand] [data-card="2O"]'),
                     bob.locator('[data-group="B"]'))
    await bob.wait_for_selector('[data-group="B"] [data-card="2O"]', timeout=WAIT)
    await bob.reload()
    await bob.wait_for_selector('[data-group="B"] [data-card="2O"]', timeout=WAIT)
    await turn_is_mine(bob)  # the same seat, the same draft
    assert await bob.locator('[data-hand] [data-card="1O"]').count() == 0
    assert await bob.locator('[data-hand] [data-card="3O"]').count() == 1
    # 1 + 2 is no first meld: Bob gives it back (the page asks once more) and his turn ends
    # (each tap waits for the server's answer — a new notice, or the turn gone — not for a
    # fixed time: on a loaded machine a second tap could land before the first's answer)
    for _ in range(4):
        if await bob.evaluate("document.body.dataset.mine") != "yes":
            break
        said = await bob.locator("p.notice").all_inner_texts()
        button = bob.locator('[data-action="giveup"], [data-action="draw"]').first
        await button.tap()
        for _ in range(WAIT // 100):
            if (await bob.evaluate("document.body.dataset.mine") != "yes"
                    or await bob.locator("p.notice").all_inner_texts() != said):
                break
            await asyncio.sleep(0.1)
    await bob.wait_for_selector('body[data-mine="no"]', state="attached", timeout=WAIT)
    # Carol's first meld, all four tiles dragged (7 + 8 + 9 + 10 = 34)
    await turn_is_mine(carol)
    await touch_drag(carol, carol.locator('[data-hand] [data-card="7B"]'),
                     carol.locator('[data-drop="new"]'))
    await carol.wait_for_selector('[data-group="B"] [data-card="7B"]', timeout=WAIT)
    for face in ("8B", "9B", "10B"):
        await touch_drag(carol, carol.locator(f'[data-hand] [data-card="{face}"]'),
                         carol.locator('[data-group="B"]'))
        await carol.wait_for_selector(f'[data-group="B"] [data-card="{face}"]', timeout=WAIT)
    await carol.locator('[data-action="done"]').tap()
    await alice.wait_for_selector('[data-group="B"] [data-card="10B"]', timeout=WAIT)
    # Carol's phone "died": she opens the printed address again and is back at her seat
    await carol.goto(address)
    go = await carol.wait_for_selector("a[data-go]", timeout=WAIT)
    await go.tap()
    await carol.wait_for_selector('[data-hand] [data-card="2K"]', timeout=WAIT)
    # and the table's way back to the lobby (the host's seat actions are there)
    assert await carol.locator("a[data-home]").get_attribute("href") == "/"
    # the computer plays its turn; then Alice goes out by dragging her last tile onto her run
    await turn_is_mine(alice)
    await touch_drag(alice, alice.locator('[data-hand] [data-card="13R"]'),
                     alice.locator('[data-group="A"]'))
    await alice.wait_for_selector('[data-group="A"] [data-card="13R"]', timeout=WAIT)
    await alice.locator('[data-action="done"]').tap()
    # the scores, on every page
    for page in (alice, bob, carol, watcher):
        panel = await page.wait_for_selector("[data-result]", timeout=WAIT)
        assert "Alice" in await (await panel.query_selector("h2")).inner_text()
        assert len(await panel.query_selector_all("tbody tr")) == 4
    record = Record.from_dict((await room.store.get_game(game)).record)
    assert record.state is not None and (await room.store.get_game(game)).status == "finished"
    before_rematch = len(frames["bob"])
    # ↻ Rematch is the host's: Bob's tap is refused; Alice's one tap and every page follows
    await bob.locator('[data-result] [data-action="rematch"]').tap()
    await bob.wait_for_selector("#toast.alert", timeout=WAIT)
    assert "host" in await bob.locator("#toast").inner_text()
    await alice.locator('[data-result] [data-action="rematch"]').tap()
    for page in (alice, bob, carol, watcher):
        await page.wait_for_selector(f'body:not([data-game="{game}"])', timeout=WAIT)
        await page.wait_for_selector("[data-status]", timeout=WAIT)
    new = int(await alice.get_attribute("body", "data-game"))
    assert await bob.get_attribute("body", "data-game") == str(new)
    assert await watcher.get_attribute("body", "data-game") == str(new)
    again = Record.from_dict((await room.store.get_game(new)).record)
    assert [s.name for s in again.seats][:3] == ["Alice", "Bob", "Carol"]
    assert again.rulebook == "rummikub"
    await bob.wait_for_selector("[data-hand] [data-card]", timeout=WAIT)
    # the watcher: every frame it got, and none held a hand (or anything but the public view)
    states = [f for f in frames["watcher"] if f.get("t") == "state" and f.get("view")]
    assert len(states) >= 5, len(states)
    for frame in frames["watcher"]:
        view = frame.get("view") or {}
        assert view.get("hand") is None and view.get("seat") is None, frame
        assert "review" not in frame
    # Bob's own frames never held Alice's rack, from his first frame of the rigged deal on (the
    # frames before it are the unrigged deal, where any tile may have been his)
    def faces(frame: dict) -> list[str]:
        return sorted(c["face"] for c in (frame.get("view") or {}).get("hand") or [])

    rigged = next(i for i, f in enumerate(frames["bob"]) if faces(f) == ["1O", "2O", "3O", "7B"])
    for frame in frames["bob"][rigged:before_rematch]:
        hand = (frame.get("view") or {}).get("hand") or []
        assert not {c["id"] for c in hand} & hers, frame


async def test_a_forged_seat_key_is_refused(browser, room):
    forged = new_key(b"another party's secret 0123456789")
    page = await phone(browser, init=f"localStorage.setItem('party-key', '{forged}')")
    await page.goto(room.party.address)
    error = await page.wait_for_selector("[data-error]", timeout=WAIT)
    assert "not valid" in await error.inner_text()
    # the page forgot the key: the person is nobody's seat, and may join as themselves
    assert await page.evaluate("localStorage.getItem('party-key')") is None
    await page.wait_for_selector("#name", timeout=WAIT)
    assert await room.store.active_game(PLATFORM, ROOM) is None
    # and a seat's real key in another browser is that seat (a key is the person)
    await join(page, room.party.address, "Dana")
    key = await page.evaluate("localStorage.getItem('party-key')")
    other = await phone(browser, init=f"localStorage.setItem('party-key', '{key}')")
    await other.goto(room.party.address)
    await other.wait_for_selector("[data-seats] li.me", timeout=WAIT)
    assert SECRET not in key.encode()


@pytest.mark.parametrize("locale, lang, direction, title", [
    ("he-IL", "he", "rtl", "ערב רמי"), ("ru-RU", "ru", "ltr", "Рамми в компании")])
async def test_hebrew_and_russian_lobbies_read_right(browser, room, locale, lang, direction,
                                                      title):
    from test_web_page import serious

    host = await phone(browser, locale=locale, axe=True)
    await join(host, room.party.address, "Alice")
    assert await serious(host) == [], f"the host's lobby in {lang}"
    assert await host.get_attribute("html", "lang") == lang
    assert await host.get_attribute("html", "dir") == direction
    assert await host.locator("h1").inner_text() == title
    assert await host.title() == title
    # a Latin name in a Hebrew line is isolated (its own <bdi>), the address reads left to right
    name = host.locator("[data-seats] li.me bdi[data-name]")
    assert await name.inner_text() == "Alice"
    mark = await host.locator("[data-seats] li.me [data-host-mark]").inner_text()
    assert mark == ("(מארח/ת)" if lang == "he" else "(создатель игры)")
    assert await host.locator("[data-seats]").evaluate(
        "n => getComputedStyle(n).direction") == direction
    address = host.locator("bdi[data-address]")
    assert await address.get_attribute("dir") == "ltr"
    assert await address.evaluate("n => getComputedStyle(n).direction") == "ltr"
    # the host's menu in the reader's language: the games' own titles (the registry's)
    titles = await host.locator('select[data-choose="game"] option').all_inner_texts()
    assert ("רמיקוב" if lang == "he" else "Руммикуб") in titles
    text = await host.locator("main").inner_text()
    english = [w for w in ("Take a seat", "Players", "Start the game", "Add a computer",
                           "Others join at") if w in text]
    assert not english, english
    # the language picker switches the page's words at once
    await host.locator("select[data-lang]").select_option("en")
    await host.wait_for_selector('h1:text-is("Rummy party")', timeout=WAIT)
    assert await host.get_attribute("html", "dir") == "ltr"


async def test_a_seat_handed_to_a_new_phone_and_the_lobby_has_no_serious_barrier(browser, room):
    from test_web_page import serious

    address = room.party.address
    alice = await phone(browser, axe=True)
    bob = await phone(browser)
    await join(alice, address, "Alice")
    await join(bob, address, "Bob")
    await seats_shown(alice, 2)
    assert await serious(alice) == [], "the host's lobby"
    await alice.locator('[data-seat="1"] button[data-do="handover"]').tap()
    claim = await alice.wait_for_selector("[data-claim]", timeout=WAIT)
    link = await (await claim.query_selector("bdi")).inner_text()
    assert "?claim=" in link and await claim.query_selector("img")
    fresh = await phone(browser)
    await fresh.goto(link)
    await fresh.wait_for_selector('[data-seat="1"].me', timeout=WAIT)
    assert "claim" not in fresh.url  # the claim left the address bar
    # Bob's old phone has no seat any more: it may join again as someone new
    await bob.wait_for_selector("#name", timeout=WAIT)
    assert await bob.locator("[data-seats] li.me").count() == 0
