"""Build-to-Ten behind the one game contract (engine/contract.py): a thin adapter over this
package's facade — no rule is decided here."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import replace
from typing import Any

from ..contract import Result, Settings, Trial, VariantSpec, to_jsonable
from .actions import Action, action_from_dict, to_dict
from .ai import LEVELS
from .ai import choose_action as _choose_action
from .check import state_errors
from .deal import new_game as _new_game
from .rules import Event
from .rules import apply as _apply
from .rules import legal_actions as _legal_actions
from .state import BuildState
from .view import BuildView
from .view import player_view as _player_view

VARIANT = "buildten"


class BuildTenRules:
    """Build-to-Ten's rules: one variant, no options (its lesson is the host's: a worked
    example dealt by lessons/buildten, played under these same rules)."""

    name = "build-to-ten"
    min_seats = 2
    max_seats = 4
    levels = LEVELS
    variants = (VariantSpec(VARIANT),)
    trials = (
        Trial(Settings(VARIANT), 2, ("hard", "easy")),
        Trial(Settings(VARIANT), 3, ("medium", "easy", "hard")),
        Trial(Settings(VARIANT), 4),
    )

    def new_game(self, settings: Settings, seats: int, seed: int) -> BuildState:
        if settings.variant != VARIANT or settings.options:
            raise ValueError(f"Build-to-Ten has no variant {settings.variant!r} or options")
        if not self.min_seats <= seats <= self.max_seats:
            raise ValueError(f"Build-to-Ten is for 2 to 4 players, not {seats}")
        return _new_game(seats, seed)

    def to_move(self, state: BuildState) -> int | None:
        return None if state.over else state.turn

    def legal_actions(self, state: BuildState, seat: int) -> Sequence[Action]:
        return _legal_actions(state) if self.to_move(state) == seat else []

    def apply(self, state: BuildState, action: Action) -> tuple[BuildState, list[Event]]:
        return _apply(state, action)

    def player_view(self, state: BuildState, seat: int | None) -> BuildView:
        if seat is not None:
            return _player_view(state, seat)
        # a spectator: every seat's view without its own hand
        return replace(_player_view(state, state.turn), seat=-1, hand=())

    def result(self, state: BuildState) -> Result | None:
        """Decision 9: the winners; the totals are cards left in each stock (fewer is
        better)."""
        if not state.over:
            return None
        return Result(tuple(len(s) for s in state.stocks), tuple(state.winners),
                      higher_is_better=False)

    def choose_action(self, view: BuildView, level: str) -> Action:
        return _choose_action(view, level)

    def time_up(self, state: BuildState, seat: int) -> Action | None:
        return None  # no rule of the game is timed

    # -- saving, replaying, checking ------------------------------------------------------
    def state_to_json(self, state: BuildState) -> dict[str, Any]:
        return state.to_dict()

    def state_from_json(self, data: Mapping[str, Any]) -> BuildState:
        return BuildState.from_dict(dict(data))

    def action_to_json(self, action: Action) -> dict[str, Any]:
        return to_dict(action)

    def action_from_json(self, data: Mapping[str, Any]) -> Action:
        return action_from_dict(dict(data))

    def view_to_json(self, view: BuildView) -> Any:
        return to_jsonable(view)

    def invariant_errors(self, state: BuildState) -> list[str]:
        return state_errors(state)

    def hidden(self, state: BuildState, seat: int | None) -> frozenset[str]:
        """Other hands, every face-down stock card (a seat's own too) and the general stock."""
        hands = [c for i, hand in enumerate(state.hands) if i != seat for c in hand]
        face_down = [c for stock in state.stocks for c in stock[1:]]
        return frozenset([*hands, *face_down, *state.general])
