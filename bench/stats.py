"""/stats at a long history: the time of `Store.stats` for a player with N finished games.

    .venv/bin/python bench/stats.py                   # SQLite, 50,000 results
    .venv/bin/python bench/stats.py --db postgresql   # the local PostgreSQL (scratch database)

Results are written straight into results/result_seats (and their games rows) in bulk; the
player's standing is set by hand (its totals are what record_result keeps). Prints the median
of 30 calls.
"""

from __future__ import annotations

import argparse
import asyncio
import statistics
import sys
import tempfile
import time
from datetime import timedelta
from pathlib import Path

import asyncpg
from sqlalchemy import insert

sys.path[0] = str(Path(__file__).resolve().parents[1])  # the repository's bot, not bench/bot.py

from bot.store import Store  # noqa: E402
from bot.store import models as db  # noqa: E402

PG_ADMIN = "postgresql://postgres@127.0.0.1:5432/test"
PG_NAME = "bench_stats"


async def fill(store: Store, results: int) -> None:
    player = await store.player("telegram", "alice", "Alice")
    now = db.utcnow()
    async with store._write() as conn:
        await conn.execute(insert(db.chats).values(platform="telegram", chat_id="c",
                                                   created_at=now))
        for start in range(0, results, 5000):
            ids = range(start + 1, min(start + 5000, results) + 1)
            await conn.execute(insert(db.games), [
                {"id": i, "platform": "telegram", "chat_id": "c", "status": "finished",
                 "record": {}, "version": 1, "created_at": now, "updated_at": now}
                for i in ids])
            await conn.execute(insert(db.results), [
                {"game_id": i, "platform": "telegram", "chat_id": "c", "rulebook": "tahiti",
                 "finished_at": now - timedelta(seconds=results - i)} for i in ids])
            await conn.execute(insert(db.result_seats), [
                {"game_id": i, "seat_no": 0, "player_id": player, "name": "Alice",
                 "computer_level": None, "points": i % 50, "won": 0.0, "rank": 2}
                for i in ids])
        await conn.execute(insert(db.standings).values(
            player_id=player, scope="*", rulebook="*", mu=25.0, sigma=8.0, rating=1.0,
            games=results, wins=0.0, points=0, updated_at=now))


async def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--db", choices=("sqlite", "postgresql"), default="sqlite")
    parser.add_argument("--results", type=int, default=50_000)
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as tmp:
        if args.db == "sqlite":
            url = f"sqlite+aiosqlite:///{tmp}/stats.db"
        else:
            admin = await asyncpg.connect(PG_ADMIN)
            await admin.execute(f"DROP DATABASE IF EXISTS {PG_NAME}")
            await admin.execute(f"CREATE DATABASE {PG_NAME}")
            await admin.close()
            url = f"postgresql+asyncpg://postgres@127.0.0.1:5432/{PG_NAME}"
        store = await Store.open(url)
        try:
            await fill(store, args.results)
            times = []
            for _ in range(30):
                started = time.perf_counter()
                stats = await store.stats("telegram", "alice")
                times.append(time.perf_counter() - started)
            print(f"{args.db}: {args.results} results, {len(stats.history)} history rows read, "
                  f"median {statistics.median(times) * 1000:.1f} ms")
        finally:
            await store.close()
            if args.db == "postgresql":
                admin = await asyncpg.connect(PG_ADMIN)
                await admin.execute(f"DROP DATABASE IF EXISTS {PG_NAME}")
                await admin.close()


if __name__ == "__main__":
    asyncio.run(main())
