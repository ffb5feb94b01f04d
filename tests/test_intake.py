"""The door (bot/adapters/intake.py): every update metered before any work — one "slow down"
a window, then silence — and at most PER_CHAT of one chat's updates in hand, the rest in a
bounded line, so no chat holds the handlers every chat shares."""

from __future__ import annotations

import asyncio

from bot.adapters.intake import Intake, Verdict
from bot.core.fair_use import FairUse


class Clock:
    def __init__(self) -> None:
        self.now = 0.0

    def __call__(self) -> float:
        return self.now


def test_past_the_limit_one_warning_a_window_then_silence() -> None:
    clock = Clock()
    fair = FairUse(clock=clock)
    door = Intake(lambda: fair, clock=clock, warn_every=30)
    verdicts = [door.meter("tg", "mallory", "m") for _ in range(200)]
    assert verdicts[:20] == [Verdict.GO] * 20  # the person's burst
    assert verdicts[20] is Verdict.WARN
    assert set(verdicts[21:]) == {Verdict.QUIET}
    assert door.meter("tg", "carol", "c") is Verdict.GO  # another person, another chat
    clock.now = 31.0
    assert door.meter("tg", "mallory", "m") is Verdict.GO  # refilled
    clock.now = 31.0
    while door.meter("tg", "mallory", "m") is Verdict.GO:
        pass
    assert door.turned_away == 180 + 1


async def test_a_chat_holds_at_most_per_chat_handlers_and_a_bounded_line() -> None:
    door = Intake(lambda: FairUse(), per_chat=4, backlog=8)
    release = asyncio.Event()
    running = {"m": 0, "c": 0}
    most = {"m": 0, "c": 0}

    def work(chat: str):
        async def run() -> None:
            running[chat] += 1
            most[chat] = max(most[chat], running[chat])
            await release.wait()
            running[chat] -= 1
        return run

    mallory = [door.submit("m", work("m")) for _ in range(40)]
    carol = door.submit("c", work("c"))
    await asyncio.sleep(0.01)
    assert door.in_hand("m") == 4 and running["c"] == 1  # Carol's runs beside Mallory's four
    turned = [f for f in mallory if f.done() and f.result() is False]
    assert len(turned) == 40 - 4 - 8  # the oldest waiting went first
    assert mallory[-1] not in turned
    release.set()
    assert all(await asyncio.gather(*mallory[-8:], carol))
    assert most == {"m": 4, "c": 1}
    assert door.in_hand("m") == 0
