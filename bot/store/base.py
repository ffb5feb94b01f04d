"""What every part of the `Store` shares: the engine, SQLite's one-writer gate, the row cache
of the process that owns a SQLite file, and the connections a worker leads with.

The store's jobs (games, delivery refs, jobs, updates, players, scores, upkeep) are mixins of
this base, each in its own module; `repository.Store` composes them.
"""

from __future__ import annotations

import asyncio
import contextlib
import zlib
from collections.abc import AsyncIterator, Awaitable, Callable, Iterable
from types import TracebackType
from typing import Any, Self, TypeVar

from sqlalchemy import select, text
from sqlalchemy.ext.asyncio import AsyncConnection, AsyncEngine

from . import models
from .engine import lock_engine, writer
from .group_commit import GroupCommit
from .outbox import Outbox
from .row_cache import RowCache, own_file, release
from .rows import GameRow
from .sql import insert_for

T = TypeVar("T")


class StoreBase:
    """The engine and what the parts share; open with `await Store.open()`."""

    def __init__(self, engine: AsyncEngine) -> None:
        self._engine = engine
        self._writer = writer(engine)
        self._leads: dict[str, AsyncConnection] = {}  # what this worker leads: its lock's conn
        self._owner: int | None = None
        self._gate: tuple[asyncio.AbstractEventLoop, asyncio.Lock] | None = None  # see _write
        self._group: tuple[asyncio.AbstractEventLoop, GroupCommit] | None = None  # _grouped
        self.group_saves = True  # False: each save its own transaction (the bench's "before")
        self.rows: RowCache | None = None  # see keep_rows
        self.outbox = Outbox(engine)  # PostgreSQL: the screens this worker's saves owe
        self._locks = lock_engine(engine)  # PostgreSQL: message locks' own connections

    async def close(self) -> None:
        await self.outbox.close()  # delivered rows deleted, the rest left to other workers
        for conn in self._leads.values():
            with contextlib.suppress(Exception):
                await conn.close()
        self._leads.clear()
        if self._locks is not None:
            await self._locks.dispose()
        await self._engine.dispose()
        release(self._owner)
        self._owner, self.rows = None, None

    async def _chat_setting(self, platform: str, chat_id: str, column: str) -> Any:
        """One of a chat's own settings (`chats.<column>`: its language, its seasons, the
        puzzle of the day); None when the chat chose none."""
        c = models.chats.c
        async with self._engine.connect() as conn:
            return (await conn.execute(select(c[column]).where(
                c.platform == platform, c.chat_id == str(chat_id)))).scalar_one_or_none()

    async def _set_chat_setting(self, platform: str, chat_id: str, column: str,
                                value: Any) -> None:
        async with self._write() as conn:
            chat = insert_for(conn, models.chats).values(
                platform=platform, chat_id=str(chat_id), created_at=models.utcnow(),
                **{column: value})
            await conn.execute(chat.on_conflict_do_update(
                index_elements=["platform", "chat_id"], set_={column: value}))

    def _write(self) -> contextlib.AbstractAsyncContextManager[AsyncConnection]:
        """A write transaction. SQLite has one writer at a time: its writers queue here, on an
        asyncio lock that wakes the next at once, rather than each on its own connection in
        SQLite's busy handler, which sleeps and polls (1, 2, 5 … 100 ms) while the file is free
        — under load it left the write lock idle and ran the pool dry."""
        if self._engine.dialect.name != "sqlite":
            return self._writer.begin()
        return self._gated()

    @contextlib.asynccontextmanager
    async def _gated(self) -> AsyncIterator[AsyncConnection]:
        loop = asyncio.get_running_loop()
        if self._gate is None or self._gate[0] is not loop:  # a lock binds to one loop
            self._gate = (loop, asyncio.Lock())
        async with self._gate[1], self._writer.begin() as conn:
            yield conn

    async def _grouped(self, work: Callable[[AsyncConnection], Awaitable[T]]) -> T:
        """`work` in a write transaction, committed before this returns. SQLite: shared with
        the saves that arrive while one is written (group_commit.py: one writer, so they'd
        queue anyway). PostgreSQL: its own (a game's save is in its row lock's transaction)."""
        if not self.group_saves or self._engine.dialect.name != "sqlite":
            async with self._write() as conn:
                return await work(conn)
        loop = asyncio.get_running_loop()
        if self._group is None or self._group[0] is not loop:
            self._group = (loop, GroupCommit(self._gated))
        return await self._group[1].run(work)

    def keep_rows(self) -> bool:
        """This process is the one that writes this SQLite database (the bot's service says
        so): answer reads of game rows from memory (row_cache.py). Another store holding the
        file's owner lock: no (it reads as before). PostgreSQL: never (many workers)."""
        if self.rows is None and self._engine.dialect.name == "sqlite":
            self._owner = own_file(self._engine.url.database)
            if self._owner is not None:
                self.rows = RowCache()
        return self.rows is not None

    def _forget(self, game_ids: Iterable[int]) -> None:
        """Rows changed here other than by a save (prune, a failed save): read them again."""
        if self.rows is not None:
            for game_id in game_ids:
                self.rows.forget(game_id)

    def _keep(self, row: GameRow, text: str | None = None) -> GameRow:
        """Remember a row just read or written (when this store owns the database); `text`:
        its record's JSON, when it was written already."""
        if self.rows is not None:
            self.rows.put(row, text)
        return row

    @property
    def row_locks(self) -> bool:
        """PostgreSQL: changes of a game are ordered by its row lock across processes (and
        jobs are claimed with SKIP LOCKED). SQLite: one process, its write lock and versions."""
        return self._engine.dialect.name == "postgresql"

    async def lead(self, name: str) -> bool:
        """Become the one worker doing `name` (registering the Telegram webhook) for as long as
        this store is open: a PostgreSQL advisory lock held on its own connection, so of many
        workers starting together one gets True; when it dies the lock goes with it. SQLite:
        one process, always True."""
        if not self.row_locks:
            return True
        if name in self._leads:
            return True
        conn = await self._engine.connect()
        key = zlib.crc32(b"rummy-lead:" + name.encode()) - 2**31
        won = (await conn.execute(text("SELECT pg_try_advisory_lock(:k)"), {"k": key})).scalar()
        await conn.commit()
        if won:
            self._leads[name] = conn
        else:
            await conn.close()
        return bool(won)

    async def __aenter__(self) -> Self:
        return self

    async def __aexit__(
        self, exc_type: type[BaseException] | None, exc: BaseException | None,
        tb: TracebackType | None,
    ) -> None:
        await self.close()

    @property
    def url(self) -> str:
        """The database URL, password hidden (for logs)."""
        return self._engine.url.render_as_string(hide_password=True)

    @property
    def engine(self) -> AsyncEngine:
        return self._engine
