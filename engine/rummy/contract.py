"""The rummy family (seven card rulebooks and Rummikub) behind the one game contract
(engine/contract.py): a thin adapter over engine/rummy's facade — no rule is decided here."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import replace
from typing import Any

from ..contract import Result, Settings, Trial, VariantSpec, to_jsonable
from .actions import Action, Draw, Finish, GiveUp, NextRound, Pass, Reset, TimeUp
from .actions import action_from_dict as _action_from_dict
from .ai import LEVELS
from .ai import choose_action as _choose_action
from .game import Event, PlayerView
from .game import apply as _apply
from .game import legal_actions as _legal_kinds
from .game import new_game as _new_game
from .game import player_view as _player_view
from .playout import table_errors
from .rulebooks import ALL_RULEBOOKS, get_rulebook, option_choices
from .state import GameState, conservation_errors

# The action kinds legal_actions names that are complete without a choice (the rest — laying,
# table edits, Done, knocking — are built by the computer or a person's draft).
_FIXED: dict[str, type[Action]] = {
    "draw": Draw, "pass": Pass, "reset": Reset, "give_up": GiveUp,
    "next_round": NextRound, "finish": Finish,
}
MAX_SEATS = 5


def _spec(name: str) -> VariantSpec:
    choices = option_choices(name)  # first = default
    return VariantSpec(name, choices, {k: v[0] for k, v in choices.items()})


class RummyRules:
    """The rummy family's rules: one game, its rulebooks as variants."""

    name = "rummy"
    min_seats = 2
    max_seats = MAX_SEATS
    levels = LEVELS
    variants = tuple(_spec(name) for name in ALL_RULEBOOKS)
    trials = (
        Trial(Settings("manipulation", {"must_lay": "trust"}), 2, ("medium", "easy")),
        Trial(Settings("carousel"), 3, ("medium", "easy", "hard")),
        Trial(Settings("rummikub", {"turn_timer": 60, "rounds": 1}), 3),
    )

    def new_game(self, settings: Settings, seats: int, seed: int) -> GameState:
        return _new_game(get_rulebook(settings.variant, **dict(settings.options)), seats, seed)

    def to_move(self, state: GameState) -> int | None:
        return state.turn if state.phase == "play" else None

    def legal_actions(self, state: GameState, seat: int) -> Sequence[Action]:
        return [_FIXED[kind](seat) for kind in _legal_kinds(state, seat) if kind in _FIXED]

    def apply(self, state: GameState, action: Action) -> tuple[GameState, list[Event]]:
        return _apply(state, action)

    def player_view(self, state: GameState, seat: int | None) -> PlayerView:
        if seat is not None:
            return _player_view(state, seat)
        # a spectator: what every seat sees alike — a seat's view without its own cards and
        # without what only the seat on turn sees
        seen = _player_view(state, (state.turn + 1) % state.players)
        return replace(seen, seat=-1, hand=(), draft_hand=(), first_lay_done=False, legal=())

    def result(self, state: GameState) -> Result | None:
        if state.phase != "game_over" or not state.result:
            return None
        totals = state.result.get("totals") or state.scores
        return Result(tuple(int(x) for x in totals), tuple(state.result.get("winners", [])),
                      state.rules.higher_is_better)

    def choose_action(self, view: PlayerView, level: str) -> Action:
        return _choose_action(view, level)

    def time_up(self, state: GameState, seat: int) -> Action | None:
        ruled = state.rules.turn_seconds and state.phase == "play" and state.turn == seat
        return TimeUp(seat) if ruled else None

    # -- saving, replaying, checking ------------------------------------------------------
    def state_to_json(self, state: GameState) -> dict[str, Any]:
        return state.to_dict()

    def state_from_json(self, data: Mapping[str, Any]) -> GameState:
        return GameState.from_dict(dict(data))

    def action_to_json(self, action: Action) -> dict[str, Any]:
        return action.to_dict()

    def action_from_json(self, data: Mapping[str, Any]) -> Action:
        return _action_from_dict(dict(data))

    def view_to_json(self, view: PlayerView) -> Any:
        return to_jsonable(view)

    def invariant_errors(self, state: GameState) -> list[str]:
        return conservation_errors(state) + table_errors(state)

    def hidden(self, state: GameState, seat: int | None) -> frozenset[str]:
        others = [c for i, hand in enumerate(state.hands) if i != seat for c in hand]
        return frozenset(c.free().token for c in [*others, *state.stock])
