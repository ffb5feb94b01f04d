"""/notify on Telegram (issue 41 item 2), end to end: the real python-telegram-bot Application
against the fake Bot API server (the production limiter on the virtual clock), the real core and
store. Bob and Carol ask for calls in the group (Carol never opened the bot's private chat: the
group gets the link that opens it);
Alice opens a lobby: Bob's call comes privately with [Join], which seats him in the group's
lobby; Carol's closed chat costs nothing (no advice in the group); a second lobby within the
meter calls nobody; /notify again turns Bob's calls off."""

from __future__ import annotations

import pytest
from fakes.telegram_server import FakeTelegram
from test_telegram_e2e import GROUP, Harness, harness  # noqa: F401  (its fixture)

from bot.core.record import Record

pytestmark = pytest.mark.e2e

CALL = "🃏 A game of"


def calls(tg: FakeTelegram, user) -> list:
    return [m for m in tg.messages(tg.private_chat(user)) if (m.text or "").startswith(CALL)]


async def test_a_lobby_calls_the_subscribers_and_no_more_within_the_meter(harness: Harness):
    tg = harness.tg
    alice = tg.user(11, "Alice", started=True)
    bob = tg.user(12, "Bob", started=True)
    carol = tg.user(13, "Carol", started=False)  # the bot can't write to her first
    group = tg.group(GROUP, "Friday rummy", members=(alice, bob, carol))
    menu = tg.calls("setMyCommands")  # the command menu offers it, in every language
    assert menu and all("notify" in str(r.params) for r in menu)

    await harness.say(group, bob, "/notify")
    await harness.expect(group, "I'll write to you privately")
    await harness.say(group, carol, "/notify")
    # Carol never opened the bot's private chat: the group gets the link that opens it
    await harness.expect(group, "Carol, open a private chat with me so I can call you")
    assert f"t.me/{harness.adapter.username}?start=notify" in tg.transcript(group)

    await harness.say(group, alice, "/newgame machiavelli")
    await harness.expect(group, "Machiavelli")
    await tg.wait_until(lambda: len(calls(tg, bob)) == 1, 20)
    (call,) = calls(tg, bob)
    assert call.text == "🃏 A game of Machiavelli is starting in Friday rummy."
    assert [label for row in call.buttons for label, _ in row] == ["Join"]
    await tg.settle(quiet=0.3, timeout=20)
    assert calls(tg, carol) == [] and calls(tg, alice) == []
    refused = tg.calls("sendMessage", chat_id=13, ok=False)  # tried: 403, can't initiate
    assert refused and refused[0].status == 403, refused
    assert "so I can send your cards" not in tg.transcript(group)  # no seat: no advice

    # Join in Bob's private chat: his seat in the group's lobby
    query = await tg.press(tg.private_chat(bob), call.message_id, call.buttons[0][0][1], bob)
    await tg.wait_until(lambda: query in tg.answers, 20)
    assert "You joined" in tg.answers[query]["text"]
    row = await harness.game()
    assert [s.user for s in Record.from_dict(row.record).seats] == ["11", "12"]
    await harness.expect(group, "Bob")  # the group's lobby shows him

    # a lobby again, within the meter: no call
    await harness.say(group, alice, "/endgame")
    await harness.say(group, alice, "/newgame machiavelli")
    await harness.expect(group, "Machiavelli")
    await tg.settle(quiet=0.5, timeout=20)
    assert len(calls(tg, bob)) == 1

    await harness.say(group, bob, "/notify")
    await harness.expect(group, "No more calls")
