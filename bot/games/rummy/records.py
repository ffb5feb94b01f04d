"""The rummy family's reading of the platform's game record: its rulebook (with the record's
options) and its engine state (the record holds the state as the engine's JSON-safe dict)."""

from __future__ import annotations

from typing import Any

from engine.rummy import GameState, Rulebook, get_rulebook


def rules_of(record: Any) -> Rulebook:
    """The rulebook a record's game is played by: once dealt, its state's (a variant's record —
    a puzzle's try — names the variant, not a rulebook); in the lobby, the chosen one."""
    if record.state is not None:
        return get_rulebook(record.state["rulebook"], **record.state.get("options", {}))
    return get_rulebook(record.rulebook, **record.options)


def state_of(record: Any) -> GameState | None:
    """The engine state a record holds (None in the lobby)."""
    return None if record.state is None else GameState.from_dict(record.state)
