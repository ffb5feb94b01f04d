"""PostgreSQL: live-message locks never take the connections everything else reads with
(issue 31). 40 tables being sent at once, each send held up by its chat's budget (a 35 s
retry_after from Telegram) while its message lock is held, used to hold every pooled
connection: a plain read waited on the pool, and reads failed on its time-out."""

from __future__ import annotations

import asyncio
import contextlib

from sqlalchemy.engine import make_url
from store_fixtures import _pg_truncate, postgres_url  # noqa: F401

from bot.store import Store

TABLES = 40


async def test_slow_sends_holding_message_locks_leave_the_pool_to_reads(postgres_url):
    await _pg_truncate(make_url(postgres_url))
    store = await Store.open(postgres_url)
    try:
        games = [await store.create_game("telegram", str(-100 - i), {})
                 for i in range(TABLES)]
        budget_back = asyncio.Event()  # the chats' budgets: back when the test says so
        holding = 0

        async def slow_send(game_id: int) -> None:
            nonlocal holding
            async with store.message_lock(game_id, "table") as held:
                holding += 1
                await budget_back.wait()  # the send waits for its chat's budget, lock held
                await held.save({"table": 1})

        sends = [asyncio.create_task(slow_send(g.id)) for g in games]
        try:
            async with asyncio.timeout(20):
                while holding < TABLES:
                    await asyncio.sleep(0.05)
            async with asyncio.timeout(5):  # a press's read while every table waits
                assert (await store.get_game(games[0].id)) is not None
                await store.language("telegram", "1")
        finally:
            budget_back.set()
            with contextlib.suppress(Exception):
                await asyncio.gather(*sends)
        for game in games:
            assert await store.refs(game.id) == {"table": 1}
    finally:
        await store.close()
