"""The turn flow every hosted game shares, played through the game contract (engine/contract.py):
every move — a person's press, typed move or web edit, a computer seat's move, the turn timer
running out — is played here: the version check and the turn check of a person's press, the
move applied, the engine's refusal made the seat's notice and an alert, the selection cleared
and the seat's time-outs reset, then `advance` (the new state stored, the screens that
changed); after `TIMEOUTS_BEFORE_COMPUTER` timed-out turns the computer keeps the seat.

A game's host inherits `TurnFlow` and gives only what is its own: how it loads its state from
the record, how a press becomes an action (`turn_press`; `any_time` for the presses that are no
turn's), the engine's refusal in the seat's words (`refused`), a seat's screen, how a change
becomes screens (`advance`), and the sentence said when time runs out.
The core imports no engine module: `PlayedRules` (hosting.py) names the part of the contract
it plays.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from types import MappingProxyType
from typing import TYPE_CHECKING, Any

from bot.i18n import _

from .hosting import PlayedRules, Refusal, Results, Table
from .narrate import said_in
from .record import TIMEOUTS_BEFORE_COMPUTER

if TYPE_CHECKING:
    from .buttons import Press
    from .record import Record, SeatInfo
    from .views import Screen

from .views import Outcome


@dataclass(frozen=True)
class Refused:
    """A person's move turned down (the engine's refusal, or a variant's step that doesn't take
    it), in the seat's words: the seat's screen shows `mark` + `text`, the person is answered
    `text` (an alert unless it is a question back, a joker's meaning, or a lesson's nudge)."""

    text: str
    alert: bool = True
    mark: str = "✗ "


@dataclass(frozen=True)
class ToPlay:
    """A press's action for the flow to play; `keep_selection`: the seat's selection stays
    (a hint shows the move on the cards the seat picked)."""

    action: Any
    keep_selection: bool = False


class TurnFlow:
    """The shared turn flow of a hosted game (see the module docstring). A host sets `rules`
    and `default_level` and implements `load`, `is_over`, `advance` and `time_ran_out`; one
    that plays presses and typed moves through the flow, `seat_screen`, `turn_press`,
    `typed_moves` and `refused` (`any_time`, `gate`, `judge`, `clear_seat`, `moved` and the
    checks as it needs)."""

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

    def seat_screen(self, table: Table, state: Any, seat: int) -> Screen:
        """`seat`'s private screen of `state`."""
        raise NotImplementedError

    def refused(self, table: Table, seat: int, error: Exception) -> Refused | None:
        """The engine's refusal `error` of `seat`'s move in the seat's words (the game may note
        a question in the seat's UI: a joker's meaning); None: `error` is no refusal."""
        return None

    def any_time(self, table: Table, state: Any, seat: int | None, user: str,
                 press: Press) -> Outcome | None:
        """A press that is no turn's move (how a seat looks at its hand, going on after a
        round), answered before the seat, version and turn checks; None: a turn's press."""
        return None

    def turn_press(self, table: Table, state: Any, seat: int, user: str,
                   press: Press) -> ToPlay | Outcome:
        """A current press of the seat on move: the action to play, or the seat's screen
        changed (a selection, a mode: nothing played). A game that plays presses."""
        raise NotImplementedError

    def typed_moves(self, table: Table, state: Any, seat: int, user: str, verb: str,
                    args: str) -> Sequence[Any] | Outcome:
        """A typed move of the seat on move: the actions to play in order, or the seat's
        screen changed (a hint). A game that plays typed moves."""
        raise NotImplementedError

    def typed_starts(self, table: Table, state: Any, seat: int) -> None:
        """A typed move is about to be read: the seat's old notice goes, as a button's move
        clears it (it would read as this move's answer); a variant whose notice outlives a
        move (a lesson's "Show me") keeps it."""
        table.record.seat_ui(seat).notice = ""

    def judge(self, state: Any, action: Any) -> tuple[Any, list[Any]]:
        """A person's move played on `state`: the new state and its events, as the rules apply
        it (a variant may judge it otherwise: a lesson's script, its word as the event)."""
        return self.rules.apply(state, action)

    def gate(self, table: Table, state: Any, seat: int, action: Any) -> Refused | None:
        """A variant's word on a person's move before it is played (a lesson's step that
        doesn't take it); None: play it."""
        return None

    def clear_seat(self, table: Table, seat: int, keep_selection: bool) -> None:
        """The seat's UI after its move was taken: the selection goes (unless kept)."""
        if not keep_selection:
            table.record.seat_ui(seat).selected = []

    def moved(self, table: Table, old: Any, new: Any, events: list[Any], seat: int,
              action: Any, user: str) -> Outcome:
        """A move was played (`user` "": a computer's): `advance` (a variant adds its own word
        after a person's move)."""
        return self.advance(table, old, new, events, acts=[action])

    def version(self, state: Any) -> int:
        """The state's version (a button carries the one it was drawn for)."""
        return int(state.version)

    # -- a person's move ------------------------------------------------------------------
    def press(self, table: Table, seat: int | None, user: str, press: Press) -> Outcome:
        """A button of the running game: the game's any-time presses, else the seat, version
        and turn checks, the game's press -> action, the move played (`move`)."""
        state = self.load(table.record)
        early = self.any_time(table, state, seat, user, press)
        if early is not None:
            return early
        if seat is None:
            raise Refusal(_("These buttons belong to a player of this game."))
        self.check_version(state, press.version, lambda: self.mine(table, state, seat, user))
        self.check_turn(state, seat)
        return self.play_press(table, state, seat, user, press)

    def play_press(self, table: Table, state: Any, seat: int, user: str,
                   press: Press) -> Outcome:
        """A checked press of the seat on move: the game's press -> action, then `move`."""
        try:
            answer = self.turn_press(table, state, seat, user, press)
        except Exception as error:  # an engine's refusal found while reading the press
            said = self.refused(table, seat, error)
            if said is None:
                raise
            return self.refuse(table, state, seat, user, said)
        if isinstance(answer, Outcome):
            return answer
        return self.move(table, state, seat, answer.action, user,
                         keep_selection=answer.keep_selection)

    def typed(self, table: Table, seat: int, user: str, verb: str, args: str) -> Outcome:
        """A typed move: the turn check, the game's reading of it, each action played in turn
        (the first refused stops them), "OK" when nothing else was said."""
        record = table.record
        state = self.load(record)
        self.check_turn(state, seat)
        self.typed_starts(table, state, seat)
        answer = self.typed_moves(table, state, seat, user, verb, args)  # move's answer
        if isinstance(answer, Outcome):
            return answer
        out = Outcome()
        for action in answer:
            out = self.move(table, state, seat, action, user)
            if out.alert:
                return out
            state = self.load(record)
        if not out.reply:
            out.reply, out.alert = _("OK"), False
        return out

    def move(self, table: Table, state: Any, seat: int, action: Any, user: str, *,
             keep_selection: bool = False) -> Outcome:
        """Play a person's `action` (its press, typed move or web edit already checked): a
        refusal is the seat's notice and an alert on its unchanged screen; a move taken
        clears the selection, resets the seat's time-outs and advances the game."""
        said = self.gate(table, state, seat, action)
        if said is not None:
            return self.refuse(table, state, seat, user, said)
        try:
            new, events = self.judge(state, action)
        except Exception as error:
            said = self.refused(table, seat, error)
            if said is None:
                raise
            return self.refuse(table, state, seat, user, said)
        self.clear_seat(table, seat, keep_selection)
        table.record.seats[seat].timeouts = 0
        return self.moved(table, state, new, events, seat, action, user)

    def refuse(self, table: Table, state: Any, seat: int, user: str, said: Refused) -> Outcome:
        """A move turned down: the seat's notice, its screen, the answer (nothing played)."""
        table.record.seat_ui(seat).notice = said.mark + said.text
        out = self.mine(table, state, seat, user)
        out.reply, out.alert = said.text, said.alert
        return out

    def mine(self, table: Table, state: Any, seat: int, user: str) -> Outcome:
        """The seat's own screen, for the person who acted."""
        return Outcome(private={user: self.seat_screen(table, state, seat)})

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
        return self.moved(table, state, new, events, seat, act, "")

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
        note, other = said_in(record, lambda: self.time_ran_out(record, info, taken_over, events))
        record.add_log(note, other)
        out = self.advance(table, old, state, events, acts=acts)
        out.reply = note
        return out
