"""Persistence for Rummy Table: SQLAlchemy async over SQLite (default) or PostgreSQL.

    store = await Store.open()          # DATABASE_URL, else sqlite data/rummy.db; migrates
    game = await store.create_game("telegram", "-100123", {"rulebook": "manipulation"})
    game = await store.save_game(game.id, record, expected_version=game.version)
    game = await store.save_game(game.id, record, expected_version=game.version,
                                 actions=[new_action], due_at=deadline)  # log: game_actions()
    await store.due_games(time.time()); await store.prune(finished_before, lessons_before)

`migrate(url)` is the sync entry point for `rummy migrate`.
"""

from .migrate import migrate
from .ratings import display_rating
from .repository import Store
from .rows import (
    Duplicate,
    GameExists,
    GameResult,
    GameRow,
    LeaderRow,
    PlayerStats,
    ResultSeat,
    RoundRow,
    RulebookStats,
    SeasonRow,
    SeatRow,
    StaleGame,
)
from .urls import DEFAULT_URL, database_url

__all__ = [
    "DEFAULT_URL",
    "Duplicate",
    "GameExists",
    "GameResult",
    "GameRow",
    "LeaderRow",
    "PlayerStats",
    "ResultSeat",
    "RoundRow",
    "RulebookStats",
    "SeasonRow",
    "SeatRow",
    "StaleGame",
    "Store",
    "database_url",
    "display_rating",
    "migrate",
]
