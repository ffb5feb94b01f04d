"""bot/store: migrations, games (optimistic concurrency, one active game per chat), seats,
rounds, players. Each test runs on SQLite and on local PostgreSQL (see store_fixtures.py)."""

from __future__ import annotations

import asyncio
import sqlite3
from datetime import UTC

import pytest
from alembic.autogenerate import compare_metadata
from alembic.runtime.migration import MigrationContext
from sqlalchemy import inspect, text
from sqlalchemy.exc import IntegrityError

from bot.store import (
    GameExists,
    GameResult,
    GameRow,
    ResultSeat,
    RoundRow,
    SeatRow,
    StaleGame,
    Store,
)
from bot.store.engine import make_engine, writer
from bot.store.migrate import current_revision, downgrade, head_revision, upgrade
from bot.store.models import metadata
from bot.store.urls import database_url

pytest_plugins = ["store_fixtures"]

APP_TABLES = {t.name for t in metadata.sorted_tables}

RECORD = {
    "rulebook": "manipulation",
    "options": {"must_lay": "remind", "target": 200, "timer": 180.5, "jokers": True},
    "seats": [{"name": "Alice ✨", "hand": ["QH", "10S", "*"], "draft": None}, {"cpu": "medium"}],
    "engine": {"table": [["5H", "6H", "7H"], ["9S", "9H", "9D"]], "stock": list(range(40))},
    "messages": {"group": 1234567890123, "private": {"42": 7}},
}


async def _tables(url: str) -> set[str]:
    engine = make_engine(database_url(url))
    try:
        async with engine.connect() as conn:
            return set(await conn.run_sync(lambda sync: inspect(sync).get_table_names()))
    finally:
        await engine.dispose()


# -- migrations ------------------------------------------------------------------------------


async def test_migrations_empty_to_head_and_down_to_base(empty_store_url: str) -> None:
    url = empty_store_url
    assert not await _tables(url)
    assert await upgrade(url) == head_revision() == "0011"
    assert await _tables(url) == {*APP_TABLES, "alembic_version"}

    assert await downgrade(url, "base") is None
    assert await _tables(url) == {"alembic_version"}

    store = await Store.open(url)  # and back up again, from Store.open this time
    try:
        assert await current_revision(store.engine) == head_revision()
        assert await store.active_games() == []
    finally:
        await store.close()


async def test_workers_starting_at_once_migrate_once(empty_store_url: str) -> None:
    stores = await asyncio.gather(*(Store.open(empty_store_url) for _ in range(3)))
    try:
        assert {await current_revision(s.engine) for s in stores} == {head_revision()}
    finally:
        for store in stores:
            await store.close()


async def test_starting_while_another_connection_writes_a_new_sqlite_file(tmp_path) -> None:
    """Switching a file to WAL fails at once while another connection writes (no busy
    timeout applies): a worker starting then waits instead of failing (flaked in CI as three
    workers started together)."""
    path = tmp_path / "rummy.db"
    other = sqlite3.connect(path, isolation_level=None, check_same_thread=False)
    other.execute("CREATE TABLE other_app (x)")
    other.execute("BEGIN IMMEDIATE")
    other.execute("INSERT INTO other_app VALUES (1)")
    release = asyncio.get_running_loop().call_later(0.5, other.execute, "COMMIT")
    try:
        store = await Store.open(f"sqlite+aiosqlite:///{path}")
        try:
            assert await current_revision(store.engine) == head_revision()
        finally:
            await store.close()
    finally:
        release.cancel()
        other.close()


async def test_schema_matches_models(store: Store) -> None:
    """The hand-written migration and models.py describe the same schema."""
    async with store.engine.connect() as conn:
        diff = await conn.run_sync(
            lambda sync: compare_metadata(MigrationContext.configure(sync), metadata)
        )
    assert diff == []


async def test_one_active_game_per_chat_is_a_database_rule(store: Store) -> None:
    await store.create_game("telegram", "chat", {})
    with pytest.raises(IntegrityError):
        async with writer(store.engine).begin() as conn:
            await conn.execute(
                text(
                    "INSERT INTO games (platform, chat_id, status, record, version, created_at,"
                    " updated_at) VALUES ('telegram', 'chat', 'playing', '{}', 1,"
                    " CURRENT_TIMESTAMP, CURRENT_TIMESTAMP)"
                )
            )


# -- games -----------------------------------------------------------------------------------


async def test_create_get_save_round_trip(store: Store) -> None:
    game = await store.create_game("telegram", "-100123", RECORD)
    assert isinstance(game, GameRow)
    assert (game.platform, game.chat_id, game.status, game.version) == (
        "telegram", "-100123", "lobby", 1
    )
    assert game.record == RECORD
    assert game.created_at.tzinfo is UTC and game.created_at == game.updated_at

    assert await store.get_game(game.id) == game
    assert await store.get_game(game.id + 1000) is None

    changed = {**RECORD, "engine": {"table": [], "turn": {"seat": 1, "drawn": [None, 3]}}}
    saved = await store.save_game(game.id, changed, expected_version=1, status="playing")
    assert (saved.version, saved.status, saved.record) == (2, "playing", changed)
    assert saved.created_at == game.created_at and saved.updated_at >= game.updated_at

    again = await store.save_game(game.id, RECORD, expected_version=2)
    assert (again.version, again.status) == (3, "playing")
    assert await store.get_game(game.id) == again


async def test_stale_version_and_unknown_game(store: Store) -> None:
    game = await store.create_game("discord", "555", {"n": 0})
    await store.save_game(game.id, {"n": 1}, expected_version=1)
    with pytest.raises(StaleGame) as caught:
        await store.save_game(game.id, {"n": 2}, expected_version=1)
    assert caught.value.game_id == game.id
    assert (await store.get_game(game.id)).record == {"n": 1}
    with pytest.raises(LookupError):
        await store.save_game(game.id + 99, {}, expected_version=1)
    with pytest.raises(ValueError):
        await store.save_game(game.id, {}, expected_version=2, status="paused")


async def test_concurrent_saves_exactly_one_wins(store: Store) -> None:
    """Several saves of the same version at once, each on its own pooled connection."""
    game = await store.create_game("telegram", "dice", {"n": 0})
    outcomes = await asyncio.gather(
        *(store.save_game(game.id, {"n": n}, expected_version=1) for n in range(1, 7)),
        return_exceptions=True,
    )
    winners = [o for o in outcomes if isinstance(o, GameRow)]
    assert len(winners) == 1
    assert all(isinstance(o, StaleGame) for o in outcomes if o is not winners[0])
    final = await store.get_game(game.id)
    assert final.version == 2 and final.record == winners[0].record


async def test_save_blocked_by_a_concurrent_writer_becomes_stale(store: Store) -> None:
    """A save that waits on another transaction's row lock re-checks the version after it."""
    game = await store.create_game("telegram", "dice", {"n": 0})
    async with writer(store.engine).connect() as other:
        await other.begin()
        await other.execute(
            text("UPDATE games SET version = version + 1 WHERE id = :id AND version = 1"),
            {"id": game.id},
        )
        save = asyncio.create_task(store.save_game(game.id, {"n": 1}, expected_version=1))
        await asyncio.sleep(0.3)
        assert not save.done()  # blocked by the other transaction
        await other.commit()
    with pytest.raises(StaleGame):
        await save


async def test_one_active_game_per_chat(store: Store) -> None:
    first = await store.create_game("telegram", "chat", {"g": 1})
    with pytest.raises(GameExists) as caught:
        await store.create_game("telegram", "chat", {"g": 2})
    assert caught.value.game_id == first.id
    assert (await store.active_game("telegram", "chat")).id == first.id

    # Other chats, and the same chat id on another platform, are independent.
    await store.create_game("telegram", "other", {})
    await store.create_game("discord", "chat", {})

    await store.save_game(first.id, {"g": 1}, expected_version=1, status="finished")
    assert await store.active_game("telegram", "chat") is None
    second = await store.create_game("telegram", "chat", {"g": 2})
    assert (await store.active_game("telegram", "chat")).id == second.id

    with pytest.raises(GameExists) as caught:  # reviving the finished one would make two
        await store.save_game(first.id, {}, expected_version=2, status="playing")
    assert caught.value.game_id == second.id


async def test_concurrent_creates_exactly_one_wins(store: Store) -> None:
    outcomes = await asyncio.gather(
        *(store.create_game("telegram", "busy", {"n": n}) for n in range(5)),
        return_exceptions=True,
    )
    created = [o for o in outcomes if isinstance(o, GameRow)]
    assert len(created) == 1
    assert [o.game_id for o in outcomes if isinstance(o, GameExists)] == [created[0].id] * 4


async def test_active_games_seats_and_games_for_player(store: Store) -> None:
    alice = await store.player("telegram", "1", "Alice")
    bob = await store.player("telegram", "2", "Bob")
    a = await store.create_game("telegram", "a", {})
    b = await store.create_game("telegram", "b", {}, status="playing")
    c = await store.create_game("telegram", "c", {})
    await store.set_seats(a.id, [SeatRow(0, alice, "Alice", None), SeatRow(1, None, "🤖", "easy")])
    await store.set_seats(b.id, [SeatRow(0, bob, "Bob", None), SeatRow(1, alice, "Alice", None)])
    await store.set_seats(c.id, [SeatRow(0, alice, "Alice", None)])
    await store.save_game(c.id, {}, expected_version=1, status="ended")

    assert [g.id for g in await store.active_games()] == [a.id, b.id]
    assert [g.id for g in await store.games_for_player(alice)] == [a.id, b.id]
    assert [g.id for g in await store.games_for_player(bob)] == [b.id]

    seats = [SeatRow(0, bob, "Bob", None), SeatRow(2, None, "🤖 hard", "hard")]
    await store.set_seats(a.id, seats)  # replaces
    assert await store.seats(a.id) == seats
    assert [g.id for g in await store.games_for_player(alice)] == [b.id]
    with pytest.raises(ValueError):
        await store.set_seats(a.id, [SeatRow(0, bob, "Bob", None), SeatRow(0, None, "x", "easy")])
    with pytest.raises(LookupError):
        await store.set_seats(9999, [])


async def test_player_upsert_keeps_name_fresh(store: Store) -> None:
    alice = await store.player("telegram", "42", "Alice")
    assert await store.player("telegram", "42", "Alice B.") == alice
    assert await store.player("discord", "42", "Alice") != alice  # ids are per platform
    assert (await store.stats("telegram", "42")).name == "Alice B."
    ids = await asyncio.gather(*(store.player("telegram", "77", f"n{i}") for i in range(4)))
    assert len(set(ids)) == 1


async def test_rounds_are_idempotent(store: Store) -> None:
    game = await store.create_game("telegram", "chat", {})
    await store.record_round(game.id, 1, [0, 12, 5], [0, 12, 5])
    await store.record_round(game.id, 1, [0, 12, 5], [0, 12, 5])  # retried action
    await store.record_round(game.id, 1, [9, 9, 9], [9, 9, 9])  # first write wins
    await store.record_round(game.id, 2, [7, 0, 3], [7, 12, 8])
    assert await store.rounds(game.id) == [(1, [0, 12, 5], [0, 12, 5]), (2, [7, 0, 3], [7, 12, 8])]
    with pytest.raises(ValueError):
        await store.record_round(game.id, 3, [1, 2], [1])
    with pytest.raises(LookupError):
        await store.record_round(game.id + 1, 1, [1], [1])


async def test_a_save_writes_its_seats_rounds_and_result_or_nothing(store: Store) -> None:
    """One transaction: a stale save adds no round and no result; a bad result undoes the
    record too; the good save writes all four."""
    game = await store.create_game("telegram", "chat", {"n": 0})
    alice = await store.player("telegram", "1", "Alice")
    seats = [SeatRow(0, alice, "Alice", None), SeatRow(1, None, "🤖 medium", "medium")]
    won = ResultSeat(0, alice, "Alice", None, 0, 1, 1)
    lost = ResultSeat(1, None, "b", "medium", 9, 0, 2)
    result = GameResult("tahiti", [won, lost])
    rounds = [RoundRow(1, [0, 9], [0, 9])]
    with pytest.raises(StaleGame):
        await store.save_game(
            game.id, {"n": 1}, expected_version=7, status="finished", seats=seats,
            rounds=rounds, result=result,
        )
    bad = GameResult("tahiti", [won, ResultSeat(0, None, "b", "medium", 9, 0, 2)])
    with pytest.raises(ValueError):  # two seats numbered 0
        await store.save_game(
            game.id, {"n": 1}, expected_version=1, status="finished", seats=seats,
            rounds=rounds, result=bad,
        )
    row = await store.get_game(game.id)
    assert (row.record, row.status, row.version) == ({"n": 0}, "lobby", 1)
    assert await store.rounds(game.id) == [] and await store.seats(game.id) == []
    assert await store.leaderboard("telegram", None, None) == []

    await store.save_game(
        game.id, {"n": 1}, expected_version=1, status="finished", seats=seats,
        rounds=rounds, result=result,
    )
    assert (await store.get_game(game.id)).status == "finished"
    assert await store.seats(game.id) == seats
    assert await store.rounds(game.id) == [(1, [0, 9], [0, 9])]
    board = await store.leaderboard("telegram", None, None)
    assert {r.name for r in board} == {"Alice", "🤖 medium"} and all(r.games == 1 for r in board)


async def test_state_survives_close_and_reopen(store_url: str) -> None:
    store = await Store.open(store_url)
    alice = await store.player("telegram", "1", "Alice")
    game = await store.create_game("telegram", "chat", RECORD)
    await store.set_seats(game.id, [SeatRow(0, alice, "Alice", None)])
    saved = await store.save_game(game.id, RECORD, expected_version=1, status="playing")
    await store.record_round(game.id, 1, [3], [3])
    await store.close()

    store = await Store.open(store_url)
    try:
        assert await store.get_game(game.id) == saved
        assert await store.active_games() == [saved]
        assert await store.games_for_player(alice) == [saved]
        assert await store.rounds(game.id) == [(1, [3], [3])]
        assert await store.player("telegram", "1", "Alice") == alice
    finally:
        await store.close()
