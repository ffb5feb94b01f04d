"""kill -9 of a web-table worker while pages drag (issue 38): every edit a page saw
acknowledged — its own page showing the new version, which the worker sends only after the
save committed — is in the store after the kill, on SQLite (WAL, synchronous=NORMAL) and on
PostgreSQL. The worker is a real process (tests/web_worker_proc.py) killed with SIGKILL at a
random moment while ten tables edit as fast as their acknowledgements come — and while forty
do, a fast run whose saves arrive together and share commits (bot/store/group_commit.py: each
acknowledged only after the commit that holds it)."""

from __future__ import annotations

import asyncio
import json
import os
import random
import signal
import sys
import time
from pathlib import Path

import aiohttp
import pytest
from web_worker_proc import SECRET

from bot.core.record import Record
from bot.store import Store
from bot.web import auth
from bot.web.auth import Session

pytest_plugins = ["store_fixtures"]

pytestmark = pytest.mark.e2e  # real worker processes killed: the tier the other kill tests are in

TABLES = 10
WORKER = Path(__file__).with_name("web_worker_proc.py")


class Page:
    """One seat's socket: the newest state it was shown."""

    def __init__(self, ws: aiohttp.ClientWebSocketResponse) -> None:
        self.ws, self.view, self.version = ws, None, -1
        self.changed = asyncio.Event()

    async def read(self) -> None:
        async for msg in self.ws:
            if msg.type != aiohttp.WSMsgType.TEXT:
                break
            data = json.loads(msg.data)
            if data.get("t") == "state" and data.get("view"):
                self.view = data["view"]
                self.version = max(self.version, self.view["version"])
                self.changed.set()

    async def reach(self, version: int) -> bool:
        while self.version < version:
            self.changed.clear()
            try:
                await asyncio.wait_for(self.changed.wait(), 5)
            except TimeoutError:
                return False
        return True


async def _drag(pages: list[Page], acked: dict[int, int], game: int, made: list[int]) -> None:
    """The seat on turn places its first card in a new group, then resets: draft edits, each
    sent once its previous one was acknowledged (the version its own page shows)."""
    placed = False
    while True:
        mover = pages[pages[0].view["turn"]]
        version = mover.view["version"]
        edit = ({"t": "edit", "v": version, "op": "act", "name": "reset"} if placed else
                {"t": "edit", "v": version, "op": "place",
                 "cards": [mover.view["hand"][0]["id"]], "to": None})
        try:
            await mover.ws.send_str(json.dumps(edit))
        except (ConnectionResetError, RuntimeError):
            return
        if not await mover.reach(version + 1):
            return  # the worker is gone
        acked[game] = max(acked.get(game, -1), mover.version)
        made.append(game)
        placed = not placed


@pytest.mark.parametrize("count", [TABLES, 4 * TABLES], ids=["ten", "forty"])
async def test_kill_9_loses_no_acknowledged_edit(store_url: str, count: int) -> None:
    proc = await asyncio.create_subprocess_exec(
        sys.executable, str(WORKER), store_url, str(count), stdout=asyncio.subprocess.PIPE)
    acked: dict[int, int] = {}
    made: list[int] = []  # each acknowledged edit's table
    try:
        line = await asyncio.wait_for(proc.stdout.readline(), 120)
        hello = json.loads(line)
        base = f"http://127.0.0.1:{hello['port']}"
        async with aiohttp.ClientSession(connector=aiohttp.TCPConnector(limit=0)) as http:
            tables, readers = [], []
            for table in hello["tables"]:
                pages = []
                for user in table["users"]:
                    token = auth.session_token(SECRET, Session("kill", user, user, table["game"],
                                                               "en", time.time() + 600))
                    ws = await http.ws_connect(f"{base}/web/socket", protocols=("rummy", token))
                    page = Page(ws)
                    readers.append(asyncio.create_task(page.read()))
                    await ws.send_str('{"t":"hello","v":0}')
                    pages.append(page)
                for page in pages:
                    assert await page.reach(0)
                tables.append((table["game"], pages))
            drags = [asyncio.create_task(_drag(pages, acked, game, made))
                     for game, pages in tables]
            # kill at a moment of the run, not of the clock: after some edits went through
            # everywhere (a busy machine makes them slow), and a random few more
            target = 2 * count + random.randrange(3 * count)
            while len(made) < target and not all(d.done() for d in drags):
                await asyncio.sleep(0.01)
            os.kill(proc.pid, signal.SIGKILL)  # mid-stream: edits in flight at every table
            await proc.wait()
            await asyncio.wait(drags, timeout=10)
            for task in [*drags, *readers]:
                task.cancel()
    finally:
        if proc.returncode is None:
            proc.kill()
            await proc.wait()
    assert len(made) > count, f"too few edits acknowledged to mean anything: {acked}"
    store = await Store.open(store_url)
    try:
        for game, version in acked.items():
            row = await store.get_game(game)
            saved = Record.from_dict(row.record).state["version"]
            # everything acknowledged, and at most the one edit in flight beyond it
            assert version <= saved <= version + 1, (game, version, saved)
    finally:
        await store.close()
    print(f"acknowledged edits before the kill: {len(made)} over {len(acked)} tables")
