"""`Store`: the async repository the bot core calls.

Every method is one transaction, committed before it returns, so whatever the bot answers
afterwards is already durable. Writes take SQLite's write lock up front (see engine.py);
on PostgreSQL the game row's `version` gives optimistic concurrency and the partial unique
index `uq_games_active_chat` keeps one active game per chat.

Rows stay bounded: a game's action log lives in `game_actions` (a save appends its new actions,
it never rewrites the log), `due_at` says when a game next needs background work (so a worker
starting up reads (id, due_at) pairs, not every game whole), and `prune` shrinks old finished
games to stubs and deletes old lessons.
"""

from __future__ import annotations

import asyncio
import contextlib
import enum
import time
import zlib
from collections.abc import AsyncIterator, Iterable, Sequence
from dataclasses import dataclass
from datetime import datetime
from types import TracebackType
from typing import Any, Final, Literal

from sqlalchemy import (
    ColumnElement,
    Integer,
    Row,
    bindparam,
    delete,
    func,
    insert,
    or_,
    select,
    text,
    update,
)
from sqlalchemy.exc import IntegrityError
from sqlalchemy.ext.asyncio import AsyncConnection, AsyncEngine

from . import models as db
from . import results as res
from .engine import lock_engine, make_engine, writer
from .migrate import run_migrations
from .outbox import Outbox
from .row_cache import RowCache, own_file, release
from .rows import (
    ACTIVE_STATUSES,
    DONE_STATUSES,
    STATUSES,
    Duplicate,
    GameExists,
    GameResult,
    GameRow,
    LeaderRow,
    PlayerStats,
    ResultSeat,
    RoundRow,
    SeatRow,
    StaleGame,
)
from .sql import insert_for
from .urls import database_url


class _Keep(enum.Enum):
    KEEP = "keep"


# save_game(due_at=KEEP), the default: leave the game's due_at as it is.
KEEP: Final = _Keep.KEEP
PRUNE_BATCH = 500  # game rows per transaction in `prune`
JOB_KINDS = ("computer", "timer")


@dataclass(frozen=True)
class Job:
    """A game's due background work, claimed by `owner` until `lease_until` (epoch s)."""

    game_id: int
    kind: str
    due_at: float
    lease_until: float | None = None
    owner: str | None = None


@dataclass
class Held:
    """A game row locked (SELECT ... FOR UPDATE) in an open transaction: `save_game(...,
    held=held)` writes in it; the lock goes at commit. Other workers' changes of the game wait."""

    conn: AsyncConnection
    row: GameRow | None


class Store:
    """Players, chats, games, seats, rounds and results; open with `await Store.open()`."""

    def __init__(self, engine: AsyncEngine) -> None:
        self._engine = engine
        self._writer = writer(engine)
        self._leads: dict[str, AsyncConnection] = {}  # what this worker leads: its lock's conn
        self._owner: int | None = None
        self._gate: tuple[asyncio.AbstractEventLoop, asyncio.Lock] | None = None  # see _write
        self.rows: RowCache | None = None  # see keep_rows
        self.outbox = Outbox(engine)  # PostgreSQL: the screens this worker's saves owe
        self._locks = lock_engine(engine)  # PostgreSQL: message locks' own connections

    @classmethod
    async def open(cls, url: str | None = None) -> Store:
        """Connect (url None: DATABASE_URL, else SQLite data/rummy.db) and migrate to head."""
        engine = make_engine(database_url(url))
        try:
            await run_migrations(engine)
        except BaseException:
            await engine.dispose()
            raise
        return cls(engine)

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

    def keep_rows(self) -> bool:
        """This process is the one that writes this SQLite database (the bot's service says
        so): answer reads of game rows from memory (row_cache.py). Another store holding the
        file's owner lock: no (it reads as before). PostgreSQL: never (many workers)."""
        if self.rows is None and self._engine.dialect.name == "sqlite":
            self._owner = own_file(self._engine.url.database)
            if self._owner is not None:
                self.rows = RowCache()
        return self.rows is not None

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

    async def __aenter__(self) -> Store:
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

    # -- players ---------------------------------------------------------------------------

    async def player(self, platform: str, user_id: str, name: str) -> int:
        """Upsert by (platform, user id), refreshing the display name; the player id."""
        async with self._write() as conn:
            return await upsert_player(conn, platform, str(user_id), name)

    # -- languages (/language) -------------------------------------------------------------

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
        async with self._engine.connect() as conn:
            return (
                await conn.execute(
                    select(db.chats.c.language).where(
                        db.chats.c.platform == platform, db.chats.c.chat_id == str(chat_id)
                    )
                )
            ).scalar_one_or_none()

    async def set_chat_language(self, platform: str, chat_id: str, lang: str) -> None:
        async with self._write() as conn:
            chat = insert_for(conn, db.chats).values(
                platform=platform, chat_id=str(chat_id), created_at=db.utcnow(), language=lang
            )
            await conn.execute(
                chat.on_conflict_do_update(
                    index_elements=["platform", "chat_id"], set_={"language": lang}
                )
            )

    # -- games -----------------------------------------------------------------------------

    async def create_game(
        self, platform: str, chat_id: str, record: dict, *, status: str = "lobby"
    ) -> GameRow:
        """A new game at version 1; GameExists if the chat already has an active one."""
        _check_status(status)
        chat_id = str(chat_id)
        now = db.utcnow()
        try:
            async with self._write() as conn:
                chat = insert_for(conn, db.chats).values(
                    platform=platform, chat_id=chat_id, created_at=now
                )
                await conn.execute(chat.on_conflict_do_nothing())
                row = (
                    await conn.execute(
                        insert(db.games)
                        .values(
                            platform=platform, chat_id=chat_id, status=status, record=record,
                            version=1, created_at=now, updated_at=now,
                        )
                        .returning(*db.games.c)
                    )
                ).one()
        except IntegrityError as error:
            await self._raise_if_active(platform, chat_id, error)
            raise
        return self._keep(_game_row(row))

    def _forget(self, game_ids: Iterable[int]) -> None:
        """Rows changed here other than by a save (prune, a failed save): read them again."""
        if self.rows is not None:
            for game_id in game_ids:
                self.rows.forget(game_id)

    def _keep(self, row: GameRow) -> GameRow:
        """Remember a row just read or written (when this store owns the database)."""
        if self.rows is not None:
            self.rows.put(row)
        return row

    async def get_game(self, game_id: int) -> GameRow | None:
        if self.rows is not None and (kept := self.rows.get(game_id)) is not None:
            return kept
        async with self._engine.connect() as conn:
            row = (
                await conn.execute(select(db.games).where(db.games.c.id == game_id))
            ).one_or_none()
        return None if row is None else self._keep(_game_row(row))

    async def active_game(self, platform: str, chat_id: str) -> GameRow | None:
        """The chat's lobby/playing game, if any."""
        async with self._engine.connect() as conn:
            row = (
                await conn.execute(
                    select(db.games).where(
                        db.games.c.platform == platform,
                        db.games.c.chat_id == str(chat_id),
                        db.games.c.status.in_(ACTIVE_STATUSES),
                    )
                )
            ).one_or_none()
        return None if row is None else self._keep(_game_row(row))

    async def last_lesson(self, platform: str, chat_id: str) -> GameRow | None:
        """The chat's newest lesson row, whatever its status (a learner's lessons reuse it)."""
        async with self._engine.connect() as conn:
            row = (
                await conn.execute(
                    select(db.games)
                    .where(
                        db.games.c.platform == platform,
                        db.games.c.chat_id == str(chat_id),
                        _is_lesson(),
                    )
                    .order_by(db.games.c.id.desc())
                    .limit(1)
                )
            ).one_or_none()
        return None if row is None else self._keep(_game_row(row))

    async def last_game(self, platform: str, chat_id: str) -> GameRow | None:
        """The chat's newest game that is not a lesson, whatever its status (/review)."""
        async with self._engine.connect() as conn:
            row = (
                await conn.execute(
                    select(db.games)
                    .where(
                        db.games.c.platform == platform,
                        db.games.c.chat_id == str(chat_id),
                        ~_is_lesson(),
                    )
                    .order_by(db.games.c.id.desc())
                    .limit(1)
                )
            ).one_or_none()
        return None if row is None else self._keep(_game_row(row))

    async def active_games(self) -> list[GameRow]:
        """Every lobby/playing game whole, oldest first. At start-up prefer `scheduled_games`
        (only ids and times) and load a game when it is due."""
        async with self._engine.connect() as conn:
            rows = await conn.execute(
                select(db.games)
                .where(db.games.c.status.in_(ACTIVE_STATUSES))
                .order_by(db.games.c.id)
            )
            return [_game_row(row) for row in rows]

    async def games_for_player(self, player_id: int) -> list[GameRow]:
        """Active games in which the player has a seat, oldest first."""
        seated = select(db.seats.c.game_id).where(db.seats.c.player_id == player_id)
        async with self._engine.connect() as conn:
            rows = await conn.execute(
                select(db.games)
                .where(db.games.c.id.in_(seated), db.games.c.status.in_(ACTIVE_STATUSES))
                .order_by(db.games.c.id)
            )
            return [_game_row(row) for row in rows]

    async def save_game(
        self,
        game_id: int,
        record: dict,
        *,
        expected_version: int,
        status: str | None = None,
        seats: list[SeatRow] | None = None,
        rounds: Sequence[RoundRow] = (),
        result: GameResult | None = None,
        actions: Sequence[dict] = (),
        due_at: float | Literal[_Keep.KEEP] | None = KEEP,
        job: str = "timer",
        update_key: str | None = None,
        held: Held | None = None,
    ) -> GameRow:
        """Write the record if the row is still at `expected_version`; it becomes version + 1.

        What the move brought goes in the same transaction — new `seats`, finished `rounds`,
        the game's `result`, the new `actions` (appended to the game's log, see
        `game_actions`) — so a crash can't leave a finished game that no leaderboard counts,
        nor a record ahead of its log. `due_at` (epoch seconds, None = nothing due) is written
        only when given, with (PostgreSQL) the game's `jobs` row (of kind `job`, unclaimed); a
        save that finishes or ends the game without giving it clears both. `update_key`: the chat
        update this change applies, remembered in the same transaction (Duplicate if it was
        seen already: nothing written). `held`: write in that transaction (the row is locked).
        StaleGame if someone saved first (reload and retry; nothing was written);
        LookupError if there is no such game; GameExists if reactivating it would give its
        chat two active games.
        """
        values: dict[str, Any] = {
            "record": record,
            "version": db.games.c.version + 1,
            "updated_at": db.utcnow(),
        }
        if status is not None:
            _check_status(status)
            values["status"] = status
        if due_at is not KEEP:
            values["due_at"] = None if due_at is None else float(due_at)
        elif status in DONE_STATUSES:
            values["due_at"] = None  # nothing more to do for it
        # The version check lives in the UPDATE's WHERE, so the database decides the race:
        # a concurrent writer blocks on the row lock, then finds the version moved on.
        stmt = (
            update(db.games)
            .where(db.games.c.id == game_id, db.games.c.version == expected_version)
            .values(**values)
            .returning(*_ROW_BUT_RECORD)  # the record is the one given: no decode of it
        )
        if job not in JOB_KINDS:
            raise ValueError(f"unknown job kind {job!r}")
        try:
            async with contextlib.AsyncExitStack() as stack:
                if held is not None:
                    conn = held.conn
                else:
                    conn = await stack.enter_async_context(self._write())
                if update_key is not None:
                    await _remember_update(conn, update_key)
                row = (await conn.execute(stmt)).one_or_none()
                if row is None:
                    current = await conn.execute(
                        select(db.games.c.platform, db.games.c.chat_id).where(
                            db.games.c.id == game_id
                        )
                    )
                    if current.one_or_none() is None:
                        raise LookupError(f"no game {game_id}")
                    raise StaleGame(game_id, expected_version)
                if "due_at" in values and self.row_locks:
                    # Only many workers claim jobs rows; one SQLite process schedules from
                    # games.due_at (a statement a press saved).
                    await _write_job(conn, game_id, job, values["due_at"])
                if self.row_locks:  # the screens owed, redelivered by another worker if we die
                    await self.outbox.owe(conn, game_id, expected_version + 1)
                if actions:
                    # Safe to number after the current last: the UPDATE above holds the row
                    # lock (SQLite: the write lock) until commit, so no other save of this
                    # game is between this read and the insert.
                    await _append_actions(conn, game_id, actions)
                if seats is not None:
                    await _write_seats(conn, game_id, seats)
                for done in rounds:
                    await _write_round(conn, game_id, done)
                if result is not None:
                    await res.record_result(conn, game_id, result.rulebook, result.seats)
        except IntegrityError as error:
            game = await self.get_game(game_id)
            if game is not None:
                await self._raise_if_active(game.platform, game.chat_id, error)
            raise
        except BaseException:
            self._forget((game_id,))  # (a stale copy can't be written, but don't keep it)
            raise
        return self._keep(_game_row(row, record))

    async def seen(self, key: str, held: Held | None = None) -> bool:
        """Has this update's key changed a game already?"""
        query = select(db.seen_updates.c.key).where(db.seen_updates.c.key == key)
        if held is not None:
            return (await held.conn.execute(query)).first() is not None
        async with self._engine.connect() as conn:
            return (await conn.execute(query)).first() is not None

    async def forget_updates(self, before: float) -> int:
        """Drop the update keys seen before `before` (epoch s): a platform redelivers an update
        within minutes, not days. How many went."""
        async with self._write() as conn:
            gone = await conn.execute(
                delete(db.seen_updates).where(db.seen_updates.c.seen_at < before)
            )
            return max(gone.rowcount or 0, 0)

    # -- the inbox of long polling (bot/adapters/telegram_polling.py) ----------------------

    async def inbox_put(self, rows: Sequence[tuple[str, str]], done: Sequence[str] = ()) -> None:
        """In one transaction: forget the handled updates `done`, keep the fetched `rows`
        (key, body) until they are handled (a key kept already stays as it is)."""
        now = time.time()
        async with self._write() as conn:
            if done:
                await conn.execute(delete(db.inbox).where(db.inbox.c.key.in_(list(done))))
            if rows:
                stmt = insert_for(conn, db.inbox).on_conflict_do_nothing()
                await conn.execute(stmt, [{"key": k, "body": b, "at": now} for k, b in rows])

    async def inbox_pending(self, limit: int = 10_000) -> list[tuple[str, str]]:
        """The updates fetched and not yet handled (key, body), oldest first."""
        i = db.inbox.c
        async with self._engine.connect() as conn:
            rows = await conn.execute(select(i.key, i.body).order_by(i.at, i.key).limit(limit))
            return [(row.key, row.body) for row in rows]

    @property
    def row_locks(self) -> bool:
        """PostgreSQL: changes of a game are ordered by its row lock across processes (and
        jobs are claimed with SKIP LOCKED). SQLite: one process, its write lock and versions."""
        return self._engine.dialect.name == "postgresql"

    @contextlib.asynccontextmanager
    async def hold(self, game_id: int) -> AsyncIterator[Held]:
        """The game row, locked FOR UPDATE in a transaction that commits when the block ends
        (rolls back if it raises): every worker's changes of one game in one order."""
        async with self._writer.begin() as conn:
            row = (
                await conn.execute(
                    select(db.games).where(db.games.c.id == game_id).with_for_update()
                )
            ).one_or_none()
            yield Held(conn, None if row is None else _game_row(row))

    async def patch_refs(self, game_id: int, patch: dict[str, Any]) -> None:
        """Merge these keys into the record's adapter refs in one UPDATE, leaving the version
        alone (message ids are no move: a press racing with a delivery must not go stale).
        PostgreSQL only: a concurrent change holds the row lock and the patch lands after it."""
        async with self._write() as conn:
            await _patch_refs(conn, game_id, patch)

    @contextlib.asynccontextmanager
    async def message_lock(self, game_id: int, key: str) -> AsyncIterator[MessageLock]:
        """Hold the lock of one live message of a game across workers (a PostgreSQL advisory
        lock) and yield the game's refs as saved now: a worker edits a message only after
        reading what the others last showed in it, and saves what it showed (`save`) before
        the lock goes. The lock's connection does it all, and it is not one of the pool's
        (engine.lock_engine): a send waiting for its chat's budget, lock held, never keeps a
        press from reading."""
        args = {"a": game_id, "b": zlib.crc32(key.encode()) - 2**31}
        conn = await (self._locks or self._engine).connect()
        try:
            # PostgreSQL queues the waiters and wakes the next at once when the lock goes
            await conn.execute(text("SELECT pg_advisory_lock(:a, :b)"), args)
            await conn.commit()
        except BaseException:
            await conn.close()  # the session's locks go with it
            raise
        try:
            refs = (
                await conn.execute(
                    select(db.games.c.record["refs"]).where(db.games.c.id == game_id)
                )
            ).scalar()
            await conn.commit()
            yield MessageLock(conn, game_id, dict(refs or {}))
        finally:
            with contextlib.suppress(Exception):
                await conn.execute(text("SELECT pg_advisory_unlock(:a, :b)"), args)
                await conn.commit()
            await conn.close()

    # -- jobs ------------------------------------------------------------------------------

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

    async def game_actions(self, game_id: int) -> list[dict]:
        """The game's action log (what the saves appended), in order; [] if none."""
        async with self._engine.connect() as conn:
            rows = await conn.execute(
                select(db.game_actions.c.data)
                .where(db.game_actions.c.game_id == game_id)
                .order_by(db.game_actions.c.seq)
            )
            return list(rows.scalars())

    # -- background work -------------------------------------------------------------------

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
        """(id, due_at) of every playing game with something scheduled, soonest first: what a
        worker starting up needs to re-arm its timers, without reading any game whole."""
        async with self._engine.connect() as conn:
            rows = await conn.execute(
                select(db.games.c.id, db.games.c.due_at)
                .where(db.games.c.due_at.is_not(None), db.games.c.status == "playing")
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
        `lessons_before` are deleted with everything that hangs off them. Counts of what was
        done: {"games_pruned", "actions_deleted", "lessons_deleted"}.
        """
        g = db.games.c
        is_lesson = _is_lesson()
        done = g.status.in_(DONE_STATUSES)
        counts = {"games_pruned": 0, "actions_deleted": 0, "lessons_deleted": 0}

        old_lessons = done & (g.updated_at < lessons_before) & is_lesson
        while True:
            async with self._write() as conn:
                ids = await _locked_ids(conn, old_lessons)
                if ids:
                    await conn.execute(delete(db.games).where(g.id.in_(ids)))
            self._forget(ids)
            counts["lessons_deleted"] += len(ids)
            if len(ids) < PRUNE_BATCH:
                break

        prunable = (
            done
            & (g.updated_at < finished_before)
            & g.record["pruned"].as_string().is_(None)
            & ~is_lesson  # a lesson is kept whole until lessons_before, then deleted
        )
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
                break
        return counts

    async def _raise_if_active(self, platform: str, chat_id: str, error: Exception) -> None:
        """After a unique-index violation: name the chat's active game, if that was the cause."""
        active = await self.active_game(platform, chat_id)
        if active is not None:
            raise GameExists(active.id) from error

    # -- seats and rounds ------------------------------------------------------------------

    async def set_seats(self, game_id: int, seats: list[SeatRow]) -> None:
        """Replace the game's seats with these."""
        async with self._write() as conn:
            await _require_game(conn, game_id)
            await _write_seats(conn, game_id, seats)

    async def seats(self, game_id: int) -> list[SeatRow]:
        async with self._engine.connect() as conn:
            rows = await conn.execute(
                select(db.seats).where(db.seats.c.game_id == game_id).order_by(db.seats.c.seat_no)
            )
            return [
                SeatRow(row.seat_no, row.player_id, row.name, row.computer_level) for row in rows
            ]

    async def record_round(
        self, game_id: int, round_no: int, points: list[int], totals: list[int]
    ) -> None:
        """Store one round's points and running totals (list index = seat position).

        Idempotent: the first write of (game, round) wins; repeating it is a no-op, so a
        retried action cannot double-count a round.
        """
        async with self._write() as conn:
            await _require_game(conn, game_id)
            await _write_round(conn, game_id, RoundRow(round_no, points, totals))

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

    # -- results, leaderboards, stats ------------------------------------------------------

    async def record_result(self, game_id: int, rulebook: str, seats: list[ResultSeat]) -> None:
        """Store a finished game's result and update ratings; idempotent per game."""
        async with self._write() as conn:
            await res.record_result(conn, game_id, rulebook, seats)

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


async def _write_seats(conn: AsyncConnection, game_id: int, seats: list[SeatRow]) -> None:
    numbers = [seat.seat_no for seat in seats]
    if len(set(numbers)) != len(numbers):
        raise ValueError(f"duplicate seat numbers: {numbers}")
    await conn.execute(delete(db.seats).where(db.seats.c.game_id == game_id))
    if seats:
        await conn.execute(
            insert(db.seats),
            [
                {
                    "game_id": game_id,
                    "seat_no": seat.seat_no,
                    "player_id": seat.player_id,
                    "name": seat.name[: db.NAME_MAX],
                    "computer_level": seat.computer_level,
                }
                for seat in seats
            ],
        )


async def _write_round(conn: AsyncConnection, game_id: int, done: RoundRow) -> None:
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


async def _patch_refs(conn: AsyncConnection, game_id: int, patch: dict[str, Any]) -> None:
    await conn.execute(
        text(
            "UPDATE games SET record = jsonb_set(record, '{refs}', "
            "coalesce(record->'refs', '{}'::jsonb) || CAST(:patch AS jsonb)) WHERE id = :id"
        ),
        {"patch": _json(patch), "id": game_id},
    )


@dataclass
class MessageLock:
    """A live message's lock (Store.message_lock): the game's refs when it was taken, and
    `save` to write what was shown, on the lock's own connection."""

    conn: AsyncConnection
    game_id: int
    refs: dict[str, Any]

    async def save(self, patch: dict[str, Any]) -> None:
        await _patch_refs(self.conn, self.game_id, patch)
        await self.conn.commit()


async def _remember_update(conn: AsyncConnection, key: str) -> None:
    """Insert the update's key; Duplicate if it is there (ON CONFLICT: no error, so a
    transaction holding a game's lock stays usable)."""
    stmt = insert_for(conn, db.seen_updates).values(key=key, seen_at=db.utcnow().timestamp())
    done = await conn.execute(stmt.on_conflict_do_nothing().returning(db.seen_updates.c.key))
    if done.first() is None:
        raise Duplicate(key)


async def _write_job(conn: AsyncConnection, game_id: int, kind: str, due: float | None) -> None:
    """The game's jobs row as its save says: due at `due` and unclaimed, or none."""
    if due is None:
        await conn.execute(delete(db.jobs).where(db.jobs.c.game_id == game_id))
        return
    values = {"kind": kind, "due_at": due, "lease_until": None, "owner": None}
    stmt = insert_for(conn, db.jobs).values(game_id=game_id, **values)
    await conn.execute(stmt.on_conflict_do_update(index_elements=["game_id"], set_=values))


def _json(value: Any) -> str:
    import json

    return json.dumps(value, separators=(",", ":"))


async def _append_actions(conn: AsyncConnection, game_id: int, actions: Sequence[dict]) -> None:
    """Number the actions after the game's current last one (max(seq): an index lookup)."""
    a = db.game_actions.c
    if len(actions) == 1:  # the usual press: one statement, INSERT ... SELECT max(seq) + 1
        following = select(
            bindparam("a_game", game_id, type_=Integer),
            func.coalesce(func.max(a.seq), -1) + 1,
            bindparam("a_data", actions[0], type_=a.data.type),
        ).where(a.game_id == game_id)
        await conn.execute(
            insert(db.game_actions).from_select(["game_id", "seq", "data"], following)
        )
        return
    last = (await conn.execute(select(func.max(a.seq)).where(a.game_id == game_id))).scalar()
    first = 0 if last is None else last + 1
    await conn.execute(
        insert(db.game_actions),
        [{"game_id": game_id, "seq": first + n, "data": data} for n, data in enumerate(actions)],
    )


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


async def _require_game(conn: AsyncConnection, game_id: int) -> None:
    found = await conn.execute(select(db.games.c.id).where(db.games.c.id == game_id))
    if found.first() is None:
        raise LookupError(f"no game {game_id}")


def _is_lesson() -> ColumnElement[bool]:
    """A lesson row: its record has a non-empty "lesson" (bot/core/lessons.py)."""
    lesson = db.games.c.record["lesson"].as_string()  # NULL when absent or JSON null
    return lesson.is_not(None) & lesson.not_in(("{}", "[]", ""))


def _check_status(status: str) -> None:
    if status not in STATUSES:
        raise ValueError(f"unknown game status {status!r}; one of {', '.join(STATUSES)}")


_ROW_BUT_RECORD = tuple(c for c in db.games.c if c.name != "record")


def _game_row(row: Row[Any], record: dict | None = None) -> GameRow:
    """A GameRow of a games row (`record`: the record it holds, when not selected)."""
    m = row._mapping
    return GameRow(
        id=m["id"], platform=m["platform"], chat_id=m["chat_id"], status=m["status"],
        record=m["record"] if record is None else record, version=m["version"],
        created_at=m["created_at"],
        updated_at=m["updated_at"], due_at=m.get("due_at"),
    )
