"""The outbox of many workers on one PostgreSQL: the screens a saved change still owes.

A save that changes a game upserts the game's `deliveries` row in its own transaction
(`Outbox.owe`): version = the new row version, owner = this worker, lease_until = now + LEASE.
The worker that saved delivers as usual and then marks the version done (`Outbox.done`); the
marks are deleted in one statement every FLUSH seconds (version <= the delivered one, so a
newer save's row stays). While it owes screens it renews its rows' leases (one UPDATE for all
of them), so a slow group budget never hands a live worker's screens to another. A worker
killed between the commit and its sends leaves its row: the lease runs out, another worker
claims it (`Outbox.claim`, FOR UPDATE SKIP LOCKED: one claimer) and delivers the game's current
screens. A worker stopping deletes what it delivered and releases the rest (`Outbox.close`).

SQLite (one process) writes none of this: the store calls `owe` only when it has row locks.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import math
import os
import secrets
import socket
from collections.abc import Callable, Sequence
from dataclasses import dataclass

from sqlalchemy import select, text
from sqlalchemy.ext.asyncio import AsyncConnection, AsyncEngine

from bot.clock import Clock, as_clock

from . import models as db

log = logging.getLogger(__name__)

LEASE = 10.0  # seconds a worker's owed screens are its own; renewed while it delivers
FLUSH = 0.5  # seconds between the batched deletes of delivered rows (and lease renewals)
# An owed version not delivered within this long (its outcome never reached a delivery) is no
# longer renewed: its lease runs out and another worker delivers the game's screens.
FORGET = 120.0
CLAIMS = 20  # rows one claim takes at most


@dataclass(frozen=True)
class Owed:
    """A `deliveries` row: game `game_id`'s screens of row `version`, owed by `owner`."""

    game_id: int
    version: int
    owner: str
    lease_until: float


def worker_id() -> str:
    """This process's name in `owner` columns: host, pid and a nonce (pids are reused)."""
    return f"{socket.gethostname()[:40]}:{os.getpid()}:{secrets.token_hex(3)}"


# -- statements on a connection ------------------------------------------------------------

_OWE = text(
    "INSERT INTO deliveries (game_id, version, owner, lease_until) "
    "VALUES (:game, :version, :owner, :until) "
    "ON CONFLICT (game_id) DO UPDATE SET version = excluded.version, "
    "owner = excluded.owner, lease_until = excluded.lease_until"
)
_CLAIM = text(
    "WITH free AS (SELECT game_id FROM deliveries WHERE lease_until < :now "
    "ORDER BY lease_until LIMIT :limit FOR UPDATE SKIP LOCKED) "
    "UPDATE deliveries d SET owner = :owner, lease_until = :until FROM free "
    "WHERE d.game_id = free.game_id RETURNING d.game_id, d.version"
)
_DELIVERED = text(
    "DELETE FROM deliveries d USING unnest(CAST(:games AS integer[]), "
    "CAST(:versions AS integer[])) AS done(game_id, version) "
    "WHERE d.game_id = done.game_id AND d.version <= done.version"
)
_RENEW = text("UPDATE deliveries SET lease_until = :until WHERE owner = :owner")
_RELEASE = text(
    "UPDATE deliveries SET lease_until = :now WHERE owner = :owner AND lease_until > :now"
)


async def owe_row(
    conn: AsyncConnection, game_id: int, version: int, owner: str, until: float
) -> None:
    """The game's row says: `owner` delivers version `version`'s screens by `until`."""
    await conn.execute(
        _OWE, {"game": game_id, "version": version, "owner": owner, "until": until}
    )


async def claim_rows(
    conn: AsyncConnection, owner: str, now: float, until: float, limit: int = CLAIMS
) -> list[tuple[int, int]]:
    """(game, version) of up to `limit` rows whose lease ran out, now `owner`'s until
    `until`; rows another claimer is taking are skipped (never two claimers for one row)."""
    rows = await conn.execute(
        _CLAIM, {"now": now, "limit": limit, "owner": owner, "until": until}
    )
    return [(row.game_id, row.version) for row in rows]


async def delete_delivered(conn: AsyncConnection, done: Sequence[tuple[int, int]]) -> int:
    """Delete each game's row if its version is at most the delivered one (one statement);
    how many went."""
    if not done:
        return 0
    gone = await conn.execute(
        _DELIVERED, {"games": [g for g, _v in done], "versions": [v for _g, v in done]}
    )
    return max(gone.rowcount or 0, 0)


async def renew_rows(conn: AsyncConnection, owner: str, until: float) -> int:
    gone = await conn.execute(_RENEW, {"owner": owner, "until": until})
    return max(gone.rowcount or 0, 0)


async def release_rows(conn: AsyncConnection, owner: str, now: float) -> int:
    """`owner`'s rows are free for any worker from `now` (it stops without delivering them)."""
    gone = await conn.execute(_RELEASE, {"owner": owner, "now": now})
    return max(gone.rowcount or 0, 0)


# -- this worker's side ---------------------------------------------------------------------


class Outbox:
    """This worker's deliveries rows: what it owes (written by the store's saves, or claimed
    from a dead worker), the done marks waiting for the next flush, and the lease renewals."""

    def __init__(
        self, engine: AsyncEngine, owner: str | None = None, *, lease: float = LEASE,
        flush: float = FLUSH, clock: Clock | Callable[[], float] | None = None,
    ) -> None:
        self.engine = engine
        self.owner = owner or worker_id()
        self.lease = lease
        self.flush_every = flush
        self.time = as_clock(clock)  # the service hands it its own clock (GameService)
        self.owed: dict[int, tuple[int, float]] = {}  # game -> (version, since when)
        self._done: dict[int, int] = {}  # game -> delivered version, deleted at the next flush
        self._renew_at = math.inf  # when the oldest owed row's lease needs renewing
        self._keeper: asyncio.Task[None] | None = None

    def clock(self) -> float:
        """Epoch seconds (leases are saved)."""
        return self.time.now()

    async def owe(self, conn: AsyncConnection, game_id: int, version: int) -> None:
        """In a save's transaction: this worker owes version `version`'s screens."""
        now = self.clock()
        await owe_row(conn, game_id, version, self.owner, now + self.lease)
        self._owe(game_id, version, now)

    def _owe(self, game_id: int, version: int, now: float) -> None:
        previous = self.owed.get(game_id)
        if previous is None or previous[0] <= version:
            self.owed[game_id] = (version, now)
        self._renew_at = min(self._renew_at, now + self.lease / 2)
        self._wake()

    def done(self, game_id: int, version: int | None) -> None:
        """The delivery of the game's outcome of row `version` finished (None: the outcome
        carried no version, a lesson's: whatever this worker owes for the game)."""
        owed = self.owed.get(game_id)
        if owed is None:
            return  # nothing of ours (another worker's save, or delivered already)
        if version is None:
            version = owed[0]
        if version < owed[0]:
            return  # a newer save of ours still owes its screens
        del self.owed[game_id]
        self._done[game_id] = max(self._done.get(game_id, 0), version)
        self._wake()

    async def claim(self, now: float | None = None, limit: int = CLAIMS) -> list[tuple[int, int]]:
        """Take the rows whose lease ran out (a dead or stopped worker's): (game, version)
        each, owed by this worker from now on (its delivery marks them done)."""
        now = self.clock() if now is None else now
        async with self.engine.begin() as conn:
            claimed = await claim_rows(conn, self.owner, now, now + self.lease, limit)
        for game_id, version in claimed:
            self._owe(game_id, version, now)
        return claimed

    def drop(self, game_id: int, version: int) -> None:
        """A claimed row with nothing to deliver (the game gone, a lesson, a newer save's row
        owed by another): deleted at the next flush."""
        owed = self.owed.get(game_id)
        if owed is not None and owed[0] <= version:
            del self.owed[game_id]
        self._done[game_id] = max(self._done.get(game_id, 0), version)
        self._wake()

    async def flush(self) -> None:
        """Delete the delivered rows and renew the owed rows' leases, in one transaction."""
        now = self.clock()
        for game_id, (_version, since) in list(self.owed.items()):
            if now - since > FORGET:
                del self.owed[game_id]  # its lease runs out: another worker delivers
        done, self._done = self._done, {}
        renew = bool(self.owed) and now >= self._renew_at
        if not done and not renew:
            return
        try:
            async with self.engine.begin() as conn:
                await delete_delivered(conn, sorted(done.items()))
                if renew:
                    await renew_rows(conn, self.owner, now + self.lease)
        except BaseException:
            for game_id, version in done.items():  # deleted at the next flush, then
                self._done[game_id] = max(self._done.get(game_id, 0), version)
            raise
        if renew:
            self._renew_at = now + self.lease / 2 if self.owed else math.inf
        elif not self.owed:
            self._renew_at = math.inf

    def _wake(self) -> None:
        if self._keeper is None or self._keeper.done():
            with contextlib.suppress(RuntimeError):  # no running loop: nothing to keep
                self._keeper = asyncio.get_running_loop().create_task(self._keep())

    async def _keep(self) -> None:
        """Flush every FLUSH seconds while anything is owed or marked done."""
        while self.owed or self._done:
            await self.time.sleep(self.flush_every)
            try:
                await self.flush()
            except Exception:  # the database away for a moment: again at the next round
                log.warning("deliveries: flush failed", exc_info=True)

    async def close(self) -> None:
        """A worker stopping: delete what it delivered, release what it still owes (another
        worker takes it at once rather than after the lease)."""
        keeper, self._keeper = self._keeper, None
        if keeper is not None:
            keeper.cancel()
            await asyncio.gather(keeper, return_exceptions=True)
        if not self.owed and not self._done:
            return
        owed, self.owed = self.owed, {}
        with contextlib.suppress(Exception):
            await self.flush()
        if owed:
            with contextlib.suppress(Exception):
                async with self.engine.begin() as conn:
                    await release_rows(conn, self.owner, self.clock())

    async def rows(self) -> list[Owed]:
        """Every deliveries row, by game (tests, inspection)."""
        d = db.deliveries.c
        async with self.engine.connect() as conn:
            rows = await conn.execute(select(db.deliveries).order_by(d.game_id))
            return [Owed(r.game_id, r.version, r.owner, r.lease_until) for r in rows]
