"""What another worker delivers for a dead one (bot/core/redelivery.py), on the real
PostgreSQL: the game's current screens — the group's table and each person's private screen, of
the row version saved, to edit in place (no notes, nothing posted anew) — or the lobby; nothing
for a game that ended (its last screen was a one-off), and its row goes all the same; nothing
when a newer save came after the claim (its worker owes the newer screens). The delivery's done
mark deletes the row."""

from __future__ import annotations

import asyncio
import time
from collections.abc import AsyncIterator

import pytest
from sqlalchemy import text
from sqlalchemy.engine import make_url
from store_fixtures import _pg_truncate

from bot.core.service import Actor, GameService, pack
from bot.core.views import Outcome
from bot.games import default_games
from bot.store import Store

ALICE = Actor("test", "-100900", "41", "Alice")
BOB = Actor("test", "-100900", "42", "Bob")


@pytest.fixture
async def two_workers(postgres_url: str) -> AsyncIterator[tuple[Store, Store]]:
    await _pg_truncate(make_url(postgres_url))
    dead, alive = await Store.open(postgres_url), await Store.open(postgres_url)
    try:
        yield dead, alive
    finally:
        await alive.close()
        if dead.outbox._keeper is not None:  # killed: its outbox never flushes nor releases
            dead.outbox._keeper.cancel()
        await dead.engine.dispose()


async def _lobby(service: GameService, alice: Actor, bob: Actor) -> int:
    gid = (await service.new_game(alice, "machiavelli")).game_id
    row = await service.store.get_game(gid)
    await service.press(bob, pack(gid, row.record.get("lobby_version", 0), "join"))
    return gid


async def _survivor(dead: Store, alive: Store) -> tuple[GameService, list[Outcome]]:
    """The dead worker's leases run out; a live worker's service records what it delivers."""
    async with dead.engine.begin() as conn:
        await conn.execute(text("UPDATE deliveries SET lease_until = 0"))
    service = GameService(alive, games=default_games())
    shown: list[Outcome] = []

    async def deliver(outcome: Outcome) -> None:
        shown.append(outcome)

    service.register("test", deliver)
    return service, shown


async def _redelivered(dead: Store, alive: Store) -> tuple[GameService, list[Outcome]]:
    """The dead worker's leases run out; the live one's scheduler claims and delivers."""
    service, shown = await _survivor(dead, alive)
    redelivery = service.scheduler.redelivery
    assert await redelivery.claim(time.time()) >= 1
    await asyncio.gather(*redelivery._tasks)
    return service, shown


async def test_a_running_game_gets_its_table_and_every_private_screen(two_workers):
    dead, alive = two_workers
    worker = GameService(dead, games=default_games())
    gid = await _lobby(worker, ALICE, BOB)
    row = await dead.get_game(gid)
    started = await worker.press(ALICE, pack(gid, row.record["lobby_version"], "start"))
    assert started.private_new and started.group_new  # the deal posts anew; a redelivery edits
    saved = await dead.get_game(gid)
    service, shown = await _redelivered(dead, alive)
    [out] = shown
    assert (out.game_id, out.revision, out.chat_id) == (gid, saved.version, ALICE.chat_id)
    assert out.group is not None and set(out.private) == {ALICE.user, BOB.user}
    assert out.group.version == started.group.version  # the saved state's screens
    assert not (out.group_new or out.private_new or out.notes or out.private_notes)
    assert service.scheduler.redelivery.redelivered == 1
    service.delivered(gid, out.revision)  # what the platform's delivery says when done
    await alive.outbox.flush()
    assert await alive.outbox.rows() == []


async def test_a_lobby_gets_its_lobby_and_an_ended_game_nothing(two_workers):
    dead, alive = two_workers
    worker = GameService(dead, games=default_games())
    lobby = await _lobby(worker, ALICE, BOB)
    ended = await _lobby(worker, Actor("test", "-100901", "43", "Carol"),
                         Actor("test", "-100901", "44", "Dan"))
    await worker.command(Actor("test", "-100901", "43", "Carol"), "end")
    assert (await dead.get_game(ended)).status == "ended"
    _service, shown = await _redelivered(dead, alive)
    [out] = shown
    assert out.game_id == lobby and out.group is not None and not out.private
    assert "Join" in str(out.group.buttons)
    await alive.outbox.flush()  # the ended game's row went without a delivery
    assert [r.game_id for r in await alive.outbox.rows()] == [lobby]


async def test_a_newer_save_after_the_claim_is_left_to_its_own_worker(two_workers):
    dead, alive = two_workers
    gid = await _lobby(GameService(dead, games=default_games()), ALICE, BOB)
    service, shown = await _survivor(dead, alive)
    [(game, version)] = await alive.outbox.claim()
    # a live worker saves the game meanwhile: the row is that save's, of a newer version
    row = await alive.get_game(gid)
    await alive.save_game(gid, {**row.record, "touched": True}, expected_version=row.version)
    await service.scheduler.redelivery._redeliver(alive.outbox, game, version)
    assert shown == []  # the newer save's worker shows the newer screens
    await alive.outbox.flush()
    assert [(r.game_id, r.version) for r in await alive.outbox.rows()] == [(gid, version + 1)]
