"""The platform hosts a game it knows nothing about: "race to ten", the toy third game in
tests/toy_game (its rules behind the game contract, its host on bot/core/hosting.py and the
platform's turn flow; no rummy), played through the real GameService and store — lobby,
options, computer seats, turns, the turn timer, results and leaderboards. If the core had to
learn anything about rummy to host it, these tests could not pass."""

from __future__ import annotations

import asyncio
import shutil
from typing import Any

import pytest
from toy_game import RaceGame

from bot.core.buttons import pack
from bot.core.record import Record
from bot.core.service import Actor, GameService
from bot.core.views import Outcome
from bot.store import Store

ALICE = Actor("test", "g1", "alice", "Alice")
BOB = Actor("test", "g1", "bob", "Bob")


class Clock:
    def __init__(self) -> None:
        self.now = 2_000_000.0

    def __call__(self) -> float:
        return self.now


@pytest.fixture
async def race(sqlite_template, tmp_path):
    path = tmp_path / "race.db"
    shutil.copy(sqlite_template, path)
    store = await Store.open(f"sqlite+aiosqlite:///{path}")
    clock = Clock()
    service = GameService(store, clock=clock, computer_delay=0, tick=0.02,
                          games={"race": RaceGame()})
    delivered: list[Outcome] = []

    async def deliver(outcome: Outcome) -> None:
        delivered.append(outcome)

    service.register("test", deliver)
    await service.start()
    try:
        yield service, store, clock, delivered
    finally:
        await service.stop()
        await store.close()


async def settle(store, gid: int, until) -> Any:
    for _ in range(200):
        row = await store.get_game(gid)
        if until(row):
            return row
        await asyncio.sleep(0.02)
    raise AssertionError(f"game {gid} never got there: {row.status} {row.record['state']}")


async def test_a_whole_race_against_a_computer_with_results_and_a_leaderboard(race):
    service, store, _, _ = race
    out = await service.new_game(ALICE, "twenty")
    assert out.reply == "New Race to twenty game. Join with the button!"
    gid = out.game_id
    assert "Race to twenty" in out.group.text and "step: 2" in out.group.text
    lobby = await service.press(ALICE, pack(gid, 0, "menu:options"))
    actions = [b.action for row in lobby.group.buttons for b in row]
    assert "opt:step:3" in actions and "timer:60" in actions
    await service.press(ALICE, pack(gid, 1, "opt:step:3"))
    refused = await service.press(ALICE, pack(gid, 2, "opt:step:9"))
    assert refused.alert and "step is 2 or 3" in refused.reply
    menu = await service.press(ALICE, pack(gid, 2, "menu:computer"))
    assert [b.action for b in menu.group.buttons[0]] == ["cpu:easy", "cpu:perfect"]
    await service.press(ALICE, pack(gid, 3, "cpu:easy"))
    started = await service.press(ALICE, pack(gid, 4, "start"))
    assert started.group is not None and started.group_new
    row = await store.get_game(gid)
    assert row.status == "playing" and Record.from_dict(row.record).game_name == "race"
    # Alice plays whenever it is her turn; the easy computer adds 1 each time
    for _ in range(30):
        row = await settle(store, gid, lambda r: r.status == "finished"
                           or r.record["state"]["turn"] == 0)
        if row.status == "finished":
            break
        state = row.record["state"]
        n = (20 - state["total"]) % 4 or 1  # the winning line against 1s
        out = await service.press(ALICE, pack(gid, state["version"], f"plus:{n}"))
        assert not out.alert, out.reply
    assert row.status == "finished"
    assert row.record["state"]["winner"] == 0
    board = await service.command(ALICE, "leaderboard")
    assert "Alice" in board.reply and "1 game" in board.reply
    stats = await service.command(ALICE, "stats")
    assert "twenty" in stats.reply and "🏆" in stats.reply


async def test_the_turn_timer_and_foreign_buttons_work_for_any_game(race):
    service, store, clock, delivered = race
    gid = (await service.new_game(ALICE, "ten")).game_id
    await service.press(BOB, pack(gid, 0, "join"))
    await service.press(ALICE, pack(gid, 1, "start"))
    row = await store.get_game(gid)
    turn = row.record["state"]["turn"]
    mover = [ALICE, BOB][turn]
    # a rummy button on a race is answered, never raised
    out = await service.press(mover, pack(gid, 0, "tc:2:QS#1"))
    assert out.alert and out.reply == "Not a button of this game."
    out = await service.command(mover, "plus", "x")
    assert out.reply == "Type /plus 1"
    clock.now += 181  # the lobby's default timer is 3 minutes
    row = await settle(store, gid, lambda r: r.record["state"]["total"] > 0)
    assert row.record["seats"][turn]["timeouts"] == 1 and row.record["state"]["turn"] != turn
    assert any(o.reply == "time ran out" for o in delivered)
    assert any(n.text == "time ran out" for o in delivered for n in o.notes), "told in the group"
    assert row.status == "playing"


def test_lessons_come_from_a_game_that_has_them():
    """The platform names no game's lessons: /lesson reaches the first hosted game that has
    guided lessons (`lesson_options` and `lesson`); a toy game without any has none, and a
    lesson's buttons are the game's own (no prefix of their own)."""
    from bot.core import buttons
    from bot.games import default_games

    assert GameService(None, games={"race": RaceGame()}).lesson_game() is None
    service = GameService(None, games=default_games())
    game = service.lesson_game()
    assert game is not None and game.name == "rummy"
    assert {"lay", "skip", "restart"} <= service.typed_verbs
    assert buttons.parse("7:1:s1:5H#0") is not None and buttons.parse("7:1:skip") is not None
    # (a lesson's button sent before they were hosted, `L:`-prefixed: the same row's press)
    assert buttons.parse("L:7:1:s1:5H#0") == buttons.parse("7:1:s1:5H#0")
    assert buttons.parse("L:L:7:1:s1:5H#0") is None
    assert game.lesson_options("tahiti") == {"lesson": "tahiti"}
    assert game.lesson_options(None) is None
    with pytest.raises(ValueError):
        game.lesson_options("bridge")
    assert GameService(None, games={"b": default_games()["build-to-ten"]}).lesson_game() is None
