"""No chat can slow another (Telegram, through the fake Bot API with the production limiter):
one person flooding the bot — private text, /help in their own group — must not hold back
another person's press in another chat, and the flooder gets a bounded answer."""

from __future__ import annotations

import time

import pytest
from test_telegram_delivery import bot, game_against_a_computer  # noqa: F401
from tg_players import Person

from bot.core.fair_use import SLOW_DOWN

MALLORY_GROUP = -100666


async def _alice_presses(tg, alice) -> float:
    """Alice selects a card; seconds until her press is answered and her screen shows it."""
    person = Person(tg, alice)
    message = person.private_message()
    select = next(d for row in tg.buttons(message) for _t, d in row if ":s1:" in d)
    started = time.monotonic()
    query = await tg.press(tg.private_chat(alice), message.message_id, select, alice)

    def shown() -> bool:
        now = person.private_message()
        return query in tg.answers and any(
            ":s0:" in d for row in tg.buttons(now) for _t, d in row)

    await tg.wait_until(shown, timeout=120)
    return time.monotonic() - started


@pytest.mark.parametrize("flood", ["private text", "help in a group"])
async def test_a_flood_in_one_chat_does_not_hold_back_a_press_in_another(bot, flood):
    tg, counted, _service, adapter = bot
    alice, _gid, _state = await game_against_a_computer(tg, counted)
    mallory = tg.user(66, "Mallory", started=True)
    if flood == "private text":
        chat, lines = tg.private_chat(mallory), ["hi"] * 330  # one forward of many messages
    else:
        chat, lines = tg.group(MALLORY_GROUP, "Mallory's own"), ["/help"] * 270
    for line in lines:
        await tg.send_text(chat, mallory, line)
    seconds = await _alice_presses(tg, alice)
    assert seconds < 1.0, f"Alice waited {seconds:.2f} s behind Mallory's flood"
    await tg.wait_until(lambda: not tg.pending_updates, timeout=60)
    # Mallory: what the fair-use burst admits, one "slow down", then silence — not 300 replies
    # queued behind her chat's budget for minutes.
    await adapter.intake.drain(30)
    said = [m.text or "" for m in tg.messages(chat) if m.from_bot]
    pending = sum(len(lane.pending) for lane in adapter.delivery.lanes.values())
    assert len(said) + pending <= 30, (len(said), pending)
    assert adapter.intake.turned_away >= len(lines) - 40
    assert sum(SLOW_DOWN[:10] in s for s in said) <= 1, said
