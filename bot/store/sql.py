"""Small SQL helpers shared by the repository modules."""

from __future__ import annotations

from typing import Any

from sqlalchemy import Table, or_, update
from sqlalchemy.dialects import postgresql, sqlite
from sqlalchemy.ext.asyncio import AsyncConnection


def insert_for(conn: AsyncConnection, table: Table) -> postgresql.Insert | sqlite.Insert:
    """An INSERT that knows ON CONFLICT (both backends spell it the same way)."""
    if conn.dialect.name == "postgresql":
        return postgresql.insert(table)
    if conn.dialect.name == "sqlite":
        return sqlite.insert(table)
    raise NotImplementedError(f"no ON CONFLICT support for {conn.dialect.name}")


async def claim(conn: AsyncConnection, table: Table, key: dict[str, Any],
                values: dict[str, Any], owner: str, now: float, lease: float) -> bool:
    """Claim a row to post once (a season's end, a day's puzzle: one row per key, columns
    `owner`, `lease_until`, `posted_at`): True for the one worker whose claim holds — a new row
    (with `values`), or one another worker claimed and let lapse, never one posted."""
    c = table.c
    first = c[next(iter(key))]
    made = await conn.execute(
        insert_for(conn, table)
        .values(**key, **values, owner=owner, lease_until=now + lease)
        .on_conflict_do_nothing()
        .returning(first))
    if made.first() is not None:
        return True
    taken = await conn.execute(
        update(table)
        .where(*(c[k] == v for k, v in key.items()), c.posted_at.is_(None),
               or_(c.lease_until < now, c.owner == owner))
        .values(owner=owner, lease_until=now + lease)
        .returning(first))
    return taken.first() is not None


async def posted(conn: AsyncConnection, table: Table, key: dict[str, Any], owner: str,
                 at: Any) -> None:
    """The claimed row was posted (by its owner): kept, never claimed again."""
    c = table.c
    await conn.execute(update(table).where(*(c[k] == v for k, v in key.items()),
                                           c.owner == owner)
                       .values(posted_at=at, lease_until=None))
