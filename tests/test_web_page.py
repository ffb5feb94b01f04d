"""The web table as a player needs it (issue 42), in a real browser at phone size with touch:
a round played to its result panel (a rummy rulebook, Rummikub, Build-to-Ten) and on to the
next round, whose turn it is in words, the engine's reason shown before Done, a whole turn by
keyboard alone, the hand's order kept after a draw, editing stopped while offline, and
axe-core (vendored: tests/vendor/axe.min.js) finding nothing serious or critical on the seat's
page, a watcher's and the result panel, in English and Hebrew."""

from __future__ import annotations

from pathlib import Path

import pytest
from web_browser import (  # noqa: F401  (browser, contexts, web: fixtures)
    ALICE,
    BOB,
    BROWSER_TESTS,
    PHONE,
    SECRET,
    browser,
    close_web,
    contexts,
    new_context,
    open_web,
    touch_drag,
    web,
)

from bot.core import narrate
from bot.core.service import pack
from bot.games.rummy.records import state_of
from bot.games.rummy.refusals import TILE_SENTENCES, refusal
from bot.games.rummy.web import card_name
from bot.i18n import _, using
from engine.rummy import Commit, IllegalAction, apply

pytestmark = BROWSER_TESTS
AXE = (Path(__file__).parent / "vendor" / "axe.min.js").read_text()


async def phone(browser, url: str, *, axe: bool = False):
    # axe is injected into the page: only then is the page's strict CSP set aside
    context = await new_context(browser, viewport=PHONE, has_touch=True, is_mobile=True,
                                        device_scale_factor=1, bypass_csp=axe,
                                        reduced_motion="reduce")
    page = await context.new_page()
    await page.goto(url)
    return page


async def shown(page, selector: str, seconds: float = 10):
    await page.wait_for_selector(selector, timeout=seconds * 1000)
    return page.locator(selector)


async def serious(page) -> list[str]:
    """axe-core's violations of impact serious or critical on the page as it is now."""
    if not await page.evaluate("typeof axe !== 'undefined'"):
        await page.add_script_tag(content=AXE)
    found = await page.evaluate("axe.run(document).then(r => r.violations.map(v => "
                                "[v.id, v.impact, v.nodes.map(n => n.target.join(' '))"
                                ".slice(0, 3).join(' | ')]))")
    return [f"{rule} ({impact}): {nodes}" for rule, impact, nodes in found
            if impact in ("serious", "critical")]


async def going_out(web) -> int:
    """Manipulation: Alice can go out this turn (5♥ 6♥ with 7♥ from A's run)."""
    game = await web.game("manipulation", BOB)
    await web.rig(game, {0: ["5H", "6H"], 1: ["3D", "4D", "KC"]},
                  [["7H", "8H", "9H", "10H"]], turn=0)
    return game


async def lay_out(page) -> None:
    hand = page.locator("[data-hand]")
    await hand.locator('[data-card="5H"]').tap()
    await hand.locator('[data-card="6H"]').tap()
    await page.locator('[data-drop="new"]').tap()
    await shown(page, '[data-group="B"] [data-card="6H"]')
    await page.locator('[data-group="A"] [data-card="7H"]').tap()
    await page.locator('[data-group="B"] button.gl').tap()
    await shown(page, '[data-group="B"] [data-card="7H"]')


async def test_a_rummy_round_to_its_result_panel_and_the_next_round(browser, web):
    game = await going_out(web)
    alice = await phone(browser, web.link(ALICE, game), axe=True)
    watcher = await phone(browser, web.link(None, game), axe=True)
    status = await shown(alice, "[data-status]")
    assert await status.inner_text() == "Your turn — lay cards or draw"
    assert await (await shown(watcher, "[data-status]")).inner_text() == "Waiting for Alice…"
    assert await serious(alice) == [] and await serious(watcher) == []
    await lay_out(alice)
    await alice.locator('[data-action="done"]').tap()
    panel = await shown(alice, "[data-result]")
    head = await panel.locator("h2").inner_text()
    assert head.startswith("Round 1 over (went out) — won by Alice"), head
    rows = await panel.locator("tbody tr").evaluate_all(
        "rs => rs.map(r => Array.from(r.cells).map(c => c.textContent))")
    record = await web.record(game)
    state = state_of(record)
    assert rows == [["Alice", str(state.rounds[-1]["points"][0]), str(state.scores[0])],
                    ["Bob", str(state.rounds[-1]["points"][1]), str(state.scores[1])]]
    assert "Playing to" in await panel.inner_text()
    # the watcher sees the same result, without the way on (that is the players'), and Alice's
    # last move on the table: the groups it changed outlined, the cards from her hand marked
    wpanel = await shown(watcher, "[data-result]")
    assert await watcher.locator('[data-group="B"][data-last="yes"]').count() == 1
    arrived = await watcher.locator(".card.arrived").evaluate_all(
        "ns => ns.map(n => n.dataset.card)")
    assert sorted(arrived) == ["5H", "6H"]
    said = await watcher.locator("#live").inner_text()
    assert "Round over" in said and "Alice laid 5♥ 6♥" in said, said
    assert await wpanel.locator("tbody tr").count() == 2
    assert await wpanel.locator('[data-action="next"]').count() == 0
    assert await serious(alice) == [], "the result panel"
    # the running scores in the header; then the next round from the page
    assert await alice.locator("header .score").count() == 2
    await panel.locator('[data-action="next"]').tap()
    await alice.wait_for_selector("[data-result]", state="detached", timeout=10_000)
    assert state_of(await web.record(game)).round == 2
    assert (await alice.locator("h1").inner_text()).endswith("Round 2")


async def test_a_rummikub_round_in_hebrew_to_its_result(browser, web):
    game = await web.game("rummikub", BOB)
    await web.rig(game, {0: ["10R", "11R", "12R"], 1: ["1O", "2O"]}, [], turn=0)
    page = await phone(browser, web.link(ALICE, game, lang="he"), axe=True)
    await shown(page, '[data-hand] [data-card="10R"]')
    assert await page.get_attribute("html", "dir") == "rtl"
    # a tile is named by its colour and number, and its colour also has a shape
    tile = page.locator('[data-hand] [data-card="10R"]')
    with using("he"):
        assert await tile.get_attribute("aria-label") == card_name("10R")
    mark = await tile.evaluate("n => getComputedStyle(n, '::after').content")
    assert mark == '"●"'
    assert await serious(page) == [], "the seat's page in Hebrew"
    for face in ("10R", "11R", "12R"):
        await page.locator(f'[data-hand] [data-card="{face}"]').tap()
    await page.locator('[data-drop="new"]').tap()
    await shown(page, '[data-group="A"] [data-card="12R"]')
    # Reset has become Give up: the page says why, in the engine's words
    assert await page.locator('[data-action="giveup"]').count() == 1
    with using("he"):
        flip = _(TILE_SENTENCES["reset_is_give_up"])
    assert flip in await page.locator("[data-why]").inner_text()
    watcher = await phone(browser, web.link(None, game, lang="he"), axe=True)
    await shown(watcher, "[data-watching]")
    assert await serious(watcher) == [], "the watcher's page in Hebrew"
    await page.locator('[data-action="done"]').tap()
    panel = await shown(page, "[data-result]")
    assert await panel.locator("tbody tr").count() == 2
    state = state_of(await web.record(game))
    assert state.phase == "game_over"  # a one-round game
    assert "Alice" in await panel.locator("h2").inner_text()
    assert await serious(page) == [], "the result panel in Hebrew"
    # ↻ Rematch: Alice is in (the page says so); when Bob is in too (his chat button), a new
    # game in the same chat, same seats and rulebook; both pages follow it
    await shown(watcher, "[data-result]")
    await panel.locator('[data-action="rematch"]').tap()
    toast = await shown(page, "#toast")
    with using("he"):
        assert narrate.REMATCH_YOU_IN in await toast.inner_text()
    assert (await web.record(game)).rematch_call["in"] == [ALICE.user]
    await web.service.rematch(BOB, game)
    for each in (page, watcher):
        await each.wait_for_selector(f'body:not([data-game="{game}"])', timeout=10_000)
        await each.wait_for_selector("[data-status]", timeout=10_000)
    new = int(await page.get_attribute("body", "data-game"))
    assert await watcher.get_attribute("body", "data-game") == str(new)
    old, record = await web.record(game), await web.record(new)
    assert old.rematch == new and record.rulebook == "rummikub"
    assert [s.name for s in record.seats] == ["Alice", "Bob"]
    assert (await web.store.get_game(new)).chat_id == (await web.store.get_game(game)).chat_id
    await page.wait_for_selector("[data-hand] [data-card]", timeout=10_000)
    assert await page.locator("[data-result]").count() == 0


async def test_build_to_ten_played_to_its_end(browser, web):
    game = await web.game("build-to-ten", BOB)
    row, record, state = await web.build_state(game)
    seat = state.turn
    # the seat's personal stock down to one ace, face up: playing it wins
    stock = state.stocks[seat]
    ace = next((c for c in [*stock, *state.general] if c.startswith("A")), None)
    assert ace is not None
    for pile in (stock, state.general):
        if ace in pile:
            pile.remove(ace)
    state.general += stock
    state.stocks[seat] = [ace]
    record.seats[seat].lang = "ru"  # the seat's chat speaks Russian, as its link does
    await web.save_build(game, row, record, state)
    me = BOB if seat == 1 else ALICE
    page = await phone(browser, web.link(me, game, lang="ru"), axe=True)
    status = await shown(page, "[data-status]")
    assert (await status.inner_text()).startswith("Ваш ход")
    # every place named: what each build pile needs, each stock
    label = await page.locator('[data-pile="b0"]').get_attribute("aria-label")
    assert label.endswith("стопке 1 нужно: 1"), label
    assert await serious(page) == [], "Build-to-Ten's seat page"
    # a drop the engine refuses says why (a 5 needs a pile at 4: none is)
    five = next((c for c in state.hands[seat] if c[0] in "56789"), None)
    if five is not None:
        await page.locator(f'[data-hand] [data-id="{five}"]').tap()
        await page.locator('[data-pile="b1"] button.gl').tap()
        toast = await shown(page, "#toast.alert")
        assert "не подходит" in await toast.inner_text()
    await page.locator('[data-from="stock"]').tap()
    await page.locator('[data-pile="b0"] button.gl').tap()
    panel = await shown(page, "[data-result]")
    assert (await panel.locator("h2").inner_text()).startswith("Игра окончена")
    assert await serious(page) == [], "Build-to-Ten's result panel"


async def test_the_reason_shows_before_done(browser, web):
    game = await going_out(web)
    page = await phone(browser, web.link(ALICE, game))
    await shown(page, '[data-hand] [data-card="5H"]')
    assert await page.locator("[data-why]").inner_text() == ""
    await page.locator('[data-hand] [data-card="5H"]').tap()
    await page.locator('[data-drop="new"]').tap()
    await shown(page, '[data-group="B"][data-bad="yes"]')
    why = await page.locator("[data-why]").inner_text()
    # the engine's own words, as the chats say them for a refused Done
    state = state_of(await web.record(game))
    with pytest.raises(IllegalAction) as refused:
        apply(state, Commit(0))
    assert why == refusal(refused.value) and why.startswith("Group B has fewer than 3 cards"), why
    assert not await page.locator('[data-action="done"]').is_enabled()
    assert await page.locator('[data-action="done"]').get_attribute("aria-describedby") == "why"


async def focus(page, selector: str, key: str = "Tab", tries: int = 30) -> None:
    """Press `key` until the focused element matches `selector` (the keyboard alone)."""
    for _try in range(tries):
        if await page.evaluate(f"document.activeElement.matches({selector!r})"):
            return
        await page.keyboard.press(key)
    raise AssertionError(f"{selector} never got the focus")


async def test_a_whole_turn_by_keyboard_alone(browser, web):
    game = await going_out(web)
    page = await phone(browser, web.link(ALICE, game))
    await shown(page, '[data-hand] [data-card="5H"]')
    await focus(page, '[data-hand] [data-id]')
    await focus(page, '[data-hand] [data-card="5H"]', "ArrowRight")
    name = await page.evaluate("document.activeElement.getAttribute('aria-label')")
    assert name == "5 of hearts"
    await page.keyboard.press("Space")
    await focus(page, '[data-hand] [data-card="6H"]', "ArrowRight")
    await page.keyboard.press("Enter")
    assert await page.locator('.card.picked').count() == 2
    await focus(page, '[data-drop="new"]', "Shift+Tab")
    await page.keyboard.press("Enter")
    await shown(page, '[data-group="B"] [data-card="6H"]')
    await focus(page, '[data-group="A"] button.gl', "Shift+Tab")
    await page.keyboard.press("ArrowRight")  # into group A's cards
    await focus(page, '[data-group="A"] [data-card="7H"]', "ArrowRight")
    await page.keyboard.press("Space")
    await focus(page, '[data-group="B"] button.gl')
    label = await page.evaluate("document.activeElement.getAttribute('aria-label')")
    assert label == "group B: 5♥ 6♥"
    await page.keyboard.press("Enter")
    await shown(page, '[data-group="B"] [data-card="7H"]')
    assert await page.locator('[data-action="done"]').is_enabled()
    # the live region told of the pick; the keys are documented on the page
    assert "Keys" in await page.locator("details.keys summary").inner_text()
    await page.keyboard.press("d")  # Done
    await shown(page, "[data-result]")


async def test_the_hand_keeps_its_order_after_a_draw(browser, web):
    game = await web.game("manipulation", BOB)
    await web.rig(game, {0: ["5H", "QS", "2C", "9D"], 1: ["3D", "4D", "KC"]},
                  [["7H", "8H", "9H"]], turn=0)
    page = await phone(browser, web.link(ALICE, game))
    await shown(page, '[data-hand] [data-card="QS"]')
    ids = "ns => ns.map(n => n.dataset.id)"  # (two decks: a face may be there twice)
    before = await page.locator("[data-hand] [data-card]").evaluate_all(ids)
    # the player's own order: Q♠ dragged to the front
    queen = await page.locator('[data-hand] [data-card="QS"]').get_attribute("data-id")
    await touch_drag(page, page.locator(f'[data-hand] [data-id="{queen}"]'),
                     page.locator(f'[data-hand] [data-id="{before[0]}"]'))
    mine = await page.locator("[data-hand] [data-card]").evaluate_all(ids)
    assert mine[0] == queen and sorted(mine) == sorted(before)
    await page.locator('[data-action="draw"]').tap()
    await page.wait_for_selector("[data-hand] .card.fresh", timeout=10_000)
    after = await page.locator("[data-hand] [data-card]").evaluate_all(ids)
    fresh = await page.locator("[data-hand] .card.fresh").evaluate_all(ids)
    assert len(fresh) == 1 and len(after) == 5
    assert [f for f in after if f != fresh[0]] == mine  # the kept order, the drawn card in it
    label = await page.locator("[data-hand] .card.fresh").get_attribute("aria-label")
    assert label.endswith("just drawn")


async def test_offline_the_page_stops_editing_and_says_so(browser, tmp_path, sqlite_template):
    from bot.web.server import serve

    opened, runner = await open_web(tmp_path, sqlite_template)
    try:
        game = await going_out(opened)
        page = await phone(browser, opened.link(ALICE, game))
        await shown(page, '[data-hand] [data-card="5H"]')
        port = runner.addresses[0][1]
        await opened.server.close_all()
        await runner.cleanup()  # the server is gone for a while
        await shown(page, "[data-offline]", 5)
        await page.locator('[data-hand] [data-card="5H"]').tap()
        assert await page.locator(".card.picked").count() == 0  # no pick dropped in silence
        assert "Not connected" in await page.locator("#toast").inner_text()
        assert not await page.locator('[data-action="draw"]').is_enabled()  # online: it is
        runner = await serve(opened.server, "127.0.0.1", port)
        await page.wait_for_selector("body[data-online]", timeout=15_000)
        assert await page.locator('[data-action="draw"]').is_enabled()
        await page.locator('[data-hand] [data-card="5H"]').tap()
        assert await page.locator(".card.picked").count() == 1
    finally:
        await close_web(opened, runner)


async def test_a_server_restart_with_the_page_open(browser, tmp_path, sqlite_template):
    """The local table restarted (the same secret, kept in the data directory): the open page
    is back by itself with its draft; restarted with another secret, the page's link is
    refused and it says where a fresh one is (the terminal's address)."""
    from bot.web.local import LOCAL_REFUSED
    from bot.web.server import WebServer, serve
    from bot.web.table import WebTable

    opened, runner = await open_web(tmp_path, sqlite_template)
    try:
        game = await going_out(opened)
        page = await phone(browser, opened.link(ALICE, game))
        await shown(page, '[data-hand] [data-card="5H"]')
        await page.locator('[data-hand] [data-card="5H"]').tap()
        await page.locator('[data-drop="new"]').tap()
        await shown(page, '[data-group="B"] [data-card="5H"]')
        port = runner.addresses[0][1]
        for secret, refused in ((SECRET, None), (b"a new secret: the data dir was lost", True)):
            await opened.server.close_all()
            await runner.cleanup()  # the process stopped
            await shown(page, "[data-offline]", 5)
            opened.server = WebServer(WebTable(opened.service), secret,
                                      refused=LOCAL_REFUSED)
            runner = await serve(opened.server, "127.0.0.1", port)  # and started again
            if refused:
                text = await (await shown(page, "p[data-refused]", 20)).inner_text()
                assert "printed in the terminal" in text
            else:
                await page.wait_for_selector("body[data-online]", timeout=20_000)
                # the draft is the server's: the page shows it as it was
                await shown(page, '[data-group="B"][data-bad="yes"] [data-card="5H"]')
                assert await page.locator("[data-why]").inner_text() != ""
    finally:
        await close_web(opened, runner)


async def test_sort_and_a_card_taken_back_keep_the_hand_whole(browser, web):
    game = await going_out(web)
    page = await phone(browser, web.link(ALICE, game))
    await shown(page, '[data-hand] [data-card="5H"]')
    ids = "ns => ns.map(n => n.dataset.card)"
    await page.locator('[data-action="sort"]').tap()  # by rank now
    assert await page.locator("[data-hand] [data-card]").evaluate_all(ids) == ["5H", "6H"]
    # 6♥ first by hand, 5♥ laid alone, then taken back: it returns to its place, unmarked
    await touch_drag(page, page.locator('[data-hand] [data-card="6H"]'),
                     page.locator('[data-hand] [data-card="5H"]'))
    assert await page.locator("[data-hand] [data-card]").evaluate_all(ids) == ["6H", "5H"]
    await page.locator('[data-hand] [data-card="5H"]').tap()
    await page.locator('[data-drop="new"]').tap()
    await shown(page, '[data-group="B"] [data-card="5H"]')
    await page.locator('[data-group="B"] [data-card="5H"]').tap()
    await page.locator("[data-hand]").tap()
    await page.wait_for_selector('[data-group="B"]', state="detached", timeout=10_000)
    assert await page.locator("[data-hand] [data-card]").evaluate_all(ids) == ["6H", "5H"]
    assert await page.locator("[data-hand] .card.fresh").count() == 0


async def test_the_turn_timer_counts_down_on_the_page(browser, web):
    """Whose turn (issue 42, item 2): the chat game's turn timer shows on the page, counted
    down by the page between frames (the browser's clock held by the test: no waiting)."""
    game = await going_out(web)
    record = await web.record(game)
    assert record.deadline is not None  # a person's turn in a chat has its timer
    context = await new_context(browser, viewport=PHONE, has_touch=True, is_mobile=True)
    page = await context.new_page()
    await page.clock.install()
    await page.goto(web.link(ALICE, game))
    timer = await shown(page, "[data-timer]")
    first = int("".join(ch for ch in await timer.inner_text() if ch.isdigit()))
    assert 0 < first <= record.turn_seconds
    await page.clock.fast_forward(5000)
    after = int("".join(ch for ch in await timer.inner_text() if ch.isdigit()))
    assert after in (first - 5, first - 6), (first, after)
    await context.close()


async def test_your_turn_can_be_signalled_outside_telegram(browser, web):
    """Whose turn (issue 42, item 2): an optional signal when your turn comes — a vibration
    and a tone — turned on by the player (a page may sound only after a tap), kept for the
    next visit, and given when the turn comes to them."""
    game = await web.game("rummikub", BOB)  # (a draw ends a Rummikub turn)
    await web.rig(game, {0: ["10R", "11R", "12R"], 1: ["1O", "2O"]}, [], turn=1)
    page = await phone(browser, web.link(ALICE, game), axe=True)  # (CSP off: wait_for_function)
    await page.add_init_script(
        "navigator.vibrate = (ms) => { window.buzzed = (window.buzzed || []).concat([ms]); "
        "return true; }")
    await page.reload()
    signal = await shown(page, "[data-signal]")
    assert await signal.get_attribute("aria-pressed") == "false"
    await signal.tap()
    # the page may draw a frame meanwhile (a new button): wait for what the tap made
    await page.wait_for_function(
        "document.querySelector('[data-signal]').getAttribute('aria-pressed') === 'true'")
    assert await page.evaluate("window.buzzed") == [40]  # the tap's own quiet test
    assert await page.evaluate("document.body.dataset.mine") == "no"
    version = int(await page.evaluate("document.body.dataset.version"))
    await web.service.press(BOB, pack(game, version, "draw"))  # Bob draws: Alice's turn
    await page.wait_for_function("window.buzzed && window.buzzed.length > 1")
    assert (await page.evaluate("window.buzzed"))[-1] == 150
    await page.reload()
    assert await (await shown(page, "[data-signal]")).get_attribute("aria-pressed") == "true"
    await page.context.close()
