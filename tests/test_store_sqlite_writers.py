"""SQLite has one writer at a time: the store's writers queue on one asyncio lock, so a burst of
saves takes one connection at a time and each starts the moment the one before commits (not
after a sleep in SQLite's busy handler, each on a connection of its own)."""

from __future__ import annotations

import asyncio
import time

from sqlalchemy import event

from bot.store import Store


async def test_a_burst_of_saves_writes_one_at_a_time_on_one_connection(tmp_path) -> None:
    store = await Store.open(f"sqlite+aiosqlite:///{tmp_path / 'rummy.db'}")
    try:
        games = [await store.create_game("telegram", f"c{i}", {"n": 0}) for i in range(30)]
        pool = store.engine.sync_engine.pool
        out, most = [0], [0]

        def checkout(*_args) -> None:  # type: ignore[no-untyped-def]
            out[0] += 1
            most[0] = max(most[0], out[0])

        def checkin(*_args) -> None:  # type: ignore[no-untyped-def]
            out[0] -= 1

        event.listen(pool, "checkout", checkout)
        event.listen(pool, "checkin", checkin)
        t0 = time.perf_counter()
        saved = await asyncio.gather(*(
            store.save_game(g.id, {"n": k}, expected_version=1) for k, g in enumerate(games)
        ))
        took = time.perf_counter() - t0
        event.remove(pool, "checkout", checkout)
        event.remove(pool, "checkin", checkin)
        assert [row.version for row in saved] == [2] * 30
        assert most[0] == 1, f"{most[0]} connections wrote at once"
        assert took < 20  # (a hang, not a timing: SQLite's busy timeout is 30 s)
    finally:
        await store.close()
