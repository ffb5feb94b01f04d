"""One worker's season sweep in its own process (tests/test_seasons_workers.py): the store at
argv[1], the sweep at the moment argv[2] (epoch s), started when the file argv[3] appears;
each post it makes is appended to argv[4] as a JSON line."""

from __future__ import annotations

import asyncio
import json
import os
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))


async def main(url: str, now: float, go: Path, log: Path) -> None:
    from bot.core.seasons import Seasons
    from bot.store import Store

    store = await Store.open(url)

    async def post(outcome) -> None:
        line = json.dumps({"pid": os.getpid(), "chat": outcome.chat_id,
                           "text": outcome.notes[0].text}) + "\n"
        with open(log, "a", encoding="utf-8") as out:  # O_APPEND: whole lines
            out.write(line)

    seasons = Seasons(store, post, lambda: now, owner=f"worker-{os.getpid()}")
    while not go.exists():  # all three start their sweep together
        time.sleep(0.005)
    print(await seasons.sweep(now), flush=True)
    await store.close()


if __name__ == "__main__":
    asyncio.run(main(sys.argv[1], float(sys.argv[2]), Path(sys.argv[3]), Path(sys.argv[4])))
