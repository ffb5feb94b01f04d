"""↻ Rematch on Telegram (issue 41 item 1), end to end: the real python-telegram-bot Application
against the fake Bot API server (the production limiter on the virtual clock), the real core and
store. A game of Alice, Bob and a computer ends (the computer goes out); its result carries
↻ Rematch; a stranger is refused, Alice is in (twice: once), Bob is in — and the second game
starts in the group, with the same seats, each person's hand in their private chat."""

from __future__ import annotations

import pytest
from rematch_games import record_near_end
from test_telegram_e2e import GROUP, Harness, harness  # noqa: F401  (its fixture)

from bot.core.record import Record

pytestmark = pytest.mark.e2e


async def near_end(harness: Harness) -> int:
    store = harness.store
    people = [("11", "Alice", await store.player("telegram", "11", "Alice")),
              ("12", "Bob", await store.player("telegram", "12", "Bob"))]
    row = await store.create_game("telegram", str(GROUP), record_near_end(people).to_dict(),
                                  status="playing")
    harness.service.scheduler.after_save(row.id, Record.from_dict(row.record))  # it moves now
    return row.id


def last_answer(harness: Harness) -> dict:
    return list(harness.tg.answers.values())[-1]


async def test_a_game_then_its_rematch_then_the_second_game(harness: Harness):
    tg = harness.tg
    alice = tg.user(11, "Alice", started=True)
    bob = tg.user(12, "Bob", started=True)
    eve = tg.user(13, "Eve", started=True)
    group = tg.group(GROUP, "Friday rummy", members=(alice, bob, eve))
    first = await near_end(harness)

    await tg.wait_until(lambda: tg.find_button(group, "↻ Rematch") is not None, 20)
    assert (await harness.store.get_game(first)).status == "finished"
    result = tg.find_button(group, "↻ Rematch").message
    assert "game over" in (result.caption or result.text or "").lower()

    await harness.press_group(eve, "↻ Rematch")
    assert "belong to a player" in last_answer(harness)["text"]
    await harness.press_group(alice, "↻ Rematch")
    assert "You're in" in last_answer(harness)["text"]
    await harness.expect(group, "Waiting for: Bob")
    call = tg.last_message(group, from_bot=True)
    assert "Alice" in call.text and [label for label, _ in call.buttons[0]] == [
        "↻ Rematch", "▶ Start now"]
    await harness.press_group(alice, "↻ Rematch")  # a double tap: nothing more
    assert "in already" in last_answer(harness)["text"]
    assert await harness.game() is None

    await harness.press_group(bob, "↻ Rematch")
    second = await harness.game()
    assert second is not None and second.id != first and second.status == "playing"
    record = Record.from_dict(second.record)
    assert [(s.name, s.user, s.computer) for s in record.seats] == [
        ("Alice", "11", None), ("Bob", "12", None), ("Computer 1", None, "medium")]
    assert Record.from_dict((await harness.store.get_game(first)).record).rematch == second.id

    # the second game is the people's: each hand in its own private chat, with its buttons
    for person in (alice, bob):
        chat = tg.private_chat(person)
        await tg.wait_until(lambda chat=chat: any(
            data and data.startswith(f"{second.id}:") for m in tg.messages(chat)
            for row in m.buttons for _, data in row), 20)
    # the second game's table is in the group (its buttons carry its id); the old call's
    # button now only says the rematch has started
    await tg.wait_until(lambda: any(
        data and data.startswith(f"{second.id}:") for m in tg.messages(group)
        for row in m.buttons for _, data in row), 20)
    await harness.press_group(alice, "↻ Rematch")
    assert "has started" in last_answer(harness)["text"]
