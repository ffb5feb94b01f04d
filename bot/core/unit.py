"""The one unit of work: load a game, change it, save it (retrying on a version race), and
stamp the outcome with what adapters need (the row version it was built from, the refs).
(PostgreSQL: the delivery refs read in the change's transaction; SQLite, one process: none,
the adapter's copy is the newest.)

Every change commits before anything is answered, so a restart at any moment loses nothing.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
from collections.abc import Awaitable, Callable, Iterator, Mapping
from contextvars import ContextVar
from typing import Any

from . import narrate, rematch
from .hosting import HostedGame, Refusal, Table, hosted
from .per_game import GameLocks
from .persist import new_result, new_rounds, seat_rows
from .record import Record
from .views import Outcome, Where

log = logging.getLogger(__name__)

Reply = Refusal  # the core's name for it since the start
Change = Callable[[Any, Record], Outcome]
WORK_TIMEOUT = 20.0  # seconds a change may compute in its worker thread before we give up
TRIES = 3  # optimistic tries before "the game is busy" (SQLite; PostgreSQL locks the row)

# The chat update being handled (its idempotency key) and how many changes it made so far: a
# redelivered update makes the same changes in the same order, each found already applied.
_update: ContextVar[tuple[str, list[int]] | None] = ContextVar("rummy_update", default=None)


def handling(key: str | None) -> None:
    """Name the chat update this task handles ("tg:<update_id>", "dc:<interaction id>"); every
    game it changes remembers the key in the change's transaction. None: no update (the
    scheduler's own work)."""
    _update.set(None if key is None else (key, [0]))


@contextlib.contextmanager
def no_update() -> Iterator[None]:
    """Work started while handling an update that is not that update's (a computer's turn)."""
    token = _update.set(None)
    try:
        yield
    finally:
        _update.reset(token)


def _next_key(game_id: int) -> str | None:
    current = _update.get()
    if current is None:
        return None
    key, count = current
    count[0] += 1
    return f"{key}/{game_id}/{count[0]}"


def answer(reply: Refusal) -> Outcome:
    """The outcome of a command stopped by a Refusal (a fresh screen, if it carries one)."""
    out = reply.outcome or Outcome()
    out.reply, out.alert = reply.text, reply.alert
    return out


class Unit:
    """Load → change → save for one game at a time (a lock per game in this process, the row
    version across processes)."""

    def __init__(
        self,
        store: Any,
        games: Mapping[str, HostedGame],
        clock: Callable[[], float],
        after_save: Callable[[int, Record], None],
    ) -> None:
        self.store = store
        self.games = games
        self.clock = clock
        self.after_save = after_save
        self.locks = GameLocks()
        # called after the save that finished or ended a running game (bot/core/puzzles.py: a
        # try's verdict)
        self.finished: list[Callable[[Record], Awaitable[None]]] = []

    def game_of(self, record: Record) -> HostedGame:
        # "": the registry's first game (records saved before a second game have no name);
        # a lesson's or a puzzle's record: its game's variant
        return hosted(self.games[record.game_name or next(iter(self.games))], record)

    def table(self, row: Any, record: Record) -> Table:
        return Table(row.id, record, self.clock)

    def status(self, record: Record) -> str:
        if record.ended:
            return "ended"
        if record.state is None:
            return "lobby"
        if self.game_of(record).is_over(record.state):
            return "finished"
        return "playing"

    def to_move(self, record: Record, status: str) -> int | None:
        """The seat on move in a running game (None: nobody, or not running)."""
        if status != "playing" or record.state is None:
            return None
        return self.game_of(record).to_move(record.state)

    def due(self, record: Record, status: str) -> float | None:
        """When the game next needs background work (saved with the row, so a restarted
        worker reads only these times): a computer's move now, else the turn's reminder or
        deadline; a finished game's open rematch call, its lapse; None when nothing is
        scheduled."""
        if status == "finished":
            return rematch.due(record)
        seat = self.to_move(record, status)
        if seat is None or not record.humans():
            return None
        if record.seats[seat].is_computer:
            return self.clock()
        if record.deadline is None:
            return None
        return record.deadline if record.warned else record.deadline - record.turn_seconds / 2

    def next_up(self, record: Record, status: str) -> str:
        seat = self.to_move(record, status)
        if seat is None:
            return ""
        return "computer" if record.seats[seat].is_computer else "person"

    async def mutate(self, game_id: int, change: Change, *, status: str | None = None) -> Outcome:
        """Load, change, save (retrying on a version race), then schedule background work.

        A change that leaves the record and status as they were is not saved. The outcome
        carries the row version it was built from (`revision`, the commit order adapters show
        screens in), the record's adapter refs, the log lines the change added and who moves
        next. On PostgreSQL the game row is locked for the change (every worker's changes of a
        game in one order, no "busy"); on SQLite the version decides, as in one process. A
        change made for a chat update already applied (`handling`) changes nothing: an empty
        outcome."""
        from bot.store import Duplicate, StaleGame

        key = _next_key(game_id)
        async with self.locks(game_id):
            if getattr(self.store, "row_locks", False):
                async with self.store.hold(game_id) as held:
                    if key is not None and await self.store.seen(key, held):
                        return Outcome()
                    try:
                        outcome, record, ended = await self._attempt(
                            game_id, held.row, change, status, key, held)
                    except Duplicate:
                        return Outcome()
                # committed (the block's end): only now may pages, other workers (NOTIFY)
                # and the scheduler hear of it — a page must never show what a kill can undo
                await self._committed(game_id, record, ended)
                return outcome
            for _attempt in range(TRIES):
                row = await self.store.get_game(game_id)
                try:  # a repeat is found by the save (one transaction, no extra read)
                    outcome, record, ended = await self._attempt(game_id, row, change, status,
                                                                 key, None)
                except StaleGame:
                    continue
                except Duplicate:
                    return Outcome()
                await self._committed(game_id, record, ended)  # (save_game returned)
                return outcome
        raise Refusal(narrate.BUSY)

    async def _committed(self, game_id: int, record: Record, ended: bool) -> None:
        """A change is durable: the watchers hear of it, and a game it finished or ended is
        told to the listeners (a puzzle's try: its verdict on the board)."""
        self.after_save(game_id, record)
        if ended:
            for listener in self.finished:
                await listener(record)

    async def _attempt(
        self, game_id: int, row: Any, change: Change, status: str | None, key: str | None,
        held: Any,
    ) -> tuple[Outcome, Record, bool]:
        """One load → change → save of `mutate` on the row read (locked when `held`): the
        outcome, the record saved and whether it finished or ended a running game (what the
        caller tells, once committed)."""
        if row is None:
            raise Refusal(narrate.GONE)
        if row.record.get("pruned"):  # a finished game past its retention period
            raise Refusal(narrate.OVER)
        record = Record.from_dict(row.record)
        before = record.state
        seats_before = [(x.user, x.computer) for x in record.seats]
        try:
            # A thread can't be stopped, but the game's lock is let go and the person
            # answered: the engine's searches have work budgets, this is the backstop.
            outcome = await asyncio.wait_for(asyncio.to_thread(change, row, record), WORK_TIMEOUT)
        except TimeoutError:
            log.error("game %s: a change took over %s s", game_id, WORK_TIMEOUT)
            raise Refusal(narrate.TOO_SLOW) from None
        except Refusal as refusal:
            if refusal.outcome is not None:  # a fresh screen of the unchanged game
                refusal.outcome.where = Where(game_id, row.platform, row.chat_id, row.version,
                                              await self._refs(game_id, held))
            raise
        actions: list[dict] = []
        if record.state is not None and record.state.get("actions"):
            # The action log lives in its own table: the hot row stays the same size at turn
            # 1,000 as at turn 1.
            actions = record.state["actions"]
            record.state = {**record.state, "actions": []}
        data = record.to_dict()
        new_status = status or self.status(record)
        if data == row.record and new_status == row.status:
            saved = row  # nothing changed: nothing to write
        else:
            seated = record.state is not None and (
                before is None or seats_before != [(x.user, x.computer) for x in record.seats]
            )
            game = self.game_of(record)
            saved = await self.store.save_game(
                game_id,
                data,
                expected_version=row.version,
                status=new_status,
                seats=seat_rows(record) if seated else None,
                rounds=new_rounds(game, before, record),
                result=new_result(game, before, record),
                actions=actions,
                due_at=self.due(record, new_status),
                job="computer" if self.next_up(record, new_status) == "computer" else "timer",
                **({"update_key": key} if key is not None else {}),
                **({"held": held} if held is not None else {}),
            )
        if new_status == "finished" and row.status == "playing":  # its result offers ↻ Rematch
            rematch.offer(record, outcome)
        ended = new_status in ("finished", "ended") and row.status == "playing"
        outcome.where = Where(game_id, saved.platform, saved.chat_id, saved.version,
                              await self._refs(game_id, held),
                              {s.user: s.name for s in record.seats if s.user},
                              self.next_up(record, saved.status))
        if not outcome.log:
            outcome.log, outcome.log_refolds = list(record.added), record.refolded
        return outcome, record, ended

    async def _refs(self, game_id: int, held: Any) -> dict[str, Any] | None:
        """The game's delivery refs for the outcome: read in the held transaction (many
        workers: the adapter's copy may be older), None on SQLite (one process: its copy)."""
        return None if held is None else await self.store.refs(game_id, held)
