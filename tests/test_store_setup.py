"""bot/store set-up: which database URL, the SQLite default under ./data, the alembic CLI."""

from __future__ import annotations

import asyncio
import contextlib
import os
import subprocess
import sys
from pathlib import Path

import pytest
from sqlalchemy import event

from bot.store import DEFAULT_URL, StaleGame, Store, database_url, migrate

ROOT = Path(__file__).resolve().parents[1]


@pytest.mark.parametrize(
    ("given", "expected"),
    [
        ("postgres://u:p@db:5433/rummy", "postgresql+asyncpg://u:p@db:5433/rummy"),
        ("postgresql://u@db/rummy", "postgresql+asyncpg://u@db/rummy"),
        ("postgresql+asyncpg://u@db/rummy", "postgresql+asyncpg://u@db/rummy"),
        ("postgresql+psycopg2://u@db/rummy", "postgresql+asyncpg://u@db/rummy"),
        ("postgres://u@db/rummy?sslmode=require", "postgresql+asyncpg://u@db/rummy?ssl=require"),
        ("sqlite:///data/x.db", "sqlite+aiosqlite:///data/x.db"),
        ("sqlite+aiosqlite:////abs/x.db", "sqlite+aiosqlite:////abs/x.db"),
    ],
)
def test_urls_are_normalised_to_async_drivers(given: str, expected: str) -> None:
    assert database_url(given).render_as_string(hide_password=False) == expected


def test_url_comes_from_argument_then_env_then_default(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.delenv("DATABASE_URL", raising=False)
    assert database_url(None).render_as_string() == DEFAULT_URL
    monkeypatch.setenv("DATABASE_URL", "postgres://env@db/rummy")
    assert database_url(None).render_as_string() == "postgresql+asyncpg://env@db/rummy"
    assert database_url("sqlite:///x.db").render_as_string() == "sqlite+aiosqlite:///x.db"
    with pytest.raises(ValueError, match="unsupported"):
        database_url("mysql://u@db/rummy")


async def test_default_store_is_a_sqlite_file_under_data(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.delenv("DATABASE_URL", raising=False)
    monkeypatch.chdir(tmp_path)
    store = await Store.open()
    try:
        await store.create_game("telegram", "chat", {"ok": True})
    finally:
        await store.close()
    assert (tmp_path / "data" / "rummy.db").is_file()


def test_migrate_entry_point_for_the_cli(tmp_path: Path) -> None:
    line = migrate(f"sqlite:///{tmp_path / 'm.db'}")
    assert line.endswith("is at revision 0011")
    assert migrate(f"sqlite:///{tmp_path / 'm.db'}") == line  # already at head: a no-op


def test_alembic_command_line(tmp_path: Path) -> None:
    """Developers can drive the same migrations with `alembic -c migrations/alembic.ini …`.

    One interpreter runs the real CLI entry point twice (upgrade, then downgrade): the CLI
    configures logging from the ini, which must not happen inside the pytest process.
    """
    script = (
        "from alembic.config import main\n"
        "main(['-c', 'migrations/alembic.ini', 'upgrade', 'head'])\n"
        "main(['-c', 'migrations/alembic.ini', 'downgrade', 'base'])\n"
    )
    done = subprocess.run(
        [sys.executable, "-c", script],
        cwd=ROOT, capture_output=True, text=True, check=True, timeout=60,
        env={**os.environ, "DATABASE_URL": f"sqlite:///{tmp_path / 'cli.db'}"},
    )
    assert "Running upgrade  -> 0001" in done.stderr
    assert "Running downgrade 0001 -> , initial schema" in done.stderr
    assert (tmp_path / "cli.db").is_file()


async def test_sqlite_writers_take_the_lock_up_front(tmp_path: Path) -> None:
    """Reads BEGIN (deferred); writes BEGIN IMMEDIATE, so two writers queue, never deadlock."""
    url = f"sqlite:///{tmp_path / 'lock.db'}"
    first, second = await Store.open(url), await Store.open(url)  # like two processes
    begins: list[str] = []
    event.listen(
        first.engine.sync_engine, "before_cursor_execute",
        lambda _c, _cur, statement, *_: begins.append(statement)
        if statement.startswith("BEGIN") else None,
    )
    try:
        game = await first.create_game("telegram", "chat", {"n": 0})
        begins.clear()
        await first.get_game(game.id)
        await first.save_game(game.id, {"n": 1}, expected_version=1)
        assert begins == ["BEGIN", "BEGIN IMMEDIATE"]

        async def busy(store: Store, tag: str) -> None:
            for n in range(15):
                player = await store.player("telegram", f"{tag}{n % 3}", f"{tag} {n}")
                current = await store.get_game(game.id)
                with contextlib.suppress(StaleGame):  # the other store got there first
                    await store.save_game(game.id, {"by": player}, expected_version=current.version)

        await asyncio.gather(busy(first, "a"), busy(second, "b"))
        assert (await second.get_game(game.id)).version > 2
    finally:
        await first.close()
        await second.close()
