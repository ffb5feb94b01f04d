"""Every chat update changes a game at most once: its key (Telegram update_id, Discord
interaction id) is remembered in the transaction of the change, and a redelivered update finds
it there. On SQLite and on PostgreSQL (whose changes run under the game's row lock)."""

from __future__ import annotations

import asyncio
import shutil
import socket

import aiohttp
from fakes.telegram_server import FakeTelegram

from bot.adapters.telegram import TelegramAdapter
from bot.core.record import Record
from bot.core.service import Actor, GameService, pack
from bot.core.unit import handling
from bot.games import default_games
from bot.games.rummy.records import state_of
from bot.store import Duplicate, Store

ALICE = Actor("telegram", "-100777", "11", "Alice")


async def _game_against_a_computer(service: GameService, actor: Actor) -> int:
    out = await service.new_game(actor, "machiavelli")
    gid = out.game_id
    row = await service.store.get_game(gid)
    lobby = row.record.get("lobby_version", 0)
    await service.press(actor, pack(gid, lobby, "cpu:easy"))
    row = await service.store.get_game(gid)
    await service.press(actor, pack(gid, row.record.get("lobby_version", 0), "start"))
    return gid


async def _persons_turn(service: GameService, gid: int, timeout: float = 20) -> Record:
    """Wait until the computer has played and it is the person's turn again."""
    loop = asyncio.get_running_loop()
    end = loop.time() + timeout
    while True:
        row = await service.store.get_game(gid)
        record = Record.from_dict(row.record)
        persons = row.status != "playing" or state_of(record).turn == 0
        if persons and not service.scheduler.pending_computers():
            return record
        assert loop.time() < end, "the computer never handed the turn back"
        await asyncio.sleep(0.02)


async def test_the_store_refuses_an_update_key_twice(store: Store) -> None:
    game = await store.create_game("telegram", "-1", {"a": 0})
    row = await store.save_game(game.id, {"a": 1}, expected_version=1, update_key="tg:5/1/1")
    try:
        await store.save_game(
            game.id, {"a": 2}, expected_version=row.version, update_key="tg:5/1/1"
        )
    except Duplicate:
        pass
    else:
        raise AssertionError("a seen key was written again")
    after = await store.get_game(game.id)
    assert (after.version, after.record) == (2, {"a": 1})  # nothing of the repeat was written
    assert await store.seen("tg:5/1/1") and not await store.seen("tg:6/1/1")
    assert await store.forget_updates(after.updated_at.timestamp() + 60) == 1
    assert not await store.seen("tg:5/1/1")


async def test_a_typed_move_delivered_twice_draws_once(store: Store) -> None:
    service = GameService(store, games=default_games(), computer_delay=0, tick=0.02)
    await service.start()
    try:
        gid = await _game_against_a_computer(service, ALICE)
        before = await _persons_turn(service, gid)
        hand = len(state_of(before).hands[0])

        handling("tg:100001")
        first = await service.command(ALICE, "draw")
        assert not first.alert, first.reply
        after = await _persons_turn(service, gid)  # the computer moved: Alice's turn again
        row = await store.get_game(gid)
        assert len(state_of(after).hands[0]) == hand + 1

        handling("tg:100001")  # the same update again (a webhook retried, two pollers)
        again = await service.command(ALICE, "draw")
        assert again.game_id is None and not again.private  # nothing to show: nothing done
        await asyncio.sleep(0.1)
        same = await store.get_game(gid)
        assert same.version == row.version
        assert len(state_of(Record.from_dict(same.record)).hands[0]) == hand + 1

        handling("tg:100002")  # a new update is a new move
        assert not (await service.command(ALICE, "draw")).alert
        assert len(state_of(await _persons_turn(service, gid)).hands[0]) == hand + 2
    finally:
        handling(None)
        await service.stop()


async def _draws(store: Store, gid: int) -> int:
    """Alice's draws in the game's action log."""
    return sum(
        1 for a in await store.game_actions(gid) if a.get("kind") == "draw" and a.get("seat") == 0
    )


def _free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return probe.getsockname()[1]


async def test_the_same_telegram_update_posted_twice_draws_once(tmp_path, sqlite_template):
    db = tmp_path / "rummy.db"
    shutil.copyfile(sqlite_template, db)
    async with FakeTelegram() as tg:
        store = await Store.open(f"sqlite+aiosqlite:///{db}")
        service = GameService(store, games=default_games(), computer_delay=0.0, tick=0.02)
        adapter = TelegramAdapter(
            service, tg.token, base_url=tg.base_url, base_file_url=tg.base_file_url, poll_timeout=1
        )
        port = _free_port()
        await adapter.start(
            webhook_url="https://bot.example.test/telegram",
            webhook_path="telegram",
            webhook_secret="s3cret",
            listen="127.0.0.1",
            port=port,
        )
        await service.start()
        try:
            alice = tg.user(11, "Alice", started=True)
            group = tg.group(-100777, "Rummy")
            actor = Actor("telegram", str(group.id), str(alice.id), "Alice")
            gid = await _game_against_a_computer(service, actor)
            hand = len(state_of(await _persons_turn(service, gid)).hands[0])
            await tg.send_text(tg.private_chat(alice), alice, "/draw")
            update = dict(tg.pending_updates[0])
            local = f"http://127.0.0.1:{port}/telegram"
            assert await tg.push_webhook(local) == [200]
            record = await _persons_turn(service, gid)
            assert len(state_of(record).hands[0]) == hand + 1  # answered 200 once handled
            draws = await _draws(store, gid)
            assert draws == 1
            headers = {"X-Telegram-Bot-Api-Secret-Token": "s3cret"}
            async with (
                aiohttp.ClientSession() as http,
                http.post(local, json=update, headers=headers) as answer,
            ):
                assert answer.status == 200
            await asyncio.sleep(0.5)
            row = await store.get_game(gid)
            # (the version may move: the deliveries save their message ids in the record)
            assert await _draws(store, gid) == draws
            assert len(state_of(Record.from_dict(row.record)).hands[0]) == hand + 1
        finally:
            await adapter.stop()
            await service.stop()
            await store.close()
        assert not tg.internal_errors
