"""The virtual clock is honest: the same burst through the production limits, once on the wall
clock (`realtime`: a few seconds of real waiting) and once on the e2e tests' virtual clock,
keeps the same schedule in the clock's seconds. Telegram: ChatRateLimiter against the fake's
flood control (a group's 2 then one every 3.2 s; a private chat's 3 then one every 1.1 s).
Discord: discord.py's own bucket handling against the fake's 5 per 5 s (a spent bucket's
Reset-After, or a 429's retry_after, waited on the clock)."""

from __future__ import annotations

import asyncio
import itertools
import time

import discord
import pytest
from fakes.discord_server import FakeDiscord
from fakes.telegram_server import FakeTelegram

from bot.adapters.telegram_limiter import ChatRateLimiter
from bot.clock import REAL, ScaledClock

pytestmark = pytest.mark.filterwarnings(
    "ignore:.*retry_after.*:telegram.warnings.PTBDeprecationWarning"
)

GROUP, PRIVATE = -100777, 777
CLOCKS = [pytest.param("real", marks=pytest.mark.realtime), "virtual"]


SPEED = 10
# A request's way from the bot's budget to the fake's stamp (a few ms, more on a busy machine)
# counts SPEED times on the virtual clock: the schedules are compared within this much real
# time, in the clock's seconds.
JITTER = 0.1


def _clock(kind: str):
    return REAL if kind == "real" else ScaledClock(SPEED)


def _slack(kind: str) -> float:
    return JITTER * (1 if kind == "real" else SPEED)


@pytest.mark.parametrize("kind", CLOCKS)
async def test_telegram_budgets_keep_their_schedule(kind: str) -> None:
    clock = _clock(kind)
    async with FakeTelegram(clock=clock) as tg:
        tg.group(GROUP, "Busy table")
        tg.user(PRIVATE, "Alice", started=True)
        app = tg.application_builder().rate_limiter(ChatRateLimiter(clock=clock)).build()
        await app.initialize()
        started = time.monotonic()
        try:
            await asyncio.gather(
                *(app.bot.send_message(GROUP, f"group {i}") for i in range(4)),
                *(app.bot.send_message(PRIVATE, f"private {i}") for i in range(6)),
            )
        finally:
            await app.shutdown()
        wall = time.monotonic() - started
    sent = [r for r in tg.calls("sendMessage") if r.ok]
    group = sorted(r.time for r in sent if r.chat_id == GROUP)
    private = sorted(r.time for r in sent if r.chat_id == PRIVATE)
    assert len(group) == 4 and len(private) == 6
    # On the wall clock the limiter's margins (0.1 s over a private chat's 1 s, 0.3 s of its
    # burst) cover a request's way to the server, and the fake never refuses. On the virtual
    # clock that way takes ten times longer in its seconds and may eat the margin: a 429 now and
    # then, which the limiter waits out as it would Telegram's (the schedule below still holds).
    limit = 0 if kind == "real" else 2
    assert tg.flood.refused <= limit, "the limiter ran into the fake's flood control"
    # in the clock's seconds: the group's burst of 2, then one every 3.2 s
    slack = _slack(kind)
    gaps = [b - a for a, b in itertools.pairwise(group)]
    assert gaps[0] < slack and all(3.2 - slack <= g <= 4 + slack for g in gaps[1:]), gaps
    # a private chat: two at once, a third 0.33 s on, then one every 1.1 s (a 429's retry:
    # 1.1 s after it)
    gaps = [b - a for a, b in itertools.pairwise(private)]
    assert gaps[0] < slack and gaps[1] < 0.33 + slack, gaps
    assert all(1.1 - slack <= g <= 2.5 + slack for g in gaps[2:]), gaps
    span = group[-1] - group[0]
    print(f"{kind}: group span {span:.2f} clock s, {wall:.2f} wall s, 429s {tg.flood.refused}")
    assert 6.4 - slack <= span <= 8.0 + slack
    if kind == "virtual":  # the point of it: the same schedule in a tenth of the time
        assert wall < span / 2


@pytest.mark.parametrize("kind", CLOCKS)
async def test_discord_buckets_keep_their_schedule(kind: str) -> None:
    clock = _clock(kind)
    async with FakeDiscord(token="honest-token", clock=clock) as fake, \
            fake.configure_discord_py():
        guild = fake.guild(5000, "Card Room")
        fake.text_channel(guild, 5001, "table")
        client = discord.Client(intents=discord.Intents.none())
        await client.login("honest-token")
        started = time.monotonic()
        try:
            table = client.get_partial_messageable(5001)
            for i in range(8):  # one after another: discord.py learns the bucket, then waits
                await table.send(f"move {i}")
        finally:
            await client.close()
        wall = time.monotonic() - started
    posts = [c for c in fake.requests if c.route == "POST /channels/{channel_id}/messages"]
    ok = sorted(c.at for c in posts if c.status == 200)
    assert len(ok) == 8
    # never more than the bucket's 5 in any 5 s of the clock
    slack = _slack(kind)
    assert max(sum(1 for t in ok if start <= t < start + 5.0 - slack) for start in ok) <= 5
    waited = ok[5] - ok[0]
    print(f"{kind}: 6th message {waited:.2f} clock s after the 1st; spent buckets "
          f"{fake.drained}, 429s {fake.limited}; {wall:.2f} wall s")
    assert 5.0 - slack <= waited <= 7.0 + slack
    assert fake.limited <= (0 if kind == "real" else 2), "discord.py waits a spent bucket out"
    if kind == "virtual":
        assert wall < waited / 2
