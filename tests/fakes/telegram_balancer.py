"""A load balancer in front of several webhook workers, as a deployment has (deploy/Caddyfile):
every update the fake Bot API holds is posted at once to a random live worker, with the secret
token header, and to another if it is not answered 200 — Telegram keeps several connections open
and resends what was not taken. An update answered 200 is dropped from the fake, as Telegram
drops it. Used by the workers e2e test and bench/bot.py --workers."""

from __future__ import annotations

import asyncio
import contextlib
import random
import signal
from typing import Any

import aiohttp

from .telegram_server import SECRET_HEADER


class Balancer:
    def __init__(self, tg: Any, ports: list[int], secret: str, *, path: str = "telegram",
                 tries: int = 50, pause: float = 0.2, poll: float = 0.5) -> None:
        self.tg, self.secret, self.path = tg, secret, path
        self.alive = list(ports)  # a test takes a killed worker out
        self.tries, self.pause, self.poll = tries, pause, poll
        self.posting: set[int] = set()
        self.handled_by: dict[int, list[int]] = {}  # update id -> the ports it was posted to
        self.retried = 0
        self.lost: list[int] = []  # updates no worker took
        self._task: asyncio.Task | None = None

    def start(self) -> None:
        self._task = asyncio.create_task(self._run())

    async def stop(self) -> None:
        if self._task:
            self._task.cancel()
            await asyncio.gather(self._task, return_exceptions=True)

    async def _run(self) -> None:
        connector = aiohttp.TCPConnector(limit=200)
        timeout = aiohttp.ClientTimeout(total=15)
        tasks: set[asyncio.Task] = set()
        async with aiohttp.ClientSession(connector=connector, timeout=timeout) as http:
            try:
                while True:
                    # Woken by the fake's next update, as its long pollers are (the event is
                    # taken before the scan: an update queued meanwhile sets it); `poll` is
                    # only the longest nap. Polling every few ms cost the bench a share of
                    # the cores the workers were measured on.
                    woken = self.tg._updates_event
                    for update in self.tg.pending_updates:
                        if update["update_id"] not in self.posting:
                            self.posting.add(update["update_id"])
                            task = asyncio.create_task(self._post(http, update))
                            tasks.add(task)
                            task.add_done_callback(tasks.discard)
                    with contextlib.suppress(TimeoutError):
                        await asyncio.wait_for(woken.wait(), self.poll)
            finally:  # posts under way stop with it (their session closes)
                for task in tasks:
                    task.cancel()
                await asyncio.gather(*tasks, return_exceptions=True)

    async def _post(self, http: aiohttp.ClientSession, update: dict) -> None:
        uid = update["update_id"]
        for _attempt in range(self.tries):
            port = random.choice(self.alive)
            try:
                async with http.post(f"http://127.0.0.1:{port}/{self.path}", json=update,
                                     headers={SECRET_HEADER: self.secret}) as answer:
                    status = answer.status
            except (aiohttp.ClientError, TimeoutError):
                status = None
            self.handled_by.setdefault(uid, []).append(port)
            if status == 200:
                self.tg.drop_update(uid)
                return
            self.retried += 1
            await asyncio.sleep(self.pause)
        self.lost.append(uid)


async def stop_workers(procs: list[asyncio.subprocess.Process], wait: float = 30) -> None:
    """SIGTERM each live worker (a graceful stop), then wait; kill what outlives `wait`."""
    for proc in procs:
        if proc.returncode is None:
            proc.send_signal(signal.SIGTERM)
    for proc in procs:
        try:
            await asyncio.wait_for(proc.wait(), wait)
        except TimeoutError:
            proc.kill()  # our own child, by its handle
