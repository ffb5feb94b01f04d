"""Games: a game's row (its record, status, version, due time), created, read and saved with
its version check — with what a move brings in the same transaction (its seats, rounds, result,
the actions appended to its log, its job, the update's key, the screens it owes) — and held
under its row lock (PostgreSQL). On SQLite the process that owns the file answers reads of
game rows from memory (row_cache.py).
"""

from __future__ import annotations

import contextlib
import enum
import json
from collections.abc import AsyncIterator, Sequence
from dataclasses import dataclass
from typing import Any, Final, Literal, NoReturn

from sqlalchemy import (
    ColumnElement,
    Integer,
    Row,
    Text,
    Update,
    bindparam,
    delete,
    func,
    insert,
    select,
    update,
)
from sqlalchemy.exc import IntegrityError
from sqlalchemy.ext.asyncio import AsyncConnection

from . import models as db
from . import results as res
from .base import StoreBase
from .jobs import JOB_KINDS, write_job
from .rows import (
    ACTIVE_STATUSES,
    DONE_STATUSES,
    STATUSES,
    GameExists,
    GameResult,
    GameRow,
    RoundRow,
    SeatRow,
    StaleGame,
)
from .scores import require_game, write_round
from .sql import insert_for
from .updates import remember_update


class _Keep(enum.Enum):
    KEEP = "keep"


# save_game(due_at=KEEP), the default: leave the game's due_at as it is.
KEEP: Final = _Keep.KEEP


@dataclass
class Held:
    """A game row locked (SELECT ... FOR UPDATE) in an open transaction: `save_game(...,
    held=held)` writes in it; the lock goes at commit. Other workers' changes of the game wait."""

    conn: AsyncConnection
    row: GameRow | None


class GamesStore(StoreBase):
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
        return self._keep(game_row(row))

    async def get_game(self, game_id: int) -> GameRow | None:
        if self.rows is not None and (kept := self.rows.get(game_id)) is not None:
            return kept
        async with self._engine.connect() as conn:
            row = (
                await conn.execute(select(db.games).where(db.games.c.id == game_id))
            ).one_or_none()
        return None if row is None else self._keep(game_row(row))

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
        return None if row is None else self._keep(game_row(row))

    async def last_lesson(self, platform: str, chat_id: str) -> GameRow | None:
        """The chat's newest lesson row, whatever its status (a learner's lessons reuse it)."""
        return await self._newest(platform, chat_id, is_lesson())

    async def last_game(self, platform: str, chat_id: str) -> GameRow | None:
        """The chat's newest game that is not a lesson, whatever its status (/review)."""
        return await self._newest(platform, chat_id, ~is_lesson())

    async def _newest(self, platform: str, chat_id: str,
                      kind: ColumnElement[bool]) -> GameRow | None:
        async with self._engine.connect() as conn:
            row = (
                await conn.execute(
                    select(db.games)
                    .where(db.games.c.platform == platform,
                           db.games.c.chat_id == str(chat_id), kind)
                    .order_by(db.games.c.id.desc())
                    .limit(1)
                )
            ).one_or_none()
        return None if row is None else self._keep(game_row(row))

    async def active_games(self) -> list[GameRow]:
        """Every lobby/playing game whole, oldest first. At start-up prefer `scheduled_games`
        (only ids and times) and load a game when it is due."""
        async with self._engine.connect() as conn:
            rows = await conn.execute(
                select(db.games)
                .where(db.games.c.status.in_(ACTIVE_STATUSES))
                .order_by(db.games.c.id)
            )
            return [game_row(row) for row in rows]

    async def games_for_player(self, player_id: int) -> list[GameRow]:
        """Active games in which the player has a seat, oldest first."""
        seated = select(db.seats.c.game_id).where(db.seats.c.player_id == player_id)
        async with self._engine.connect() as conn:
            rows = await conn.execute(
                select(db.games)
                .where(db.games.c.id.in_(seated), db.games.c.status.in_(ACTIVE_STATUSES))
                .order_by(db.games.c.id)
            )
            return [game_row(row) for row in rows]

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
        values = _save_values(record, status, due_at)
        text = None
        if self._engine.dialect.name == "sqlite":
            # the record's JSON written once: the UPDATE's and the row cache's (PostgreSQL's
            # JSONB takes the dict; nothing is cached there)
            text = values["record"] = json.dumps(record)
        # The version check lives in the UPDATE's WHERE, so the database decides the race:
        # a concurrent writer blocks on the row lock, then finds the version moved on.
        stmt = _update_stmt(tuple(values), text is not None)
        params = {f"new_{k}": v for k, v in values.items()}
        params["g_id"], params["g_version"] = game_id, expected_version
        if job not in JOB_KINDS:
            raise ValueError(f"unknown job kind {job!r}")

        async def work(conn: AsyncConnection) -> Row[Any]:
            if update_key is not None:
                await remember_update(conn, update_key)
            row = (await conn.execute(stmt, params)).one_or_none()
            if row is None:
                await _raise_missing_or_stale(conn, game_id, expected_version)
            if "due_at" in values and self.row_locks:
                # Only many workers claim jobs rows; one SQLite process schedules from
                # games.due_at (a statement a press saved).
                await write_job(conn, game_id, job, values["due_at"])
            if self.row_locks:  # the screens owed, redelivered by another worker if we die
                await self.outbox.owe(conn, game_id, expected_version + 1)
            await _write_what_the_move_brought(conn, game_id, actions, seats, rounds, result)
            return row

        try:
            # held: in the row lock's transaction; else (SQLite) with the saves that arrive
            # together, one commit for them all, each returned only after it (group_commit.py)
            row = await (work(held.conn) if held is not None else self._grouped(work))
        except IntegrityError as error:
            game = await self.get_game(game_id)
            if game is not None:
                await self._raise_if_active(game.platform, game.chat_id, error)
            raise
        except BaseException:
            self._forget((game_id,))  # (a stale copy can't be written, but don't keep it)
            raise
        return self._keep(game_row(row, record), text)

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
            yield Held(conn, None if row is None else game_row(row))

    async def _raise_if_active(self, platform: str, chat_id: str, error: Exception) -> None:
        """After a unique-index violation: name the chat's active game, if that was the cause."""
        active = await self.active_game(platform, chat_id)
        if active is not None:
            raise GameExists(active.id) from error

    async def set_seats(self, game_id: int, seats: list[SeatRow]) -> None:
        """Replace the game's seats with these."""
        async with self._write() as conn:
            await require_game(conn, game_id)
            await write_seats(conn, game_id, seats)

    async def seats(self, game_id: int) -> list[SeatRow]:
        async with self._engine.connect() as conn:
            rows = await conn.execute(
                select(db.seats).where(db.seats.c.game_id == game_id).order_by(db.seats.c.seat_no)
            )
            return [
                SeatRow(row.seat_no, row.player_id, row.name, row.computer_level) for row in rows
            ]

    async def game_actions(self, game_id: int) -> list[dict]:
        """The game's action log (what the saves appended), in order; [] if none."""
        async with self._engine.connect() as conn:
            rows = await conn.execute(
                select(db.game_actions.c.data)
                .where(db.game_actions.c.game_id == game_id)
                .order_by(db.game_actions.c.seq)
            )
            return list(rows.scalars())


async def write_seats(conn: AsyncConnection, game_id: int, seats: list[SeatRow]) -> None:
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


def _append_one() -> Any:
    """INSERT ... SELECT max(seq) + 1 of one action (`a_game`, `a_data`), built once."""
    a = db.game_actions.c
    following = select(
        bindparam("a_game", type_=Integer),
        func.coalesce(func.max(a.seq), -1) + 1,
        bindparam("a_data", type_=a.data.type),
    ).where(a.game_id == bindparam("a_game", type_=Integer))
    return insert(db.game_actions).from_select(["game_id", "seq", "data"], following)


_APPEND_ONE = _append_one()


async def _append_actions(conn: AsyncConnection, game_id: int, actions: Sequence[dict]) -> None:
    """Number the actions after the game's current last one (max(seq): an index lookup)."""
    a = db.game_actions.c
    if len(actions) == 1:  # the usual press: one statement, INSERT ... SELECT max(seq) + 1
        await conn.execute(_APPEND_ONE, {"a_game": game_id, "a_data": actions[0]})
        return
    last = (await conn.execute(select(func.max(a.seq)).where(a.game_id == game_id))).scalar()
    first = 0 if last is None else last + 1
    await conn.execute(
        insert(db.game_actions),
        [{"game_id": game_id, "seq": first + n, "data": data} for n, data in enumerate(actions)],
    )


def is_lesson() -> ColumnElement[bool]:
    """A lesson row: its record has a non-empty "lesson" (bot/games/rummy/lesson_host.py)."""
    lesson = db.games.c.record["lesson"].as_string()  # NULL when absent or JSON null
    return lesson.is_not(None) & lesson.not_in(("{}", "[]", ""))


def _check_status(status: str) -> None:
    if status not in STATUSES:
        raise ValueError(f"unknown game status {status!r}; one of {', '.join(STATUSES)}")


_ROW_BUT_RECORD = tuple(c for c in db.games.c if c.name != "record")


def game_row(row: Row[Any], record: dict | None = None) -> GameRow:
    """A GameRow of a games row (`record`: the record it holds, when not selected)."""
    m = row._mapping
    return GameRow(
        id=m["id"], platform=m["platform"], chat_id=m["chat_id"], status=m["status"],
        record=m["record"] if record is None else record, version=m["version"],
        created_at=m["created_at"],
        updated_at=m["updated_at"], due_at=m.get("due_at"),
    )


_UPDATES: dict[tuple[tuple[str, ...], bool], Update] = {}


def _update_stmt(keys: tuple[str, ...], text: bool) -> Update:
    """`save_game`'s UPDATE of these columns, built once per set of them (building one took
    a sixth of a save's time on the loop): the game and version to find (`g_id`,
    `g_version`), each column's new value (`new_<column>`); the version one up. `text`:
    the record comes as its JSON text (SQLite: written once, see save_game)."""
    stmt = _UPDATES.get((keys, text))
    if stmt is None:
        g = db.games.c
        values: dict[str, Any] = {"version": g.version + 1}
        for key in keys:
            kind = Text() if key == "record" and text else g[key].type
            values[key] = bindparam(f"new_{key}", type_=kind)
        stmt = _UPDATES[(keys, text)] = (
            update(db.games)
            .where(g.id == bindparam("g_id"), g.version == bindparam("g_version"))
            .values(**values)
            .returning(*_ROW_BUT_RECORD)  # the record is the one given: no decode of it
        )
    return stmt


def _save_values(record: dict, status: str | None,
                 due_at: float | Literal[_Keep.KEEP] | None) -> dict[str, Any]:
    """The games row's new values for `save_game` (its version goes one up in the UPDATE)."""
    values: dict[str, Any] = {"record": record, "updated_at": db.utcnow()}
    if status is not None:
        _check_status(status)
        values["status"] = status
    if due_at is not KEEP:
        values["due_at"] = None if due_at is None else float(due_at)
    elif status in DONE_STATUSES:
        values["due_at"] = None  # nothing more to do for it
    return values


async def _raise_missing_or_stale(
    conn: AsyncConnection, game_id: int, expected_version: int
) -> NoReturn:
    """The UPDATE matched no row: LookupError without the game, else StaleGame."""
    current = await conn.execute(
        select(db.games.c.platform, db.games.c.chat_id).where(db.games.c.id == game_id)
    )
    if current.one_or_none() is None:
        raise LookupError(f"no game {game_id}")
    raise StaleGame(game_id, expected_version)


async def _write_what_the_move_brought(
    conn: AsyncConnection, game_id: int, actions: Sequence[dict], seats: list[SeatRow] | None,
    rounds: Sequence[RoundRow], result: GameResult | None,
) -> None:
    """In `save_game`'s transaction: the new actions, seats, finished rounds and result."""
    if actions:
        # Safe to number after the current last: the UPDATE holds the row lock (SQLite: the
        # write lock) until commit, so no other save of this game is between this read and
        # the insert.
        await _append_actions(conn, game_id, actions)
    if seats is not None:
        await write_seats(conn, game_id, seats)
    for done in rounds:
        await write_round(conn, game_id, done)
    if result is not None:
        await res.record_result(conn, game_id, result.rulebook, result.seats,
                                higher_is_better=result.higher_is_better)
