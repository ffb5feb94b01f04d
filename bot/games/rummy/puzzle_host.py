"""A try at a chat's puzzle of the day (issue 41 item 5): a variant of the rummy game (as a lesson
is, bot/core/hosting.py `played_variants`), in a row of the person's private chat.

The game's own definition with a few things overridden: `RummyGame.puzzle_try` deals the
puzzle's position (engine/rummy/puzzle.py: its table and hand as they were, strangers' cards
for the other seats, no reminder with a hint) and the person plays one turn with the game's own
buttons, typed moves or the web table; the try is over when that turn ends (`over`), judged by
the cards it put on the table against the solver's maximum (`puzzle_verdict`). Never rated, no
hints, no review, no timer: its screens say how it went, and the solution comes with the next
day's post in the group.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from bot.core.buttons import Press
from bot.core.hosting import Refusal, Results, Table
from bot.core.record import Record, SeatInfo
from bot.core.views import Outcome, Screen
from bot.i18n import _, t, tn
from engine.rummy import GameState
from engine.rummy import puzzle as puzzles
from engine.rummy.puzzle import Puzzle

from .host import RummyGame
from .puzzle import task

KIND = "puzzle"  # the variant's name: a try's record carries it as its rulebook
DATA = "puzzle"  # record.options[DATA]: the puzzle's data
STRANGER = "·"  # the other seats' name: nobody's (their cards are strangers')


def _puzzle(record: Record) -> Puzzle:
    return Puzzle.from_dict(record.options[DATA])


def _over(state: Mapping[str, Any]) -> bool:
    return state.get("phase") != "play" or state.get("turn") != 0 or state.get("round") != 1


def deal(table: Table, data: dict[str, Any]) -> GameState:
    """Set a new try's record up: the variant, the puzzle, one seat for the person and one for
    each stranger, the position dealt (seeded by the row: the strangers' cards and the stock)."""
    record = table.record
    p = Puzzle.from_dict(data)
    record.rulebook = KIND
    record.options[DATA] = data
    record.turn_seconds = 0
    record.seats = record.seats[:1] + [SeatInfo(STRANGER, computer="easy")
                                       for _ in range(p.players - 1)]
    state = puzzles.position(p, seed=table.game_id)
    record.state = state.to_dict()
    record.add_log(task(data))
    return state


def verdict(record: Record) -> tuple[bool, int] | None:
    """(solved, cards laid) of a try whose turn is over; None while it goes on."""
    if record.state is None or DATA not in record.options or not _over(record.state):
        return None
    p = _puzzle(record)
    laid = puzzles.laid(p, GameState.from_dict(record.state))
    return puzzles.solved(p, laid), laid


def verdict_text(record: Record) -> str:
    found = verdict(record)
    if found is None:
        return ""
    solved, laid = found
    most = _puzzle(record).most
    if solved:
        return tn("🧩 Solved: {n} card, the most there was.",
                  "🧩 Solved: {n} cards, the most there was.", most)
    return t("🧩 You laid {laid} of the {most} that could go down. The solution comes with "
             "tomorrow's puzzle.", laid=laid, most=most)


class RummyPuzzle(RummyGame):
    """The rummy game, played as one turn of a puzzle (see the module docstring)."""

    offers_review = False

    def to_move(self, state: Mapping[str, Any]) -> int | None:
        return None if _over(state) else 0

    def is_over(self, state: Mapping[str, Any]) -> bool:
        return _over(state)

    def rounds(self, state: Mapping[str, Any]) -> Sequence[Sequence[int]]:
        return ()

    def results(self, record: Record) -> Results | None:
        return None  # never rated: the board counts tries

    def review(self, table: Table, seat: int, round: int | None) -> Screen:
        raise Refusal(_("This is a puzzle: its solution comes with tomorrow's."))

    def press(self, table: Table, seat: int | None, user: str, press: Press) -> Outcome:
        if press.verb == "hint":
            raise Refusal(_("No hints in a puzzle: it is yours to find."))
        return super().press(table, seat, user, press)

    def typed(self, table: Table, seat: int, user: str, verb: str, args: str) -> Outcome:
        if verb == "hint":
            raise Refusal(_("No hints in a puzzle: it is yours to find."))
        return super().typed(table, seat, user, verb, args)

    def table_screen(self, table: Table) -> Screen:
        return self._judged(super().table_screen(table), table.record)

    def private_screen(self, table: Table, seat: int) -> Screen:
        return self._judged(super().private_screen(table, seat), table.record)

    def _everything(self, table: Table, state: GameState, **kwargs: Any) -> Outcome:
        out = super()._everything(table, state, **kwargs)
        if out.group is not None:
            self._judged(out.group, table.record)
        for screen in out.private.values():
            self._judged(screen, table.record)
        out.notes = []  # no scores: a try is judged, not counted
        return out

    @staticmethod
    def _judged(screen: Screen, record: Record) -> Screen:
        """Once the turn is over, the screen says how the try went and offers nothing."""
        text = verdict_text(record)
        if text:
            screen.text, screen.parts, screen.notice = text, [], text
        return screen
