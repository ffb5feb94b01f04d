"""Players and languages: who a platform's user is, and the language a person or a group chose
with /language."""

from __future__ import annotations

from sqlalchemy import select, update
from sqlalchemy.ext.asyncio import AsyncConnection

from . import models as db
from .base import StoreBase
from .sql import insert_for


class PlayersStore(StoreBase):
    async def player(self, platform: str, user_id: str, name: str) -> int:
        """Upsert by (platform, user id), refreshing the display name; the player id."""
        async with self._write() as conn:
            return await upsert_player(conn, platform, str(user_id), name)

    async def language(self, platform: str, user_id: str) -> str | None:
        """The language a person chose with /language (None: none chosen)."""
        async with self._engine.connect() as conn:
            return (
                await conn.execute(
                    select(db.players.c.language).where(
                        db.players.c.platform == platform, db.players.c.user_id == str(user_id)
                    )
                )
            ).scalar_one_or_none()

    async def set_language(self, platform: str, user_id: str, name: str, lang: str) -> None:
        async with self._write() as conn:
            await upsert_player(conn, platform, str(user_id), name)
            await conn.execute(
                update(db.players)
                .where(db.players.c.platform == platform, db.players.c.user_id == str(user_id))
                .values(language=lang)
            )

    async def chat_language(self, platform: str, chat_id: str) -> str | None:
        """The language a group chose with /language (None: none chosen)."""
        return await self._chat_setting(platform, chat_id, "language")

    async def set_chat_language(self, platform: str, chat_id: str, lang: str) -> None:
        await self._set_chat_setting(platform, chat_id, "language", lang)


async def upsert_player(conn: AsyncConnection, platform: str, user_id: str, name: str) -> int:
    now = db.utcnow()
    stmt = insert_for(conn, db.players).values(
        platform=platform, user_id=user_id, name=name[: db.NAME_MAX], is_computer=False,
        created_at=now, updated_at=now,
    )
    stmt = stmt.on_conflict_do_update(
        index_elements=["platform", "user_id"],
        set_={"name": stmt.excluded.name, "updated_at": stmt.excluded.updated_at},
    ).returning(db.players.c.id)
    return (await conn.execute(stmt)).scalar_one()
