"""A worker killed after saving a change and before its screens went out (issue 19): three
webhook workers on the local PostgreSQL behind the balancer (tests/test_workers_e2e.py), the
fake Bot API holding every request to the game's chats while one worker handles Bob's /draw;
that worker saves, sends (held), and is killed with kill -9. The outbox row its save wrote
runs out of lease and another worker brings the group's table and each person's private
screen to the saved state: edited in place (the same live message in every chat), never
showing an older state than before."""

from __future__ import annotations

import asyncio
import os
import random
import signal
import time

import aiohttp
import pytest
from fakes.telegram_server import FakeTelegram
from sqlalchemy.engine import make_url
from store_fixtures import _pg_truncate
from test_workers_e2e import _game_row, _press, _until, _versions, open_table, running_workers

from bot.core.record import Record
from bot.games.rummy.records import state_of
from bot.store import Store
from bot.store.outbox import LEASE

pytestmark = pytest.mark.e2e

REDELIVERED_WITHIN = 15.0  # seconds after the kill (the lease is LEASE from the save)


def _live(tg: FakeTelegram, chat) -> list:
    """The chat's live screens: the bot's messages with a picture and buttons."""
    return [m for m in tg.messages(chat) if m.from_bot and m.photo and m.buttons]


def _shows(message) -> set[int]:
    """The game state versions a message's buttons were made for."""
    return {
        int(data.split(":")[1])
        for row in message.buttons
        for _label, data in row
        if data and data.count(":") >= 2
    }


async def _dealt(store: Store, chat_id: int) -> bool:
    row = await _game_row(store, chat_id)
    return row is not None and row.status == "playing"


async def _redeliveries(port: int) -> float:
    """The worker's rummy_redeliveries counter, from its /metrics page."""
    async with aiohttp.ClientSession() as http, http.get(
        f"http://127.0.0.1:{port}/metrics"
    ) as page:
        text = await page.text()
    return sum(
        float(line.split()[-1])
        for line in text.splitlines()
        if line.startswith("rummy_redeliveries_total ")
    )


async def test_a_worker_killed_between_its_save_and_its_sends_is_covered_by_another(
    postgres_url,
):
    await _pg_truncate(make_url(postgres_url))
    store = await Store.open(postgres_url)
    try:
        async with FakeTelegram() as tg, running_workers(tg, postgres_url) as (
            procs, ports, balancer,
        ):
            group = tg.group(-100700, "Table")
            alice = tg.user(31, "Alice", started=True)
            bob = tg.user(32, "Bob", started=True)
            lobby = await open_table(tg, group, alice, bob, computer=False)
            started = time.monotonic()
            await _press(tg, group, alice, ":start", version=lobby)
            chats = [group, tg.private_chat(alice), tg.private_chat(bob)]
            await _until(lambda: _dealt(store, group.id), 20, "the game did not start")
            row = await _game_row(store, group.id)
            dealt = state_of(Record.from_dict(row.record)).version

            def showing(version: int) -> bool:
                """Each chat has one live screen (the lobby gone), at the game's `version`."""
                return all(
                    len(live := _live(tg, c)) == 1 and _shows(live[0]) == {version}
                    for c in chats
                )

            await tg.wait_until(lambda: showing(dealt), 20)  # the group's table may lag
            await tg.settle(quiet=0.5, timeout=10)
            before = {chat.id: [m.message_id for m in _live(tg, chat)] for chat in chats}

            # Bob's /draw goes to the victim; its sends to the three chats hang in the fake
            victim = random.randrange(len(procs))
            balancer.alive = [ports[victim]]
            tg.hold(*chats)
            held_from = time.monotonic()
            await tg.send_text(tg.private_chat(bob), bob, "/draw")

            async def saved() -> bool:
                now = await store.get_game(row.id)
                return now.version > row.version and tg.held >= 1

            await _until(saved, 20, "the victim did not save Bob's draw and send")
            await asyncio.sleep(0.3)  # its other lanes' requests on their way too
            os.kill(procs[victim].pid, signal.SIGKILL)
            killed_at = time.monotonic()
            await procs[victim].wait()
            balancer.alive = [p for i, p in enumerate(ports) if i != victim]
            await asyncio.sleep(0.3)  # the fake sees the victim's connections close
            tg.release()
            saved_row = await store.get_game(row.id)
            state = state_of(Record.from_dict(saved_row.record)).version
            assert state != dealt and not showing(state), "nothing to redeliver"

            try:
                await tg.wait_until(lambda: showing(state), REDELIVERED_WITHIN)
            except TimeoutError:
                screens = {c.id: [_shows(m) for m in _live(tg, c)] for c in chats}
                raise AssertionError(f"not redelivered to state {state}: {screens}") from None
            took = time.monotonic() - killed_at
            # the victim's held requests never went out (the fake logs a request's arrival)
            early = [
                (r.method, r.chat_id) for r in tg.calls()
                if r.chat_id in {c.id for c in chats} and held_from <= r.time < killed_at + 1
            ]
            assert not early, f"the victim's sends reached the fake: {early}"
            await tg.settle(quiet=0.5, timeout=10)

            async def row_gone() -> bool:
                return not any(r.game_id == row.id for r in await store.outbox.rows())

            await _until(row_gone, 5, "the redelivered row was not deleted")
            after = {chat.id: [m.message_id for m in _live(tg, chat)] for chat in chats}
            assert after == before, f"posted anew, not edited in place: {before} -> {after}"
            for (chat, mid), shown in _versions(tg, started).items():
                assert shown == sorted(shown), f"message {mid} in {chat} went back: {shown}"
            assert not tg.internal_errors
            assert not balancer.lost
            survivors = [p for i, p in enumerate(ports) if i != victim]
            assert sum([await _redeliveries(port) for port in survivors]) == 1  # claimed once
            print(f"redelivered {took:.1f} s after the kill (lease {LEASE:.0f} s from the save)")
    finally:
        await store.close()
