"""/stats at a long history: the time of `Store.stats` for a player with N finished games,
and of drawing /stats' and /leaderboard's pictures (issue 41: ≤ 40 ms, < 200 KB).

    .venv/bin/python bench/stats.py                   # SQLite, 50,000 results
    .venv/bin/python bench/stats.py --db postgresql   # the local PostgreSQL (scratch database)
    .venv/bin/python bench/stats.py --json            # ... and one JSON object last

Results are written straight into results/result_seats (and their games rows) in bulk; the
player's standings are set by hand (their totals are what record_result keeps). Prints the
medians of 30 calls (the pictures: CPU time, in each language).
"""

from __future__ import annotations

import argparse
import asyncio
import json
import statistics
import sys
import tempfile
import time
from datetime import timedelta
from pathlib import Path

import asyncpg
from sqlalchemy import insert

sys.path[0] = str(Path(__file__).resolve().parents[1])  # the repository's bot, not bench/bot.py

from bot.core.stat_pictures import board_screen, stats_screen  # noqa: E402
from bot.i18n import using  # noqa: E402
from bot.store import LeaderRow, Store  # noqa: E402
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
                 "computer_level": None, "points": i % 50, "won": 0.0, "rank": 2,
                 "rating": 10 + (i % 37) / 3}
                for i in ids])
        await conn.execute(insert(db.standings), [
            {"player_id": player, "scope": "*", "rulebook": book, "mu": 25.0, "sigma": 8.0,
             "rating": 1.0, "games": results, "wins": 0.0, "points": 0, "updated_at": now,
             "best_round": None if book == "*" else 0}
            for book in ("*", "tahiti", "manipulation", "rummikub", "carousel")])


def pictures(stats, calls: int) -> dict:
    """Each language's /stats and /leaderboard picture: CPU median and bytes."""
    board = [LeaderRow(f"Player {k}", 30 - k, 100 - k, 40 - k, 0.4, 20.0, k == 3)
             for k in range(10)]
    out = {}
    for lang in ("en", "he", "ru"):
        with using(lang):
            for name, make in (("stats", lambda: stats_screen(stats, "", str.title)),
                               ("board", lambda: board_screen(board, "Leaderboard", "", ""))):
                times = []
                for _ in range(calls):
                    screen = make()
                    started = time.process_time()
                    png = screen.image
                    times.append(time.process_time() - started)
                out[f"{name}_{lang}"] = {"median_ms": statistics.median(times) * 1000,
                                         "bytes": len(png)}
    return out


async def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--db", choices=("sqlite", "postgresql"), default="sqlite")
    parser.add_argument("--results", type=int, default=50_000)
    parser.add_argument("--json", action="store_true")
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
            query_ms = statistics.median(times) * 1000
            print(f"{args.db}: {args.results} results, {len(stats.history)} history rows and "
                  f"{len(stats.ratings)} ratings read, median {query_ms:.1f} ms")
            drawn = pictures(stats, 30)
        finally:
            await store.close()
            if args.db == "postgresql":
                admin = await asyncpg.connect(PG_ADMIN)
                await admin.execute(f"DROP DATABASE IF EXISTS {PG_NAME}")
                await admin.close()
    print(f"{'picture':<12}{'median ms':>10}{'KB':>8}   (target ≤ 40 ms, < 200 KB)")
    for name, row in drawn.items():
        print(f"{name:<12}{row['median_ms']:10.1f}{row['bytes'] / 1000:8.1f}")
    worst = max(row["median_ms"] for row in drawn.values())
    print(f"slowest picture {worst:.1f} ms, largest {max(r['bytes'] for r in drawn.values())} B")
    if args.json:
        print(json.dumps({"db": args.db, "results": args.results, "stats_query_ms": query_ms,
                          "pictures": drawn, "slowest_picture_ms": worst,
                          "within_target": worst <= 40 and all(
                              r["bytes"] < 200_000 for r in drawn.values())}))


if __name__ == "__main__":
    asyncio.run(main())
