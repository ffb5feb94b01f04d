"""The one contract every game's rules implement (DESIGN.md, "One contract, many games").

In the spirit of OpenSpiel's game/state and boardgame.io's game definition: a game names its
variants and options (with defaults), deals a state from settings, seats and a seed, says whose
move it is and which moves are open, applies one action to give a new state and its events,
shows a seat (or a spectator) only what it may see, says the result once it is over and plays a
computer seat. Everything here is pure: no I/O, no clock; randomness only from the seed.

The platform plays a game through this alone (bot/core/turns.py: whose turn, computer seats,
the turn timer); a game's host adds only what is that game's (its screens and words). One
conformance test runs every registered game through it (tests/test_contract.py), so the members
below also say what that test needs: state and action to and from JSON, the game's own
invariant check, and which pieces a seat must not see.

A refused action raises `IllegalAction` (a sentence, a stable `code` and the `params` it
names) — one error for every game, and it changes nothing.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field, fields, is_dataclass
from typing import Any, Protocol

from .errors import IllegalAction  # the one refusal every game raises (code + params)

__all__ = [
    "GameRules", "IllegalAction", "Result", "Settings", "Trial", "VariantSpec", "to_jsonable",
]


@dataclass(frozen=True)
class VariantSpec:
    """One way to play (a rulebook): its options' choices and their defaults."""

    name: str
    options: Mapping[str, tuple[Any, ...]] = field(default_factory=dict)  # key -> choices
    defaults: Mapping[str, Any] = field(default_factory=dict)  # key -> the default choice


@dataclass(frozen=True)
class Settings:
    """A variant with its options (those left out take their defaults)."""

    variant: str
    options: Mapping[str, Any] = field(default_factory=dict)


@dataclass(frozen=True)
class Result:
    """A finished game: every seat's total, who won (several: a draw) and which way totals
    count (penalty points, cards left: lower is better)."""

    totals: tuple[int, ...]
    winners: tuple[int, ...]
    higher_is_better: bool


@dataclass(frozen=True)
class Trial:
    """Settings and a seat count the conformance test plays to the end (a game names a few
    that between them reach its variants and options)."""

    settings: Settings
    seats: int
    levels: tuple[str, ...] = ()  # the computer level per seat (empty: the game's first)


class GameRules(Protocol):
    """A game's rules as the platform and the conformance test use them. `State`, `Action`,
    `View` and events are the game's own types; JSON crosses the boundary where bytes do."""

    name: str  # "rummy", "build-to-ten": the registry's key
    min_seats: int
    max_seats: int
    levels: tuple[str, ...]  # computer levels, weakest first
    # variants and their options with defaults: what a lobby offers and `new_game` accepts
    variants: tuple[VariantSpec, ...]
    # a few settings and seat counts the conformance test plays (tests/test_contract.py)
    trials: tuple[Trial, ...]

    def new_game(self, settings: Settings, seats: int, seed: int) -> Any:
        """A fresh state, dealt from `seed` alone (the same seed deals the same game).
        ValueError for settings or a seat count the game doesn't have."""
        ...

    def to_move(self, state: Any) -> int | None:
        """The seat whose move it is; None when the game is over, or between rounds when any
        seat may go on (then `legal_actions` says who can)."""
        ...

    def legal_actions(self, state: Any, seat: int) -> Sequence[Any]:
        """Complete actions `seat` may take now, each of which `apply` accepts: every one for a
        game with few moves; a game whose moves are unbounded (rummy's table edits) lists its
        fixed ones, and its computer (`choose_action`) plays the rest. Empty: nothing to do."""
        ...

    def apply(self, state: Any, action: Any) -> tuple[Any, list[Any]]:
        """The new state and what happened (events). The given state is never changed;
        `IllegalAction` for a move the rules refuse."""
        ...

    def player_view(self, state: Any, seat: int | None) -> Any:
        """What `seat` may see (None: a spectator — only what every seat sees). All a screen
        and a computer player decide from: hidden pieces never reach a view."""
        ...

    def result(self, state: Any) -> Result | None:
        """The result once the game is over, else None."""
        ...

    def choose_action(self, view: Any, level: str) -> Any:
        """The computer's action for the view's seat at `level`: a pure function of the view
        (a game replays the same from its seed and actions)."""
        ...

    def time_up(self, state: Any, seat: int) -> Any | None:
        """The action a rule's turn timer forces on `seat` when it runs out (Rummikub gives
        the turn up, RULES.md §5), or None when the game has no such rule (the platform's own
        timer only lets the computer finish the turn)."""
        ...

    # -- what saving, replaying and the conformance test need ----------------------------
    def state_to_json(self, state: Any) -> dict[str, Any]: ...

    def state_from_json(self, data: Mapping[str, Any]) -> Any: ...

    def action_to_json(self, action: Any) -> dict[str, Any]: ...

    def action_from_json(self, data: Mapping[str, Any]) -> Any: ...

    def view_to_json(self, view: Any) -> Any:
        """The view as JSON-safe data (the form the web table and the hidden check read)."""
        ...

    def invariant_errors(self, state: Any) -> list[str]:
        """What is wrong with a state (conservation: every piece in exactly one place, and the
        game's own shape rules); [] for a sound one. Run after every action in the tests."""
        ...

    def hidden(self, state: Any, seat: int | None) -> frozenset[str]:
        """The tokens of the pieces `seat` (None: a spectator) must not see now — other hands,
        the stock's order. Each piece's token is unique in its game, so a view's JSON that
        names one has leaked it."""
        ...


def to_jsonable(value: Any) -> Any:
    """A view (dataclasses, tuples, sets, pieces) as JSON-safe data: a piece — anything with
    a string `token` — is written as its token, so the hidden check reads pieces by token."""
    token = getattr(value, "token", None)
    if isinstance(token, str):
        return token
    if isinstance(value, (str, int, float, bool)) or value is None:
        return value
    if is_dataclass(value) and not isinstance(value, type):
        return {f.name: to_jsonable(getattr(value, f.name)) for f in fields(value)}
    if isinstance(value, Mapping):
        return {str(k): to_jsonable(v) for k, v in value.items()}
    if isinstance(value, (set, frozenset)):
        return sorted((to_jsonable(v) for v in value), key=repr)
    if isinstance(value, (list, tuple)):
        return [to_jsonable(v) for v in value]
    raise TypeError(f"not JSON-safe: {type(value).__name__}")
