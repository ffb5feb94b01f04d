"""Telegram's flood control, as the fake Bot API enforces it.

What Telegram says (Bots FAQ, "My bot is hitting limits"): in a single chat avoid more than one
message a second ("we may allow short bursts … but eventually you'll begin receiving 429
errors"); a bot can't send more than 20 messages a minute to the same group; bulk notifications
are capped at about 30 messages a second. Edits are "subject to per chat limits" too (a Bot API
maintainer, tdlib/telegram-bot-api#648); answerCallbackQuery is not limited.

The model here, the strictest honest reading of that:
- a group (chat id < 0 or an @username): at most 20 requests in any 60 s window;
- a private chat: a token bucket of 1 request a second with a burst of 3;
- the bot overall: at most 30 chat-bound requests in any 1 s window.
A request counts when it sends, edits or deletes a message (sendChatAction, answerCallbackQuery
and reads don't). A refused request doesn't count. The answer is Telegram's: HTTP 429,
``Too Many Requests: retry after N`` with ``parameters.retry_after`` N whole seconds.
"""

from __future__ import annotations

import math
import time
from collections import deque
from collections.abc import Callable
from dataclasses import dataclass, field

ChatId = int | str


@dataclass(frozen=True)
class FloodLimits:
    group_requests: int = 20
    group_window: float = 60.0
    private_rate: float = 1.0  # requests a second
    private_burst: int = 3
    overall_requests: int = 30
    overall_window: float = 1.0


def counted(method: str) -> bool:
    """Does this Bot API method spend a chat's message budget?"""
    name = method.lower()
    if name == "sendchataction":
        return False
    return name.startswith(("send", "edit", "delete", "copy", "forward", "stopmessage"))


def is_group(chat: ChatId) -> bool:
    return isinstance(chat, str) or chat < 0


@dataclass
class _Bucket:
    tokens: float
    at: float


@dataclass
class FloodControl:
    """Per-chat and overall budgets: `wait` before a request, `spend` when it was carried out
    (a refused request — 429, or 403 for a chat the bot can't write to — spends nothing)."""

    limits: FloodLimits = field(default_factory=FloodLimits)
    clock: Callable[[], float] = time.monotonic
    refused: int = 0  # 429s answered
    refusals: list[tuple[ChatId, float]] = field(default_factory=list)  # (chat, wait) of each
    _groups: dict[ChatId, deque[float]] = field(default_factory=dict)
    _private: dict[ChatId, _Bucket] = field(default_factory=dict)
    _overall: deque[float] = field(default_factory=deque)

    def wait(self, chat: ChatId) -> float:
        """Seconds until a request for `chat` would be allowed (0: now)."""
        now = self.clock()
        lim = self.limits
        waits = [self._window_wait(self._overall, lim.overall_requests, lim.overall_window, now)]
        if is_group(chat):
            sent = self._groups.setdefault(chat, deque())
            waits.append(self._window_wait(sent, lim.group_requests, lim.group_window, now))
        else:
            bucket = self._refill(chat, now)
            waits.append(0.0 if bucket.tokens >= 1 else (1 - bucket.tokens) / lim.private_rate)
        return max(waits)

    def spend(self, chat: ChatId) -> None:
        """Count a request the API carried out."""
        now = self.clock()
        self._overall.append(now)
        if is_group(chat):
            self._groups.setdefault(chat, deque()).append(now)
        else:
            self._refill(chat, now).tokens -= 1

    def _refill(self, chat: ChatId, now: float) -> _Bucket:
        lim = self.limits
        bucket = self._private.setdefault(chat, _Bucket(float(lim.private_burst), now))
        bucket.tokens = min(lim.private_burst, bucket.tokens + (now - bucket.at) * lim.private_rate)
        bucket.at = now
        return bucket

    @staticmethod
    def _window_wait(sent: deque[float], most: int, window: float, now: float) -> float:
        while sent and sent[0] <= now - window:
            sent.popleft()
        return 0.0 if len(sent) < most else sent[0] + window - now


def retry_after(wait: float) -> int:
    """Telegram's retry_after: whole seconds, at least 1."""
    return max(1, math.ceil(wait))
