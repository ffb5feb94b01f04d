"""Bot API rate limiting that keeps inside Telegram's flood control, one chat at a time.

Telegram's limits (Bots FAQ): about 30 messages a second overall, about one a second in one
chat ("short bursts" allowed), at most 20 a minute in one group; edits and deletes count too.
PTB's `AIORateLimiter` has the overall and group buckets but as leaky buckets (a group gets 20 at
once *and then* one every 3 s: 40 in the first minute, past Telegram's 20), nothing per private
chat, and while one request waits out a 429's `retry_after` it halts *every* request of the bot.

`ChatRateLimiter` keeps each budget exactly:
- overall: at most 29 chat-bound requests in any 1.05 s, spread by a bucket of 8 refilled at
  about 21 a second;
- a group (chat id < 0 or an @username): at most 20 in any 61 s, spread out by a bucket of 2 that
  refills one every 3.2 s. A busy table is coalesced to its newest state, so how long a move
  waits to be shown is the gap between the group's requests: an even 3.2 s (p95 2.7-3.5 s in
  bench/pace.py) where a bucket of 5 refilled every 4 s gave 4-5.6 s, and a minute's budget is
  never spent in ten seconds to stand still for fifty;
- a private chat: a bucket of 2.7 refilled one every 1.1 s (Telegram's burst of 3 less 0.3 s of
  its refill: Telegram counts a request when it arrives, and when an earlier one arrives late —
  a busy event loop, the network — the requests after it look closer together than they went;
  with the whole 3 a person's press got a 429 in CI and waited 1.1 s).
(The margins over Telegram's figures cover the time a request takes to arrive.) A 429 answered to
a request for chat X only makes later requests for chat X wait; a 429 to a request without a
chat (answerCallbackQuery, getMe, …) pauses all. `ready(chat)` waits until a request for the chat
would go at once, without spending: the delivery waits there *before* it picks what to send, so
what it sends is the newest screen, not one that went stale in the queue.
"""

from __future__ import annotations

import contextlib
import logging
from collections.abc import Callable, Coroutine
from typing import Any

from telegram.error import RetryAfter
from telegram.ext import BaseRateLimiter

from bot.adapters.budgets import Bucket, Budget, Window
from bot.clock import REAL, Clock

log = logging.getLogger(__name__)

Result = bool | dict[str, Any] | list[dict[str, Any]]
ChatKey = int | str
MAX_IDLE_LIMITERS = 512  # chat budgets (and expired blocks) are dropped beyond this many


def _chat_key(data: dict[str, Any]) -> ChatKey | None:
    """The chat a request is for: an int id (also when given as a string), or an @username."""
    chat_id = data.get("chat_id")
    if chat_id is None:
        return None
    with contextlib.suppress(ValueError, TypeError):
        return int(chat_id)
    return str(chat_id)


def _spends(endpoint: str) -> bool:
    """Does this method spend a chat's message budget? Sending, editing, deleting do; reads,
    chat actions and callback answers don't (Telegram doesn't count them against a chat)."""
    name = endpoint.lower()
    return name != "sendchataction" and name.startswith(
        ("send", "edit", "delete", "copy", "forward", "stopmessage"))


def _is_group(chat: ChatKey) -> bool:
    return isinstance(chat, str) or chat < 0


def retry_seconds(error: RetryAfter) -> float:
    delta = getattr(error, "_retry_after", None)  # PTB 22: a timedelta (the int form warns)
    if delta is not None:
        return delta.total_seconds()
    return float(error.retry_after)  # type: ignore[arg-type]




class ChatRateLimiter(BaseRateLimiter[int]):
    """Telegram's budgets kept exactly, per chat, with RetryAfter applied per chat.

    ``overall_max_rate`` requests (that name a chat) per ``overall_time_period`` seconds
    (spread by a bucket of ``overall_burst``);
    ``group_max_rate`` per ``group_time_period`` for each group, spread by a bucket of
    ``group_burst`` refilled every ``group_spacing`` seconds; ``private_burst`` per private
    chat refilled every ``private_spacing`` seconds. 0 switches a budget off. ``max_retries``
    after a 429 (``rate_limit_args`` of a call overrides it, as in AIORateLimiter).
    """

    def __init__(
        self,
        overall_max_rate: float = 29,
        overall_time_period: float = 1.05,
        group_max_rate: float = 20,
        group_time_period: float = 61,
        max_retries: int = 3,
        *,
        overall_burst: int = 8,
        group_burst: int = 2,
        group_spacing: float = 3.2,
        private_burst: float = 2.7,
        private_spacing: float = 1.1,
        clock: Clock | None = None,
    ) -> None:
        self._clock = clock or REAL  # every budget and wait in this clock's seconds
        # The window caps any second; the bucket spreads a burst (requests sent 30 at once
        # arrive bunched up, and Telegram counts them as they arrive).
        self._overall: list[Budget] = (
            [Window(int(overall_max_rate), overall_time_period),
             Bucket(overall_burst, overall_max_rate * 0.75 / overall_time_period)]
            if overall_max_rate and overall_time_period else []
        )
        self._group_args = (
            (int(group_max_rate), group_time_period, group_burst, group_spacing)
            if group_max_rate and group_time_period else None
        )
        self._private_args = (private_burst, private_spacing) if private_burst else None
        self._budgets: dict[ChatKey, list[Budget]] = {}
        self._max_retries = max_retries
        # clock.monotonic() until which requests wait: for one chat, or all (a chat-less 429)
        self._chat_blocked: dict[ChatKey, float] = {}
        self._all_blocked = 0.0

    async def initialize(self) -> None:
        """Nothing to set up."""

    async def shutdown(self) -> None:
        """Nothing to release."""

    # -- state ----------------------------------------------------------------------------

    def blocked_for(self, chat: ChatKey | None) -> float:
        """Seconds requests for `chat` (None: a chat-less request) must still wait after 429s."""
        now = self._clock.monotonic()
        until = self._all_blocked
        if chat is not None:
            until = max(until, self._chat_blocked.get(chat, 0.0))
        return max(0.0, until - now)

    def _block(self, chat: ChatKey | None, seconds: float) -> None:
        now = self._clock.monotonic()
        until = now + seconds
        if chat is None:
            self._all_blocked = max(self._all_blocked, until)
            return
        if len(self._chat_blocked) > MAX_IDLE_LIMITERS:
            for key, blocked in list(self._chat_blocked.items()):
                if blocked <= now:
                    del self._chat_blocked[key]
        self._chat_blocked[chat] = max(self._chat_blocked.get(chat, 0.0), until)

    def _chat_budgets(self, chat: ChatKey, now: float) -> list[Budget]:
        budgets = self._budgets.get(chat)
        if budgets is None:
            if len(self._budgets) > MAX_IDLE_LIMITERS:  # idle chats start afresh: the same
                for key, kept in list(self._budgets.items()):
                    if all(b.idle(now) for b in kept):
                        del self._budgets[key]
            budgets = []
            if _is_group(chat) and self._group_args:
                most, period, burst, spacing = self._group_args
                budgets = [Window(most, period), Bucket(burst, 1 / spacing)]
            elif not _is_group(chat) and self._private_args:
                burst, spacing = self._private_args
                budgets = [Bucket(burst, 1 / spacing)]
            self._budgets[chat] = budgets
        return budgets

    def _all_budgets(self, chat: ChatKey | None, now: float) -> list[Budget]:
        if chat is None:
            return []
        return [*self._chat_budgets(chat, now), *self._overall]

    def delay(self, chat: ChatKey | None, reserve: int = 0) -> float:
        """Seconds until a request for `chat` would go without waiting, leaving `reserve`
        requests of a private chat's burst for later (its person's own next press)."""
        now = self._clock.monotonic()
        waits = [b.delay(now, reserve if isinstance(b, Bucket) and chat is not None
                         and not _is_group(chat) else 0)
                 for b in self._all_budgets(chat, now)]
        return max([self.blocked_for(chat), *waits])

    async def ready(self, chat: ChatKey | None, reserve: int = 0) -> None:
        """Wait until a request for `chat` would go at once (spends nothing)."""
        while (wait := self.delay(chat, reserve)) > 0:
            await self._clock.sleep(wait)

    async def _take(self, chat: ChatKey | None) -> None:
        """Wait for the chat's budgets and spend them (no await between look and spend)."""
        while (wait := self.delay(chat)) > 0:
            await self._clock.sleep(wait)
        now = self._clock.monotonic()
        for budget in self._all_budgets(chat, now):
            budget.spend(now)
        if chat is not None and chat in self._chat_blocked and self.blocked_for(chat) == 0:
            del self._chat_blocked[chat]  # expired

    # -- requests -------------------------------------------------------------------------

    async def _run(
        self,
        chat: ChatKey | None,
        spends: bool,
        callback: Callable[..., Coroutine[Any, Any, Result]],
        args: Any,
        kwargs: dict[str, Any],
    ) -> Result:
        if spends:
            await self._take(chat)
        else:
            while (wait := self.blocked_for(chat)) > 0:
                await self._clock.sleep(wait)
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
        spends = _spends(endpoint)
        for attempt in range(max_retries + 1):
            try:
                return await self._run(chat, spends, callback, args, kwargs)
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
                wait = retry_seconds(error) + 0.1
                log.info(
                    "Rate limit hit (%s, %s); retrying after %.1f s",
                    endpoint,
                    "all chats" if chat is None else f"chat {chat}",
                    wait,
                )
                self._block(chat, wait)
        raise AssertionError("unreachable")
