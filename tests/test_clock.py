"""bot/clock.py: the real clock, the tests' scaled one, and a bare `now` function as a clock."""

from __future__ import annotations

import asyncio
import time

import pytest

from bot.clock import REAL, CallableClock, Clock, ScaledClock, as_clock


async def test_a_scaled_clock_runs_speed_times_faster() -> None:
    clock = ScaledClock(50)
    before, start, after = time.monotonic(), clock.monotonic(), time.monotonic()
    epoch = clock.now()
    await clock.sleep(2.0)  # 40 ms of the wall clock
    before2, end, after2 = time.monotonic(), clock.monotonic(), time.monotonic()
    assert before2 - after >= 0.03  # slept at least 2 s / 50 of the wall clock
    # the clock's seconds are the wall's times the speed (bounded by reads on either side)
    assert (before2 - after) * 50 <= end - start <= (after2 - before) * 50
    assert end - start >= 2.0 and clock.now() - epoch >= 2.0
    assert abs(epoch - time.time()) < 60  # saved times look like real ones


async def test_a_scaled_wait_for_times_out_in_the_clock_s_seconds() -> None:
    clock = ScaledClock(50)
    never = asyncio.Event()
    wall = time.monotonic()
    with pytest.raises(TimeoutError):
        await clock.wait_for(never.wait(), 2.0)
    assert time.monotonic() - wall < 1.0
    assert await clock.wait_for(asyncio.sleep(0, "done"), None) == "done"


def test_a_shared_origin_is_one_virtual_time() -> None:
    first = ScaledClock(10)
    second = ScaledClock(10, origin=first.origin)
    assert second.monotonic() - first.monotonic() == pytest.approx(0, abs=0.05)
    assert second.now() - first.now() == pytest.approx(0, abs=0.05)
    with pytest.raises(ValueError):
        ScaledClock(0)


def test_clocks_from_what_callers_pass() -> None:
    assert as_clock(None) is REAL
    scaled = ScaledClock(3)
    assert as_clock(scaled) is scaled and isinstance(scaled, Clock)
    now = [100.0]
    wrapped = as_clock(lambda: now[0])
    assert isinstance(wrapped, CallableClock)
    now[0] = 250.0
    assert wrapped.now() == wrapped.monotonic() == 250.0
    assert REAL.real(3.0) == 3.0 and scaled.real(3.0) == 1.0
