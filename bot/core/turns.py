"""The turn flow every hosted game shares, played through the game contract (engine/contract.py):
the version check and the turn check of a person's press, a computer seat's move, and the turn
timer running out (the rule's own time-up action, the computer finishing the turn, and after
`TIMEOUTS_BEFORE_COMPUTER` such turns the computer keeping the seat).

A game's host inherits `TurnFlow` and gives only what is its own: how it loads its state from
the record, whether a saved game is over, how a change becomes screens (`advance`), and the
sentence said when time runs out.
The core imports no engine module: `PlayedRules` (hosting.py) names the part of the contract
it plays.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from types import MappingProxyType
from typing import TYPE_CHECKING, Any

from bot.i18n import _

from .hosting import PlayedRules, Refusal, Results, Table
from .record import TIMEOUTS_BEFORE_COMPUTER

if TYPE_CHECKING:
    from .record import Record, SeatInfo
    from .views import Outcome


class TurnFlow:
    """The shared turn flow of a hosted game (see the module docstring). A host sets `rules`
    and `default_level` and implements `load`, `is_over`, `advance` and `time_ran_out`."""

    rules: PlayedRules
    default_level: str
    max_seats: int
    # a computer finishing a person's turn takes a few actions; this bounds the loop
    max_timeout_actions = 200
    # the optional features (HostedGame): none unless the host offers them
    offers_review = False
    offers_lessons = False
    offers_puzzles = False
    played_variants: Mapping[str, Any] = MappingProxyType({})  # none that play otherwise

    def seats_for(self, variant: str | None) -> int:
        """The seats `variant` takes, for the lobby: every variant the most the game seats."""
        return self.max_seats

    def review(self, table: Table, seat: int, round: int | None) -> Any:
        """Offered only with `offers_review` (the platform asks nothing else)."""
        raise NotImplementedError

    def lesson_options(self, words: str | None) -> dict[str, Any] | None:
        """Offered only with `offers_lessons` (the platform asks nothing else)."""
        raise NotImplementedError

    def lesson(self, table: Table, options: dict[str, Any] | None) -> Outcome:
        """Offered only with `offers_lessons` (the platform asks nothing else)."""
        raise NotImplementedError

    def lesson_terminal(self) -> Any:
        """Offered only with `offers_lessons` (the platform asks nothing else)."""
        raise NotImplementedError

    # -- the game's side ------------------------------------------------------------------
    def load(self, record: Record) -> Any:
        """The engine's state of the hosted game (Refusal when it hasn't started)."""
        raise NotImplementedError

    def advance(self, table: Table, old: Any, new: Any, events: list[Any],
                acts: Sequence[Any] = ()) -> Outcome:
        """Store `new` in the record, log `events` and build the screens that changed; `acts`:
        the actions that made `new` from `old` (a game that keeps its own action log)."""
        raise NotImplementedError

    def time_ran_out(self, record: Record, info: SeatInfo, taken_over: bool,
                     events: Sequence[Any]) -> str:
        """What the group is told when `info`'s turn timer ran out (`events`: the turn the
        computer played for them)."""
        raise NotImplementedError

    def is_over(self, state: Mapping[str, Any]) -> bool:
        """Is the saved game over (read from its JSON: asked on every save)?"""
        raise NotImplementedError

    def version(self, state: Any) -> int:
        """The state's version (a button carries the one it was drawn for)."""
        return int(state.version)

    # -- checks of a person's press ---------------------------------------------------------
    def check_version(self, state: Any, version: int, fresh: Callable[[], Outcome]) -> None:
        """A press drawn for another version is answered with fresh buttons, not played."""
        if version != self.version(state):
            raise Refusal(_("That button is out of date — here are fresh ones."), alert=False,
                          outcome=fresh())

    def check_turn(self, state: Any, seat: int) -> None:
        if self.rules.to_move(state) != seat:
            raise Refusal(_("It's not your turn."))

    def results(self, record: Record) -> Results | None:
        """The contract's result once the game is over (the state is loaded only then)."""
        if record.state is None or not self.is_over(record.state):
            return None
        result = self.rules.result(self.load(record))
        if result is None:
            return None
        return Results(tuple(result.totals), tuple(result.winners), result.higher_is_better)

    # -- the platform's moves -------------------------------------------------------------
    def computer_step(self, table: Table) -> Outcome | None:
        """One move of the computer seat on move; None when no computer is on move."""
        record = table.record
        if record.state is None:
            return None
        state = self.load(record)
        seat = self.rules.to_move(state)
        if seat is None or not record.seats[seat].is_computer:
            return None
        level = record.seats[seat].computer or self.default_level
        act = self.rules.choose_action(self.rules.player_view(state, seat), level)
        new, events = self.rules.apply(state, act)
        return self.advance(table, state, new, events, acts=[act])

    def play_for(self, table: Table, seat: int) -> Outcome:
        """The turn timer ran out: the rule's time-up action if the game has one, then the
        computer finishes `seat`'s turn; after a few such turns it keeps the seat."""
        record, rules = table.record, self.rules
        state = old = self.load(record)
        events: list[Any] = []
        acts: list[Any] = []
        ruled = rules.time_up(state, seat)
        if ruled is not None:
            state, events = rules.apply(state, ruled)
            acts.append(ruled)
        for _step in range(self.max_timeout_actions):
            if rules.to_move(state) != seat:
                break
            act = rules.choose_action(rules.player_view(state, seat), self.default_level)
            state, more = rules.apply(state, act)
            events += more
            acts.append(act)
        info = record.seats[seat]
        info.timeouts += 1
        taken_over = info.timeouts >= TIMEOUTS_BEFORE_COMPUTER
        if taken_over:
            info.computer, info.was_human = self.default_level, True
        note = self.time_ran_out(record, info, taken_over, events)
        record.add_log(note)
        out = self.advance(table, old, state, events, acts=acts)
        out.reply = note
        return out
