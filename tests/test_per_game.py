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


async def test_refs_from_a_newer_row_version_replace_the_copy_but_not_unsaved_changes():
    async def load(game_id: int) -> dict:
        raise AssertionError("the outcome carries the refs")

    refs = RecentRefs(load)
    copy = await refs.get(1, {"table": 100, "p:7": 5}, version=3)
    copy["table:v"] = 3  # what this process showed (memory only)
    copy["p:8"] = 9  # posted here, not saved yet
    # another worker re-posted the table and saved it (version 6); this process is behind
    again = await refs.get(1, {"table": 200, "p:7": 5}, version=6, keep={"p:8"})
    assert again is copy and copy == {"table": 200, "p:7": 5, "table:v": 3, "p:8": 9}
    # an older outcome's refs (version 4, delivered late) change nothing
    await refs.get(1, {"table": 100}, version=4)
    assert copy["table"] == 200 and "p:7" in copy
