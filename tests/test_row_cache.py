"""The bot's own SQLite store answers game reads from memory (bot/store/row_cache.py): a press
reads no row, yet nothing it answers or writes can come from a stale copy; a second store on
the same file reads the database as before; PostgreSQL (many workers) never caches."""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager
from datetime import timedelta

import pytest
from sqlalchemy import event

from bot.core.service import GameService, pack
from bot.games import default_games
from bot.store import StaleGame, Store
from bot.store import models as db


@contextmanager
def statements(store: Store) -> Iterator[list[str]]:
    """The SQL statements the store sends while the block runs."""
    sent: list[str] = []

    def count(_conn, _cursor, statement, *_args) -> None:  # type: ignore[no-untyped-def]
        sent.append(statement)

    event.listen(store.engine.sync_engine, "before_cursor_execute", count)
    try:
        yield sent
    finally:
        event.remove(store.engine.sync_engine, "before_cursor_execute", count)


async def test_the_bots_store_reads_a_game_it_wrote_without_a_query(store_url: str) -> None:
    store = await Store.open(store_url)
    try:
        owned = store.keep_rows()
        game = await store.create_game("telegram", "g", {"n": 0, "refs": {"table": 5}})
        saved = await store.save_game(game.id, {"n": 1}, expected_version=1, status="playing")
        with statements(store) as sent:
            row = await store.get_game(game.id)
        if store.engine.dialect.name == "postgresql":
            assert not owned and sent  # many workers: every read goes to the database
        else:
            assert owned and sent == []
        assert (row.record, row.version, row.status) == ({"n": 1}, 2, "playing")
        assert (saved.version, saved.platform, saved.chat_id) == (2, "telegram", "g")
        row.record["n"] = 99  # the core changes records in place: the next read is its own
        assert (await store.get_game(game.id)).record == {"n": 1}
    finally:
        await store.close()


async def test_a_second_store_on_the_file_reads_the_database(store_url: str) -> None:
    if not store_url.startswith("sqlite"):
        pytest.skip("SQLite: one process owns the file")
    bot, other = await Store.open(store_url), await Store.open(store_url)
    try:
        assert bot.keep_rows() and not other.keep_rows()
        game = await bot.create_game("telegram", "g", {"n": 0})
        assert (await other.get_game(game.id)).record == {"n": 0}
        await bot.save_game(game.id, {"n": 1}, expected_version=1)
        assert (await other.get_game(game.id)).record == {"n": 1}  # sees the bot's writes
        # A write behind the bot's back (only a non-owner can): the bot's copy is stale, and
        # its save from that copy is refused, never written over; then it reads afresh.
        await other.save_game(game.id, {"n": 2}, expected_version=2)
        with pytest.raises(StaleGame):
            await bot.save_game(game.id, {"n": 3}, expected_version=2)
        assert (await bot.get_game(game.id)).record == {"n": 2}
    finally:
        await other.close()
        await bot.close()
    again = await Store.open(store_url)  # the owner lock went with the closed store
    try:
        assert again.keep_rows()
    finally:
        await again.close()


async def test_pruned_rows_are_read_again(store_url: str) -> None:
    if not store_url.startswith("sqlite"):
        pytest.skip("SQLite: one process owns the file")
    store = await Store.open(store_url)
    try:
        store.keep_rows()
        game = await store.create_game("telegram", "g", {"rulebook": "x", "seats": []})
        await store.save_game(game.id, {"rulebook": "x", "seats": []}, expected_version=1,
                              status="finished")
        await store.prune(db.utcnow() + timedelta(days=1), db.utcnow() - timedelta(days=1))
        row = await store.get_game(game.id)
        assert row.record.get("pruned") is True and row.version == 3
    finally:
        await store.close()


async def test_a_bot_press_reads_no_game_row(store_url: str) -> None:
    """Through the service, as a press goes: the lobby's Join reads the game from memory."""
    from bot.core.service import Actor

    store = await Store.open(store_url)
    try:
        service = GameService(store, games=default_games())  # the bot's service claims the file
        host = Actor("telegram", "g", "1", "Ann")
        opened = await service.new_game(host)
        await store.player("telegram", "2", "Bob")  # (a join upserts its player first)
        with statements(store) as sent:
            out = await service.press(Actor("telegram", "g", "2", "Bob"),
                                      pack(opened.game_id, 0, "join"))
        assert out.game_id == opened.game_id and not out.alert, out.reply
        reads = [s for s in sent if s.lstrip().upper().startswith("SELECT") and "games" in s]
        game_reads = [s for s in reads if "FROM games" in s and "players" not in s]
        if store.engine.dialect.name == "sqlite":
            assert game_reads == []
        else:
            assert game_reads  # the row lock: SELECT ... FOR UPDATE
    finally:
        await store.close()
