"""Race in a chat: its lobby words, screens and buttons. The turn flow (version and turn
checks, computer seats, the turn timer) is the platform's (bot/core/turns.py); this keeps only
what is the race's own."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any, ClassVar

from bot.core.buttons import IDX, Press
from bot.core.hosting import Refusal, Settings, Table, Variant
from bot.core.record import Record, SeatInfo
from bot.core.turns import TurnFlow
from bot.core.views import Choice, ChoiceGroup, Outcome, Screen
from engine.contract import IllegalAction
from engine.contract import Settings as RuleSettings

from .rules import STEPS, TARGETS, Add, RaceRules, RaceState


class RaceGame(TurnFlow):
    """Seats take turns adding 1…step to a total; whoever brings it to the target wins."""

    name = "race"
    title = "Race"
    rules = RaceRules()
    min_seats, max_seats = rules.min_seats, rules.max_seats
    levels = rules.levels
    default_level = "perfect"
    default_variant = "ten"
    typed_verbs = frozenset({"plus"})
    vocabulary: ClassVar = {"plus": (IDX,)}

    def variants(self) -> Sequence[Variant]:
        return tuple(Variant(v, f"Race to {v}", {"step": STEPS}) for v in TARGETS)

    def settings(self, variant: str | None, options: Mapping[str, Any]) -> Settings:
        variant = variant or self.default_variant
        if variant not in TARGETS:
            raise ValueError(f"No race called {variant!r}")
        unknown = set(options) - {"step"}
        if unknown:
            raise ValueError(f"Unknown option {sorted(unknown)[0]!r}")
        step = int(options.get("step", STEPS[0]))
        if step not in STEPS:
            raise ValueError("step is 2 or 3")
        return Settings(variant, f"Race to {variant}", {"step": step})

    def to_move(self, state: Mapping[str, Any]) -> int | None:
        return None if state["winner"] is not None else state["turn"]

    def is_over(self, state: Mapping[str, Any]) -> bool:
        return state["winner"] is not None

    def rounds(self, state: Mapping[str, Any]) -> Sequence[Sequence[int]]:
        return []

    # -- the turn flow's hooks ----------------------------------------------------------------
    def load(self, record: Record) -> RaceState:
        if record.state is None:
            raise Refusal("The race hasn't started.")
        return self.rules.state_from_json(record.state)

    def advance(self, table: Table, old: RaceState, new: RaceState, events: list,
                acts: Sequence[Any] = ()) -> Outcome:
        record = table.record
        record.state = self.rules.state_to_json(new)
        for e in events:
            record.add_log(f"{record.seats[e['seat']].name} adds {e['n']}: {e['total']}")
        table.turn_started(self.rules.to_move(new))
        out = self.screens(table)
        if new.winner is not None:  # the result, a message of its own in the group
            name = record.seats[new.winner].name
            out.notes.append(Screen(f"🏁 {name} wins the race", [], game_id=table.game_id,
                                    version=new.version, phase="game_over"))
        return out

    def time_ran_out(self, record: Record, info: SeatInfo, taken_over: bool,
                     events: Sequence[Any]) -> str:
        return "time ran out"

    # -- in a chat ----------------------------------------------------------------------------
    def start(self, table: Table) -> Outcome:
        record = table.record
        settings = RuleSettings(record.rulebook, dict(record.options))
        state = self.rules.new_game(settings, len(record.seats), record.seed)
        record.state = self.rules.state_to_json(state)
        table.turn_started(self.rules.to_move(state))
        return self.screens(table, new=True)

    def screens(self, table: Table, *, new: bool = False) -> Outcome:
        out = Outcome(group=self.table_screen(table), group_new=new)
        for i, seat in enumerate(table.record.seats):
            if seat.user and not seat.is_computer:
                out.private[seat.user] = self.private_screen(table, i)
        return out

    def _phase(self, state: RaceState) -> str:
        return "play" if state.winner is None else "game_over"

    def table_screen(self, table: Table) -> Screen:
        state = self.load(table.record)
        text = f"total {state.total} of {state.target}"
        if state.winner is not None:
            text += f" — {table.record.seats[state.winner].name} wins the race"
        return Screen(text, [], game_id=table.game_id, version=state.version,
                      phase=self._phase(state))

    def private_screen(self, table: Table, seat: int) -> Screen:
        state = self.load(table.record)
        moves = self.rules.legal_actions(state, seat)
        adds = [Choice(f"+{a.n}", f"plus:{a.n}") for a in moves]  # one question: add how many
        return Screen(f"total {state.total} of {state.target}",
                      [ChoiceGroup("Add…", adds, len(adds))] if adds else [],
                      game_id=table.game_id, version=state.version, phase=self._phase(state))

    def _add(self, table: Table, state: RaceState, seat: int, n: int) -> Outcome:
        try:
            new, events = self.rules.apply(state, Add(seat, n))
        except IllegalAction as error:
            raise Refusal(str(error)) from None
        table.record.seats[seat].timeouts = 0
        return self.advance(table, state, new, events)

    def press(self, table: Table, seat: int | None, user: str, press: Press) -> Outcome:
        state = self.load(table.record)
        if seat is None:
            raise Refusal("Only players press here.")
        if press.verb != "plus":
            raise Refusal("Not a button of this game.")
        self.check_version(state, press.version, lambda: self.screens(table))
        self.check_turn(state, seat)
        return self._add(table, state, seat, press.int())

    def typed(self, table: Table, seat: int, user: str, verb: str, args: str) -> Outcome:
        if not args.isdigit():
            raise Refusal("Type /plus 1")
        state = self.load(table.record)
        self.check_turn(state, seat)
        return self._add(table, state, seat, int(args))

    def select(self, table: Table, seat: int, user: str, version: int,
               items: Sequence[str]) -> Outcome:
        raise Refusal("Nothing to select in a race.")

    def help_text(self) -> str:
        return "Race: /newgame ten"

    def rules_text(self, variant: str | None) -> str:
        return "Add 1 or 2; reach the target to win."
