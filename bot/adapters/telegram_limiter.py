"""Bot API rate limiting where one chat's flood control holds back only that chat.

PTB's `AIORateLimiter` throttles like Telegram asks (about 30 requests a second overall, 20 a
minute per group) and retries after a 429, but while one request waits out its `retry_after`
it halts *every* request of the bot: a game flooded in one group stalled the presses of every
other game (7.3 s in one report). Telegram's flood control of a chat is about that chat.

`ChatRateLimiter` keeps AIORateLimiter's throttling (the same aiolimiter buckets and defaults,
the paid-broadcast bucket) and its retries (`retry_after` + 0.1 s, `max_retries` times), but a
429 answered to a request for chat X only makes later requests for chat X wait (a per-chat
"blocked until"). A 429 to a request without a chat (answerCallbackQuery, getMe, …) is taken as
the bot's own limit and pauses all requests, as before.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
from collections.abc import Callable, Coroutine
from typing import Any

from aiolimiter import AsyncLimiter
from telegram import constants
from telegram.error import RetryAfter
from telegram.ext import BaseRateLimiter

log = logging.getLogger(__name__)

Result = bool | dict[str, Any] | list[dict[str, Any]]
ChatKey = int | str
MAX_IDLE_LIMITERS = 512  # group buckets (and expired blocks) are dropped beyond this many


def _chat_key(data: dict[str, Any]) -> ChatKey | None:
    """The chat a request is for: an int id (also when given as a string), or an @username."""
    chat_id = data.get("chat_id")
    if chat_id is None:
        return None
    with contextlib.suppress(ValueError, TypeError):
        return int(chat_id)
    return str(chat_id)


def _retry_seconds(error: RetryAfter) -> float:
    delta = getattr(error, "_retry_after", None)  # PTB 22: a timedelta (the int form warns)
    if delta is not None:
        return delta.total_seconds()
    return float(error.retry_after)  # type: ignore[arg-type]


class ChatRateLimiter(BaseRateLimiter[int]):
    """AIORateLimiter's limits and retries, with RetryAfter applied per chat.

    Args are AIORateLimiter's: ``overall_max_rate`` requests (that name a chat) per
    ``overall_time_period`` seconds, ``group_max_rate`` per ``group_time_period`` for each
    group/channel (chat id < 0 or an @username), 0 for no limit; ``max_retries`` after a 429
    (``rate_limit_args`` of a call overrides it, as in AIORateLimiter).
    """

    def __init__(
        self,
        overall_max_rate: float = constants.FloodLimit.MESSAGES_PER_SECOND,
        overall_time_period: float = 1,
        group_max_rate: float = constants.FloodLimit.MESSAGES_PER_MINUTE_PER_GROUP,
        group_time_period: float = 60,
        max_retries: int = 3,
    ) -> None:
        self._base_limiter: AsyncLimiter | None = (
            AsyncLimiter(overall_max_rate, overall_time_period)
            if overall_max_rate and overall_time_period
            else None
        )
        if group_max_rate and group_time_period:
            self._group_max_rate: float = group_max_rate
            self._group_time_period: float = group_time_period
        else:
            self._group_max_rate = self._group_time_period = 0
        self._group_limiters: dict[ChatKey, AsyncLimiter] = {}
        self._apb_limiter = AsyncLimiter(constants.FloodLimit.PAID_MESSAGES_PER_SECOND, 1)
        self._max_retries = max_retries
        # loop.time() until which requests wait: for one chat, or for all (a chat-less 429)
        self._chat_blocked: dict[ChatKey, float] = {}
        self._all_blocked = 0.0

    async def initialize(self) -> None:
        """Nothing to set up."""

    async def shutdown(self) -> None:
        """Nothing to release."""

    # -- state ----------------------------------------------------------------------------

    def blocked_for(self, chat: ChatKey | None) -> float:
        """Seconds requests for `chat` (None: a chat-less request) must still wait."""
        now = asyncio.get_running_loop().time()
        until = self._all_blocked
        if chat is not None:
            until = max(until, self._chat_blocked.get(chat, 0.0))
        return max(0.0, until - now)

    def _block(self, chat: ChatKey | None, seconds: float) -> None:
        now = asyncio.get_running_loop().time()
        until = now + seconds
        if chat is None:
            self._all_blocked = max(self._all_blocked, until)
            return
        if len(self._chat_blocked) > MAX_IDLE_LIMITERS:
            for key, blocked in list(self._chat_blocked.items()):
                if blocked <= now:
                    del self._chat_blocked[key]
        self._chat_blocked[chat] = max(self._chat_blocked.get(chat, 0.0), until)

    async def _wait_unblocked(self, chat: ChatKey | None) -> None:
        # A block may grow while we sleep (another 429 for the chat): look again after it.
        while (delay := self.blocked_for(chat)) > 0:
            await asyncio.sleep(delay)
        if chat is not None and chat in self._chat_blocked:
            del self._chat_blocked[chat]  # expired

    def _group_limiter(self, group: ChatKey) -> AsyncLimiter:
        """AIORateLimiter's bucket per group; idle ones are dropped when there are many."""
        if len(self._group_limiters) > MAX_IDLE_LIMITERS:
            for key, limiter in list(self._group_limiters.items()):
                if key != group and limiter.has_capacity(limiter.max_rate):
                    del self._group_limiters[key]
        limiter = self._group_limiters.get(group)
        if limiter is None:
            limiter = self._group_limiters[group] = AsyncLimiter(
                self._group_max_rate, self._group_time_period
            )
        return limiter

    # -- requests -------------------------------------------------------------------------

    async def _run(
        self,
        chat: ChatKey | None,
        paid: bool,
        callback: Callable[..., Coroutine[Any, Any, Result]],
        args: Any,
        kwargs: dict[str, Any],
    ) -> Result:
        await self._wait_unblocked(chat)
        if paid:
            throttles: list[Any] = [self._apb_limiter]
        else:
            group = chat is not None and (isinstance(chat, str) or chat < 0)
            throttles = [
                self._group_limiter(chat) if group and self._group_max_rate else None,
                self._base_limiter if chat is not None else None,
            ]
        async with contextlib.AsyncExitStack() as stack:
            for throttle in throttles:
                if throttle is not None:
                    await stack.enter_async_context(throttle)
            await self._wait_unblocked(chat)  # a 429 may have come while we queued
            return await callback(*args, **kwargs)

    async def process_request(
        self,
        callback: Callable[..., Coroutine[Any, Any, Result]],
        args: Any,
        kwargs: dict[str, Any],
        endpoint: str,
        data: dict[str, Any],
        rate_limit_args: int | None,
    ) -> Result:
        max_retries = rate_limit_args or self._max_retries
        chat = _chat_key(data)
        paid = bool(data.get("allow_paid_broadcast", False))
        for attempt in range(max_retries + 1):
            try:
                return await self._run(chat, paid, callback, args, kwargs)
            except RetryAfter as error:
                if attempt == max_retries:
                    log.exception(
                        "Rate limit hit after maximum of %d retries (%s, chat %s)",
                        max_retries,
                        endpoint,
                        chat,
                        exc_info=error,
                    )
                    raise
                wait = _retry_seconds(error) + 0.1
                log.info(
                    "Rate limit hit (%s, %s); retrying after %.1f s",
                    endpoint,
                    "all chats" if chat is None else f"chat {chat}",
                    wait,
                )
                self._block(chat, wait)
        raise AssertionError("unreachable")
