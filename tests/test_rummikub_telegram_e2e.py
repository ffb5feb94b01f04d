"""Rummikub end to end on Telegram: the real python-telegram-bot Application against the fake Bot
API server (its real rate limits), the real core and store. One person and two computers finish
a game by the buttons the bot sent — tiles selected, Hint, Auto-place, Done — then the
leaderboard counts it.

The deal is scripted (engine/rummy/scenario.py) so the game ends in a few turns: the person's
initial
meld 10R 11R 12R (33) on the first turn, the 5O added to the table's 5K 5R 5B on the second
(the initial-meld turn may not add to the table); the computers hold tiles that make no
combination and draw.
"""

from __future__ import annotations

import asyncio
import time

import pytest
from fakes.telegram_server import FakeTelegram
from players.telegram import Person
from test_telegram_e2e import GROUP, Harness

import bot.games.rummy.host as rummy_host
from bot.core.record import Record
from engine.rummy import GameState, Rulebook
from engine.rummy.scenario import deal_scenario

pytestmark = pytest.mark.e2e

RACKS = ["10R 11R 12R 5O", "1K 4R 7B 10O 13K", "2R 5B 8O 11K 3K"]
TABLE = ["5K 5R 5B"]
POOL_TOP = "6O 9K"  # what the computers draw: still nothing to lay


def scripted_deal(rules: Rulebook, seats: int, seed: int) -> GameState:
    """new_game's stand-in for these tests: the scripted position, in the lobby's rulebook."""
    assert seats == len(RACKS)
    return deal_scenario(rules, RACKS, table=TABLE, stock_top=POOL_TOP, seed=seed)


@pytest.fixture
async def harness(tmp_path, monkeypatch, clock):
    monkeypatch.setattr(rummy_host, "new_game", scripted_deal)
    async with FakeTelegram(clock=clock) as tg:
        h = Harness(tg, tmp_path / "rummikub.db")
        await h.up()
        try:
            yield h
        finally:
            await h.down()


async def test_one_person_and_computers_finish_a_rummikub_game(harness: Harness):
    started = time.monotonic()
    tg = harness.tg
    group = tg.group(GROUP, "Tile night")
    alice = tg.user(41, "Alice", started=True)
    await harness.say(group, alice, "/newgame rummikub")
    await harness.expect(group, "Rummikub")
    await harness.expect(group, "initial meld: 30")  # the lobby shows Rummikub's options
    for level in ("medium", "easy"):
        await harness.press_group(alice, "Computer")
        await harness.press_group(alice, level)
    await harness.press_group(alice, "Start")
    row = await harness.game()
    person = Person(tg, alice, rulebook="rummikub")
    hinted = False
    for _step in range(200):
        row = await harness.store.get_game(row.id)
        if row.status != "playing":
            break
        record = Record.from_dict(row.record)
        state = record.state
        if record.seats[state["turn"]].is_computer:
            await asyncio.sleep(0.05)
            continue
        if state["table"] and len(state["table"]) > 1 and not hinted:
            # The second turn: the hint names the tile (its colour mark) and its group.
            message = await person.wait_turn()
            assert "5O" in str(tg.buttons(message)), tg.buttons(message)  # tile notation
            await person.press(lambda _t, d: d.endswith(":hint"), "hint")
            await tg.wait_until(
                lambda: "💡" in (person.private_message().caption or ""), timeout=10)
            assert "5🟧" in person.private_message().caption  # a colour mark in a sentence
            hinted = True
        await person.take_turn()
    row = await harness.store.get_game(row.id)
    assert row.status == "finished", "the game did not finish"
    assert not person.fallbacks and not person.stale, (person.fallbacks, person.stale,
                                                       person.notes)  # read right off the screen
    assert hinted
    state = GameState.from_dict(Record.from_dict(row.record).state)
    assert state.result["winners"] == [0] and not state.hands[0]
    # Higher is better: the winner scores plus what the others have left.
    left = [sum(t.rank for t in hand) for hand in state.hands]
    assert state.result["totals"][0] == sum(left) > 0
    assert all(state.result["totals"][i] == -left[i] for i in (1, 2))
    await tg.wait_until(lambda: any("Game over" in (m.caption or "") for m in tg.messages(group)),
                        timeout=20)
    await harness.say(group, alice, "/leaderboard rummikub")
    await harness.expect(group, "Alice")
    for message in tg.messages(group, include_deleted=True):
        assert "Rack:" not in (message.caption or "") + (message.text or "")
    assert time.monotonic() - started < 60
