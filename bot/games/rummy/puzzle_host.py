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
from bot.core.record import Record
from bot.core.turns import Refused
from bot.core.views import Outcome, Screen
from bot.i18n import N_, _, t, tn
from engine.rummy import GameState
from engine.rummy.actions import Draw, Hint, Pass

from .host import RummyGame
from .puzzle import KIND, try_over, try_puzzle, verdict

__all__ = ["KIND", "RummyPuzzle"]

GIVE_UP = ("draw", "pass")  # a puzzle's Draw or Pass: the try ends as it stands
NO_HINTS = N_("No hints in a puzzle: it is yours to find.")


def verdict_text(record: Record) -> str:
    found = verdict(record)
    if found is None:
        return ""
    solved, laid = found
    most = try_puzzle(record).most
    if solved:
        return tn("🧩 Solved: {n} card, the most there was.",
                  "🧩 Solved: {n} cards, the most there was.", most)
    return t("🧩 You laid {laid} of the {most} that could go down. The solution comes with "
             "tomorrow's puzzle.", laid=laid, most=most)


class RummyPuzzle(RummyGame):
    """The rummy game, played as one turn of a puzzle (see the module docstring)."""

    offers_review = False
    offers_puzzles = False  # a try is cut from nothing

    def to_move(self, state: Mapping[str, Any]) -> int | None:
        return None if try_over(state) else 0

    def is_over(self, state: Mapping[str, Any]) -> bool:
        return try_over(state)

    def rounds(self, state: Mapping[str, Any]) -> Sequence[Sequence[int]]:
        return ()

    def results(self, record: Record) -> Results | None:
        return None  # never rated: the board counts tries

    def review(self, table: Table, seat: int, round: int | None) -> Screen:
        raise Refusal(_("This is a puzzle: its solution comes with tomorrow's."))

    def gate(self, table: Table, state: Any, seat: int, action: Any) -> Refused | None:
        """Every move reaches here (a button's, a typed one's, the web page's): no hints; a
        Draw or Pass ends the try as it stands (the buttons and typed moves are answered with
        every screen before they get here: see `press`)."""
        if isinstance(action, Hint):
            return Refused(_(NO_HINTS))
        if isinstance(action, Draw | Pass) and seat == 0:
            table.record.ended = True
            return Refused(verdict_text(table.record), alert=False, mark="")
        return super().gate(table, state, seat, action)

    def press(self, table: Table, seat: int | None, user: str, press: Press) -> Outcome:
        if press.verb in GIVE_UP and seat == 0 and not try_over(table.record.state or {}):
            return self._give_up(table, user)
        return super().press(table, seat, user, press)

    def typed(self, table: Table, seat: int, user: str, verb: str, args: str) -> Outcome:
        if verb == "hint":  # (a typed hint is answered without a move: no gate sees it)
            raise Refusal(_(NO_HINTS))
        if verb in GIVE_UP and seat == 0 and not try_over(table.record.state or {}):
            return self._give_up(table, user)
        return super().typed(table, seat, user, verb, args)

    def _give_up(self, table: Table, user: str) -> Outcome:
        """Draw or Pass ends the try as it stands (a puzzle is laid from its own hand: no card
        of the stock belongs to it; Manipulation would draw until it can lay): the row ends,
        judged by what its turn has put on the table so far."""
        table.record.ended = True
        return self.screens(table)

    def web_view(self, record: Record, seat: int | None) -> dict[str, Any]:
        """The page of a try: the game's, without 💡 Hint and Show me."""
        view = super().web_view(record, seat)
        view["actions"] = [a for a in view.get("actions", []) if a not in ("hint", "show")]
        return view

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
