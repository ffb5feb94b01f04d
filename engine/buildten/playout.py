"""Whole games between computer seats with the invariants checked after every action: the one
playout loop of `rummy simulate --game build-to-ten`, the conformance tests and the strength
bench. Pure: a caller that wants decision times wraps `choose`."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass, field

from engine.errors import IllegalAction

from .actions import Action
from .check import state_errors
from .deal import new_game
from .rules import apply, legal_actions
from .state import BuildState
from .view import BuildView, player_view

MAX_ACTIONS = 20_000  # far above any real game (a few hundred actions): a loop is a violation

Chooser = Callable[[BuildView, str], Action]


def _choose(view: BuildView, level: str) -> Action:
    from .ai import choose_action  # the computer players import the rules: import late

    return choose_action(view, level)


@dataclass
class PlayedGame:
    state: BuildState
    actions: list[Action] = field(default_factory=list)
    turns: int = 0
    violations: list[str] = field(default_factory=list)

    @property
    def winners(self) -> list[int]:
        return list(self.state.winners)


def play_game(levels: Sequence[str], seed: int, *, choose: Chooser = _choose,
              check_legal: bool = False) -> PlayedGame:
    """Play a game between computer seats at `levels`; every rule broken is a violation."""
    state = new_game(len(levels), seed)
    game = PlayedGame(state)
    while not state.over:
        if len(game.actions) >= MAX_ACTIONS:
            game.violations.append(f"no end after {MAX_ACTIONS} actions")
            break
        seat = state.turn
        action = choose(player_view(state, seat), levels[seat])
        if check_legal and action not in legal_actions(state):
            game.violations.append(f"action {len(game.actions)}: {action} is not listed legal")
        try:
            new, _ = apply(state, action)
        except IllegalAction as error:
            game.violations.append(f"action {len(game.actions)}: {action}: {error}")
            break
        errors = state_errors(new)
        if errors:
            game.violations.append(f"action {len(game.actions)}: {errors}")
        if new.turn != state.turn:
            game.turns += 1
        game.actions.append(action)
        state = new
    game.state = state
    return game
