"""Time as an input: the one clock the platform, delivery, the limiters and the fakes read.

Nothing in bot/ reads the wall clock or sleeps for a *timing decision* on its own; it asks the
clock it was given (`bot/app.py` passes `REAL` everywhere). Three readings:
- `now()`: epoch seconds, for what is saved or sent (turn deadlines, when a message was posted);
- `monotonic()`: for budgets and intervals (never jumps back);
- `sleep(s)`, `wait_for(awaitable, s)`: waiting s seconds of this clock's time.

`ScaledClock(k)` is the tests' virtual time: it runs k times faster than the wall clock from the
moment it is made, so every production limit (Telegram's 20 a minute, Discord's buckets, a
callback's answer deadline) holds in its seconds while a whole game takes a k-th of the time.
It never jumps, so work in threads (rendering, the solver, aiosqlite) just costs k times more
virtual time, as a slower machine would: nothing fires early behind a thread's back.
"""

from __future__ import annotations

import asyncio
import time
from collections.abc import Awaitable, Callable
from typing import Protocol, TypeVar, runtime_checkable

T = TypeVar("T")


@runtime_checkable
class Clock(Protocol):
    def now(self) -> float: ...

    def monotonic(self) -> float: ...

    async def sleep(self, seconds: float) -> None: ...

    async def wait_for(self, awaitable: Awaitable[T], seconds: float | None) -> T: ...

    def real(self, seconds: float) -> float:
        """Real seconds that `seconds` of this clock take (a timer set on the event loop)."""
        ...


class RealClock:
    """The wall clock: what production runs on."""

    def now(self) -> float:
        return time.time()

    def monotonic(self) -> float:
        # The running loop's time, as the limiters read it before there was a clock (uvloop's
        # is the iteration's start, in ms: a budget read a moment early errs on the safe side).
        try:
            return asyncio.get_running_loop().time()
        except RuntimeError:
            return time.monotonic()

    async def sleep(self, seconds: float) -> None:
        await asyncio.sleep(seconds)

    async def wait_for(self, awaitable: Awaitable[T], seconds: float | None) -> T:
        return await asyncio.wait_for(awaitable, seconds)

    def real(self, seconds: float) -> float:
        return seconds

    def __repr__(self) -> str:
        return "RealClock()"


REAL = RealClock()


class ScaledClock:
    """Virtual time running `speed` times faster than the wall clock (see the module's note).

    `now()` starts at the wall clock's epoch time (so saved times look like real ones) and
    `monotonic()` at the wall clock's monotonic time; both then advance `speed` virtual seconds
    each real second. `sleep(s)` waits s/speed real seconds. `origin` (another clock's
    `.origin`) starts it where that one started: processes on one machine share one virtual
    time (the monotonic clock is the machine's)."""

    def __init__(self, speed: float, origin: tuple[float, float] | None = None) -> None:
        if speed <= 0:
            raise ValueError("a clock's speed is positive")
        self.speed = float(speed)
        self._real0, self._epoch0 = origin or (time.monotonic(), time.time())

    @property
    def origin(self) -> tuple[float, float]:
        """(monotonic, epoch) seconds of the wall clock when this clock started."""
        return self._real0, self._epoch0

    def _elapsed(self) -> float:
        return (time.monotonic() - self._real0) * self.speed

    def now(self) -> float:
        return self._epoch0 + self._elapsed()

    def monotonic(self) -> float:
        return self._real0 + self._elapsed()

    def real(self, seconds: float) -> float:
        """Real seconds that `seconds` of this clock take."""
        return seconds / self.speed

    async def sleep(self, seconds: float) -> None:
        # The loop's timers are coarse (uvloop: whole ms) and may wake a little early: a
        # sleep ends when this clock has moved `seconds`, never before.
        until = self.monotonic() + seconds
        await asyncio.sleep(max(0.0, seconds) / self.speed)
        while (left := until - self.monotonic()) > 0:
            await asyncio.sleep(max(left / self.speed, 0.001))

    async def wait_for(self, awaitable: Awaitable[T], seconds: float | None) -> T:
        return await asyncio.wait_for(awaitable, None if seconds is None else seconds / self.speed)

    def __repr__(self) -> str:
        return f"ScaledClock({self.speed:g})"


class CallableClock:
    """A clock over a `now` function (tests that set the time by hand: `clock=lambda: t[0]`):
    both readings are that function, and waits are the wall clock's."""

    def __init__(self, now: Callable[[], float]) -> None:
        self._now = now

    def now(self) -> float:
        return self._now()

    def monotonic(self) -> float:
        return self._now()

    async def sleep(self, seconds: float) -> None:
        await asyncio.sleep(seconds)

    async def wait_for(self, awaitable: Awaitable[T], seconds: float | None) -> T:
        return await asyncio.wait_for(awaitable, seconds)

    def real(self, seconds: float) -> float:
        return seconds


def as_clock(clock: Clock | Callable[[], float] | None) -> Clock:
    """A Clock from a Clock, a bare `now` function, or None (the real one)."""
    if clock is None:
        return REAL
    if isinstance(clock, Clock):
        return clock
    return CallableClock(clock)
