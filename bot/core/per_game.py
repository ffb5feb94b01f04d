"""What a bot process keeps in memory per game, bounded so that months of games don't grow it:
locks that exist only while in use, and the message refs of the games played most recently."""

from __future__ import annotations

import asyncio
import weakref
from collections import OrderedDict
from collections.abc import Awaitable, Callable, Collection
from typing import Any

# Refs keys that stay in this process only (picture keys, shown revisions): cheap to lose.
MEMORY_ONLY = (":img", ":v")


class GameLocks:
    """One asyncio.Lock per game while anybody holds or awaits it; then it is let go (whoever
    asks next gets a fresh one, which is the same thing: nobody is inside)."""

    def __init__(self) -> None:
        self._locks: weakref.WeakValueDictionary[int, asyncio.Lock] = (
            weakref.WeakValueDictionary()
        )

    def __call__(self, game_id: int) -> asyncio.Lock:
        lock = self._locks.get(game_id)
        if lock is None:
            lock = self._locks[game_id] = asyncio.Lock()
        return lock

    def __len__(self) -> int:
        return len(self._locks)


class RecentRefs:
    """An adapter's copy of each game's message refs, for the `limit` games delivered to most
    recently. A game that drops out is read from the store again when it comes back; only its
    MEMORY_ONLY keys are lost (its next screens are sent whole). The copy remembers the game
    row's version it was read at: refs an outcome carries (many workers: read from the store's
    delivery refs with a newer version of the game) replace it, so no worker goes on from a
    stale copy."""

    def __init__(self, load: Callable[[int], Awaitable[dict[str, Any]]], limit: int = 1000):
        self._load = load
        self.limit = limit
        self._refs: OrderedDict[int, dict[str, Any]] = OrderedDict()
        self._versions: dict[int, int] = {}

    async def get(
        self, game_id: int, saved: dict[str, Any] | None = None, version: int | None = None,
        keep: Collection[str] = (),
    ) -> dict[str, Any]:
        """The game's refs (the live dict: update it after saving). `saved`: the refs the
        outcome carries, read from the store with the game at row `version` (saves a round
        trip; newer than the copy: they replace its saved keys, but for `keep`, the ones this
        process changed and has not saved yet)."""
        refs = self._refs.get(game_id)
        if refs is None:
            if saved is None:
                saved = await self._load(game_id)
            kept = {k: v for k, v in saved.items() if not k.endswith(MEMORY_ONLY)}
            refs = self._refs.setdefault(game_id, kept)  # one copy, even if raced
            if version is not None:
                self._versions[game_id] = version
        elif saved is not None and version is not None and version > self._versions.get(
            game_id, -1
        ):
            self._versions[game_id] = version
            for key in [k for k in refs if not k.endswith(MEMORY_ONLY) and k not in saved]:
                if key not in keep:
                    del refs[key]
            refs.update(
                {k: v for k, v in saved.items() if not k.endswith(MEMORY_ONLY) and k not in keep}
            )
        self._refs.move_to_end(game_id)
        while len(self._refs) > self.limit:
            gone, _ = self._refs.popitem(last=False)
            self._versions.pop(gone, None)
        return refs

    def __contains__(self, game_id: int) -> bool:
        return game_id in self._refs

    def __len__(self) -> int:
        return len(self._refs)


class LimitedDict(OrderedDict):
    """A dict that keeps only its `limit` most recently set keys (a cache by person: DM
    channel ids, ephemeral handles), so a process's memory doesn't grow with every member."""

    def __init__(self, limit: int = 5000) -> None:
        super().__init__()
        self.limit = limit

    def __setitem__(self, key: Any, value: Any) -> None:
        super().__setitem__(key, value)
        self.move_to_end(key)
        while len(self) > self.limit:
            self.popitem(last=False)
