"""Async engine factory: the per-backend settings that make transactions behave the same."""

from __future__ import annotations

import asyncio
import time
from typing import Any

from sqlalchemy import event
from sqlalchemy.engine import URL
from sqlalchemy.ext.asyncio import AsyncEngine, create_async_engine
from sqlalchemy.util import await_

from .urls import ensure_sqlite_dir

# Execution option that asks SQLite for `BEGIN IMMEDIATE` (take the write lock up front).
WRITE_OPTION = "rummy_write"


def make_engine(url: URL) -> AsyncEngine:
    """An engine for an already-normalised URL (see `urls.database_url`)."""
    if url.get_backend_name() == "sqlite":
        return _sqlite_engine(url)
    # pre-ping: a bot runs for weeks; survive PostgreSQL restarts and idle-connection reaping.
    # A worker holds a connection per game being changed (its row lock) and per live message
    # being edited (its advisory lock): room for both under load.
    return create_async_engine(url, pool_pre_ping=True, pool_size=10, max_overflow=20)


LOCK_CONNECTIONS = 100  # live-message locks held at once by one worker (each its connection)


def lock_engine(engine: AsyncEngine) -> AsyncEngine | None:
    """PostgreSQL: the engine live-message locks take their connections from — not the pool
    everything else reads and writes with. A lock is held while its message is sent, and a
    send may wait for its chat's budget (a 35 s retry_after): slow chats must not empty the
    pool every press reads from. Connections kept for reuse; past `LOCK_CONNECTIONS` a lock
    waits for one (never for the main pool). SQLite (one process) takes no such locks."""
    if engine.dialect.name != "postgresql":
        return None
    return create_async_engine(engine.url, pool_pre_ping=True, pool_size=5,
                               max_overflow=LOCK_CONNECTIONS - 5, pool_timeout=3600)


def writer(engine: AsyncEngine) -> AsyncEngine:
    """The same engine (same pool) with transactions that write."""
    return engine.execution_options(**{WRITE_OPTION: True})


def _use_wal(cursor: Any, wait: float = 30.0) -> None:
    """WAL: readers never block the writer nor wait for it. The mode stays with the file, so
    only the first connection switches; but switching while another connection writes fails at
    once with "database is locked" (no busy timeout applies), as when workers start together on
    a new file: then wait and look again."""
    deadline = time.monotonic() + wait
    while True:
        try:
            cursor.execute("PRAGMA journal_mode")
            if cursor.fetchone()[0].lower() != "wal":
                cursor.execute("PRAGMA journal_mode=WAL")
            return
        except Exception as error:  # the driver's OperationalError, wrapped or not
            if "locked" not in str(error) or time.monotonic() > deadline:
                raise
            await_(asyncio.sleep(0.05))  # (this runs in a greenlet of the event loop)


def _sqlite_engine(url: URL) -> AsyncEngine:
    ensure_sqlite_dir(url)
    # timeout: how long a writer waits for another connection's lock before "database is locked".
    engine = create_async_engine(url, connect_args={"timeout": 30})

    # The sqlite3 driver's legacy mode does not BEGIN before SELECT or DDL, which breaks
    # read-then-write transactions and transactional migrations. Take over BEGIN ourselves
    # (SQLAlchemy docs, "Transactions with SQLite and the sqlite3 driver").
    @event.listens_for(engine.sync_engine, "connect")
    def _on_connect(dbapi_connection: Any, _record: Any) -> None:
        dbapi_connection.isolation_level = None
        cursor = dbapi_connection.cursor()
        cursor.execute("PRAGMA foreign_keys=ON")
        _use_wal(cursor)
        # WAL with synchronous=NORMAL: a commit is in the WAL file when it returns, so a killed
        # process (kill -9, a crash) loses nothing it acknowledged; only the checkpoints wait
        # for the disk, and a power cut may roll back the last commits (the file stays whole).
        # FULL waited for the disk at every commit: a drag edit's save took 3.6 ms of fsync and
        # the web table saturated at half the edits (issue 38, docs/benchmarks.md).
        cursor.execute("PRAGMA synchronous=NORMAL")
        cursor.close()

    @event.listens_for(engine.sync_engine, "begin")
    def _on_begin(connection: Any) -> None:
        # A deferred BEGIN that reads and later writes can fail at once with SQLITE_BUSY when
        # another writer got in between; IMMEDIATE makes writers queue up (busy timeout) instead.
        write = connection.get_execution_options().get(WRITE_OPTION, False)
        connection.exec_driver_sql("BEGIN IMMEDIATE" if write else "BEGIN")

    return engine
