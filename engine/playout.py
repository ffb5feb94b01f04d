"""Whole games between computer seats, checking the invariants after every action.

Used by `rummy simulate` and the conformance tests. Pure: the caller times it if it wants.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass, field

from .actions import Action, Finish, IllegalAction, NextRound
from .ai import choose_action
from .game import apply, new_game, player_view
from .melds import readings
from .rulebooks import Rulebook
from .state import GameState, conservation_errors

MAX_ACTIONS = 20_000
SHANGHAI_ROUNDS = 3  # Shanghai has no fixed end: simulated players finish after this many


@dataclass
class GameRecord:
    state: GameState
    actions: int = 0
    turns: int = 0
    violations: list[str] = field(default_factory=list)

    @property
    def winners(self) -> list[int]:
        return list(self.state.result["winners"]) if self.state.result else []


def table_errors(state: GameState) -> list[str]:
    rules = state.rules
    errors = []
    for i, group in enumerate(state.table):
        if len(group) < 3 or not readings(group, rules.ace, max_jokers=rules.max_jokers_per_group):
            errors.append(f"invalid group {i}: {' '.join(map(str, group))}")
        if any(c.is_joker and not c.designated for c in group):
            errors.append(f"undesignated joker in group {i}")
    return errors


def play_game(
    rulebook: Rulebook,
    levels: Sequence[str],
    seed: int,
    *,
    check: bool = True,
    on_action: Callable[[GameState, Action, GameState], None] | None = None,
) -> GameRecord:
    state = new_game(rulebook, len(levels), seed)
    record = GameRecord(state)
    while state.phase != "game_over":
        if record.actions >= MAX_ACTIONS:
            record.violations.append(f"no end after {MAX_ACTIONS} actions")
            break
        action = _next_action(state, rulebook, levels)
        try:
            new_state, _ = apply(state, action)
        except IllegalAction as error:
            record.violations.append(
                f"round {state.round}: seat {action.seat} {action.kind} refused: {error}"
            )
            break
        if check:
            problems = conservation_errors(new_state) + table_errors(new_state)
            record.violations += [f"after {action.kind}: {p}" for p in problems]
        if on_action:
            on_action(state, action, new_state)
        if new_state.turn != state.turn or new_state.round != state.round:
            record.turns += 1
        state = new_state
        record.actions += 1
        if record.violations:
            break
    record.state = state
    return record


def _next_action(state: GameState, rulebook: Rulebook, levels: Sequence[str]) -> Action:
    if state.phase == "round_over":
        if rulebook.length == "open" and state.round >= SHANGHAI_ROUNDS:
            return Finish(0)
        return NextRound(0)
    view = player_view(state, state.turn)
    return choose_action(view, levels[state.turn])
