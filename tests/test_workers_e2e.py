"""Three workers, real separate processes, on the local PostgreSQL behind a load balancer: the
test's balancer takes the fake Bot API's updates and posts each to a worker picked at random
(as Telegram's webhook behind a proxy), trying another when one does not answer 200. Two
groups play a scripted deal to its end; one worker is killed with kill -9 mid-game. Whole
games finish; each turn timer fires once (one "time ran out" per time-out, counted in the
fake's log) and by another worker within 10 s when its worker died; the computer plays its
turn once; no message ever shows an older state than it showed before, and each chat has one
live screen.

Run as `python tests/test_workers_e2e.py URL BASE TOKEN PORT` it is one worker (`rummy run`
in webhook mode, with the scripted deal)."""

from __future__ import annotations

import asyncio
import contextlib
import os
import random
import signal
import sys
import time
from collections.abc import AsyncIterator
from pathlib import Path

import pytest
from fakes.telegram_balancer import Balancer, stop_workers
from fakes.telegram_server import FakeTelegram
from sqlalchemy.engine import make_url
from store_fixtures import _pg_truncate

from bot import event_loop
from bot.core.record import Record
from bot.games.rummy.records import state_of
from bot.store import Store

pytestmark = pytest.mark.e2e

HERE = Path(__file__).resolve()
SECRET = "e2e-webhook-secret"
TURN = 14  # seconds of a person's turn (Bob lets his run out; Alice plays within hers)
# Bob (seat 1) starts and never presses: his timer plays for him; then the computer; then
# Alice lays her three sevens and goes out.
HANDS = ["7H 7S 7D", "2H 9S KD 4C 6H JS QD 3C 5S", "2C 9D KH 4S 6D JC QH 3S 5D"]
WORKERS = 3


# -- a worker (child process) ---------------------------------------------------------------


async def worker(url: str, base: str, token: str, port: int) -> None:
    import bot.games.rummy.host as host
    from bot import app
    from bot.adapters.telegram import TelegramAdapter
    from bot.core.service import GameService
    from bot.games import default_games
    from engine.rummy.scenario import deal_scenario

    host.new_game = lambda rules, n, seed: deal_scenario(rules, HANDS[:n], turn=1)
    store = await Store.open(url)
    service = GameService(store, games=default_games(), computer_delay=0.3, tick=0.2)
    adapter = TelegramAdapter(
        service, token, base_url=f"{base}/bot", base_file_url=f"{base}/file/bot", poll_timeout=1
    )
    await adapter.start(
        webhook_url="https://bot.example.test/telegram",
        webhook_path="telegram",
        webhook_secret=SECRET,
        listen="127.0.0.1",
        port=port,
        owner=await app.webhook_owner(store),
    )
    await app.run_until_stopped(service, [adapter], store,
                                started=lambda: print("ready", flush=True))


# -- the balancer ---------------------------------------------------------------------------


# -- the test -------------------------------------------------------------------------------


def _free_port() -> int:
    import socket

    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return probe.getsockname()[1]


@contextlib.asynccontextmanager
async def running_workers(
    tg: FakeTelegram, url: str, n: int = WORKERS
) -> AsyncIterator[tuple[list[asyncio.subprocess.Process], list[int], Balancer]]:
    """`n` workers (this file run as a script) behind a started balancer; stopped with SIGTERM
    (kill -9 if one hangs) when the block ends."""
    ports = [_free_port() for _ in range(n)]
    base = tg.base_url.rsplit("/bot", 1)[0]
    procs = [
        await asyncio.create_subprocess_exec(
            sys.executable, str(HERE), url, base, tg.token, str(port),
            stdout=asyncio.subprocess.PIPE,
        )
        for port in ports
    ]
    balancer = Balancer(tg, ports, SECRET)
    try:
        for proc in procs:
            line = await asyncio.wait_for(proc.stdout.readline(), 60)
            assert line.startswith(b"ready"), line
        balancer.start()
        yield procs, ports, balancer
    finally:
        await balancer.stop()
        await stop_workers(procs)


async def open_table(tg: FakeTelegram, group, alice, bob, *, computer: bool) -> int:
    """Alice opens a Machiavelli lobby in `group`, Bob joins (and an easy computer when
    `computer`): the lobby's version, for its Start button."""
    await tg.send_text(group, alice, "/newgame machiavelli")
    await _press(tg, group, bob, ":join", version=0)
    if not computer:
        return 1
    await _press(tg, group, alice, ":menu:computer", version=1)
    await _press(tg, group, alice, ":cpu:easy", version=2)
    return 3


async def _press(
    tg: FakeTelegram, chat, user, ending: str, timeout: float = 20, version: int | None = None
) -> None:
    """Press the newest button in `chat` whose data ends with `ending` (and carries `version`:
    a person presses what the screen shows once it has caught up)."""

    def find():
        for message in reversed(tg.messages(chat)):
            if message.from_bot:
                for row in message.buttons:
                    for _label, data in row:
                        if (
                            data
                            and data.endswith(ending)
                            and (version is None or data.split(":")[1] == str(version))
                        ):
                            return message, data
        return None

    try:
        await tg.wait_until(lambda: find() is not None, timeout)
    except TimeoutError:
        calls = [(r.method, r.status, r.description) for r in tg.calls()][-8:]
        raise AssertionError(f"no button {ending!r}:\n{tg.transcript(chat)}\n{calls}") from None
    message, data = find()
    query = await tg.press(chat, message.message_id, data, user)
    await tg.wait_until(lambda: query in tg.answers, timeout)


async def _game_row(store: Store, chat_id: int):
    return await store.active_game("telegram", str(chat_id))


async def _until(condition, timeout: float, what: str) -> None:
    end = time.monotonic() + timeout
    while not await condition():
        assert time.monotonic() < end, what
        await asyncio.sleep(0.05)


def _versions(tg: FakeTelegram, since: float) -> dict[tuple, list[int]]:
    """Per (chat, message): the game versions its buttons showed, send and edit by edit."""
    shown: dict[tuple, list[int]] = {}
    for r in tg.requests:
        if r.time < since or not r.ok or not r.method.startswith(("send", "edit")):
            continue
        markup = r.params.get("reply_markup")
        if not isinstance(markup, dict):
            continue
        datas = [
            b.get("callback_data", "") for row in markup.get("inline_keyboard", []) for b in row
        ]
        versions = {int(d.split(":")[1]) for d in datas if d.count(":") >= 2}
        if len(versions) != 1:
            continue
        result = r.result if isinstance(r.result, dict) else {}
        mid = result.get("message_id") or r.params.get("message_id")
        shown.setdefault((str(r.chat_id), int(mid)), []).append(versions.pop())
    return shown


async def test_three_workers_behind_a_balancer_play_whole_games(postgres_url, tmp_path):
    await _pg_truncate(make_url(postgres_url))
    store = await Store.open(postgres_url)
    async with FakeTelegram() as tg:
        async with running_workers(tg, postgres_url) as (procs, ports, balancer):
            assert len(tg.calls("setWebhook")) == 1  # one worker registered the webhook
            groups = [tg.group(-100500 - n, f"Table {n}") for n in range(2)]
            people = [
                (
                    tg.user(21 + 2 * n, "Alice", started=True),
                    tg.user(22 + 2 * n, "Bob", started=True),
                )
                for n in range(2)
            ]
            for group, (alice, bob) in zip(groups, people, strict=True):
                lobby = await open_table(tg, group, alice, bob, computer=True)
                row = await _game_row(store, group.id)
                await store.save_game(
                    row.id, dict(row.record, turn_seconds=TURN), expected_version=row.version
                )
            started = time.monotonic()
            for group, (alice, _bob) in zip(groups, people, strict=True):
                await _press(tg, group, alice, ":start", version=lobby)
            games = [(await _game_row(store, g.id)).id for g in groups]

            async def running() -> bool:
                rows = [await store.get_game(g) for g in games]
                return all(r.status == "playing" and r.record["deadline"] for r in rows)

            await _until(running, 20, "the games did not start")
            deadlines = [(await store.get_game(g)).record["deadline"] for g in games]
            # The start's screens are out (a worker killed between sending a message and
            # saving its id would leave that message behind: see the README)
            for person in (p for pair in people for p in pair):
                chat = tg.private_chat(person)
                await tg.wait_until(
                    lambda c=chat: any(m.from_bot and m.photo for m in tg.messages(c)), 20
                )
            await tg.settle(quiet=0.3, timeout=10)

            async def tables_saved() -> bool:
                # ...the group's table too: posted anew, the lobby deleted, its id saved (it
                # waits for the group's budget; a kill before its step is done would orphan
                # one of the two: see the README)
                for game, group in zip(games, groups, strict=True):
                    refs = await store.refs(game)
                    live = {str(m.message_id) for m in tg.messages(group)
                            if m.from_bot and m.buttons and m.photo}
                    if live != {str(refs.get("table"))}:
                        return False
                return True

            await _until(tables_saved, 20, "the tables' message ids were not saved")
            victim = random.randrange(WORKERS)  # mid-game: Bob's timers are due in seconds
            os.kill(procs[victim].pid, signal.SIGKILL)
            killed_at = time.time()
            balancer.alive.remove(ports[victim])
            await procs[victim].wait()

            async def alice_goes_out(game: int, alice) -> None:
                async def alices_turn() -> bool:
                    row = await store.get_game(game)
                    return state_of(Record.from_dict(row.record)).turn == 0

                await _until(alices_turn, 30, "the computer did not play its turn")
                chat = tg.private_chat(alice)
                await tg.send_text(chat, alice, "/lay 7H 7S 7D")
                await tg.wait_until(lambda: not tg.pending_updates, 10)
                await tg.send_text(chat, alice, "/done")

            # Alice plays as soon as her turn comes (the group's notes may lag in its budget)
            playing = [
                asyncio.create_task(alice_goes_out(g, a))
                for g, (a, _b) in zip(games, people, strict=True)
            ]

            def ran_out(group) -> list:
                return [
                    m
                    for m in tg.messages(group)
                    if m.from_bot and "time ran out" in (m.text or m.caption or "")
                ]

            fired: dict[int, float] = {}

            async def bob_timed_out() -> bool:
                for game in games:
                    record = Record.from_dict((await store.get_game(game)).record)
                    if record.seats[1].timeouts and game not in fired:
                        fired[game] = time.time()
                return len(fired) == len(games)

            await _until(bob_timed_out, TURN + 20, "Bob's timer never fired")
            for game, deadline in zip(games, deadlines, strict=True):
                # by a live worker, within 10 s of its due time (or of the kill)
                assert fired[game] - max(deadline, killed_at) < 10
            for group in groups:
                await tg.wait_until(lambda g=group: bool(ran_out(g)), timeout=20)
            await asyncio.gather(*playing)

            async def over() -> bool:
                rows = [await store.get_game(g) for g in games]
                return all(r.status == "finished" for r in rows)

            await _until(over, 30, "the games did not finish")
            for group in groups:
                await tg.wait_until(
                    lambda g=group: any("Game over" in (m.caption or "") for m in tg.messages(g)),
                    timeout=20,
                )
            await asyncio.sleep(1.0)  # the last edits
            elapsed = time.monotonic() - started
        assert not balancer.lost, f"updates no worker took: {balancer.lost}"
        try:
            for game, group in zip(games, groups, strict=True):
                record = Record.from_dict((await store.get_game(game)).record)
                timeouts = sum(s.timeouts for s in record.seats)
                notes = [
                    r
                    for r in tg.calls("sendMessage", chat_id=group.id, ok=True)
                    if "time ran out" in str(r.params.get("text", ""))
                ]
                texts = [
                    str(r.params.get("text", "")) for r in tg.calls("sendMessage", chat_id=group.id)
                ]
                # Bob's, and Alice's too on a slow machine: each told once
                assert timeouts == len(notes) >= 1, (timeouts, texts, tg.transcript(group))
                computer = [a for a in await store.game_actions(game) if a.get("seat") == 2]
                ends = [a for a in computer if a.get("kind") in ("draw", "pass", "commit")]
                assert len(ends) == 1, f"the computer's one turn was played {len(ends)} times"
                live = [m for m in tg.messages(group) if m.from_bot and m.buttons]
                assert len(live) <= 1, tg.transcript(group)
            for alice, bob in people:
                for person in (alice, bob):
                    chat = tg.private_chat(person)
                    live = [m for m in tg.messages(chat) if m.from_bot and m.buttons and m.photo]
                    assert len(live) <= 1, tg.transcript(chat)
            shown_by = _versions(tg, started)
            assert sum(len(v) for v in shown_by.values()) > len(shown_by)  # edits were checked
            for (chat, mid), shown in shown_by.items():
                assert shown == sorted(shown), f"message {mid} in {chat} went back: {shown}"
            assert not tg.internal_errors
            print(
                f"two games over three workers (one killed) in {elapsed:.1f} s; "
                f"{len(shown_by)} messages, {sum(map(len, shown_by.values()))} screens shown"
            )
        finally:
            await store.close()


if __name__ == "__main__":
    event_loop.run(worker(sys.argv[1], sys.argv[2], sys.argv[3], int(sys.argv[4])))  # as rummy run
