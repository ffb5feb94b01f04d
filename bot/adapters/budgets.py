"""Request budgets a chat platform allows, kept exactly: a window (at most N in any T seconds)
and a bucket (a burst, then a steady rate). Each answers how long a request must wait
(`delay`), is told when one went (`spend`), and says when it is back to full (`idle`) so a
process can drop the budgets of quiet chats."""

from __future__ import annotations

from collections import deque


class Window:
    """At most `most` requests in any `period` seconds."""

    def __init__(self, most: int, period: float) -> None:
        self.most, self.period = most, period
        self.sent: deque[float] = deque()

    def delay(self, now: float, reserve: int = 0) -> float:
        while self.sent and self.sent[0] <= now - self.period:
            self.sent.popleft()
        return 0.0 if len(self.sent) < self.most else self.sent[0] + self.period - now

    def spend(self, now: float) -> None:
        self.sent.append(now)

    def idle(self, now: float) -> bool:
        return self.delay(now) == 0 and not self.sent


class Bucket:
    """A burst of `burst` requests, refilled at `rate` a second."""

    def __init__(self, burst: float, rate: float) -> None:
        self.burst, self.rate = burst, rate
        self.tokens, self.at = float(burst), None

    def _refill(self, now: float) -> None:
        if self.at is not None:
            self.tokens = min(self.burst, self.tokens + (now - self.at) * self.rate)
        self.at = now

    def delay(self, now: float, reserve: int = 0) -> float:
        """Until a request may go, leaving `reserve` requests in the bucket."""
        self._refill(now)
        need = min(self.burst, 1 + reserve)
        return 0.0 if self.tokens >= need else (need - self.tokens) / self.rate

    def spend(self, now: float) -> None:
        self._refill(now)
        self.tokens -= 1

    def idle(self, now: float) -> bool:
        self._refill(now)
        return self.tokens >= self.burst


Budget = Window | Bucket
