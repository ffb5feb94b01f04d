"""The web table across workers on PostgreSQL: every saved change is announced on a channel
as "worker game version" (`NOTIFY`), and every worker `LISTEN`s and re-reads the games its
own pages show (what to send each page is worked out where the page is: a notification never
carries a view, so it carries nothing a seat may not see). A worker reads a changed game once
for all its sockets of it (`WebTable.saved` builds one frame per seat and language), and
notices that arrive while that read is going make one more read, not one each (issue 38).

One connection per worker of its own (asyncpg), outside the store's pool: a LISTENing
connection must stay open, and a notification is sent only after its change was committed
(the service's watchers run after the save).
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import secrets
from typing import Any

from bot.core.record import Record

from .table import WebTable

log = logging.getLogger(__name__)

CHANNEL = "rummy_web"
MAX_PENDING = 10_000  # announcements queued while the connection is slow; past it, dropped


def asyncpg_dsn(url: str) -> str:
    """`postgresql+asyncpg://…` (the store's URL) as asyncpg takes it."""
    scheme, sep, rest = url.partition("://")
    return f"postgresql://{rest}" if sep and scheme.startswith("postgres") else url


class Notifier:
    """Announce this worker's saves; hear the others' (`WebTable.changed_elsewhere`)."""

    def __init__(self, table: WebTable, url: str) -> None:
        self.table = table
        self.dsn = asyncpg_dsn(url)
        self.worker = secrets.token_hex(4)
        self.conn: Any = None
        self.outbox: asyncio.Queue[str] = asyncio.Queue(MAX_PENDING)
        self._sender: asyncio.Task[None] | None = None
        self._tasks: set[asyncio.Task[None]] = set()
        self.reading: set[int] = set()  # games being re-read now
        self.again: set[int] = set()  # ...of which another change was heard meanwhile

    async def start(self) -> None:
        import asyncpg

        self.conn = await asyncpg.connect(self.dsn)
        await self.conn.add_listener(CHANNEL, self._heard)
        self.table.service.watchers.append(self._saved)
        self._sender = asyncio.create_task(self._send())

    async def stop(self) -> None:
        with contextlib.suppress(ValueError):
            self.table.service.watchers.remove(self._saved)
        if self._sender is not None:
            self._sender.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await self._sender
        if self.conn is not None:
            await self.conn.close()

    def _saved(self, game_id: int, record: Record) -> None:
        version = (record.state or {}).get("version", 0)
        with contextlib.suppress(asyncio.QueueFull):
            self.outbox.put_nowait(f"{self.worker} {game_id} {version}")

    async def _send(self) -> None:
        while True:
            payload = await self.outbox.get()
            try:
                await self.conn.execute("SELECT pg_notify($1, $2)", CHANNEL, payload)
            except Exception:  # the pages resync on their next message or reconnect
                log.exception("web table: NOTIFY failed")

    def _heard(self, _conn: Any, _pid: int, _channel: str, payload: str) -> None:
        parts = payload.split(" ")
        if len(parts) != 3 or parts[0] == self.worker or not parts[1].isdigit():
            return
        game = int(parts[1])
        if game in self.reading:  # one read is going: one more after it, however many came
            self.again.add(game)
            return
        self.reading.add(game)
        task = asyncio.create_task(self._reread(game))
        self._tasks.add(task)
        task.add_done_callback(self._tasks.discard)

    async def _reread(self, game: int) -> None:
        """Re-read `game` for this worker's pages once (however many sockets watch it), and
        once more if it changed again while it was read (the newest is what pages get)."""
        try:
            while True:
                self.again.discard(game)
                await self.table.changed_elsewhere(game)
                if game not in self.again:
                    return
        except Exception:  # the pages resync on their next message or reconnect
            log.exception("web table: re-reading game %s failed", game)
        finally:
            self.reading.discard(game)
            self.again.discard(game)
