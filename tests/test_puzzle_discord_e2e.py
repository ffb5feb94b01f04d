"""The puzzle of the day on Discord (issue 41 item 5), end to end: the real discord.py client
(through the adapter) against the fake Discord server (its buckets on the virtual clock), the real
core and store. The day's puzzle is posted in the channel with [🧩 Solve]; bob's try opens in his
DM, where he types the solution's Auto-place and Done: solved; eve draws: a try that laid
nothing; /puzzle board says so."""

from __future__ import annotations

from datetime import UTC, datetime

import pytest
from players.discord import act, controls
from sqlalchemy import update
from test_discord_e2e import ALICE, BOB, EVE, TABLE, Harness, harness  # noqa: F401

from bot.core.record import Record, SeatInfo
from bot.store import ResultSeat
from bot.store import models as db
from engine.rummy.playout import play_game
from engine.rummy.puzzle import Puzzle
from engine.rummy.rulebooks import get_rulebook

pytestmark = pytest.mark.e2e


async def _finished_game(harness: Harness, seed: int) -> None:
    store = harness.store
    state = play_game(get_rulebook("manipulation"), ["easy", "medium", "hard"], seed,
                      check=False).state
    people = ((ALICE, "alice"), (BOB, "bob"), (EVE, "eve"))
    record = Record(rulebook="manipulation", seed=seed, state=state.to_dict(),
                    seats=[SeatInfo(name, user=str(who)) for who, name in people])
    game = await store.create_game("discord", str(TABLE), record.to_dict(), status="playing")
    await store.record_result(game.id, "manipulation", [
        ResultSeat(k, None, name, None, 10 * k, 1 if k == 0 else 0, k + 1)
        for k, (_who, name) in enumerate(people)])
    await store.save_game(game.id, record.to_dict(), expected_version=1, status="finished")
    async with store._write() as conn:
        await conn.execute(update(db.results).where(db.results.c.game_id == game.id).values(
            finished_at=datetime.fromtimestamp(harness.fake.clock.now() - 3600, UTC)))


def _dm_says(fake, who: int, text: str) -> bool:
    return any(text in (m.content or "") for m in fake.dm_messages(who))


async def test_a_day_s_puzzle_in_a_channel(harness: Harness) -> None:
    fake, store, service = harness.fake, harness.store, harness.service
    assert "Only the chat's admins" in (await harness.slash(BOB, None, {"show": "on"},
                                                            name="puzzle"))[0]
    await store.set_puzzle("discord", str(TABLE), True)  # (an admin's /puzzle on)
    await _finished_game(harness, seed=2)
    now = fake.clock.now()
    assert await service.puzzles.sweep(now) == 1
    await fake.wait_until(lambda: any("Puzzle of the day" in m.content
                                      for m in fake.channel_messages(TABLE)), timeout=20,
                          what="the post")
    post = next(m for m in fake.channel_messages(TABLE) if "Puzzle of the day" in m.content)
    assert post.attachments and "alice" not in post.content and "bob" not in post.content
    [solve] = controls(fake, post)
    assert solve.label == "🧩 Solve"
    day = datetime.fromtimestamp(now, UTC).strftime("%Y-%m-%d")
    puzzle = Puzzle.from_dict((await store.puzzle_of("discord", str(TABLE), day))[1])

    answers = await act(harness, await fake.click(post, solve.custom_id, BOB))
    assert any("Your try is in your DMs" in a for a in answers), answers
    await harness.idle()
    await fake.say(None, BOB, "auto " + " ".join(puzzle.solution_laid()))
    await harness.idle()
    await fake.say(None, BOB, "done")
    await fake.wait_until(lambda: _dm_says(fake, BOB, "Solved"), timeout=20, what="solved")
    assert (await store.the_try("discord", str(TABLE), day, str(BOB))).solved

    await act(harness, await fake.click(post, solve.custom_id, EVE))
    await harness.idle()
    await fake.say(None, EVE, "draw")
    await fake.wait_until(lambda: _dm_says(fake, EVE, f"You laid 0 of the {puzzle.most}"),
                          timeout=20, what="eve's verdict")
    board = (await harness.slash(ALICE, None, {"show": "board"}, name="puzzle"))[0]
    assert "bob — solved 1 · streak 1" in board and "eve — solved 0 · streak 0" in board
