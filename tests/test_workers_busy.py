"""Two worker processes pressing in one game on PostgreSQL: the game row's lock orders their
changes, so no press gets "The game is busy" and every press is saved once. With the version
check alone (three optimistic tries, what one process relies on) some presses lost the race.

Run as `python tests/test_workers_busy.py URL GAME USER N MODE` it is one worker pressing N
times as fast as it is answered (MODE `lock` or `optimistic`); it prints a JSON summary."""

from __future__ import annotations

import asyncio
import json
import sys
import time
from pathlib import Path

import pytest
from sqlalchemy.engine import make_url
from store_fixtures import _pg_truncate

from bot.core import narrate
from bot.core.service import Actor, GameService, pack
from bot.games import default_games
from bot.store import Store

HERE = Path(__file__).resolve()
PRESSES = 150


async def presser(url: str, gid: int, user: str, n: int, mode: str) -> None:
    if mode == "optimistic":  # the one-process path: version check, three tries
        Store.row_locks = property(lambda self: False)  # type: ignore[assignment,method-assign]
    store = await Store.open(url)
    service = GameService(store, games=default_games())
    actor = Actor("test", f"-{mode}", user, user)
    busy = 0
    times = []
    for _ in range(n):
        t0 = time.perf_counter()
        out = await service.press(actor, pack(gid, 0, "sort"), metered=False)
        times.append(time.perf_counter() - t0)
        if out.reply == narrate.BUSY:
            busy += 1
        else:
            assert not out.alert, out.reply
    times.sort()
    await store.close()
    print(json.dumps({"busy": busy, "n": n, "p95_ms": round(1000 * times[int(0.95 * n)], 1)}))


async def _race(url: str, gid: int, mode: str) -> list[dict]:
    procs = [
        await asyncio.create_subprocess_exec(
            sys.executable,
            str(HERE),
            url,
            str(gid),
            user,
            str(PRESSES),
            mode,
            stdout=asyncio.subprocess.PIPE,
        )
        for user in ("1", "2")
    ]
    outs = [await asyncio.wait_for(p.communicate(), 120) for p in procs]
    assert all(p.returncode == 0 for p in procs)
    return [json.loads(out.splitlines()[-1]) for out, _ in outs]


async def _game(store: Store, chat: str) -> int:
    service = GameService(store, games=default_games())
    alice, bob = Actor("test", chat, "1", "1"), Actor("test", chat, "2", "2")
    gid = (await service.new_game(alice, "machiavelli")).game_id
    row = await store.get_game(gid)
    await service.press(bob, pack(gid, row.record.get("lobby_version", 0), "join"))
    row = await store.get_game(gid)
    assert not (await service.press(alice, pack(gid, row.record["lobby_version"], "start"))).alert
    return gid


@pytest.mark.e2e  # two worker processes on the wall clock: `make test`, not the quick loop
async def test_two_workers_pressing_in_one_game_are_never_busy(postgres_url: str) -> None:
    await _pg_truncate(make_url(postgres_url))
    store = await Store.open(postgres_url)
    try:
        figures = {}
        for mode in ("optimistic", "lock"):
            gid = await _game(store, f"-{mode}")
            before = (await store.get_game(gid)).version
            results = await _race(postgres_url, gid, mode)
            busy = sum(r["busy"] for r in results)
            saved = (await store.get_game(gid)).version - before
            assert saved == 2 * PRESSES - busy  # every press that was answered saved once
            figures[mode] = (busy, max(r["p95_ms"] for r in results))
        print(
            f"busy, two processes x {PRESSES} presses in one game: "
            f"version check {figures['optimistic'][0]} ({figures['optimistic'][0] / 3:.1f} %),"
            f" row lock {figures['lock'][0]}; p95 {figures['optimistic'][1]} ms / "
            f"{figures['lock'][1]} ms"
        )
        assert figures["lock"][0] == 0
    finally:
        await store.close()


if __name__ == "__main__":
    url, gid, user, n, mode = sys.argv[1:]
    asyncio.run(presser(url, int(gid), user, int(n), mode))
