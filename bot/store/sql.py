"""Small SQL helpers shared by the repository modules."""

from __future__ import annotations

from sqlalchemy import Table
from sqlalchemy.dialects import postgresql, sqlite
from sqlalchemy.ext.asyncio import AsyncConnection


def insert_for(conn: AsyncConnection, table: Table) -> postgresql.Insert | sqlite.Insert:
    """An INSERT that knows ON CONFLICT (both backends spell it the same way)."""
    if conn.dialect.name == "postgresql":
        return postgresql.insert(table)
    if conn.dialect.name == "sqlite":
        return sqlite.insert(table)
    raise NotImplementedError(f"no ON CONFLICT support for {conn.dialect.name}")
