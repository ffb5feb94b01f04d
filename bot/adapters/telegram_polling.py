"""Long polling that loses no update, even to `kill -9`.

getUpdates acknowledges to Telegram every update before its `offset`: PTB's updater asks for
the next batch as soon as the last one is queued in memory, so a worker killed in a flood lost
every update fetched and not yet handled. Here each batch is written to the store's inbox (one
transaction, with the keys of the updates handled since) *before* the next getUpdates
acknowledges it; an update's row goes with the first write after it was handled. A start handles
what the inbox still holds first. A replayed update that had changed a game changes nothing
(its idempotency key was saved with the change); a reply without a change (a /help) may be sent
twice — at least once, never lost.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import logging
from collections.abc import Callable, Sequence
from typing import Any

from telegram import Update
from telegram.error import InvalidToken, RetryAfter

from bot.adapters.telegram_limiter import retry_seconds
from bot.clock import REAL, Clock

log = logging.getLogger(__name__)

KINDS = ["message", "callback_query"]
BACKOFF = (0.5, 1, 2, 4, 8, 15)  # seconds after failed polls in a row (Telegram or the store)


def inbox_key(update_id: int) -> str:
    return f"tg:{update_id}"


class Poller:
    """Fetch, keep, dispatch. `dispatch(update)` starts handling one update and returns an
    awaitable that ends when it was handled (or turned away)."""

    def __init__(self, bot: Any, store: Any, dispatch: Callable[[Update], Any], *,
                 timeout: float = 10, kinds: Sequence[str] = KINDS,
                 clock: Clock = REAL) -> None:
        self.bot, self.store, self.dispatch = bot, store, dispatch
        self.clock = clock  # backoff and a 429's retry_after are waited on it
        self.timeout, self.kinds = timeout, list(kinds)
        self.handled: list[str] = []  # keys handled since the last write to the inbox
        self._task: asyncio.Task[None] | None = None

    def start(self) -> None:
        self._task = asyncio.create_task(self._run(), name="telegram-polling")

    async def stop(self) -> None:
        """Stop fetching (what is fetched and unhandled stays in the inbox for the next start),
        and forget what was handled."""
        if self._task is not None:
            self._task.cancel()
            with contextlib.suppress(asyncio.CancelledError, Exception):
                await self._task
            self._task = None
        with contextlib.suppress(Exception):
            await self._write([])

    @property
    def running(self) -> bool:
        return self._task is not None and not self._task.done()

    async def _write(self, rows: list[tuple[str, str]]) -> None:
        done, self.handled = self.handled, []
        try:
            await self.store.inbox_put(rows, done)
        except BaseException:
            self.handled = done + self.handled  # forgotten at the next write
            raise

    def _handle(self, key: str, update: Update) -> None:
        handling = asyncio.ensure_future(self.dispatch(update))
        handling.add_done_callback(lambda _f: self.handled.append(key))

    async def _run(self) -> None:
        for key, body in await self.store.inbox_pending():  # a stop or a kill left these
            try:
                update = Update.de_json(json.loads(body), self.bot)
            except Exception:  # a row no update can be made of: forget it
                log.exception("inbox row %s is no update", key)
                self.handled.append(key)
                continue
            log.info("handling update %s fetched before the restart", key)
            self._handle(key, update)
        offset: int | None = None
        failures = 0
        while True:
            try:
                updates = await self.bot.get_updates(
                    offset=offset, timeout=self.timeout, allowed_updates=self.kinds)
                rows = [(inbox_key(u.update_id), u.to_json()) for u in updates]
                if rows or self.handled:
                    await self._write(rows)  # kept before the next poll acknowledges them
                failures = 0
            except asyncio.CancelledError:
                raise
            except InvalidToken:
                log.error("the Telegram token was refused: polling stops")
                raise
            except Exception as error:  # Telegram away, a 409, the store away: try again
                delay = BACKOFF[min(failures, len(BACKOFF) - 1)]
                if isinstance(error, RetryAfter):
                    delay = max(delay, retry_seconds(error))
                failures += 1
                log.warning("polling failed (%s); again in %s s", error, delay)
                await self.clock.sleep(delay)
                continue
            if updates:
                offset = updates[-1].update_id + 1
                for update in updates:
                    self._handle(inbox_key(update.update_id), update)
