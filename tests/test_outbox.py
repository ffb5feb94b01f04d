"""The deliveries outbox on the real PostgreSQL (bot/store/outbox.py): a save owes its screens
in its own transaction, the worker marks them done (a batched delete, never of a newer save's
row), keeps its leases alive while it delivers, and releases the rest when it stops; an
expired row is claimed by one worker only (SKIP LOCKED). SQLite writes no row."""

from __future__ import annotations

import asyncio
import time
from collections.abc import AsyncIterator

import pytest
from sqlalchemy import text
from sqlalchemy.engine import make_url
from store_fixtures import _pg_truncate

from bot.store import Store
from bot.store.outbox import Outbox, claim_rows


@pytest.fixture
async def workers(postgres_url: str) -> AsyncIterator[list[Store]]:
    """Three workers' stores on one PostgreSQL, no rows."""
    await _pg_truncate(make_url(postgres_url))
    stores = [await Store.open(postgres_url) for _ in range(3)]
    try:
        yield stores
    finally:
        for store in stores:
            await store.close()


async def _game(store: Store, n: int) -> int:
    """A game saved once by `store` (version 2): its screens are owed."""
    row = await store.create_game("telegram", f"-{n}", {"rulebook": "test", "n": 0})
    await store.save_game(row.id, {"rulebook": "test", "n": 1}, expected_version=row.version)
    return row.id


async def _save(store: Store, game_id: int) -> int:
    row = await store.get_game(game_id)
    saved = await store.save_game(
        game_id, {**row.record, "n": row.record["n"] + 1}, expected_version=row.version
    )
    return saved.version


async def _expire(store: Store) -> None:
    """Every lease runs out now (as a killed worker's would)."""
    async with store.engine.begin() as conn:
        await conn.execute(text("UPDATE deliveries SET lease_until = 0"))


async def test_a_save_owes_its_screens_in_its_own_transaction(workers):
    a = workers[0]
    before = time.time()
    game = await _game(a, 1)
    [row] = await a.outbox.rows()
    assert (row.game_id, row.version, row.owner) == (game, 2, a.outbox.owner)
    assert before + a.outbox.lease <= row.lease_until <= time.time() + a.outbox.lease
    version = await _save(a, game)  # upserted: still one row per game, the newest version
    assert [(r.game_id, r.version) for r in await a.outbox.rows()] == [(game, version)]
    with pytest.raises(Exception):  # noqa: B017 (a failed save owes nothing)
        await a.save_game(game, {"n": 9}, expected_version=1)
    assert [(r.game_id, r.version) for r in await a.outbox.rows()] == [(game, version)]


async def test_sqlite_writes_no_row(tmp_path):
    async with await Store.open(f"sqlite+aiosqlite:///{tmp_path / 'one.db'}") as store:
        await _game(store, 1)
        assert await store.outbox.rows() == []
        assert store.outbox.owed == {}


async def test_done_deletes_only_up_to_the_delivered_version(workers):
    a, b, _c = workers
    game = await _game(a, 1)
    newer = await _save(a, game)
    a.outbox.done(game, newer - 1)  # an older outcome's delivery: the newer save still owes
    await a.outbox.flush()
    assert [r.version for r in await a.outbox.rows()] == [newer]
    a.outbox.done(game, newer)
    await a.outbox.flush()
    assert await a.outbox.rows() == []

    game = await _game(a, 2)
    newest = await _save(b, game)  # another worker's newer save: its row, its owner
    a.outbox.done(game, newest - 1)
    await a.outbox.flush()
    assert [(r.version, r.owner) for r in await a.outbox.rows()] == [(newest, b.outbox.owner)]


async def test_done_marks_go_in_one_statement_per_flush(workers):
    a = workers[0]
    games = [await _game(a, n) for n in range(5)]
    statements: list[str] = []

    def seen(_conn, _cursor, statement, *_args) -> None:
        statements.append(statement)

    from sqlalchemy import event

    event.listen(a.engine.sync_engine, "before_cursor_execute", seen)
    try:
        for game in games:
            a.outbox.done(game, 2)
        await asyncio.sleep(a.outbox.flush_every * 3)  # the keeper's own flush
    finally:
        event.remove(a.engine.sync_engine, "before_cursor_execute", seen)
    assert await a.outbox.rows() == []
    assert len([s for s in statements if s.startswith("DELETE FROM deliveries")]) == 1


async def test_an_expired_row_is_claimed_by_one_worker(workers):
    a, b, c = workers
    games = {await _game(a, n) for n in range(6)}
    assert await b.outbox.claim() == []  # a's leases are alive: a delivers its own
    await _expire(a)
    # b's claim holds its rows in an open transaction: c skips them (never waits for them)
    async with b.engine.begin() as conn:
        mine = await claim_rows(conn, b.outbox.owner, time.time(), time.time() + 10, limit=2)
        theirs = await asyncio.wait_for(c.outbox.claim(), 3)
    assert len(mine) == 2 and len(theirs) == 4
    assert {g for g, _v in mine} | {g for g, _v in theirs} == games
    assert not {g for g, _v in mine} & {g for g, _v in theirs}
    claimed = await asyncio.gather(b.outbox.claim(), c.outbox.claim())
    assert claimed == [[], []]  # every lease alive again
    assert {g for g, _v in theirs} <= set(c.outbox.owed)  # c delivers them, then marks done


async def test_two_claimers_at_once_split_the_rows(workers):
    a, b, c = workers
    games = {await _game(a, n) for n in range(40)}
    await _expire(a)
    got_b, got_c = await asyncio.gather(b.outbox.claim(limit=40), c.outbox.claim(limit=40))
    assert not {g for g, _ in got_b} & {g for g, _ in got_c}
    assert {g for g, _ in got_b} | {g for g, _ in got_c} == games


async def test_a_live_worker_keeps_its_leases(postgres_url, workers):
    a, b, _c = workers
    a.outbox = Outbox(a.engine, lease=1.0, flush=0.1)  # a slow delivery outlives its lease
    game = await _game(a, 1)
    await asyncio.sleep(2.5)
    assert await b.outbox.claim() == []  # renewed all along
    [row] = await a.outbox.rows()
    assert row.lease_until > time.time()
    a.outbox.done(game, row.version)
    await asyncio.sleep(0.5)
    assert await a.outbox.rows() == []


async def test_a_stopping_worker_releases_what_it_owes(postgres_url, workers):
    a, b, _c = workers
    delivered, owed = await _game(a, 1), await _game(a, 2)
    a.outbox.done(delivered, 2)
    await a.close()  # no flush ran yet: the store's close deletes the delivered, releases the rest
    assert [(r.game_id, r.owner) for r in await b.outbox.rows()] == [(owed, a.outbox.owner)]
    assert await b.outbox.claim() == [(owed, 2)]  # at once, not after the lease
