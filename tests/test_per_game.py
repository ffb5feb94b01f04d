"""A bot process's per-game memory stays bounded: locks live only while used, refs for the
most recent games only (bot/core/per_game.py)."""

from __future__ import annotations

import asyncio
import gc

from bot.core.per_game import GameLocks, RecentRefs


async def test_a_lock_is_shared_while_in_use_and_let_go_after():
    locks = GameLocks()
    order: list[str] = []

    async def work(name: str) -> None:
        async with locks(7):
            order.append(f"{name} in")
            await asyncio.sleep(0.01)
            order.append(f"{name} out")

    await asyncio.gather(work("a"), work("b"), work("c"))
    assert order == ["a in", "a out", "b in", "b out", "c in", "c out"]  # one at a time
    gc.collect()
    assert len(locks) == 0
    held = locks(7)
    assert locks(7) is held and len(locks) == 1


async def test_refs_keep_the_most_recent_games_and_reload_the_rest():
    stored = {g: {"table": 100 + g, "table:img": "key", "table:v": 3} for g in range(5)}
    loads: list[int] = []

    async def load(game_id: int) -> dict:
        loads.append(game_id)
        return stored[game_id]

    refs = RecentRefs(load, limit=2)
    first = await refs.get(0)
    assert first == {"table": 100}  # memory-only keys are not taken from the store
    first["table:v"] = 9
    assert await refs.get(0) is first and loads == [0]
    await refs.get(1)
    await refs.get(0)  # game 0 is now the most recent
    await refs.get(2, saved={"table": 5})  # refs carried by the outcome: no store read
    assert loads == [0, 1] and 1 not in refs and 0 in refs and len(refs) == 2
    assert await refs.get(1) == {"table": 101} and loads == [0, 1, 1]


def test_limited_dict_keeps_the_most_recent_keys():
    from bot.core.per_game import LimitedDict

    cache = LimitedDict(3)
    for key in "abcd":
        cache[key] = key
    cache["b"] = "B"  # set again: most recent
    cache["e"] = "e"
    assert list(cache) == ["d", "b", "e"] and cache["b"] == "B"
