"""The values the store hands to the core: frozen rows and the two errors it raises."""

from __future__ import annotations

from dataclasses import dataclass, field
from datetime import datetime

ACTIVE_STATUSES = ("lobby", "playing")
DONE_STATUSES = ("finished", "ended")
STATUSES = (*ACTIVE_STATUSES, *DONE_STATUSES)


class StaleGame(Exception):
    """The game row's version moved on since the caller loaded it: reload and retry."""

    def __init__(self, game_id: int | None = None, expected_version: int | None = None) -> None:
        super().__init__(f"game {game_id} is no longer at version {expected_version}")
        self.game_id = game_id
        self.expected_version = expected_version


class Duplicate(Exception):
    """This update's key was seen already: it changed the game once, it changes nothing now."""

    def __init__(self, key: str) -> None:
        super().__init__(f"update {key} was applied already")
        self.key = key


class GameExists(Exception):
    """The chat already has an active (lobby/playing) game; `game_id` names it."""

    def __init__(self, game_id: int) -> None:
        super().__init__(f"this chat already has an active game ({game_id})")
        self.game_id = game_id


@dataclass(frozen=True)
class GameRow:
    id: int
    platform: str
    chat_id: str
    status: str  # "lobby" | "playing" | "finished" | "ended"
    record: dict  # the core's JSON-safe blob
    version: int
    created_at: datetime
    updated_at: datetime
    due_at: float | None = None  # epoch s of the next background work (timer, computer move)


@dataclass(frozen=True)
class SeatRow:
    seat_no: int
    player_id: int | None
    name: str
    computer_level: str | None


@dataclass(frozen=True)
class RoundRow:
    round_no: int
    points: list[int]  # list index = seat position
    totals: list[int]  # running totals after this round


@dataclass(frozen=True)
class ResultSeat:
    seat_no: int
    player_id: int | None
    name: str
    computer_level: str | None
    points: int
    won: float  # 1 win, 0.5 shared win, 0 loss
    rank: int  # 1 = best; tied seats share a rank
    best_round: int | None = None  # the seat's best round of the game (the game's way)


@dataclass(frozen=True)
class GameResult:
    rulebook: str
    seats: list[ResultSeat]
    higher_is_better: bool = False  # which way the points count


@dataclass(frozen=True)
class RulebookStats:
    """A player's games of one rulebook (over all chats): /stats' rows."""

    rulebook: str
    games: int
    wins: float
    avg_points: float
    best_round: int | None  # their best round in it, the rulebook's way; None: not known


@dataclass(frozen=True)
class SeasonRow:
    """A person's season in a chat: points (1 a game, more a win), games, wins."""

    name: str
    points: float
    games: int
    wins: float


@dataclass(frozen=True)
class LeaderRow:
    name: str
    rating: float
    games: int
    wins: float
    win_rate: float
    avg_points: float
    is_computer: bool


@dataclass(frozen=True)
class PlayerStats:
    name: str
    games: int
    wins: float
    win_rate: float
    avg_points: float
    rating: float
    # (finished_at, rulebook, points, won), newest first
    history: list[tuple[datetime, str, int, float]]
    # their rating after each of their newest games, oldest first (/stats' curve)
    ratings: list[tuple[datetime, float]] = field(default_factory=list)
    by_rulebook: list[RulebookStats] = field(default_factory=list)  # most played first
