"""What simulated whole games share: the table check run after every action, the action cap
and Shanghai's simulated length (`rummy simulate` and the conformance tests play the games)."""

from __future__ import annotations

from .melds import is_meld
from .state import GameState

MAX_ACTIONS = 20_000
SHANGHAI_ROUNDS = 3  # Shanghai has no fixed end: simulated players finish after this many


def table_errors(state: GameState) -> list[str]:
    rules = state.rules
    errors = []
    for i, group in enumerate(state.table):
        if not is_meld(rules, group):
            errors.append(f"invalid group {i}: {' '.join(map(str, group))}")
        if any(c.is_joker and not c.designated for c in group):
            errors.append(f"undesignated joker in group {i}")
    return errors
