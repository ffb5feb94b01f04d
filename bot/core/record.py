"""The game record the core keeps in the store: settings, seats, engine state, per-seat UI state.

Plain JSON-safe data (the store saves it as one JSON document with a version for optimistic
concurrency), so any worker can serve any update and a restart loses nothing.
"""

from __future__ import annotations

from dataclasses import asdict, dataclass, field
from typing import Any

from engine import GameState, Rulebook, get_rulebook

DEFAULT_TURN_SECONDS = 180
TIMEOUTS_BEFORE_COMPUTER = 3


@dataclass
class SeatInfo:
    name: str
    user: str | None = None  # platform user id; None for a computer seat
    player_id: int | None = None
    computer: str | None = None  # level for a computer seat
    timeouts: int = 0  # turn timer expiries in a row
    was_human: bool = False  # a person's seat taken over by the computer

    @property
    def is_computer(self) -> bool:
        return self.computer is not None


@dataclass
class SeatUI:
    """What one seat's private message shows besides the game: selection, mode, sort, page."""

    selected: list[str] = field(default_factory=list)  # Card tokens
    mode: str = "main"  # main | add | take | take:<group> | joker
    sort: str = "suit"
    page: int = 0
    notice: str = ""  # one line for the next private screen (an error, a hint…)
    joker_group: int | None = None
    joker_options: list[list[str]] = field(default_factory=list)


@dataclass
class Record:
    rulebook: str = "manipulation"
    options: dict[str, Any] = field(default_factory=dict)
    host: str = ""  # user id of the creator
    seats: list[SeatInfo] = field(default_factory=list)
    state: dict[str, Any] | None = None  # engine GameState.to_dict(); None in the lobby
    ui: dict[str, SeatUI] = field(default_factory=dict)  # by seat number (as str, for JSON)
    turn_seconds: int = DEFAULT_TURN_SECONDS
    deadline: float | None = None  # wall clock (epoch s) when the current human turn times out
    warned: bool = False  # the half-time reminder was sent
    log: list[str] = field(default_factory=list)  # recent log lines (the caption shows the last)
    refs: dict[str, Any] = field(default_factory=dict)  # adapter message ids (table, private…)
    seed: int = 0
    lesson: dict[str, Any] | None = None

    # -- conversions ----------------------------------------------------------------------

    def to_dict(self) -> dict[str, Any]:
        return asdict(self)

    @classmethod
    def from_dict(cls, data: dict[str, Any]) -> Record:
        data = dict(data)
        data["seats"] = [SeatInfo(**s) for s in data.get("seats", [])]
        data["ui"] = {k: SeatUI(**v) for k, v in data.get("ui", {}).items()}
        return cls(**data)

    # -- helpers --------------------------------------------------------------------------

    @property
    def rules(self) -> Rulebook:
        return get_rulebook(self.rulebook, **self.options)

    def game(self) -> GameState | None:
        return None if self.state is None else GameState.from_dict(self.state)

    def seat_of(self, user: str) -> int | None:
        for i, seat in enumerate(self.seats):
            if seat.user == user and not seat.is_computer:
                return i
        return None

    def seat_ui(self, seat: int) -> SeatUI:
        return self.ui.setdefault(str(seat), SeatUI())

    def humans(self) -> list[int]:
        return [i for i, s in enumerate(self.seats) if not s.is_computer]

    def add_log(self, line: str) -> None:
        self.log = [*self.log[-19:], line]
