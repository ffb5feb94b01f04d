"""The puzzle of the day on Telegram (issue 41 item 5), end to end: the real python-telegram-bot
Application against the fake Bot API server (the production limiter on the virtual clock), the
real core and store. An admin turns it on; a finished game of the group's people is cut and the
day's puzzle posted as a picture with [🧩 Solve], no names; Bob solves it in his private chat
(Auto-place of the solution's cards, then Done), Carol draws and fails; a second press is told
it was tried; /puzzle board; the next day's post shows yesterday's solution first. Every screen
of the tries holds the puzzle's cards and strangers' counts only."""

from __future__ import annotations

from datetime import UTC, datetime

import pytest
from sqlalchemy import update
from test_telegram_e2e import GROUP, Harness, harness  # noqa: F401  (its fixture)

from bot.core.record import Record, SeatInfo
from bot.store import ResultSeat
from bot.store import models as db
from engine.rummy.playout import play_game
from engine.rummy.puzzle import Puzzle
from engine.rummy.rulebooks import get_rulebook

pytestmark = pytest.mark.e2e


async def _finished_game(harness: Harness, users: list, seed: int) -> None:
    """A finished Manipulation game of the group's people (its moves played by seeded
    computers), finished an hour ago."""
    store = harness.store
    state = play_game(get_rulebook("manipulation"), ["easy", "medium", "hard"], seed,
                      check=False).state
    record = Record(rulebook="manipulation", seed=seed, state=state.to_dict(),
                    seats=[SeatInfo(u.first_name, user=str(u.id)) for u in users])
    game = await store.create_game("telegram", str(GROUP), record.to_dict(), status="playing")
    await store.record_result(game.id, "manipulation", [
        ResultSeat(k, None, u.first_name, None, 10 * k, 1 if k == 0 else 0, k + 1)
        for k, u in enumerate(users)])
    await store.save_game(game.id, record.to_dict(), expected_version=1, status="finished")
    async with store._write() as conn:
        await conn.execute(update(db.results).where(db.results.c.game_id == game.id).values(
            finished_at=datetime.fromtimestamp(harness.clock.now() - 3600, UTC)))


async def _shows(tg, chat, text: str) -> None:
    """Wait until some message of the chat says `text` (a screen is edited in place)."""
    try:
        await tg.wait_until(lambda: text in tg.transcript(chat), timeout=20)
    except TimeoutError:
        raise AssertionError(f"{text!r} not in\n{tg.transcript(chat)}") from None


def _bot_texts(tg, chat) -> list[str]:
    return [m.text or m.caption or "" for m in tg.messages(chat) if m.from_bot]


async def test_a_day_s_puzzle_solved_by_one_failed_by_another(harness: Harness):
    tg, store, service = harness.tg, harness.store, harness.service
    alice = tg.user(41, "Alice", started=True)
    bob = tg.user(42, "Bob", started=True)
    carol = tg.user(43, "Carol", started=True)
    group = tg.group(GROUP, "Friday rummy", members=[(alice, "creator"), bob, carol])
    await harness.say(group, bob, "/puzzle on")
    await harness.expect(group, "Only the chat's admins")
    await harness.say(group, alice, "/puzzle on")
    await harness.expect(group, "The puzzle of the day is on")

    await _finished_game(harness, [alice, bob, carol], seed=2)
    now = harness.clock.now()
    assert await service.puzzles.sweep(now) == 1
    await harness.expect(group, "Puzzle of the day")
    post = tg.last_message(group, from_bot=True)
    assert post.photo is not None and "Lay" in post.caption
    for name in ("Alice", "Bob", "Carol"):
        assert name not in post.caption
    [[(label, data)]] = post.buttons
    assert label == "🧩 Solve" and data.startswith("0:0:solve:")
    day = datetime.fromtimestamp(now, UTC).strftime("%Y-%m-%d")
    _game, raw, _posted = await store.puzzle_of("telegram", str(GROUP), day)
    puzzle = Puzzle.from_dict(raw)

    # Bob: Auto-place the solution's cards, then Done — the most there was
    query = await tg.press(group, post.message_id, data, bob)
    await tg.wait_until(lambda: query in tg.answers, 20)
    assert "private chat" in tg.answers[query]["text"]
    await tg.settle(quiet=0.5, timeout=20)
    private = tg.private_chat(bob)
    shown = "\n".join(_bot_texts(tg, private))
    assert "Lay" in shown
    await harness.say(private, bob, "/auto " + " ".join(puzzle.solution_laid()))
    await harness.say(private, bob, "/done")
    await _shows(tg, private, "Solved")
    tried = await store.the_try("telegram", str(GROUP), day, "42")
    assert tried is not None and tried.solved and tried.cards == puzzle.most

    # Carol draws: a try that laid nothing
    query = await tg.press(group, post.message_id, data, carol)
    await tg.wait_until(lambda: query in tg.answers, 20)
    await tg.settle(quiet=0.5, timeout=20)
    await harness.say(tg.private_chat(carol), carol, "/hint")
    await harness.expect(tg.private_chat(carol), "No hints in a puzzle")
    await harness.say(tg.private_chat(carol), carol, "/draw")
    await _shows(tg, tg.private_chat(carol), f"You laid 0 of the {puzzle.most}")
    tried = await store.the_try("telegram", str(GROUP), day, "43")
    assert tried is not None and tried.solved is False and tried.cards == 0

    # one try a day
    query = await tg.press(group, post.message_id, data, bob)
    await tg.wait_until(lambda: query in tg.answers, 20)
    assert "solved today's puzzle already" in tg.answers[query]["text"]

    # hidden information: the tries' screens name nobody of the game it was cut from
    for person in (bob, carol):
        for text in _bot_texts(tg, tg.private_chat(person)):
            assert "Alice" not in text and ("Carol" not in text or person is carol)

    await harness.say(group, alice, "/puzzle board")
    await harness.expect(group, "Puzzle board")
    board = tg.last_message(group, from_bot=True).text
    assert board.index("Bob") < board.index("Carol")
    assert "Bob — solved 1 · streak 1" in board and "Carol — solved 0 · streak 0" in board

    # the next day: yesterday's solution first, then the new puzzle
    await _finished_game(harness, [alice, bob, carol], seed=4)
    before = len(tg.messages(group))
    assert await service.puzzles.sweep(now + 86400) == 1
    await tg.wait_until(lambda: len(tg.messages(group)) >= before + 2, 20)
    solution, today = tg.messages(group)[before:before + 2]
    assert "Yesterday's puzzle" in solution.caption and solution.photo is not None
    assert "Puzzle of the day" in today.caption and today.buttons
