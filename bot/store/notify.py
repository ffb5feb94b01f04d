"""/notify: who is called privately when a lobby opens in a chat, and the chat's last call
(a round of calls per chat at most every so often, claimed in one statement by any worker)."""

from __future__ import annotations

from sqlalchemy import delete, select, update

from . import models as db
from .base import StoreBase
from .sql import insert_for

MAX_SUBSCRIBERS = 200  # called per round at most (a chat's own members: far above a table's)


class NotifyStore(StoreBase):
    async def toggle_notify(self, platform: str, chat_id: str, user_id: str) -> bool:
        """Turn this person's call for this chat on if it was off, off if it was on; True: on."""
        n = db.notify.c
        mine = (n.platform == platform) & (n.chat_id == str(chat_id)) & (n.user_id == str(user_id))
        async with self._write() as conn:
            gone = await conn.execute(delete(db.notify).where(mine))
            if gone.rowcount:
                return False
            await conn.execute(
                insert_for(conn, db.notify)
                .values(platform=platform, chat_id=str(chat_id), user_id=str(user_id),
                        created_at=db.utcnow())
                .on_conflict_do_nothing()
            )
            return True

    async def notify_on(self, platform: str, chat_id: str, user_id: str) -> bool:
        n = db.notify.c
        async with self._engine.connect() as conn:
            found = await conn.execute(select(n.user_id).where(
                n.platform == platform, n.chat_id == str(chat_id), n.user_id == str(user_id)))
            return found.first() is not None

    async def subscribers(self, platform: str, chat_id: str) -> list[str]:
        """Who asked to be called for this chat, first come first (at most MAX_SUBSCRIBERS)."""
        n = db.notify.c
        async with self._engine.connect() as conn:
            rows = await conn.execute(
                select(n.user_id).where(n.platform == platform, n.chat_id == str(chat_id))
                .order_by(n.created_at, n.user_id).limit(MAX_SUBSCRIBERS)
            )
            return list(rows.scalars())

    async def claim_ping(self, platform: str, chat_id: str, now: float, every: float) -> bool:
        """This chat's round of calls, if its last was `every` seconds ago or more (True: call
        now; the time is written in the same statement, so two workers never both call)."""
        p = db.notify_pings.c
        here = (p.platform == platform) & (p.chat_id == str(chat_id))
        async with self._write() as conn:
            moved = await conn.execute(
                update(db.notify_pings).where(here, p.at <= now - every).values(at=now))
            if moved.rowcount:
                return True
            first = await conn.execute(
                insert_for(conn, db.notify_pings)
                .values(platform=platform, chat_id=str(chat_id), at=now)
                .on_conflict_do_nothing()  # there: called already, within `every`
            )
            return bool(first.rowcount)
