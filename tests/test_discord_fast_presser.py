"""A fast presser never falls behind (Discord, issue 31 item 6): Carol, whose DMs are closed,
plays in an ephemeral view that her budget lets the bot answer about once every 1.2 s. Picking
cards faster than that used to queue one answer per pick (she saw no current view for a minute
and a half); now her stale picks' answers collapse into her newest view."""

from __future__ import annotations

import asyncio
import time

import pytest
from players.discord import Person, find, live_table
from test_discord_e2e import CAROL, TABLE, harness, label  # noqa: F401

pytestmark = [pytest.mark.e2e, pytest.mark.realtime]  # a person's tap rate on the wall clock
PICKS = 16


async def test_picks_faster_than_the_budget_collapse_into_the_newest_view(harness):
    fake = harness.fake
    carol = Person(harness, CAROL, "carol", dm_open=False)
    await harness.slash(CAROL, "new", {"rulebook": "Machiavelli"})
    lobby = live_table(fake, TABLE)
    await carol.click(lobby, label("Computer"), "computer menu")
    await carol.click(lobby, label("easy"), "easy")
    await carol.click(lobby, label("Start"), "start")
    row = await harness.game()
    assert row.status == "playing"
    await carol.show_my_hand()
    view = await carol.screen(my_turn=False)
    menu = find(fake, view, lambda c: (c.custom_id or "").split(":")[-1].startswith("@cards"))
    assert menu is not None
    options = [o.value for o in menu.options]
    # one card at a time, then two: the last pick shows nowhere before
    picks = [[options[i % len(options)]] for i in range(PICKS - 1)] + [options[:2]]
    mark = len(fake.requests)
    started = time.monotonic()
    interactions = []
    for values in picks:  # about 8 a second, inside fair use
        interactions.append(await fake.select(view, menu.custom_id, values, CAROL))
        await asyncio.sleep(0.12)

    def shows_last() -> bool:
        now = carol.private_message()
        shown = now and find(fake, now, lambda c: (c.custom_id or "").split(":")[-1]
                             .startswith("@cards"))
        return bool(shown) and [o.value for o in shown.options if o.default] == picks[-1]

    await fake.wait_until(shows_last, timeout=60, what="her last pick shown")
    caught_up = time.monotonic() - started
    for interaction in interactions:
        await interaction
    await harness.idle()
    assert fake.unanswered == []
    answers = [r for r in fake.requests[mark:] if "/webhooks/" in r.path
               and r.method in ("POST", "PATCH")]
    print(f"caught up after {caught_up:.1f} s with {len(answers)} view answers for {PICKS} picks")
    # Her view catches up with her within a couple of budget intervals of her last pick
    # (PICKS x 1.2 s = 19 s when every pick was answered in turn), in far fewer answers.
    assert caught_up < PICKS * 0.12 + 4.0, caught_up
    assert len(answers) <= PICKS // 2, len(answers)
