"""Delivery state lives beside the game row, not in it: saving a message id never touches the
game's row or version, so a press that loaded the game before a delivery saved an id is not
refused as stale (nor made to wait). Migration 0007 moves a running game's refs out of its
record and back. Each test runs on SQLite and on local PostgreSQL (see store_fixtures.py)."""

from __future__ import annotations

import asyncio
import threading
from datetime import timedelta

from sqlalchemy import insert, select

from bot.core.record import Record, SeatInfo
from bot.core.service import GameService
from bot.core.views import Outcome
from bot.games import default_games
from bot.store import Store
from bot.store import models as db
from bot.store.engine import make_engine, writer
from bot.store.migrate import downgrade, upgrade
from bot.store.urls import database_url

pytest_plugins = ["store_fixtures"]


def _record() -> dict:
    return Record(rulebook="manipulation", host="1", seats=[SeatInfo("Ann", "1")]).to_dict()


async def test_saving_a_message_id_leaves_the_game_row_alone(store: Store) -> None:
    game = await store.create_game("telegram", "-100", _record())
    service = GameService(store, games=default_games())
    await service.save_refs(game.id, {"table": 101, "table:at": 1.5e9, "eph:7": {"t": "x"}})
    await service.save_refs(game.id, {"table": 102, "table:gone": None})
    row = await store.get_game(game.id)
    assert (row.version, row.updated_at, row.record) == (
        game.version, game.updated_at, game.record
    )
    assert await service.get_refs(game.id) == {
        "table": 102, "table:at": 1.5e9, "eph:7": {"t": "x"}, "table:gone": None
    }


async def test_a_press_loaded_before_a_message_id_save_is_not_stale(store: Store) -> None:
    game = await store.create_game("telegram", "-100", _record())
    loaded = await store.get_game(game.id)
    service = GameService(store, games=default_games())
    await service.save_refs(game.id, {"table": 5})  # a delivery, meanwhile
    saved = await store.save_game(game.id, {**loaded.record, "warned": True},
                                  expected_version=loaded.version)
    assert saved.version == loaded.version + 1
    assert await store.refs(game.id) == {"table": 5}


async def test_a_message_id_saved_during_a_press_neither_waits_nor_retries_it(
    store: Store,
) -> None:
    """A press's change is under way (its game locked, on PostgreSQL its row held) when the
    delivery of an earlier outcome saves the table's new id: the save is done at once, and the
    press is saved once, at the next version, its outcome carrying that id on PostgreSQL."""
    game = await store.create_game("telegram", "-100", _record())
    service = GameService(store, games=default_games())
    go, changes = threading.Event(), []

    def change(_row: object, record: Record) -> Outcome:
        changes.append(1)
        assert go.wait(10), "the test never let the change go on"
        record.warned = not record.warned
        return Outcome()

    press = asyncio.create_task(service.unit.mutate(game.id, change))
    try:
        while not changes:
            await asyncio.sleep(0.01)
        async with asyncio.timeout(5):
            await service.save_refs(game.id, {"table": 77})
    finally:
        go.set()
        out = await press
    assert len(changes) == 1, "the press was not retried"
    assert out.revision == game.version + 1 == (await store.get_game(game.id)).version
    assert out.refs == ({"table": 77} if store.row_locks else None)


async def test_ending_a_game_is_the_records_not_a_delivery_ref(store: Store) -> None:
    record = Record.from_dict(_record())
    record.ended = True
    game = await store.create_game("telegram", "-100", record.to_dict(), status="ended")
    assert Record.from_dict((await store.get_game(game.id)).record).ended
    service = GameService(store, games=default_games())
    assert service.unit.status(Record.from_dict(game.record)) == "ended"
    assert await store.refs(game.id) == {}


async def test_prune_deletes_the_refs_of_games_gone(store: Store) -> None:
    game, kept = [await store.create_game("telegram", str(-100 - n), _record()) for n in (0, 1)]
    await store.patch_refs(kept.id, {"table": 2})
    async with writer(store.engine).begin() as conn:
        await conn.execute(db.games.delete().where(db.games.c.id == game.id))
    await store.patch_refs(game.id, {"table": 1})  # a late delivery of a game deleted
    long_ago = db.utcnow() - timedelta(days=365)
    assert await store.prune(long_ago, long_ago) == {
        "games_pruned": 0, "actions_deleted": 0, "lessons_deleted": 0
    }
    assert await store.refs(game.id) == {} and await store.refs(kept.id) == {"table": 2}


# -- migration 0007 --------------------------------------------------------------------------


async def test_migration_0007_moves_a_running_games_refs_out_and_back(
    empty_store_url: str,
) -> None:
    url = empty_store_url
    assert await upgrade(url, "0006") == "0006"
    refs = {"table": 9001, "table:at": 1764770000.25, "p:7": 12, "eph:7": {"token": "abc"},
            "advised:8": True, "table:gone": None}
    old = {k: v for k, v in _record().items() if k != "ended"}  # a record of 0006
    running = {**old, "refs": refs}
    ended = {**old, "refs": {"table": 3, "ended": True}}
    lobby = old  # never delivered: no refs at all
    engine = make_engine(database_url(url))
    try:  # (these INSERTs name only columns 0006 has)
        async with writer(engine).begin() as conn:
            now = db.utcnow()
            await conn.execute(insert(db.chats).values(platform="t", chat_id="1", created_at=now))
            ids = [
                (
                    await conn.execute(
                        insert(db.games)
                        .values(platform="t", chat_id="1", status=status, record=record,
                                version=4, created_at=now, updated_at=now)
                        .returning(db.games.c.id)
                    )
                ).scalar_one()
                for record, status in [(running, "playing"), (ended, "ended"), (lobby, "ended")]
            ]
    finally:
        await engine.dispose()

    assert await upgrade(url, "0007") == "0007"
    store = await Store.open(url)
    try:
        row = await store.get_game(ids[0])
        assert row.record == {**old, "ended": False} and row.version == 4
        assert await store.refs(ids[0]) == refs  # the running game edits the same messages
        assert (await store.get_game(ids[1])).record == {**old, "ended": True}
        assert await store.refs(ids[1]) == {"table": 3}
        assert (await store.get_game(ids[2])).record == lobby
        assert await store.refs(ids[2]) == {}
        service = GameService(store, games=default_games())
        assert Record.from_dict((await store.get_game(ids[1])).record).ended
        await service.save_refs(ids[0], {"table": 9002})  # it goes on
        assert (await store.get_game(ids[0])).version == 4
    finally:
        await store.close()

    assert await downgrade(url, "0006") == "0006"
    engine = make_engine(database_url(url))
    try:
        async with engine.connect() as conn:
            records = dict((await conn.execute(select(db.games.c.id, db.games.c.record))).all())
            tables = await conn.run_sync(lambda sync: sync.dialect.get_table_names(sync))
    finally:
        await engine.dispose()
    assert records[ids[0]] == {**running, "refs": {**refs, "table": 9002}}
    assert records[ids[1]] == ended
    assert records[ids[2]] == lobby
    assert "delivery_refs" not in tables
    assert await upgrade(url, "0007") == "0007"  # and up again
