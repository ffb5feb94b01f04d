"""A game's due background work (a computer's move, a turn timer) as `jobs` rows that workers
claim with a lease (PostgreSQL: FOR UPDATE SKIP LOCKED, so two workers never claim one job).
A save writes its game's row (`write_job`); one SQLite process schedules from games.due_at."""

from __future__ import annotations

from dataclasses import dataclass

from sqlalchemy import delete, func, or_, select, update
from sqlalchemy.ext.asyncio import AsyncConnection

from . import models as db
from .base import StoreBase
from .sql import insert_for

JOB_KINDS = ("computer", "timer")


@dataclass(frozen=True)
class Job:
    """A game's due background work, claimed by `owner` until `lease_until` (epoch s)."""

    game_id: int
    kind: str
    due_at: float
    lease_until: float | None = None
    owner: str | None = None


class JobsStore(StoreBase):
    async def claim_jobs(
        self, owner: str, now: float, lease: float, limit: int = 20,
        game_id: int | None = None,
    ) -> list[Job]:
        """Claim up to `limit` due jobs (due_at <= now, no live lease) for `owner` until
        now + lease, soonest first; `game_id`: that game's only. PostgreSQL skips rows another
        worker is claiming (FOR UPDATE SKIP LOCKED), so two workers never claim one job."""
        j = db.jobs.c
        free = or_(j.lease_until.is_(None), j.lease_until < now, j.owner == owner)
        where = (j.due_at <= now) & free
        if game_id is not None:
            where = where & (j.game_id == game_id)
        async with self._write() as conn:
            due = select(j.game_id).where(where).order_by(j.due_at, j.game_id).limit(limit)
            if conn.dialect.name == "postgresql":
                due = due.with_for_update(skip_locked=True)
            ids = list((await conn.execute(due)).scalars())
            if not ids:
                return []
            rows = await conn.execute(
                update(db.jobs)
                .where(j.game_id.in_(ids))
                .values(lease_until=now + lease, owner=owner)
                .returning(*db.jobs.c)
            )
            jobs = [Job(r.game_id, r.kind, r.due_at, r.lease_until, r.owner) for r in rows]
        return sorted(jobs, key=lambda x: (x.due_at, x.game_id))

    async def settle_job(self, job: Job, due_at: float | None, kind: str = "timer") -> None:
        """The claimed job ran without saving the game (nothing was due after all): its row
        gets the game's due time again (None: deleted) and no lease. A save in between wrote
        the row afresh (its owner is gone): then it is left alone."""
        j = db.jobs.c
        mine = (j.game_id == job.game_id) & (j.owner == job.owner)
        async with self._write() as conn:
            if due_at is None:
                await conn.execute(delete(db.jobs).where(mine))
            else:
                await conn.execute(
                    update(db.jobs).where(mine)
                    .values(due_at=float(due_at), kind=kind, lease_until=None, owner=None)
                )

    async def release_jobs(self, owner: str) -> None:
        """A worker stopping gives back what it claimed (others need not wait for the lease)."""
        async with self._write() as conn:
            await conn.execute(
                update(db.jobs).where(db.jobs.c.owner == owner).values(lease_until=None, owner=None)
            )

    async def jobs_due(self, now: float) -> int:
        """How many jobs are due (due_at <= now), claimed or not."""
        async with self._engine.connect() as conn:
            return (
                await conn.execute(select(func.count()).where(db.jobs.c.due_at <= now))
            ).scalar_one()

    async def jobs(self) -> list[Job]:
        """Every job, soonest first (tests, /metrics)."""
        async with self._engine.connect() as conn:
            rows = await conn.execute(select(db.jobs).order_by(db.jobs.c.due_at))
            return [Job(r.game_id, r.kind, r.due_at, r.lease_until, r.owner) for r in rows]


async def write_job(conn: AsyncConnection, game_id: int, kind: str, due: float | None) -> None:
    """The game's jobs row as its save says: due at `due` and unclaimed, or none."""
    if due is None:
        await conn.execute(delete(db.jobs).where(db.jobs.c.game_id == game_id))
        return
    values = {"kind": kind, "due_at": due, "lease_until": None, "owner": None}
    stmt = insert_for(conn, db.jobs).values(game_id=game_id, **values)
    await conn.execute(stmt.on_conflict_do_update(index_elements=["game_id"], set_=values))
