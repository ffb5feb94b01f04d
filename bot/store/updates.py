"""Chat updates: the idempotency keys of the updates that changed a game (`seen_updates`), and
the inbox of long polling (updates fetched and not yet handled, bot/adapters/telegram_polling.py).
"""

from __future__ import annotations

import time
from collections.abc import Sequence
from typing import Any

from sqlalchemy import delete, select
from sqlalchemy.ext.asyncio import AsyncConnection

from . import models as db
from .base import StoreBase
from .rows import Duplicate
from .sql import insert_for


class UpdatesStore(StoreBase):
    async def seen(self, key: str, held: Any = None) -> bool:
        """Has this update's key changed a game already? (`held`: in that game's transaction.)"""
        query = select(db.seen_updates.c.key).where(db.seen_updates.c.key == key)
        if held is not None:
            return (await held.conn.execute(query)).first() is not None
        async with self._engine.connect() as conn:
            return (await conn.execute(query)).first() is not None

    async def forget_updates(self, before: float) -> int:
        """Drop the update keys seen before `before` (epoch s): a platform redelivers an update
        within minutes, not days. How many went."""
        async with self._write() as conn:
            gone = await conn.execute(
                delete(db.seen_updates).where(db.seen_updates.c.seen_at < before)
            )
            return max(gone.rowcount or 0, 0)

    async def inbox_put(self, rows: Sequence[tuple[str, str]], done: Sequence[str] = ()) -> None:
        """In one transaction: forget the handled updates `done`, keep the fetched `rows`
        (key, body) until they are handled (a key kept already stays as it is)."""
        now = time.time()
        async with self._write() as conn:
            if done:
                await conn.execute(delete(db.inbox).where(db.inbox.c.key.in_(list(done))))
            if rows:
                stmt = insert_for(conn, db.inbox).on_conflict_do_nothing()
                await conn.execute(stmt, [{"key": k, "body": b, "at": now} for k, b in rows])

    async def inbox_pending(self, limit: int = 10_000) -> list[tuple[str, str]]:
        """The updates fetched and not yet handled (key, body), oldest first."""
        i = db.inbox.c
        async with self._engine.connect() as conn:
            rows = await conn.execute(select(i.key, i.body).order_by(i.at, i.key).limit(limit))
            return [(row.key, row.body) for row in rows]


async def remember_update(conn: AsyncConnection, key: str) -> None:
    """Insert the update's key; Duplicate if it is there (ON CONFLICT: no error, so a
    transaction holding a game's lock stays usable)."""
    stmt = insert_for(conn, db.seen_updates).values(key=key, seen_at=db.utcnow().timestamp())
    done = await conn.execute(stmt.on_conflict_do_nothing().returning(db.seen_updates.c.key))
    if done.first() is None:
        raise Duplicate(key)
