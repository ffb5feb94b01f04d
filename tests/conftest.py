"""Shared fixtures: the store on SQLite and on the local PostgreSQL (tests/store_fixtures.py);
every async test on the event loop the bot runs on (bot/event_loop.py: uvloop, unless
RUMMY_LOOP=asyncio)."""

from __future__ import annotations

import asyncio
from collections.abc import Callable, Mapping
from typing import Any

from bot import event_loop

pytest_plugins = ["store_fixtures"]


def pytest_asyncio_loop_factories(config: Any, item: Any) -> Mapping[str, Callable[[], Any]]:
    if event_loop.name() == "uvloop":
        import uvloop

        return {"uvloop": uvloop.new_event_loop}
    return {"asyncio": asyncio.new_event_loop}
