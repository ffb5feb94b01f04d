"""Shared fixtures: the store on SQLite and on the local PostgreSQL (tests/store_fixtures.py);
every async test on the event loop the bot runs on (bot/event_loop.py: uvloop, unless
RUMMY_LOOP=asyncio)."""

from __future__ import annotations

import asyncio
import os
from collections.abc import Callable, Mapping
from typing import Any

import pytest

from bot import event_loop
from bot.clock import REAL, Clock, ScaledClock

pytest_plugins = ["store_fixtures"]


def pytest_asyncio_loop_factories(config: Any, item: Any) -> Mapping[str, Callable[[], Any]]:
    if event_loop.name() == "uvloop":
        import uvloop

        return {"uvloop": uvloop.new_event_loop}
    return {"asyncio": asyncio.new_event_loop}


# -- time ----------------------------------------------------------------------------------
# The e2e tests run the production limits on virtual time (bot/clock.py ScaledClock): SPEED
# virtual seconds pass each real second, so Telegram's 20 a minute and Discord's buckets hold in
# virtual seconds and a whole game takes a SPEED-th of the wall time. Tests marked `realtime`
# get the wall clock (they keep the virtual one honest). RUMMY_TEST_SPEED=1 runs all on real time.
SPEED = float(os.environ.get("RUMMY_TEST_SPEED") or 10)


@pytest.fixture
def clock(request: Any) -> Clock:
    """The clock a test's bot and fakes share: virtual (scaled), or real under `realtime`."""
    if request.node.get_closest_marker("realtime") or SPEED == 1:
        return REAL
    return ScaledClock(SPEED)
