"""Long polling loses nothing to kill -9 (issue 31): a real bot process polls the fake Bot API;
a flood of /newgame in 200 groups is fetched and acknowledged (the next getUpdates' offset is
past it); the process is killed with SIGKILL while most are still unhandled. The next process
handles every one of them from the inbox: each group gets its one lobby."""

from __future__ import annotations

import asyncio
import signal
import sqlite3
import sys
from pathlib import Path

import pytest
from fakes.telegram_balancer import stop_workers
from fakes.telegram_server import FakeTelegram

from bot import event_loop

pytestmark = pytest.mark.e2e
HERE = Path(__file__)
GROUPS = 200


async def worker(url: str, base: str, token: str) -> None:
    from bot import app
    from bot.adapters.telegram import TelegramAdapter
    from bot.core.service import GameService
    from bot.games import default_games
    from bot.store import Store

    store = await Store.open(url)
    service = GameService(store, games=default_games())
    adapter = TelegramAdapter(service, token, base_url=f"{base}/bot",
                              base_file_url=f"{base}/file/bot", poll_timeout=1)
    await adapter.start()
    await app.run_until_stopped(service, [adapter], store,
                                started=lambda: print("ready", flush=True))


async def _start(tg: FakeTelegram, url: str) -> asyncio.subprocess.Process:
    base = tg.base_url.rsplit("/bot", 1)[0]
    proc = await asyncio.create_subprocess_exec(
        sys.executable, str(HERE), url, base, tg.token, stdout=asyncio.subprocess.PIPE)
    line = await asyncio.wait_for(proc.stdout.readline(), 60)
    assert line.startswith(b"ready"), line
    return proc


def _games(path: Path) -> dict[str, int]:
    with sqlite3.connect(path) as db:
        rows = db.execute("SELECT chat_id, count(*) FROM games GROUP BY chat_id").fetchall()
    return dict(rows)


async def test_updates_acknowledged_before_a_kill_are_handled_after_the_restart(tmp_path):
    path = tmp_path / "rummy.db"
    url = f"sqlite+aiosqlite:///{path}"
    async with FakeTelegram() as tg:
        proc = await _start(tg, url)
        try:
            groups = [tg.group(-100_000 - i, f"Table {i}") for i in range(GROUPS)]
            people = [tg.user(500 + i, f"P{i}", started=True) for i in range(GROUPS)]
            mark = len(tg.requests)
            for group, person in zip(groups, people, strict=True):
                await tg.send_text(group, person, "/newgame")
            last = max(u["update_id"] for u in tg.pending_updates)

            def acknowledged() -> bool:  # a getUpdates whose offset confirms the whole flood
                return any(r.method == "getUpdates" and int(r.params.get("offset") or 0) > last
                           for r in tg.requests[mark:])

            await tg.wait_until(acknowledged, timeout=30)
            proc.send_signal(signal.SIGKILL)
            await proc.wait()
            before = _games(path)
            assert len(before) < GROUPS, "every update was handled before the kill: no test"
            assert not tg.pending_updates, "Telegram still holds some: they were not acknowledged"
            proc = await _start(tg, url)
            expected = {str(g.id) for g in groups}

            async def all_there() -> None:
                while set(_games(path)) != expected:
                    await asyncio.sleep(0.2)

            await asyncio.wait_for(all_there(), 60)
            assert set(_games(path).values()) == {1}, "a group got two games"
        finally:
            await stop_workers([proc])


if __name__ == "__main__":
    event_loop.run(worker(sys.argv[1], sys.argv[2], sys.argv[3]))
