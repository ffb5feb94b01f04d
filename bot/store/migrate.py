"""Run the Alembic migrations in migrations/ from code (Store.open, `rummy migrate`, tests).

Alembic's recipe "Programmatic API use (connection sharing) with asyncio": we open the async
connection, and env.py runs the migrations on the sync connection it finds in
`config.attributes["connection"]`. No ini file is read here, so the app's logging stays as is.
"""

from __future__ import annotations

import asyncio
from pathlib import Path
from typing import Literal

from alembic import command
from alembic.config import Config
from alembic.runtime.migration import MigrationContext
from alembic.script import ScriptDirectory
from sqlalchemy import Connection, text
from sqlalchemy.engine import URL
from sqlalchemy.ext.asyncio import AsyncConnection, AsyncEngine

from .engine import make_engine, writer
from .urls import database_url

MIGRATIONS_DIR = Path(__file__).resolve().parents[2] / "migrations"
# pg_advisory_xact_lock key ("rummy" in ASCII): concurrent starters migrate one at a time.
_LOCK_KEY = 0x72756D6D79


def alembic_config() -> Config:
    config = Config()
    config.set_main_option("script_location", str(MIGRATIONS_DIR).replace("%", "%%"))
    return config


def head_revision() -> str | None:
    return ScriptDirectory.from_config(alembic_config()).get_current_head()


async def run_migrations(
    engine: AsyncEngine,
    action: Literal["upgrade", "downgrade"] = "upgrade",
    revision: str = "head",
) -> None:
    """Upgrade/downgrade in one transaction (DDL is transactional on both backends)."""
    async with writer(engine).begin() as conn:
        await lock_for_migration(conn)
        await conn.run_sync(_run, alembic_config(), action, revision)


async def lock_for_migration(conn: AsyncConnection) -> None:
    """Several workers may start at once: one migrates, the others wait, then find head.

    SQLite needs nothing more: the writer's BEGIN IMMEDIATE already serialises them.
    """
    if conn.dialect.name == "postgresql":
        await conn.execute(text("SELECT pg_advisory_xact_lock(:key)"), {"key": _LOCK_KEY})


def _run(connection: Connection, config: Config, action: str, revision: str) -> None:
    config.attributes["connection"] = connection
    if action == "upgrade":
        command.upgrade(config, revision)
    else:
        command.downgrade(config, revision)


async def current_revision(engine: AsyncEngine) -> str | None:
    async with engine.connect() as conn:
        return await conn.run_sync(
            lambda sync: MigrationContext.configure(sync).get_current_revision()
        )


async def upgrade(url: str | URL | None = None, revision: str = "head") -> str | None:
    """Migrate the database at `url` (None: DATABASE_URL or the SQLite default); new revision."""
    engine = make_engine(database_url(url))
    try:
        await run_migrations(engine, "upgrade", revision)
        return await current_revision(engine)
    finally:
        await engine.dispose()


async def downgrade(url: str | URL | None, revision: str = "base") -> str | None:
    engine = make_engine(database_url(url))
    try:
        await run_migrations(engine, "downgrade", revision)
        return await current_revision(engine)
    finally:
        await engine.dispose()


def migrate(url: str | None = None, revision: str = "head") -> str:
    """For `rummy migrate` (sync; not inside a running event loop). Returns a line to print."""
    resolved = database_url(url)
    now = asyncio.run(upgrade(resolved, revision))
    return f"{resolved.render_as_string(hide_password=True)} is at revision {now or 'base'}"
