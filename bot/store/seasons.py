"""A chat's seasons: the standings of its finished games between two moments, how long its
seasons last, and each ended season's record — claimed by one worker to post, then kept."""

from __future__ import annotations

from datetime import datetime

from sqlalchemy import and_, func, select

from . import models as db
from .base import StoreBase
from .rows import SeasonRow
from .sql import claim, posted

SEASON_ROWS = 10  # standings shown and kept: the first ten
KEPT = 24  # seasons a hall of fame reads


class SeasonsStore(StoreBase):
    async def season_standings(self, platform: str, chat_id: str, start: datetime,
                               end: datetime, win_points: int) -> list[SeasonRow]:
        """The people of the chat's games finished in [start, end), best first: 1 point a
        game, `win_points` more a win (a shared win shares them); computers stand in none."""
        r, rs, p = db.results.c, db.result_seats.c, db.players.c
        points = func.count() + func.sum(rs.won) * win_points
        query = (
            select(p.name, points.label("points"), func.count().label("games"),
                   func.sum(rs.won).label("wins"))
            .join_from(db.result_seats, db.results, rs.game_id == r.game_id)
            .join(db.players, p.id == rs.player_id)
            .where(r.platform == platform, r.chat_id == str(chat_id), r.finished_at >= start,
                   r.finished_at < end, rs.computer_level.is_(None), ~p.is_computer)
            .group_by(rs.player_id, p.name)
            .order_by(points.desc(), func.sum(rs.won).desc(), func.count().desc(), p.name)
            .limit(SEASON_ROWS)
        )
        async with self._engine.connect() as conn:
            return [SeasonRow(row.name, float(row.points), row.games, float(row.wins))
                    for row in await conn.execute(query)]

    async def season_kind(self, platform: str, chat_id: str) -> str | None:
        return await self._chat_setting(platform, chat_id, "season")

    async def set_season_kind(self, platform: str, chat_id: str, kind: str) -> None:
        await self._set_chat_setting(platform, chat_id, "season", kind)

    async def season_chats(self, since: datetime) -> list[tuple[str, str, str | None,
                                                                str | None]]:
        """(platform, chat id, its season kind, its language) of every chat with a game
        finished since `since`."""
        r, c = db.results.c, db.chats.c
        recent = (select(r.platform, r.chat_id).distinct()
                  .where(r.finished_at >= since).subquery())
        query = (select(recent.c.platform, recent.c.chat_id, c.season, c.language)
                 .select_from(recent)
                 .outerjoin(db.chats, and_(c.platform == recent.c.platform,
                                           c.chat_id == recent.c.chat_id)))
        async with self._engine.connect() as conn:
            return [(row.platform, row.chat_id, row.season, row.language)
                    for row in await conn.execute(query)]

    async def claim_season(self, platform: str, chat_id: str, season: str,
                           rows: list[SeasonRow], owner: str, now: float,
                           lease: float) -> bool:
        """Claim posting the season's end: True for the one worker whose claim holds (a new
        row, or one another worker claimed and let lapse, never one posted)."""
        standings = [[row.name, row.points, row.games, row.wins] for row in rows]
        key = {"platform": platform, "chat_id": str(chat_id), "season": season}
        async with self._write() as conn:
            return await claim(conn, db.seasons, key, {"standings": standings}, owner, now,
                               lease)

    async def season_closed(self, platform: str, chat_id: str, season: str) -> bool:
        """Has the season's end been posted?"""
        s = db.seasons.c
        async with self._engine.connect() as conn:
            posted = (await conn.execute(select(s.posted_at).where(
                s.platform == platform, s.chat_id == str(chat_id), s.season == season))
            ).scalar_one_or_none()
        return posted is not None

    async def season_posted(self, platform: str, chat_id: str, season: str,
                            owner: str) -> None:
        key = {"platform": platform, "chat_id": str(chat_id), "season": season}
        async with self._write() as conn:
            await posted(conn, db.seasons, key, owner, db.utcnow())

    async def last_season(self, platform: str,
                          chat_id: str) -> tuple[str, list[SeasonRow]] | None:
        kept = await self.seasons_kept(platform, chat_id, 1)
        return kept[0] if kept else None

    async def seasons_kept(self, platform: str, chat_id: str,
                           limit: int = KEPT) -> list[tuple[str, list[SeasonRow]]]:
        """The chat's ended seasons, newest first, with their final standings."""
        s = db.seasons.c
        async with self._engine.connect() as conn:
            rows = await conn.execute(
                select(s.season, s.standings)
                .where(s.platform == platform, s.chat_id == str(chat_id))
                .order_by(s.season.desc()).limit(limit))
            return [(row.season, [SeasonRow(*entry) for entry in row.standings])
                    for row in rows]
