"""LISTEN/NOTIFY's receiving side (bot/web/notify.py, issue 38): a worker re-reads a game another
worker changed once for all its sockets of it, and a burst of notices while that read goes
makes one more read, not one each. The notices are handed in as asyncpg would (no server
needed: the channel itself is tests/test_web_workers.py's)."""

from __future__ import annotations

import asyncio
from pathlib import Path

from bot.core.service import Actor, GameService, pack
from bot.games import default_games
from bot.store import Store
from bot.web.auth import Session
from bot.web.notify import CHANNEL, Notifier
from bot.web.table import Limits, Page, WebTable

PEOPLE = [Actor("test", "-1", str(n), f"P{n}") for n in range(3)]


async def _table(tmp_path: Path) -> tuple[Store, WebTable, int]:
    store = await Store.open(f"sqlite+aiosqlite:///{tmp_path / 'n.db'}")
    service = GameService(store, games=default_games(), computer_delay=0, tick=1.0)

    async def deliver(_outcome: object) -> None:
        return None

    service.register("test", deliver)
    game = (await service.new_game(PEOPLE[0], "manipulation")).game_id
    for person in PEOPLE[1:]:
        row = await store.get_game(game)
        await service.press(person, pack(game, row.record.get("lobby_version", 0), "join"))
    row = await store.get_game(game)
    await service.press(PEOPLE[0], pack(game, row.record.get("lobby_version", 0), "start"))
    return store, WebTable(service, limits=Limits(watchers_per_address=100)), game


async def _pages(table: WebTable, game: int, watchers: int) -> list[Page]:
    async def send(_frame: dict) -> None:
        return None

    sessions = [Session("test", p.user, p.name, game, "en", 1e12) for p in PEOPLE]
    sessions += [Session("", "", "", game, "en", 1e12)] * watchers
    pages = [Page(s, send, address="10.0.0.1") for s in sessions]
    for page in pages:
        assert await table.join(page)
    return pages


def _count_reads(table: WebTable, gate: asyncio.Event | None = None) -> list[int]:
    reads: list[int] = []
    store = table.service.store
    real = store.get_game

    async def get_game(game_id: int):
        reads.append(game_id)
        if gate is not None:
            await gate.wait()
        return await real(game_id)

    store.get_game = get_game
    return reads


async def _settled(notifier: Notifier) -> None:
    while notifier._tasks:
        await asyncio.gather(*notifier._tasks)


async def test_a_changed_game_is_read_once_for_all_its_sockets(tmp_path: Path) -> None:
    store, table, game = await _table(tmp_path)
    try:
        pages = await _pages(table, game, watchers=40)
        notifier = Notifier(table, "postgresql://unused")  # (not started: no connection)
        reads = _count_reads(table)
        for version in range(5):  # a burst from another worker, all heard in one go
            notifier._heard(None, 0, CHANNEL, f"elsewhere {game} {version}")
        notifier._heard(None, 0, CHANNEL, f"{notifier.worker} {game} 9")  # its own: ignored
        notifier._heard(None, 0, CHANNEL, f"elsewhere {game + 1} 1")  # no page here: no read
        await _settled(notifier)
        assert reads == [game]
        assert all(p.owed is not None and p.wake.is_set() for p in pages)
        # one frame per seat and one for all the watchers, written once each
        assert len({id(p.owed_text) for p in pages}) == 4
    finally:
        await store.close()


async def test_notices_during_a_read_make_one_more_read_not_one_each(tmp_path: Path) -> None:
    store, table, game = await _table(tmp_path)
    try:
        await _pages(table, game, watchers=3)
        notifier = Notifier(table, "postgresql://unused")
        gate = asyncio.Event()
        reads = _count_reads(table, gate)
        notifier._heard(None, 0, CHANNEL, f"elsewhere {game} 1")
        while not reads:  # the first read is waiting on the database
            await asyncio.sleep(0)
        for version in range(2, 8):
            notifier._heard(None, 0, CHANNEL, f"elsewhere {game} {version}")
        gate.set()
        await _settled(notifier)
        assert reads == [game, game]
        assert not notifier.reading and not notifier.again
    finally:
        await store.close()
