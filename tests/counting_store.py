"""A store wrapper that counts the calls (each one is a round trip to the database)."""

from __future__ import annotations

import inspect
from collections import Counter
from typing import Any


class CountingStore:
    """Passes every call through to the store and counts the coroutine methods called."""

    def __init__(self, store: Any) -> None:
        self.inner = store
        self.calls: Counter[str] = Counter()

    def __getattr__(self, name: str) -> Any:
        attr = getattr(self.inner, name)
        if not inspect.iscoroutinefunction(attr):
            return attr

        async def counted(*args: Any, **kwargs: Any) -> Any:
            self.calls[name] += 1
            return await attr(*args, **kwargs)

        return counted

    def total(self) -> int:
        return sum(self.calls.values())

    def reset(self) -> None:
        self.calls.clear()
