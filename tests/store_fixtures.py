"""Store fixtures: every store test runs on SQLite (a temp file) and on local PostgreSQL.

PostgreSQL: a fresh database `rummy_test_<random>` per test session on the server named by
RUMMY_TEST_POSTGRES (default postgresql://postgres@127.0.0.1:5432/test), dropped at the end.
`store_url`/`store`: migrated to head, no rows; `empty_store_url`: no tables at all.
No server -> the PostgreSQL params are skipped with the reason; under CI=true they fail instead.
"""

from __future__ import annotations

import asyncio
import os
import secrets
import shutil
from collections.abc import AsyncIterator, Iterator
from pathlib import Path

import asyncpg
import pytest
from sqlalchemy.engine import URL, make_url

from bot.store import Store
from bot.store.migrate import upgrade
from bot.store.models import metadata
from bot.store.urls import normalise_url

PG_ADMIN_URL = os.environ.get("RUMMY_TEST_POSTGRES", "postgresql://postgres@127.0.0.1:5432/test")


async def _pg_execute(url: URL, *statements: str) -> None:
    conn = await asyncpg.connect(
        host=url.host or "127.0.0.1", port=url.port or 5432, user=url.username,
        password=url.password, database=url.database, timeout=3,
    )
    try:
        for statement in statements:
            await conn.execute(statement)
    finally:
        await conn.close()


def in_ci() -> bool:
    """CI sets CI=true (GitHub Actions, GitLab, most others): there a missing server is an error."""
    return os.environ.get("CI", "").strip().lower() in ("true", "1", "yes")


def create_scratch_database(admin_url: str, name: str) -> str:
    """Create database `name` on the server at `admin_url` and return its URL. No usable
    server: skip the PostgreSQL cases, or fail them under CI (where a silent skip would hide
    that half of the store tests never ran)."""
    admin = make_url(admin_url)
    try:
        asyncio.run(_pg_execute(admin, f'CREATE DATABASE "{name}"'))
    except (OSError, TimeoutError, asyncpg.PostgresError) as error:
        where = f"no usable server at {admin.host}:{admin.port or 5432}"
        why = f"({type(error).__name__}: {error}); set RUMMY_TEST_POSTGRES to point elsewhere"
        if in_ci():
            pytest.fail(f"PostgreSQL store tests cannot run under CI=true: {where} {why}",
                        pytrace=False)
        pytest.skip(f"PostgreSQL store tests skipped: {where} {why}")
    return normalise_url(admin.set(database=name)).render_as_string(hide_password=False)


@pytest.fixture(scope="session")
def postgres_url() -> Iterator[str]:
    """URL of this session's scratch PostgreSQL database (skips when no server answers; fails
    instead under CI=true)."""
    name = f"rummy_test_{secrets.token_hex(4)}"
    url = create_scratch_database(PG_ADMIN_URL, name)
    yield url
    drop = f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)'
    asyncio.run(_pg_execute(make_url(PG_ADMIN_URL), drop))


@pytest.fixture(scope="session")
def sqlite_template(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A SQLite file migrated to head once per session; tests get copies (fast set-up)."""
    path = tmp_path_factory.mktemp("store") / "template.db"
    asyncio.run(upgrade(f"sqlite+aiosqlite:///{path}"))
    return path


@pytest.fixture(params=["sqlite", "postgresql"])
def store_backend(request: pytest.FixtureRequest) -> str:
    return request.param


@pytest.fixture
def empty_store_url(store_backend: str, request: pytest.FixtureRequest, tmp_path: Path) -> str:
    """A database with no tables at all: a new SQLite file, or the session's PG database wiped.

    Sync on purpose (like store_url): it runs outside the test's event loop, so asyncio.run
    is allowed here.
    """
    if store_backend == "sqlite":
        return f"sqlite+aiosqlite:///{tmp_path / 'rummy.db'}"
    url: str = request.getfixturevalue("postgres_url")
    asyncio.run(_pg_execute(make_url(url), *_WIPE))
    return url


@pytest.fixture
def store_url(store_backend: str, request: pytest.FixtureRequest, tmp_path: Path) -> str:
    """A database at head with no rows: a copy of the SQLite template, or PG truncated."""
    if store_backend == "sqlite":
        path = tmp_path / "rummy.db"
        shutil.copyfile(request.getfixturevalue("sqlite_template"), path)
        return f"sqlite+aiosqlite:///{path}"
    url: str = request.getfixturevalue("postgres_url")
    asyncio.run(_pg_truncate(make_url(url)))
    return url


_WIPE = ("DROP SCHEMA public CASCADE", "CREATE SCHEMA public")


async def _pg_truncate(url: URL) -> None:
    tables = ", ".join(table.name for table in metadata.sorted_tables)
    try:
        await _pg_execute(url, f"TRUNCATE {tables} RESTART IDENTITY CASCADE")
    except asyncpg.UndefinedTableError:  # a migration test left it empty: Store.open migrates
        await _pg_execute(url, *_WIPE)


@pytest.fixture
async def store(store_url: str) -> AsyncIterator[Store]:
    """An open Store, migrated to head, closed after the test."""
    opened = await Store.open(store_url)
    try:
        yield opened
    finally:
        await opened.close()
