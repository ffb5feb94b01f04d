"""The platform hosts a game it knows nothing about: "race to ten", a toy game written here
against bot/core/hosting.py alone (no engine, no rummy), played through the real GameService
and store — lobby, options, computer seats, turns, the turn timer, results and leaderboards.
If the core had to learn anything about rummy to host it, these tests could not pass."""

from __future__ import annotations

import asyncio
import shutil
from collections.abc import Mapping, Sequence
from typing import Any, ClassVar

import pytest

from bot.core.buttons import IDX, Press, pack
from bot.core.hosting import Refusal, Results, Settings, Table, Variant
from bot.core.record import Record
from bot.core.service import Actor, GameService
from bot.core.views import Button, Outcome, Screen
from bot.store import Store

ALICE = Actor("test", "g1", "alice", "Alice")
BOB = Actor("test", "g1", "bob", "Bob")


class RaceGame:
    """Seats take turns adding 1…step to a total; whoever brings it to the target wins."""

    name = "race"
    title = "Race"
    min_seats, max_seats = 2, 4
    levels = ("easy", "perfect")
    default_level = "perfect"
    default_variant = "ten"
    typed_verbs = frozenset({"plus"})
    vocabulary: ClassVar = {"plus": (IDX,)}
    TARGETS: ClassVar = {"ten": 10, "twenty": 20}

    def variants(self) -> Sequence[Variant]:
        return tuple(Variant(v, f"Race to {v}", {"step": (2, 3)}) for v in self.TARGETS)

    def settings(self, variant: str | None, options: Mapping[str, Any]) -> Settings:
        variant = variant or self.default_variant
        if variant not in self.TARGETS:
            raise ValueError(f"No race called {variant!r}")
        unknown = set(options) - {"step"}
        if unknown:
            raise ValueError(f"Unknown option {sorted(unknown)[0]!r}")
        step = int(options.get("step", 2))
        if step not in (2, 3):
            raise ValueError("step is 2 or 3")
        return Settings(variant, f"Race to {variant}", {"step": step})

    def to_move(self, state: Mapping[str, Any]) -> int | None:
        return None if state["winner"] is not None else state["turn"]

    def is_over(self, state: Mapping[str, Any]) -> bool:
        return state["winner"] is not None

    def results(self, record: Record) -> Results | None:
        state = record.state
        if state is None or state["winner"] is None:
            return None
        totals = tuple(1 if i == state["winner"] else 0 for i in range(len(record.seats)))
        return Results(totals, (state["winner"],), higher_is_better=True)

    def rounds(self, state: Mapping[str, Any]) -> Sequence[Sequence[int]]:
        return []

    # -- in a chat ------------------------------------------------------------------------
    def start(self, table: Table) -> Outcome:
        record = table.record
        record.state = {"total": 0, "turn": record.seed % len(record.seats), "winner": None,
                        "version": 0}
        table.turn_started(self.to_move(record.state))
        return self.screens(table, new=True)

    def screens(self, table: Table, *, new: bool = False) -> Outcome:
        out = Outcome(group=self.table_screen(table), group_new=new)
        for i, seat in enumerate(table.record.seats):
            if seat.user and not seat.is_computer:
                out.private[seat.user] = self.private_screen(table, i)
        return out

    def table_screen(self, table: Table) -> Screen:
        s = table.record.state
        return Screen(f"total {s['total']}", [], game_id=table.game_id, version=s["version"])

    def private_screen(self, table: Table, seat: int) -> Screen:
        s, step = table.record.state, table.record.options["step"]
        mine = s["turn"] == seat and s["winner"] is None
        row = [Button(f"+{n}", f"plus:{n}") for n in range(1, step + 1)] if mine else []
        return Screen(f"total {s['total']}", [row] if row else [], game_id=table.game_id,
                      version=s["version"])

    def _add(self, table: Table, seat: int, n: int) -> Outcome:
        record = table.record
        s = dict(record.state)
        target = self.TARGETS[record.rulebook]
        if not 1 <= n <= record.options["step"]:
            raise Refusal(f"Add 1 to {record.options['step']}.")
        s["total"] = min(target, s["total"] + n)
        s["version"] += 1
        record.add_log(f"{record.seats[seat].name} adds {n}: {s['total']}")
        if s["total"] == target:
            s["winner"] = seat
        else:
            s["turn"] = (seat + 1) % len(record.seats)
        record.state = s
        record.seats[seat].timeouts = 0
        table.turn_started(self.to_move(s))
        return self.screens(table)

    def press(self, table: Table, seat: int | None, user: str, press: Press) -> Outcome:
        s = table.record.state
        if seat is None:
            raise Refusal("Only players press here.")
        if press.verb != "plus":
            raise Refusal("Not a button of this game.")
        if press.version != s["version"]:
            raise Refusal("Out of date.", alert=False)
        if s["turn"] != seat:
            raise Refusal("Not your turn.")
        return self._add(table, seat, press.int())

    def typed(self, table: Table, seat: int, user: str, verb: str, args: str) -> Outcome:
        if not args.isdigit():
            raise Refusal("Type /plus 1")
        if table.record.state["turn"] != seat:
            raise Refusal("Not your turn.")
        return self._add(table, seat, int(args))

    def select(self, table: Table, seat: int, user: str, version: int,
               items: Sequence[str]) -> Outcome:
        raise Refusal("Nothing to select in a race.")

    def _best(self, table: Table, level: str) -> int:
        s, step = table.record.state, table.record.options["step"]
        left = self.TARGETS[table.record.rulebook] - s["total"]
        return (left % (step + 1)) or 1 if level == "perfect" else 1

    def computer_step(self, table: Table) -> Outcome | None:
        s = table.record.state
        seat = self.to_move(s)
        if seat is None or not table.record.seats[seat].is_computer:
            return None
        return self._add(table, seat, self._best(table, table.record.seats[seat].computer))

    def play_for(self, table: Table, seat: int) -> Outcome:
        out = self._add(table, seat, self._best(table, "perfect"))
        table.record.seats[seat].timeouts += 1
        out.reply = "time ran out"
        return out

    def help_text(self) -> str:
        return "Race: /newgame ten"

    def rules_text(self, variant: str | None) -> str:
        return "Add 1 or 2; reach the target to win."


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


def test_the_lesson_service_comes_from_a_game_that_keeps_one():
    """The platform names no game's lessons: a hosted game that keeps lessons of its own
    builds the service (`HostedGame.lesson_service`); a toy game without any has none."""
    from bot.games import default_games

    assert GameService(None, games={"race": RaceGame()}).lessons is None
    service = GameService(None, games=default_games())
    lessons = service.lessons
    assert lessons is not None and lessons is service.lessons  # one for every adapter
    assert lessons.prefix == "L:" and {"lay", "skip", "restart"} <= lessons.verbs
    assert lessons.unpack("L:7:1:s1:5H#0") == (7, 1, "s1:5H#0")
    assert lessons.unpack("7:1:draw") is None
    assert GameService(None, games={"b": default_games()["build-to-ten"]}).lessons is None
