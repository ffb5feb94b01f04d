"""The web table in a real browser (Debian's Chromium through Playwright): turns made by
dragging with a finger and by tapping, a Rummikub initial meld, a Build-to-Ten move, live
updates to another seat, a spectator who never receives a hand, Hebrew right to left, a
reconnect after the socket drops, a refused link. Screenshots at phone width in RUMMY_SHOTS."""

from __future__ import annotations

import asyncio
import json
import re

from web_browser import (  # noqa: F401  (browser, contexts, web: fixtures)
    ALICE,
    BOB,
    BROWSER_TESTS,
    PHONE,
    SHOTS,
    browser,
    contexts,
    new_context,
    touch_drag,
    web,
)

from bot.core.record import Record
from bot.games.rummy.records import state_of

pytestmark = BROWSER_TESTS


async def phone(browser, url: str, frames: list | None = None):
    context = await new_context(browser, viewport=PHONE, has_touch=True, is_mobile=True,
                                        device_scale_factor=2)
    page = await context.new_page()
    if frames is not None:  # every frame the page's sockets receive
        page.on("websocket", lambda ws: ws.on("framereceived", lambda f: frames.append(f)))
    await page.goto(url)
    return page


async def version_after(page, version: int, seconds: float = 10) -> int:
    """The page's state version once it shows a newer one than `version` (polled from here:
    the page's strict CSP refuses the evaluated predicates of wait_for_function)."""
    for _ in range(int(seconds / 0.05)):
        shown = int(await page.get_attribute("body", "data-version") or -1)
        if shown > version:
            return shown
        await asyncio.sleep(0.05)
    raise AssertionError(f"the page stayed at version {version}")


async def shot(page, name: str) -> None:
    SHOTS.mkdir(parents=True, exist_ok=True)
    await page.screenshot(path=str(SHOTS / f"{name}.png"), full_page=True)


def cards_of(group) -> list[str]:
    return [c.face for c in group]


async def manipulation(web) -> int:
    game = await web.game("manipulation", BOB)
    await web.rig(game, {0: ["5H", "6H", "QS", "2C"], 1: ["3D", "4D", "KC"]},
                  [["7H", "8H", "9H", "10H"]], turn=0)
    return game


async def finish_turn(web, page, game: int, version: int) -> None:
    done = page.locator('[data-action="done"]')
    assert await done.is_enabled()
    await done.tap()
    for _ in range(100):
        state = state_of(await web.record(game))
        if state.turn == 1:
            break
        await asyncio.sleep(0.05)
    else:
        toast = page.locator("#toast")
        raise AssertionError(await toast.inner_text() if await toast.count() else "no answer")
    assert sorted(cards_of(g) for g in state.table) == [["5H", "6H", "7H"], ["8H", "9H", "10H"]]
    assert cards_of(state.hands[0]) == ["QS", "2C"]
    # the chats were told: the group's table and Alice's private screen show the move
    group = [o.group for o in web.delivered if o.group is not None][-1]
    assert "5♥ 6♥ 7♥" in group.detail and "8♥ 9♥ 10♥" in group.detail
    assert any(ALICE.user in o.private for o in web.delivered)


async def test_a_manipulation_turn_by_dragging(browser, web):
    game = await manipulation(web)
    page = await phone(browser, web.link(ALICE, game))
    version = await version_after(page, -1)
    hand = page.locator("[data-hand]")
    await touch_drag(page, hand.locator('[data-card="5H"]'), page.locator('[data-drop="new"]'))
    version = await version_after(page, version)
    assert await page.locator('[data-group="B"][data-bad="yes"]').count() == 1  # 5H alone
    await touch_drag(page, hand.locator('[data-card="6H"]'), page.locator('[data-group="B"]'))
    version = await version_after(page, version)
    assert not await page.locator('[data-action="done"]').is_enabled()  # B doesn't hold yet
    await touch_drag(page, page.locator('[data-group="A"] [data-card="7H"]'),
                     page.locator('[data-group="B"]'))
    version = await version_after(page, version)
    assert await page.locator("[data-bad]").count() == 0
    await shot(page, "manipulation-drag")
    await finish_turn(web, page, game, version)


async def test_the_same_turn_by_tapping(browser, web):
    game = await manipulation(web)
    page = await phone(browser, web.link(ALICE, game))
    version = await version_after(page, -1)
    await page.locator('[data-action="hint"]').tap()  # the whole move, marked on the page
    version = await version_after(page, version)
    hinted = await page.locator(".card.hinted").evaluate_all("ns => ns.map(n => n.dataset.card)")
    assert hinted and set(hinted) <= {"5H", "6H", "QS", "2C"}, hinted  # hand cards it lays
    assert await page.locator('[data-action="show"]').count() == 1
    hand = page.locator("[data-hand]")
    await hand.locator('[data-card="5H"]').tap()
    await hand.locator('[data-card="6H"]').tap()
    assert await page.locator(".card.picked").count() == 2
    await page.locator('[data-drop="new"]').tap()
    version = await version_after(page, version)
    await page.locator('[data-group="A"] [data-card="7H"]').tap()
    await page.locator('[data-group="B"]').tap()
    version = await version_after(page, version)
    await shot(page, "manipulation-tap")
    await finish_turn(web, page, game, version)


async def test_a_rummikub_initial_meld(browser, web):
    game = await web.game("rummikub", BOB)
    await web.rig(game, {0: ["10R", "11R", "12R", "3B", "5K"], 1: ["1O", "2O"]}, [], turn=0)
    page = await phone(browser, web.link(ALICE, game))
    version = await version_after(page, -1)
    hand = page.locator("[data-hand]")
    for face in ("10R", "11R", "12R"):
        await hand.locator(f'[data-card="{face}"]').tap()
    await page.locator('[data-drop="new"]').tap()
    await version_after(page, version)
    await shot(page, "rummikub-meld")
    await page.locator('[data-action="done"]').tap()
    for _ in range(100):
        state = state_of(await web.record(game))
        if state.turn == 1:
            break
        await asyncio.sleep(0.05)
    assert [cards_of(g) for g in state.table] == [["10R", "11R", "12R"]]
    assert state.first_lay_done[0]


async def test_a_build_to_ten_move(browser, web):
    game = await web.game("build-to-ten", BOB)
    row, record, state = await web.build_state(game)
    seat = state.turn
    me = BOB if seat == 1 else ALICE
    if not any(c.startswith("A") for c in state.hands[seat]):  # an ace into the hand
        where = next(p for p in [state.general, *state.stocks[1:], *state.stocks]
                     if any(c.startswith("A") for c in p[1:]))
        ace = next(c for c in where[1:] if c.startswith("A"))
        where[where.index(ace)] = state.hands[seat][0]
        state.hands[seat][0] = ace
    ace = next(c for c in state.hands[seat] if c.startswith("A"))
    await web.save_build(game, row, record, state)
    page = await phone(browser, web.link(me, game))
    version = await version_after(page, -1)
    await touch_drag(page, page.locator(f'[data-hand] [data-card="{ace.split("#")[0]}"]'),
                     page.locator('[data-drop="new"]'))
    await version_after(page, version)
    await shot(page, "buildten-move")
    after = (await web.record(game)).state
    assert after["builds"][0] == [ace]
    assert ace not in after["hands"][seat]


async def test_another_seat_sees_the_move_live_and_a_spectator_sees_no_hand(browser, web):
    game = await manipulation(web)
    state = state_of(await web.record(game))
    alice_tokens = {c.token for c in state.hands[0]}
    bob_tokens = {c.token for c in state.hands[1]}
    bob_frames: list = []
    watcher_frames: list = []
    alice = await phone(browser, web.link(ALICE, game))
    bob = await phone(browser, web.link(BOB, game), bob_frames)
    watcher = await phone(browser, web.link(None, game), watcher_frames)
    version = await version_after(alice, -1)
    await version_after(bob, -1)
    await version_after(watcher, -1)
    hand = alice.locator("[data-hand]")
    for face in ("5H", "6H"):
        await hand.locator(f'[data-card="{face}"]').tap()
    await alice.locator('[data-drop="new"]').tap()
    version = await version_after(alice, version)
    await touch_drag(alice, alice.locator('[data-group="A"] [data-card="7H"]'),
                     alice.locator('[data-group="B"]'))
    version = await version_after(alice, version)
    await alice.locator('[data-action="done"]').tap()
    # Bob's page and the watcher's show the new table without reloading
    await bob.wait_for_selector('[data-group="B"] [data-card="5H"]', timeout=10_000)
    await watcher.wait_for_selector('[data-group="B"] [data-card="5H"]', timeout=10_000)
    assert await bob.locator('[data-hand] [data-card="3D"]').count() == 1
    assert await watcher.locator("[data-hand]").count() == 0
    assert await watcher.locator("[data-watching]").count() == 1
    await shot(bob, "second-seat-live")
    await shot(watcher, "spectator")
    # every frame the watcher received: no card of a hand (Alice's laid cards only once her
    # turn is over); every frame of Bob's: none of Alice's hand
    kept = {t for t in alice_tokens if t.split("#")[0] in ("QS", "2C")}
    assert watcher_frames and bob_frames
    for frame in watcher_frames:
        text = frame if isinstance(frame, str) else frame.decode()
        view = json.loads(text).get("view") or {}
        assert view.get("hand") is None
        hidden = kept | bob_tokens | (alice_tokens if view.get("turn") == 0 else set())
        assert not any(f'"{t}"' in text for t in hidden), text
    for frame in bob_frames:
        text = frame if isinstance(frame, str) else frame.decode()
        view = json.loads(text).get("view") or {}
        hidden = kept | (alice_tokens if view.get("turn") == 0 else set())
        assert not any(f'"{t}"' in text for t in hidden), text


async def test_hebrew_reads_right_to_left(browser, web):
    game = await manipulation(web)
    page = await phone(browser, web.link(ALICE, game, lang="he"))
    await version_after(page, -1)
    assert await page.get_attribute("html", "dir") == "rtl"
    assert await page.get_attribute("html", "lang") == "he"
    done = await page.locator('[data-action="done"]').inner_text()
    assert "סיום" in done
    # the groups flow right to left, the cards inside a group keep their order
    group = page.locator('[data-group="A"]')
    assert await group.evaluate("n => getComputedStyle(n.parentNode).direction") == "rtl"
    faces = await group.locator("[data-card]").evaluate_all(
        "ns => ns.map(n => [n.dataset.card, n.getBoundingClientRect().x])")
    assert [f for f, _x in sorted(faces, key=lambda p: p[1])] == ["7H", "8H", "9H", "10H"]
    await shot(page, "hebrew")


# where a word of the summary's text is drawn: (line, x) — its line first (the summary wraps)
WORD_AT = """([n, word, last]) => {
  const walk = document.createTreeWalker(n, NodeFilter.SHOW_TEXT);
  let node, found = null;
  while ((node = walk.nextNode())) {
    const i = last ? node.data.lastIndexOf(word) : node.data.indexOf(word);
    if (i >= 0) { found = [node, i]; if (!last) break; }
  }
  const r = document.createRange();
  r.setStart(found[0], found[1]); r.setEnd(found[0], found[1] + word.length);
  const box = r.getBoundingClientRect();
  return [Math.round(box.y), box.x];
}"""


async def test_the_log_reads_in_its_own_direction_on_a_hebrew_page(browser, web):
    """The moves log is written in the group's language (English here); on a Hebrew page each
    line is its own isolate and paragraph, so an English line keeps its order: its leading ⏱
    and its full stop are not moved to the wrong ends by the page's right-to-left direction."""
    game = await manipulation(web)
    row = await web.store.get_game(game)
    record = Record.from_dict(row.record)
    line = "⏱ Bob's time ran out — the turn is given up."
    record.add_log(line)
    await web.store.save_game(game, record.to_dict(), expected_version=row.version)
    page = await phone(browser, web.link(ALICE, game, lang="he"))
    await version_after(page, -1)
    summary = page.locator("details.log > summary")
    await summary.tap()
    item = page.locator("details.log li").last
    assert await item.inner_text() == line
    for shown in (summary, item):  # (each on one line at phone width)
        handle = await shown.element_handle()
        at = {word: await page.evaluate(WORD_AT, [handle, word, word == "."])
              for word in ("⏱", "Bob", "up", ".")}
        assert at["⏱"] < at["Bob"] < at["up"] < at["."], at


async def test_a_hebrew_name_reads_before_its_count_on_an_english_page(browser, web):
    """A seat's name is its own isolate in the seats' line: "שרה · 3" on an English page is
    the name, then the count — not "3 · שרה" (a right-to-left name would take the count into
    its run)."""
    game = await manipulation(web)
    row = await web.store.get_game(game)
    record = Record.from_dict(row.record)
    record.seats[1].name = "שרה"
    await web.store.save_game(game, record.to_dict(), expected_version=row.version)
    page = await phone(browser, web.link(ALICE, game))
    await version_after(page, -1)
    chip = page.locator('[data-seat-head="1"]')
    assert (await chip.inner_text()).startswith("שרה · 3")
    handle = await chip.element_handle()
    name = await page.evaluate(WORD_AT, [handle, "שרה", False])
    count = await page.evaluate(WORD_AT, [handle, "3", False])
    assert name < count, (name, count)


async def test_each_page_shows_the_log_in_its_reader_s_language(browser, web):
    """An English group where Alice reads Russian: her page's log says her draw in Russian,
    Bob's in English (the chat's table says it in English too)."""
    game = await manipulation(web)
    row = await web.store.get_game(game)
    record = Record.from_dict(row.record)
    record.seats[0].lang = "ru"
    await web.store.save_game(game, record.to_dict(), expected_version=row.version)
    alice = await phone(browser, web.link(ALICE, game, lang="ru"))
    await alice.wait_for_selector('[data-hand] [data-card="QS"]', timeout=10_000)
    # Draw, and Draw again past the reminder that 6♥ could be laid
    await alice.locator('[data-action="draw"]').tap()
    await alice.wait_for_selector("p.notice", timeout=10_000)
    await alice.locator('[data-action="draw"]').tap()
    await alice.wait_for_selector("[data-hand] .card.fresh", timeout=10_000)
    said = await alice.locator("details.log > summary bdi").inner_text()
    assert said.startswith("Alice:") and re.search("[а-я]", said), said
    bob = await phone(browser, web.link(BOB, game))
    await version_after(bob, -1)
    said = await bob.locator("details.log > summary bdi").inner_text()
    assert said == "Alice drew 1 card", said
    assert (await web.record(game)).log[-1] == said


async def test_the_page_reconnects_after_the_socket_drops(browser, web):
    game = await manipulation(web)
    page = await phone(browser, web.link(ALICE, game))
    version = await version_after(page, -1)
    await web.server.close_all()  # the phone slept, the proxy dropped it
    await page.wait_for_selector("[data-offline]", timeout=5_000)
    await page.wait_for_selector("body[data-online]", timeout=10_000)
    # a move made meanwhile by the buttons arrives, and the page's edits work again
    await page.locator('[data-hand] [data-card="5H"]').tap()
    await page.locator('[data-drop="new"]').tap()
    version = await version_after(page, version)
    assert await page.locator('[data-group="B"] [data-card="5H"]').count() == 1
    await shot(page, "reconnected")


async def test_a_forged_or_expired_link_gets_a_clear_page(browser, web):
    game = await manipulation(web)
    url = web.link(ALICE, game)
    forged = url[:-3] + ("AAA" if not url.endswith("AAA") else "BBB")
    page = await phone(browser, forged)
    await page.wait_for_selector("p[data-refused]", timeout=5_000)
    text = await page.locator("p[data-refused]").inner_text()
    assert "not valid" in text and "Traceback" not in text
    assert await page.locator("[data-hand]").count() == 0
    await shot(page, "refused")


async def test_the_review_after_the_round_for_the_pages_seat_only(browser, web):
    """Issue 32 on the web table: after the round, 🔎 Review shows the page's own seat its
    review (text and picture) through the platform's review path; a spectator is offered none
    and gets none."""
    from review_games import drawing_round, record_of

    game = await web.game("machiavelli", BOB)
    row = await web.store.get_game(game)
    record = record_of(drawing_round(), user=ALICE.user, name="Alice", player_id=None)
    await web.store.save_game(game, record.to_dict(), expected_version=row.version,
                              status="finished")
    frames: list = []
    page = await phone(browser, web.link(ALICE, game), frames)
    await version_after(page, -1)
    await page.locator('[data-action="review"]').tap()
    review = page.locator("[data-review]")
    await review.wait_for(timeout=20_000)
    text = await review.locator("pre").inner_text()
    assert text.startswith("🔎 Your review · Machiavelli · round 1")
    assert "Turn 1: you drew — ✗" in text
    assert await review.locator("img").count() == 1
    assert await review.locator("img").evaluate("n => n.naturalWidth") == 800
    await shot(page, "review")

    watcher_frames: list = []
    watcher = await phone(browser, web.link(None, game), watcher_frames)
    await version_after(watcher, -1)
    assert await watcher.locator('[data-action="review"]').count() == 0
    # asked anyway (a forged message): a spectator and a non-player get a refusal, no review
    from bot.web.auth import Session

    table = web.server.table
    for user in ("", BOB.user):
        got = await table.review(Session("test", user, "X", game, "en", 2e9))
        assert got["t"] == "reply" and got["alert"] and "review" not in got
        assert got["text"].startswith(("Only the players", "These buttons belong"))
    assert not any('"review"' in str(f) for f in watcher_frames)
