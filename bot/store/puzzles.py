"""The puzzle of the day (issue 41 item 5): which chats have it on, what each finished game of
theirs offers (cut once), each day's puzzle — claimed by one worker to post, then kept — and
each person's one try at it."""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime
from typing import Any

from sqlalchemy import and_, select, update

from . import models as db
from .base import StoreBase
from .sql import claim, insert_for, posted

CUT_BATCH = 20  # finished games cut per sweep (each costs a replay and the solver)
BOARD_DAYS = 60  # the tries a board reads: streaks longer than this show as this


@dataclass(frozen=True)
class Uncut:
    """A finished game of a chat with puzzles on that has not been cut yet."""

    game_id: int
    platform: str
    chat_id: str
    finished_at: datetime
    record: dict[str, Any]


@dataclass(frozen=True)
class PuzzleTry:
    day: str
    user_id: str
    name: str
    solved: bool | None  # None: begun, not ended
    cards: int | None
    game_id: int | None


class PuzzlesStore(StoreBase):
    async def puzzle_on(self, platform: str, chat_id: str) -> bool:
        return bool(await self._chat_setting(platform, chat_id, "puzzle"))

    async def set_puzzle(self, platform: str, chat_id: str, on: bool) -> None:
        await self._set_chat_setting(platform, chat_id, "puzzle", on)

    async def puzzle_chats(self) -> list[tuple[str, str, str | None]]:
        """(platform, chat id, language) of every chat with the puzzle on."""
        c = db.chats.c
        async with self._engine.connect() as conn:
            rows = await conn.execute(select(c.platform, c.chat_id, c.language)
                                      .where(c.puzzle.is_(True)))
            return [(row.platform, row.chat_id, row.language) for row in rows]

    async def uncut_games(self, since: datetime, limit: int = CUT_BATCH) -> list[Uncut]:
        """Finished games since `since` of chats with the puzzle on, not cut yet, oldest first."""
        r, c, g, k = db.results.c, db.chats.c, db.games.c, db.puzzle_cuts.c
        query = (
            select(r.game_id, r.platform, r.chat_id, r.finished_at, g.record)
            .join_from(db.results, db.chats,
                       and_(c.platform == r.platform, c.chat_id == r.chat_id))
            .join(db.games, g.id == r.game_id)
            .outerjoin(db.puzzle_cuts, k.game_id == r.game_id)
            .where(c.puzzle.is_(True), r.finished_at >= since, k.game_id.is_(None))
            .order_by(r.finished_at, r.game_id)
            .limit(limit)
        )
        async with self._engine.connect() as conn:
            return [Uncut(row.game_id, row.platform, row.chat_id, row.finished_at, row.record)
                    for row in await conn.execute(query)]

    async def claim_cut(self, uncut: Uncut, game_name: str) -> bool:
        """Take cutting this game (its row, offering nothing yet): True for the one worker that
        cuts it, whose `save_cut` fills it in. A worker gone in between leaves it offering
        nothing (one game's puzzle missed, never one cut twice)."""
        async with self._write() as conn:
            taken = await conn.execute(
                insert_for(conn, db.puzzle_cuts)
                .values(game_id=uncut.game_id, platform=uncut.platform, chat_id=uncut.chat_id,
                        finished_at=uncut.finished_at, game_name=game_name)
                .on_conflict_do_nothing()
                .returning(db.puzzle_cuts.c.game_id))
            return taken.first() is not None

    async def save_cut(self, game_id: int, score: int | None,
                       data: dict[str, Any] | None) -> None:
        """What the game claimed with `claim_cut` offers (None: nothing)."""
        k = db.puzzle_cuts.c
        async with self._write() as conn:
            await conn.execute(update(db.puzzle_cuts).where(k.game_id == game_id)
                               .values(score=score, data=data))

    async def best_cut(self, platform: str, chat_id: str, since: datetime
                       ) -> tuple[int, str, dict[str, Any]] | None:
        """The chat's best cut not posted yet among games finished since `since`:
        (game id, the game's name, the data)."""
        k = db.puzzle_cuts.c
        async with self._engine.connect() as conn:
            row = (await conn.execute(
                select(k.game_id, k.data, k.game_name)
                .where(k.platform == platform, k.chat_id == str(chat_id),
                       k.finished_at >= since, k.data.is_not(None), k.used_on.is_(None))
                .order_by(k.score.desc(), k.finished_at.desc(), k.game_id.desc())
                .limit(1))).first()
        return None if row is None else (row.game_id, row.game_name, row.data)

    async def claim_puzzle(self, platform: str, chat_id: str, day: str, game_name: str,
                           data: dict[str, Any], cut: int | None, owner: str, now: float,
                           lease: float) -> bool:
        """Claim posting the chat's puzzle of `day`: True for the one worker whose claim holds
        (a new row, or one another worker claimed and let lapse — never one posted). The cut it
        was made from (None: taken over, marked already) is marked used in the same
        transaction."""
        key = {"platform": platform, "chat_id": str(chat_id), "day": day}
        async with self._write() as conn:
            if not await claim(conn, db.puzzles, key, {"game_name": game_name, "data": data},
                               owner, now, lease):
                return False
            if cut is not None:
                await conn.execute(update(db.puzzle_cuts)
                                   .where(db.puzzle_cuts.c.game_id == cut).values(used_on=day))
            return True

    async def puzzle_posted(self, platform: str, chat_id: str, day: str, owner: str) -> None:
        key = {"platform": platform, "chat_id": str(chat_id), "day": day}
        async with self._write() as conn:
            await posted(conn, db.puzzles, key, owner, db.utcnow())

    async def puzzle_of(self, platform: str, chat_id: str, day: str
                        ) -> tuple[str, dict[str, Any], bool] | None:
        """The chat's puzzle of `day`: (game name, data, posted) or None."""
        p = db.puzzles.c
        async with self._engine.connect() as conn:
            row = (await conn.execute(select(p.game_name, p.data, p.posted_at).where(
                p.platform == platform, p.chat_id == str(chat_id), p.day == day))).first()
        if row is None or row.data is None:
            return None
        return row.game_name or "", row.data, row.posted_at is not None

    async def begin_try(self, platform: str, chat_id: str, day: str, user_id: str,
                        name: str) -> bool:
        """This person's one try at the day's puzzle: True when it is their first."""
        async with self._write() as conn:
            made = await conn.execute(
                insert_for(conn, db.puzzle_tries)
                .values(platform=platform, chat_id=str(chat_id), day=day,
                        user_id=str(user_id), name=name[:db.NAME_MAX], at=db.utcnow())
                .on_conflict_do_nothing()
                .returning(db.puzzle_tries.c.day))
            return made.first() is not None

    async def try_game(self, platform: str, chat_id: str, day: str, user_id: str,
                       game_id: int) -> None:
        t = db.puzzle_tries.c
        async with self._write() as conn:
            await conn.execute(update(db.puzzle_tries).where(
                t.platform == platform, t.chat_id == str(chat_id), t.day == day,
                t.user_id == str(user_id)).values(game_id=game_id))

    async def end_try(self, platform: str, chat_id: str, day: str, user_id: str,
                      solved: bool, cards: int) -> bool:
        """The try's verdict, once (True: this call ended it)."""
        t = db.puzzle_tries.c
        async with self._write() as conn:
            done = await conn.execute(update(db.puzzle_tries).where(
                t.platform == platform, t.chat_id == str(chat_id), t.day == day,
                t.user_id == str(user_id), t.solved.is_(None)).values(solved=solved, cards=cards))
            return bool(done.rowcount)

    async def the_try(self, platform: str, chat_id: str, day: str, user_id: str
                      ) -> PuzzleTry | None:
        t = db.puzzle_tries.c
        async with self._engine.connect() as conn:
            row = (await conn.execute(select(db.puzzle_tries).where(
                t.platform == platform, t.chat_id == str(chat_id), t.day == day,
                t.user_id == str(user_id)))).first()
        return None if row is None else PuzzleTry(row.day, row.user_id, row.name, row.solved,
                                                 row.cards, row.game_id)

    async def puzzle_tries(self, platform: str, chat_id: str, since: str) -> list[PuzzleTry]:
        """The chat's tries on days from `since` ("2026-10-08"), oldest first."""
        t = db.puzzle_tries.c
        async with self._engine.connect() as conn:
            rows = await conn.execute(
                select(db.puzzle_tries)
                .where(t.platform == platform, t.chat_id == str(chat_id), t.day >= since)
                .order_by(t.day, t.at))
            return [PuzzleTry(row.day, row.user_id, row.name, row.solved, row.cards,
                              row.game_id) for row in rows]

    async def puzzle_days(self, platform: str, chat_id: str, since: str) -> list[str]:
        """The days from `since` the chat had a puzzle posted, oldest first."""
        p = db.puzzles.c
        async with self._engine.connect() as conn:
            rows = await conn.execute(
                select(p.day).where(p.platform == platform, p.chat_id == str(chat_id),
                                    p.day >= since, p.posted_at.is_not(None))
                .order_by(p.day))
            return list(rows.scalars())
