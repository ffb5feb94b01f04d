"""The scheduler: computer seats and turn timers, and the daily care of the store (idle games
closed, old ones pruned). Background tasks whose outcomes go out through the platform's
delivery; everything they change goes through the unit of work like a person's press."""

from __future__ import annotations

import asyncio
import contextlib
import logging
import os
import secrets
import socket
from collections.abc import Awaitable, Callable
from datetime import UTC, datetime
from typing import Any

from bot.clock import Clock
from bot.i18n import fill, using

from . import narrate, rematch
from .lobby import lobby_screen
from .record import Record
from .redelivery import Redelivery
from .unit import Refusal, Unit, handling
from .views import Outcome, Screen

log = logging.getLogger(__name__)

IDLE_SECONDS = 24 * 3600  # a game nobody touched for this long is closed
IDLE_SWEEP = 600  # seconds between looks for such games
# How long an update's key is kept: platforms redeliver within minutes (Telegram retries a
# webhook for hours at most), and the table stays small.
UPDATE_MEMORY = 2 * 86400
LEASE = 5.0  # seconds a claimed job is a worker's; a dead worker's job is free again after it
LATE = 2.0  # a job claimed this long after its due time counts as late (/metrics)


def close(unit: Unit, row: Any, record: Record, why: str) -> Screen:
    """End the game (status "ended" when saved) and the group's last screen: no buttons.
    `why`: the name of the narrate sentence, said in the group's language."""
    record.ended = True
    with using(record.lang):
        why = getattr(narrate, why)
    if record.state is None:
        screen = lobby_screen(unit.game_of(record), row.id, record)
        screen.text = why
    else:
        screen = unit.game_of(record).table_screen(unit.table(row, record))
        screen.text = why + "\n" + screen.text
    screen.buttons = []
    return screen


class Scheduler:
    def __init__(
        self,
        unit: Unit,
        deliver: Callable[[Outcome], Awaitable[None]],
        *,
        clock: Clock,
        computer_delay: float,
        tick: float,
        retention: float,
        lesson_retention: float,
    ) -> None:
        self.unit = unit
        self.deliver = deliver
        self.clock = clock.now  # epoch seconds: deadlines are saved
        self.sleep = clock.sleep
        self.time = clock
        self.computer_delay = computer_delay
        self.tick = tick
        self.retention = retention  # seconds a finished game keeps its record
        self.lesson_retention = lesson_retention
        self._computer_tasks: dict[int, asyncio.Task] = {}
        # more work for the idle sweep (a chat's ended season): each gets the sweep's time
        self.sweeps: list[Callable[[float], Awaitable[Any]]] = []
        # game -> (turn deadline, when to send the half-time reminder or None): the ticker
        # reads the store only when one of them is due
        self.deadlines: dict[int, tuple[float, float | None]] = {}
        self._ticker: asyncio.Task | None = None
        self._stopped = False

    # -- life cycle ---------------------------------------------------------------------

    async def start(self) -> None:
        """Resume every active game's computer turns and turn timers: only the games that have
        something scheduled, and only their due times are read (the ticker loads a game when
        its time comes)."""
        self._stopped = False
        for game_id, due in await self.unit.store.scheduled_games():
            self.deadlines[game_id] = (due, None)
        self._ticker = asyncio.create_task(self._tick_loop())

    async def stop(self) -> None:
        self._stopped = True
        tasks = [*self._computer_tasks.values(), *([self._ticker] if self._ticker else [])]
        for task in tasks:
            task.cancel()
        for task in tasks:
            with contextlib.suppress(asyncio.CancelledError, Exception):
                await task
        self._computer_tasks.clear()
        self._ticker = None

    def forget(self, game_id: int) -> None:
        self.deadlines.pop(game_id, None)

    def after_save(self, game_id: int, record: Record) -> None:
        """What a saved game needs next: a computer's move, or its turn's deadline."""
        status = self.unit.status(record)
        if status == "finished":  # an open rematch call lapses (bot/core/rematch.py)
            due = self.unit.due(record, status)
            if due is None:
                self.deadlines.pop(game_id, None)
            else:
                self.deadlines[game_id] = (due, None)
            return
        seat = self.unit.to_move(record, status)
        if seat is None or not record.humans():
            self.deadlines.pop(game_id, None)
        elif record.seats[seat].is_computer:
            self.deadlines.pop(game_id, None)
            self._schedule_computers(game_id)
        elif record.deadline is not None:
            warn = None if record.warned else record.deadline - record.turn_seconds / 2
            self.deadlines[game_id] = (record.deadline, warn)
        else:
            self.deadlines.pop(game_id, None)

    # -- computer seats -----------------------------------------------------------------

    def _schedule_computers(self, game_id: int) -> None:
        if self._stopped:
            return
        task = self._computer_tasks.get(game_id)
        if task is not None and not task.done():
            return
        task = self._computer_tasks[game_id] = asyncio.create_task(self._computer_loop(game_id))

        def forget(done: asyncio.Task) -> None:  # finished games must not pile up here
            if self._computer_tasks.get(game_id) is done:
                del self._computer_tasks[game_id]

        task.add_done_callback(forget)

    async def _computer_loop(self, game_id: int) -> None:
        handling(None)  # started from a person's press: its moves are not that update's
        while True:
            await self.sleep(self.computer_delay)
            try:
                outcome = await self.unit.mutate(game_id, self._computer_step)
            except Refusal:
                return
            except Exception:
                log.exception("computer turn failed in game %s", game_id)
                return
            if outcome.reply == "idle":
                return
            try:
                await self.deliver(outcome)
            except Exception:  # the move is saved; a screen lost here must not stop the game
                log.exception("delivering a computer's move in game %s failed", game_id)

    def pending_computers(self) -> frozenset[int]:
        """The games whose computer turns (or, with jobs, claimed jobs) this worker is running
        now: for the metrics page and tests."""
        return frozenset(self._computer_tasks)

    def _computer_step(self, row: Any, record: Record) -> Outcome:
        if row.status != "playing":
            return Outcome(reply="idle")
        out = self.unit.game_of(record).computer_step(self.unit.table(row, record))
        return Outcome(reply="idle") if out is None else out

    # -- turn timers --------------------------------------------------------------------

    async def _tick_loop(self) -> None:
        handling(None)
        next_sweep = self.clock() + 60
        while True:
            await self.sleep(self.tick)
            now = self.clock()
            if now >= next_sweep:
                next_sweep = now + IDLE_SWEEP
                try:
                    await self.close_idle(now)
                    await self.prune(now)
                except Exception:
                    log.exception("closing idle games or pruning failed")
                await self._sweep_more(now)
            for game_id, (deadline, warn) in list(self.deadlines.items()):
                if now < deadline and (warn is None or now < warn):
                    continue  # nothing due: no store read
                try:
                    await self._check_timer(game_id, now)
                except Exception:
                    log.exception("timer failed in game %s", game_id)

    async def _check_timer(self, game_id: int, now: float) -> None:
        row = await self.unit.store.get_game(game_id)
        if row is not None and row.status == "finished":
            self.deadlines.pop(game_id, None)
            await self._lapse(game_id, now)
            return
        if row is None or row.status != "playing":
            self.deadlines.pop(game_id, None)
            return
        record = Record.from_dict(row.record)
        seat = self.unit.to_move(record, row.status)
        deadline = record.deadline
        if seat is None or deadline is None or record.seats[seat].is_computer:
            self.after_save(game_id, record)  # a computer's turn (after a restart), or nothing
            return
        half = deadline - record.turn_seconds / 2
        if now >= deadline:
            outcome = await self.unit.mutate(
                game_id, lambda r, rec: self._timeout(r, rec, deadline)
            )
            await self.deliver(outcome)
        elif now >= half and not record.warned:
            outcome = await self.unit.mutate(game_id, lambda r, rec: self._warn(rec, deadline))
            await self.deliver(outcome)
        else:  # nothing due after all (the record moved on): take its deadline and reminder
            self.after_save(game_id, record)

    async def _lapse(self, game_id: int, now: float) -> None:
        """A finished game is due: its rematch call lapses (its save re-arms what is left)."""
        outcome = await self.unit.mutate(
            game_id, lambda r, rec: rematch.lapse(r, rec, now), status="finished")
        if outcome.notes:
            await self.deliver(outcome)

    def _warn(self, record: Record, deadline: float) -> Outcome:
        seat = self.unit.to_move(record, "playing")
        if seat is None or record.deadline != deadline or record.warned:
            return Outcome()
        record.warned = True
        info = record.seats[seat]
        left = max(0, int(deadline - self.clock()))
        out = Outcome()
        if info.user:
            with using(record.lang_of(seat)):
                out.private_notes[info.user] = fill(
                    narrate.TIME_LEFT, minutes=left // 60, seconds=left % 60
                )
        return out

    def _timeout(self, row: Any, record: Record, deadline: float) -> Outcome:
        seat = self.unit.to_move(record, "playing")
        if seat is None or record.deadline != deadline:
            return Outcome()
        out = self.unit.game_of(record).play_for(self.unit.table(row, record), seat)
        if out.reply:  # nobody pressed: the group is told (UX §4), above the table
            out.notes.append(Screen(out.reply, game_id=row.id))
        if not record.humans():  # nothing would ever be scheduled for this game again
            out.group = close(self.unit, row, record, "NOBODY_LEFT")
        return out

    # -- the store's daily care ---------------------------------------------------------

    async def _sweep_more(self, now: float) -> None:
        for sweep in self.sweeps:
            try:
                await sweep(now)
            except Exception:
                log.exception("a sweep failed")

    async def prune(self, now: float | None = None) -> dict[str, int]:
        """Slim finished games older than the retention period (their results stay) and drop
        old lessons."""
        now = self.clock() if now is None else now
        done = await self.unit.store.prune(
            datetime.fromtimestamp(now - self.retention, UTC),
            datetime.fromtimestamp(now - self.lesson_retention, UTC),
        )
        forget = getattr(self.unit.store, "forget_updates", None)
        if forget is not None:
            done["updates_forgotten"] = await forget(now - UPDATE_MEMORY)
        if any(done.values()):
            log.info("pruned: %s", done)
        return done

    async def close_idle(self, now: float | None = None) -> int:
        """Close the games nobody has touched for IDLE_SECONDS (lobbies, games, lessons), each
        with a last message in its chat; how many were closed."""
        now = self.clock() if now is None else now
        closed = 0
        for game_id in await self.unit.store.idle_games(
            datetime.fromtimestamp(now - IDLE_SECONDS, UTC)
        ):
            def change(row: Any, record: Record) -> Outcome:
                if row.status not in ("lobby", "playing"):
                    return Outcome()
                if record.lesson:  # a lesson just stops; /lesson resumes nothing
                    record.ended = True
                    return Outcome()
                return Outcome(group=close(self.unit, row, record, "IDLE_CLOSED"))

            try:
                out = await self.unit.mutate(game_id, change, status="ended")
            except Refusal:
                continue
            self.deadlines.pop(game_id, None)
            closed += 1
            await self.deliver(out)
        return closed


class JobScheduler(Scheduler):
    """The scheduler of many workers on one PostgreSQL: the same interface, but computer turns
    and turn timers are the `jobs` rows each save writes with its game. Every worker claims
    due rows with a lease (FOR UPDATE SKIP LOCKED, so never two at once) and does them: each
    timer fires once and each computer move is made once whichever workers are alive; a worker
    killed mid-job leaves a lease that runs out in LEASE seconds, then another claims it.
    Nothing is kept in memory but the tasks running claimed jobs."""

    def __init__(self, *args: Any, lease: float = LEASE, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.lease = lease
        self.owner = f"{socket.gethostname()[:40]}:{os.getpid()}:{secrets.token_hex(3)}"
        self._wake = asyncio.Event()
        # what /metrics shows: jobs claimed, and how late they ran (seconds past due)
        self.claimed = 0
        self.late = 0  # claimed over LATE seconds past their due time
        self.lateness_sum = 0.0
        self.on_job: Callable[[str, int, float, float], None] | None = None
        # the screens a dead worker's saves owed (the outbox's expired rows), claimed each tick
        self.redelivery = Redelivery(self.unit, self.deliver)

    async def start(self) -> None:
        self._stopped = False
        self._ticker = asyncio.create_task(self._tick_loop())

    async def stop(self) -> None:
        await super().stop()
        await self.redelivery.stop()
        with contextlib.suppress(Exception):  # what we had claimed is free at once
            await self.unit.store.release_jobs(self.owner)

    def after_save(self, game_id: int, record: Record) -> None:
        """The save wrote the game's job row already; a computer's turn is looked for now
        rather than at the next tick (this worker, or another, claims it)."""
        if self.unit.next_up(record, self.unit.status(record)) == "computer":
            self._wake.set()

    async def _tick_loop(self) -> None:
        handling(None)
        next_sweep = self.clock() + 60
        while True:
            self._wake.clear()
            with contextlib.suppress(TimeoutError):
                await self.time.wait_for(self._wake.wait(), self.tick)
            now = self.clock()
            if now >= next_sweep:
                next_sweep = now + IDLE_SWEEP
                try:
                    await self.close_idle(now)
                    await self.prune(now)
                except Exception:
                    log.exception("closing idle games or pruning failed")
                await self._sweep_more(now)
            try:
                await self.redelivery.claim(now)
            except Exception:
                log.exception("claiming owed deliveries failed")
            try:
                jobs = await self.unit.store.claim_jobs(self.owner, now, self.lease)
            except Exception:
                log.exception("claiming jobs failed")
                continue
            for job in jobs:
                if job.game_id in self._computer_tasks:  # ours, running: its lease goes on
                    continue
                self._start_job(job)

    def _start_job(self, job: Any) -> None:
        if self._stopped:
            return
        self.claimed += 1
        lateness = max(0.0, self.clock() - job.due_at)
        self.lateness_sum += lateness
        self.late += lateness > LATE
        task = self._computer_tasks[job.game_id] = asyncio.create_task(self._run(job))

        def forget(done: asyncio.Task) -> None:
            if self._computer_tasks.get(job.game_id) is done:
                del self._computer_tasks[job.game_id]

        task.add_done_callback(forget)

    async def _run(self, job: Any) -> None:
        """Do a claimed job: a computer's moves (each one claimed again: a worker that stops
        between two moves leaves the rest to another), or the game's timer."""
        store = self.unit.store
        try:
            if job.kind == "computer":
                while True:
                    wait = job.due_at + self.computer_delay - self.clock()
                    if wait > 0:
                        await self.sleep(wait)
                    if not await self._computer_move(job):
                        break
                    again = await store.claim_jobs(
                        self.owner, self.clock(), self.lease, 1, game_id=job.game_id
                    )
                    if not again or again[0].kind != "computer":
                        if again:
                            await self._settle(again[0])  # a timer now: the ticker claims it
                        return
                    job = again[0]
            else:
                if self.on_job is not None:
                    self.on_job(job.kind, job.game_id, job.due_at, self.clock())
                await self._check_timer(job.game_id, self.clock())
        except Exception:
            log.exception("job %s of game %s failed", job.kind, job.game_id)
        with contextlib.suppress(Exception):
            await self._settle(job)

    async def _computer_move(self, job: Any) -> bool:
        """One computer move; False when there was none to make."""
        if self.on_job is not None:
            self.on_job(job.kind, job.game_id, job.due_at, self.clock())
        try:
            outcome = await self.unit.mutate(job.game_id, self._computer_step)
        except Refusal:
            return False
        if outcome.reply == "idle":
            return False
        try:
            await self.deliver(outcome)
        except Exception:  # the move is saved; a screen lost here must not stop the game
            log.exception("delivering a computer's move in game %s failed", job.game_id)
        return True

    async def _settle(self, job: Any) -> None:
        """A job that ran without a save (nothing was due after all) gets the game's own due
        time back and no lease; one that saved was rewritten by the save (then untouched)."""
        row = await self.unit.store.get_game(job.game_id)
        due, kind = None, "timer"
        if row is not None and row.status in ("playing", "finished"):
            record = Record.from_dict(row.record)
            due = self.unit.due(record, row.status)
            kind = "computer" if self.unit.next_up(record, row.status) == "computer" else "timer"
        await self.unit.store.settle_job(job, due, kind)

    async def _check_timer(self, game_id: int, now: float) -> None:
        row = await self.unit.store.get_game(game_id)
        if row is not None and row.status == "finished":
            await self._lapse(game_id, now)
            return
        if row is None or row.status != "playing":
            return
        record = Record.from_dict(row.record)
        seat = self.unit.to_move(record, row.status)
        deadline = record.deadline
        if seat is None or deadline is None or record.seats[seat].is_computer:
            return  # settled: a computer's job now, or nothing
        if now >= deadline:
            outcome = await self.unit.mutate(
                game_id, lambda r, rec: self._timeout(r, rec, deadline)
            )
            await self.deliver(outcome)
        elif now >= deadline - record.turn_seconds / 2 and not record.warned:
            outcome = await self.unit.mutate(game_id, lambda r, rec: self._warn(rec, deadline))
            await self.deliver(outcome)
