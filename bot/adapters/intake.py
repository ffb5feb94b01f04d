"""The door every inbound update passes, on every platform, before any work.

One person must not slow another chat: an update is metered first (the fair-use buckets, per
person and per chat, `FairUse`), and past the limit it gets no work at all — a press only its
callback answer, a command or text at most one "slow down" per person per `WARN_EVERY`
seconds, then silence. An admitted update runs as its own task, one chat's updates one at a
time in the order they came (`PER_CHAT`); the rest wait in that chat's line (at most `BACKLOG`,
the oldest turned away first), so no chat can hold the handlers every chat shares. Handlers never
wait for a chat's send budget: their replies go to the chat's delivery lane.
"""

from __future__ import annotations

import asyncio
import contextlib
import enum
import logging
import time
from collections import deque
from collections.abc import Awaitable, Callable
from dataclasses import dataclass, field

from bot.core.fair_use import FairUse, paid_at_door
from bot.core.per_game import LimitedDict

log = logging.getLogger(__name__)

# One chat's updates are handled one at a time, in the order they came: a person's fast
# presses (select a card, then Add to ▸) must not overtake each other. Handling is quick (no
# handler waits for a send budget), so one at a time costs a chat nothing.
PER_CHAT = 1
BACKLOG = 32  # one chat's updates waiting for a slot
WARN_EVERY = 30.0  # seconds between two "slow down"s to one person


class Verdict(enum.Enum):
    GO = "go"  # handle it
    WARN = "warn"  # over the limit: say "slow down" (once a window)
    QUIET = "quiet"  # over the limit, told already: only what costs nothing (a callback answer)


@dataclass
class _Line:
    """One chat's updates: how many are in hand, and the ones waiting for a slot."""

    running: int = 0
    waiting: deque[tuple[Callable[[], Awaitable[None]], asyncio.Future[bool]]] = field(
        default_factory=deque)


class Intake:
    """Meter, then run each admitted update as its own task, `per_chat` of a chat at once."""

    def __init__(self, fair_use: Callable[[], FairUse], *, per_chat: int = PER_CHAT,
                 backlog: int = BACKLOG, warn_every: float = WARN_EVERY,
                 clock: Callable[[], float] = time.monotonic) -> None:
        self.fair_use = fair_use  # the service's meter (read at each update: tests swap it)
        self.per_chat, self.backlog, self.warn_every = per_chat, backlog, warn_every
        self.clock = clock
        self._warned: LimitedDict = LimitedDict(20_000)  # person -> when told to slow down
        self._lines: dict[str, _Line] = {}
        self.tasks: set[asyncio.Task[None]] = set()
        self.turned_away = 0  # updates refused at the door (metered out or over the backlog)

    def meter(self, platform: str, user: str, chat: str) -> Verdict:
        """Count one update of `user` in `chat` (cheap: two token buckets)."""
        if self.fair_use().take(platform, user, chat) is None:
            return Verdict.GO
        self.turned_away += 1
        key = f"{platform}:{user}"
        now = self.clock()
        told = self._warned.get(key)
        if told is not None and now - told < self.warn_every:
            return Verdict.QUIET
        self._warned[key] = now
        return Verdict.WARN

    def submit(self, chat: str, work: Callable[[], Awaitable[None]]) -> asyncio.Future[bool]:
        """Run `work` as soon as the chat has a free slot; the future says whether it ran
        (False: turned away, the chat's line was full)."""
        done: asyncio.Future[bool] = asyncio.get_running_loop().create_future()
        line = self._lines.setdefault(chat, _Line())
        if line.running < self.per_chat:
            self._start(chat, line, work, done)
            return done
        line.waiting.append((work, done))
        while len(line.waiting) > self.backlog:  # the oldest goes: the newest is what counts
            _work, dropped = line.waiting.popleft()
            self.turned_away += 1
            if not dropped.done():
                dropped.set_result(False)
        return done

    def _start(self, chat: str, line: _Line, work: Callable[[], Awaitable[None]],
               done: asyncio.Future[bool]) -> None:
        line.running += 1
        task = asyncio.create_task(self._run(chat, line, work, done))
        self.tasks.add(task)
        task.add_done_callback(self.tasks.discard)

    async def _run(self, chat: str, line: _Line, work: Callable[[], Awaitable[None]],
                   done: asyncio.Future[bool]) -> None:
        paid_at_door()  # this task's context: the service's own check is paid
        try:
            await work()
        except Exception:
            log.exception("update in chat %s failed", chat)
        finally:
            if not done.done():
                done.set_result(True)
            line.running -= 1
            if line.waiting:
                work, waiter = line.waiting.popleft()
                self._start(chat, line, work, waiter)
            elif not line.running:
                self._lines.pop(chat, None)

    def in_hand(self, chat: str) -> int:
        line = self._lines.get(chat)
        return 0 if line is None else line.running

    async def drain(self, timeout: float) -> None:
        """Let the updates in hand finish (a graceful stop), then cancel what is left."""
        if self.tasks:
            await asyncio.wait(set(self.tasks), timeout=timeout)
        for task in list(self.tasks):
            task.cancel()
        with contextlib.suppress(Exception):
            await asyncio.gather(*self.tasks, return_exceptions=True)
