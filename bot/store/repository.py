"""`Store`: the async repository the bot core calls — one object composed of the store's jobs.

Every method is one transaction, committed before it returns, so whatever the bot answers
afterwards is already durable (on SQLite saves arriving together share one: group_commit.py).
Writes take SQLite's write lock up front (see engine.py); on PostgreSQL the game row's
`version` gives optimistic concurrency and the partial unique index `uq_games_active_chat`
keeps one active game per chat.

Each job lives in its own module, a mixin of `StoreBase` (base.py: the engine, SQLite's writer
gate, the row cache): games.py (game rows, saves, row locks, seats, the action log),
delivery_refs.py (message ids and the rest of delivery's state, out of the game row),
jobs.py (due background work, claimed with a lease), outbox.py (the screens a save owes),
updates.py (idempotency keys, the polling inbox), players.py (players and languages),
scores.py (rounds, results, leaderboard, stats), upkeep.py (due/idle games, pruning) and
notify.py (/notify's calls).
Mixins rather than a facade of parts: the jobs share one engine, one write gate and one row
cache, and a save writes several jobs' rows in one transaction; callers (and the tests'
doubles) keep calling `store.x(...)` as before.
"""

from __future__ import annotations

from .base import StoreBase
from .delivery_refs import DeliveryRefsStore, MessageLock
from .engine import make_engine
from .games import KEEP, GamesStore, Held
from .jobs import JOB_KINDS, Job, JobsStore
from .migrate import run_migrations
from .notify import NotifyStore
from .players import PlayersStore, upsert_player
from .puzzles import PuzzlesStore
from .scores import ScoresStore
from .seasons import SeasonsStore
from .updates import UpdatesStore
from .upkeep import PRUNE_BATCH, UpkeepStore
from .urls import database_url

__all__ = [
    "JOB_KINDS", "KEEP", "PRUNE_BATCH", "Held", "Job", "MessageLock", "Store", "upsert_player",
]


class Store(
    GamesStore, DeliveryRefsStore, JobsStore, UpdatesStore, PlayersStore, ScoresStore,
    SeasonsStore, UpkeepStore, NotifyStore, PuzzlesStore, StoreBase,
):
    """Players, chats, games, seats, rounds and results; open with `await Store.open()`."""

    @classmethod
    async def open(cls, url: str | None = None) -> Store:
        """Connect (url None: DATABASE_URL, else SQLite data/rummy.db) and migrate to head."""
        engine = make_engine(database_url(url))
        try:
            await run_migrations(engine)
        except BaseException:
            await engine.dispose()
            raise
        return cls(engine)
