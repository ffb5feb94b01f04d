"""Scores: each round's points and running totals (written once per round), a finished game's
result and ratings (results.py), and the leaderboard and /stats queries."""

from __future__ import annotations

from sqlalchemy import insert, select
from sqlalchemy.ext.asyncio import AsyncConnection

from . import models as db
from . import results as res
from .base import StoreBase
from .rows import LeaderRow, PlayerStats, ResultSeat, RoundRow
from .sql import insert_for


class ScoresStore(StoreBase):
    async def record_round(
        self, game_id: int, round_no: int, points: list[int], totals: list[int]
    ) -> None:
        """Store one round's points and running totals (list index = seat position).

        Idempotent: the first write of (game, round) wins; repeating it is a no-op, so a
        retried action cannot double-count a round.
        """
        async with self._write() as conn:
            await require_game(conn, game_id)
            await write_round(conn, game_id, RoundRow(round_no, points, totals))

    async def rounds(self, game_id: int) -> list[tuple[int, list[int], list[int]]]:
        """(round_no, points, totals) per recorded round, in round order."""
        async with self._engine.connect() as conn:
            rows = await conn.execute(
                select(db.round_scores)
                .where(db.round_scores.c.game_id == game_id)
                .order_by(db.round_scores.c.round_no, db.round_scores.c.seat_no)
            )
            out: dict[int, tuple[list[int], list[int]]] = {}
            for row in rows:
                points, totals = out.setdefault(row.round_no, ([], []))
                points.append(row.points)
                totals.append(row.total)
        return [(number, points, totals) for number, (points, totals) in out.items()]

    async def record_result(self, game_id: int, rulebook: str, seats: list[ResultSeat], *,
                            higher_is_better: bool = False) -> None:
        """Store a finished game's result and update ratings; idempotent per game."""
        async with self._write() as conn:
            await res.record_result(conn, game_id, rulebook, seats,
                                    higher_is_better=higher_is_better)

    async def leaderboard(
        self, platform: str, chat_id: str | None, rulebook: str | None, limit: int = 10
    ) -> list[LeaderRow]:
        """Best first; chat_id None = every chat of the platform, rulebook None = all."""
        async with self._engine.connect() as conn:
            return await res.leaderboard(
                conn, platform, None if chat_id is None else str(chat_id), rulebook, limit
            )

    async def stats(
        self, platform: str, user_id: str, rulebook: str | None = None, recent: int = 5
    ) -> PlayerStats | None:
        """A player's totals over all chats of the platform, with their `recent` newest games
        (the history /stats shows, newest first)."""
        async with self._engine.connect() as conn:
            return await res.stats(conn, platform, str(user_id), rulebook, recent)


async def write_round(conn: AsyncConnection, game_id: int, done: RoundRow) -> None:
    """First write of (game, round) wins; a repeat is a no-op."""
    if len(done.points) != len(done.totals):
        raise ValueError("points and totals need one entry per seat")
    claim = (
        insert_for(conn, db.rounds)
        .values(game_id=game_id, round_no=done.round_no, recorded_at=db.utcnow())
        .on_conflict_do_nothing()
        .returning(db.rounds.c.round_no)
    )
    if (await conn.execute(claim)).first() is None or not done.points:
        return
    await conn.execute(
        insert(db.round_scores),
        [
            {"game_id": game_id, "round_no": done.round_no, "seat_no": seat,
             "points": int(point), "total": int(total)}
            for seat, (point, total) in enumerate(zip(done.points, done.totals, strict=True))
        ],
    )


async def require_game(conn: AsyncConnection, game_id: int) -> None:
    found = await conn.execute(select(db.games.c.id).where(db.games.c.id == game_id))
    if found.first() is None:
        raise LookupError(f"no game {game_id}")
