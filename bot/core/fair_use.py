"""Fair use: per-person and per-chat token buckets on presses and commands.

One person pressing Hint a hundred times a second used a whole core; a polite "slow down"
costs nothing. In memory, per process: a limit, not a ledger (with several workers each
keeps its own, which only makes the limit a little looser).
"""

from __future__ import annotations

import time
from collections import OrderedDict
from collections.abc import Callable
from contextvars import ContextVar
from dataclasses import dataclass

from bot.i18n import N_, _

SLOW_DOWN = N_("Slow down a little — try again in a moment.")  # English; said translated
# The update being handled was metered at the door (bot/adapters/intake.py): its first check
# here is paid already; any further check in the same update pays as usual.
_PREPAID: ContextVar[list[int] | None] = ContextVar("fair_use_prepaid", default=None)


def paid_at_door() -> None:
    """The update this task handles was metered at the door: its first check is free."""
    _PREPAID.set([1])


@dataclass
class _Bucket:
    tokens: float
    at: float


class Buckets:
    """Token buckets by key: `burst` at once, refilled at `rate` a second. Holds at most
    `keys` buckets (the least recently used go first: a full bucket is the default anyway)."""

    def __init__(self, rate: float, burst: float, *, keys: int = 10_000,
                 clock: Callable[[], float] = time.monotonic) -> None:
        self.rate, self.burst, self.keys, self.clock = rate, burst, keys, clock
        self._buckets: OrderedDict[str, _Bucket] = OrderedDict()

    def take(self, key: str) -> bool:
        now = self.clock()
        bucket = self._buckets.pop(key, None) or _Bucket(self.burst, now)
        bucket.tokens = min(self.burst, bucket.tokens + (now - bucket.at) * self.rate)
        bucket.at = now
        ok = bucket.tokens >= 1
        if ok:
            bucket.tokens -= 1
        self._buckets[key] = bucket
        while len(self._buckets) > self.keys:
            self._buckets.popitem(last=False)
        return ok

    def __len__(self) -> int:
        return len(self._buckets)


class FairUse:
    """A person may press about 8 times a second (bursts of 20); a chat about 15 (bursts of
    40): far above what play needs (a whole move is a few taps), far below what hurts."""

    def __init__(self, *, clock: Callable[[], float] = time.monotonic,
                 user_rate: float = 8, user_burst: float = 20,
                 chat_rate: float = 15, chat_burst: float = 40) -> None:
        self.users = Buckets(user_rate, user_burst, clock=clock)
        self.chats = Buckets(chat_rate, chat_burst, clock=clock)

    def check(self, platform: str, user: str, chat: str) -> str | None:
        """None if this press may go ahead, else the sentence to answer with."""
        prepaid = _PREPAID.get()
        if prepaid and prepaid[0] > 0:
            prepaid[0] -= 1
            return None
        return self.take(platform, user, chat)

    def take(self, platform: str, user: str, chat: str) -> str | None:
        """Spend one from the person's and the chat's buckets (None: allowed)."""
        if not self.users.take(f"{platform}:{user}"):
            return _(SLOW_DOWN)
        if not self.chats.take(f"{platform}:{chat}"):
            return _(SLOW_DOWN)
        return None
