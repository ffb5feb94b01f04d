"""A season's end posted exactly once by three worker processes sweeping one PostgreSQL at the
same moment (issue 41 item 3): each chat's final standings once, whoever claims them."""

from __future__ import annotations

import asyncio
import json
import sys
from pathlib import Path

from sqlalchemy.engine import make_url
from store_fixtures import _pg_truncate
from test_seasons import DEC, _november

from bot.store import Store

pytest_plugins = ["store_fixtures"]

WORKER = Path(__file__).with_name("seasons_worker_proc.py")


async def test_three_worker_processes_post_each_seasons_end_once(postgres_url: str,
                                                                 tmp_path: Path) -> None:
    await _pg_truncate(make_url(postgres_url))
    store = await Store.open(postgres_url)
    try:
        await _november(store)
    finally:
        await store.close()
    go, log = tmp_path / "go", tmp_path / "posts.jsonl"
    procs = [await asyncio.create_subprocess_exec(
        sys.executable, str(WORKER), postgres_url, str(DEC.timestamp()), str(go), str(log),
        stdout=asyncio.subprocess.PIPE) for _ in range(3)]
    await asyncio.sleep(1.0)  # each has opened its store
    go.touch()
    counts = [int((await asyncio.wait_for(p.communicate(), 60))[0]) for p in procs]
    posts = [json.loads(line) for line in log.read_text().splitlines()]
    assert sorted(p["chat"] for p in posts) == ["g", "other"], posts
    assert sum(counts) == 2 and all(p.returncode == 0 for p in procs)
    assert all("2026-11" in p["text"] for p in posts)
