"""The rummy family's reading of the platform's game record: its rulebook (with the record's
options) and its engine state (the record holds the state as the engine's JSON-safe dict)."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from bot.core.record import SeatUI
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


@dataclass
class SeatAsk:
    """The rummy screen's own per-seat state, kept in the platform's `SeatUI.game` (which the
    platform stores and never reads): the group whose cards "Take from ▸" lists (mode
    "card"), and the readings a joker may take (mode "joker") in its group."""

    take: int | None = None
    joker_group: int | None = None
    joker_options: list[list[str]] = field(default_factory=list)

    @classmethod
    def of(cls, ui: SeatUI) -> SeatAsk:
        game = ui.game
        return cls(game.get("take"), game.get("joker_group"),
                   [list(o) for o in game.get("joker_options", [])])

    def keep(self, ui: SeatUI) -> None:
        """Saved into the seat's UI (only what is set: an empty one saves as {})."""
        kept: dict[str, Any] = {"take": self.take, "joker_group": self.joker_group}
        ui.game = {k: v for k, v in kept.items() if v is not None}
        if self.joker_options:
            ui.game["joker_options"] = [list(o) for o in self.joker_options]
