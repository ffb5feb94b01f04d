"""Upkeep: what background work reads without loading games whole (due and scheduled games,
idle ones), and `prune`, which shrinks what old games keep."""

from __future__ import annotations

from datetime import datetime
from typing import Any

from sqlalchemy import ColumnElement, bindparam, delete, select, update
from sqlalchemy.ext.asyncio import AsyncConnection

from . import models as db
from .base import StoreBase
from .games import is_lesson as lesson_rows
from .rows import ACTIVE_STATUSES, DONE_STATUSES

PRUNE_BATCH = 500  # game rows per transaction in `prune`


class UpkeepStore(StoreBase):
    async def due_games(self, now: float) -> list[int]:
        """Ids of playing games whose due_at has come (due_at <= now), soonest first."""
        async with self._engine.connect() as conn:
            rows = await conn.execute(
                select(db.games.c.id)
                .where(db.games.c.due_at <= now, db.games.c.status == "playing")
                .order_by(db.games.c.due_at, db.games.c.id)
            )
            return list(rows.scalars())

    async def scheduled_games(self) -> list[tuple[int, float]]:
        """(id, due_at) of every playing game with something scheduled (and every finished one
        whose rematch call will lapse), soonest first: what a worker starting up needs to
        re-arm its timers, without reading any game whole."""
        async with self._engine.connect() as conn:
            rows = await conn.execute(
                select(db.games.c.id, db.games.c.due_at)
                .where(db.games.c.due_at.is_not(None),
                       db.games.c.status.in_(("playing", "finished")))
                .order_by(db.games.c.due_at, db.games.c.id)
            )
            return [(row.id, row.due_at) for row in rows]

    async def idle_games(self, updated_before: datetime, limit: int = 100) -> list[int]:
        """Ids of lobby/playing games not saved since `updated_before`, stalest first (to end
        abandoned games); at most `limit`."""
        async with self._engine.connect() as conn:
            rows = await conn.execute(
                select(db.games.c.id)
                .where(
                    db.games.c.status.in_(ACTIVE_STATUSES),
                    db.games.c.updated_at < updated_before,
                )
                .order_by(db.games.c.updated_at, db.games.c.id)
                .limit(limit)
            )
            return list(rows.scalars())

    async def prune(self, finished_before: datetime, lessons_before: datetime) -> dict[str, int]:
        """Shrink what old games keep, PRUNE_BATCH rows per transaction.

        Games finished/ended and not saved since `finished_before` lose their action log and
        their record becomes a stub: {"rulebook", "seats": [{"name"}], "pruned": True}. Their
        row, seats, rounds and result stay, so leaderboards and /stats do not change. Lesson
        rows (a non-empty record["lesson"]; never rated) finished/ended before
        `lessons_before` are deleted with everything that hangs off them. Delivery refs of
        games no longer there go too. Counts of what was
        done: {"games_pruned", "actions_deleted", "lessons_deleted"}.
        """
        g = db.games.c
        is_lesson = lesson_rows()
        done = g.status.in_(DONE_STATUSES)
        counts = {"games_pruned": 0, "actions_deleted": 0, "lessons_deleted": 0}
        counts["lessons_deleted"] = await self._delete_lessons(
            done & (g.updated_at < lessons_before) & is_lesson)
        prunable = (
            done
            & (g.updated_at < finished_before)
            & g.record["pruned"].as_string().is_(None)
            & ~is_lesson  # a lesson is kept whole until lessons_before, then deleted
        )
        await self._prune_games(prunable, counts)
        async with self._write() as conn:  # a late delivery's refs of a game deleted meanwhile
            r = db.delivery_refs.c
            await conn.execute(
                delete(db.delivery_refs).where(
                    ~select(g.id).where(g.id == r.game_id).exists()
                )
            )
        return counts

    async def _delete_lessons(self, old_lessons: ColumnElement[bool]) -> int:
        """Delete the lesson rows `old_lessons` picks with their delivery refs, a batch per
        transaction; how many."""
        g = db.games.c
        deleted = 0
        while True:
            async with self._write() as conn:
                ids = await _locked_ids(conn, old_lessons)
                if ids:
                    await conn.execute(delete(db.games).where(g.id.in_(ids)))
                    await conn.execute(  # (no foreign key to cascade: see models.py)
                        delete(db.delivery_refs).where(db.delivery_refs.c.game_id.in_(ids))
                    )
            self._forget(ids)
            deleted += len(ids)
            if len(ids) < PRUNE_BATCH:
                return deleted

    async def _prune_games(self, prunable: ColumnElement[bool], counts: dict[str, int]) -> None:
        """The games `prunable` picks lose their action log and delivery refs, their record
        becomes a stub; a batch per transaction, counted in `counts`."""
        g = db.games.c
        last = 0
        while True:
            async with self._write() as conn:
                rows = (
                    await conn.execute(
                        select(g.id, g.record["rulebook"], g.record["seats"])
                        .where(prunable, g.id > last)
                        .order_by(g.id)
                        .limit(PRUNE_BATCH)
                        .with_for_update()
                    )
                ).all()
                if rows:
                    last = rows[-1][0]
                    ids = [row[0] for row in rows]
                    gone = await conn.execute(
                        delete(db.game_actions).where(db.game_actions.c.game_id.in_(ids))
                    )
                    counts["actions_deleted"] += max(gone.rowcount or 0, 0)
                    await conn.execute(  # its messages are one-offs now: nothing to edit
                        delete(db.delivery_refs).where(db.delivery_refs.c.game_id.in_(ids))
                    )
                    await conn.execute(
                        update(db.games)
                        .where(g.id == bindparam("b_id"))
                        .values(
                            record=bindparam("b_record", type_=g.record.type),
                            due_at=None,
                            version=g.version + 1,
                        ),
                        [
                            {"b_id": game_id, "b_record": _stub(rulebook, seats)}
                            for game_id, rulebook, seats in rows
                        ],
                    )
            self._forget(row[0] for row in rows)
            counts["games_pruned"] += len(rows)
            if len(rows) < PRUNE_BATCH:
                return


async def _locked_ids(conn: AsyncConnection, where: ColumnElement[bool]) -> list[int]:
    """Up to PRUNE_BATCH game ids matching `where`, locked until the transaction ends."""
    rows = await conn.execute(
        select(db.games.c.id).where(where).order_by(db.games.c.id).limit(PRUNE_BATCH)
        .with_for_update()
    )
    return list(rows.scalars())


def _stub(rulebook: Any, seats: Any) -> dict[str, Any]:
    """What a pruned game's record keeps: enough to name the game and who played it."""
    names = [
        {"name": seat.get("name")} for seat in seats or () if isinstance(seat, dict)
    ]
    return {"rulebook": rulebook, "seats": names, "pruned": True}
