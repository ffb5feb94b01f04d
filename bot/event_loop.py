"""The event loop a bot process runs on: uvloop (libuv; its selector, transports and callbacks
in C) unless RUMMY_LOOP=asyncio asks for the standard library's. A press is mostly event-loop
work — a socket read, a handful of HTTP requests, database round trips through threads — and
uvloop does the loop's share of it in a fraction of the CPU."""

from __future__ import annotations

import asyncio
import os
from collections.abc import Coroutine
from typing import Any, TypeVar

T = TypeVar("T")


def name() -> str:
    """"uvloop" or "asyncio": what `run` will use."""
    wanted = (os.environ.get("RUMMY_LOOP") or "uvloop").strip().lower()
    if wanted == "uvloop":
        try:
            import uvloop  # noqa: F401
        except ImportError:  # an install without it: the standard loop does the same work
            return "asyncio"
    return "asyncio" if wanted == "asyncio" else "uvloop"


def run(main: Coroutine[Any, Any, T]) -> T:
    """asyncio.run(main) on the bot's event loop."""
    if name() == "uvloop":
        import uvloop

        return uvloop.run(main)
    return asyncio.run(main)
