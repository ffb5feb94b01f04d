"""The one error every game's engine raises for a refused action: a sentence for logs and
tests, a stable `code` for programs (each game lists its codes: engine/rummy/reasons.py,
engine/buildten/rules.py) and the `params` the sentence names; the bot's words for a code are
in the game's wing."""

from __future__ import annotations

from typing import Any


class IllegalAction(Exception):
    """A rejected action: `str(error)` is a sentence a player can read, `code` a stable name
    for programs and `params` the values the sentence names. `IllegalAction("sentence")` alone
    (raised outside the engine) has code "illegal".
    """

    def __init__(self, message: str, *, code: str = "illegal", **params: Any) -> None:
        super().__init__(message)
        self.code = code
        self.params: dict[str, Any] = params

    @property
    def reason(self) -> str:
        return str(self)


# The codes every turn-based game's engine may raise, with their meaning (each game's reasons
# add its own: engine/rummy/reasons.py, engine/buildten/reasons.py).
SHARED_REASONS: dict[str, str] = {
    "seat_not_in_game": "the action's seat is not a seat of this game",
    "game_over": "the game is over: nothing more can be played",
    "not_your_turn": "another seat is on turn",
    "unknown_action": "the action's kind is not one the game knows",
    "illegal": "a refusal that gave no code of its own (raised outside the engine)",
}
