"""Telegram delivery against the fake Bot API: screens are never shown out of commit order,
and a button press costs as few store round trips as it can."""

from __future__ import annotations

import asyncio
import shutil

import pytest
from counting_store import CountingStore
from fakes.telegram_server import FakeTelegram
from players.telegram import Person

from bot.adapters.telegram import TelegramAdapter
from bot.core.record import Record
from bot.core.service import GameService, unpack
from bot.games import default_games
from bot.store import Store

GROUP = -100777


@pytest.fixture
async def bot(sqlite_template, tmp_path, clock):
    path = tmp_path / "rummy.db"
    shutil.copy(sqlite_template, path)
    async with FakeTelegram(clock=clock) as tg:
        store = await Store.open(f"sqlite+aiosqlite:///{path}")
        counted = CountingStore(store)
        # The production limiter against the fake's flood control; computers move at once
        # (the races below are made with events, not with the computer's pause).
        service = GameService(counted, games=default_games(), computer_delay=0.0, tick=0.05,
                              clock=clock)
        adapter = TelegramAdapter(service, tg.token, base_url=tg.base_url,
                                  base_file_url=tg.base_file_url, poll_timeout=1)
        await adapter.start()
        await service.start()
        try:
            yield tg, counted, service, adapter
        finally:
            await service.stop()
            await adapter.stop()
            await store.close()


async def say(tg: FakeTelegram, chat, user, text: str) -> None:
    await tg.send_text(chat, user, text)
    await tg.wait_for(lambda r: r.method not in ("getUpdates", "sendChatAction"), timeout=20)
    await tg.settle(quiet=0.3, timeout=20)


async def press(tg: FakeTelegram, chat, message, data: str, user) -> None:
    query = await tg.press(chat, message.message_id, data, user, strict=False)
    await tg.wait_until(lambda: query in tg.answers, timeout=20)
    await tg.settle(quiet=0.3, timeout=20)


async def press_group(tg: FakeTelegram, user, label: str) -> None:
    await tg.wait_until(lambda: tg.find_button(GROUP, label) is not None, 10)
    found = tg.find_button(GROUP, label)
    await press(tg, GROUP, found.message, found.callback_data, user)


async def game_against_a_computer(tg: FakeTelegram, counted: CountingStore):
    """Alice and an easy computer play Machiavelli; returns once it is Alice's turn."""
    group = tg.group(GROUP, "Delivery")
    alice = tg.user(71, "Alice", started=True)
    await say(tg, group, alice, "/newgame machiavelli")
    await press_group(tg, alice, "Computer")
    await press_group(tg, alice, "easy")
    await press_group(tg, alice, "Start")
    row = await counted.inner.active_game("telegram", str(GROUP))

    async def state() -> dict:
        return Record.from_dict((await counted.inner.get_game(row.id)).record).state

    for _ in range(200):
        if (await state())["turn"] == 0:
            break
        await asyncio.sleep(0.05)
    await tg.settle(quiet=0.3, timeout=20)
    return alice, row.id, state


def shown_version(tg: FakeTelegram, message) -> int:
    return unpack(tg.buttons(message)[-1][-1][1])[1]


def table_message(tg: FakeTelegram):
    for message in reversed(tg.messages(GROUP)):
        if message.from_bot and message.photo_bytes and message.buttons:
            return message
    return None


async def test_an_older_screen_never_replaces_a_newer_one(bot):
    """Alice's press ends her turn; the computer moves and its screens are delivered while the
    delivery of Alice's press is still held up. Her press's (older) screens must not win."""
    tg, counted, service, adapter = bot
    alice, _gid, state = await game_against_a_computer(tg, counted)
    person = Person(tg, alice)
    message = person.private_message()
    draw = next(d for row in tg.buttons(message) for t, d in row if t == "Draw")

    original = adapter.deliver
    computer_shown = asyncio.Event()
    press_shown = asyncio.Event()

    async def computer_deliver(outcome):
        await original(outcome)
        computer_shown.set()

    async def press_deliver(outcome, by=None):
        await asyncio.wait_for(computer_shown.wait(), 20)
        await original(outcome, by)
        press_shown.set()

    service.deliverers["telegram"] = computer_deliver
    adapter.deliver = press_deliver
    await press(tg, tg.private_chat(alice), message, draw, alice)
    await asyncio.wait_for(press_shown.wait(), 20)
    await tg.settle(quiet=0.3, timeout=20)
    now = await state()
    assert now["turn"] == 0, "the computer has moved: Alice's turn again"
    hand = person.private_message()
    assert (hand.caption or "").startswith("Your turn")
    assert shown_version(tg, hand) == now["version"]
    # The group's table follows within its budget (a few seconds), newest state only.
    await tg.wait_until(lambda: shown_version(tg, table_message(tg)) >= now["version"], 20)
    assert shown_version(tg, table_message(tg)) == now["version"]


async def test_a_press_costs_two_store_round_trips_and_a_no_op_one(bot):
    tg, counted, _service, _adapter = bot
    alice, _gid, state = await game_against_a_computer(tg, counted)
    person = Person(tg, alice)
    chat = tg.private_chat(alice)
    message = person.private_message()
    version = (await state())["version"]
    select = next(d for row in tg.buttons(message) for _t, d in row if ":s1:" in d)
    counted.reset()
    await press(tg, chat, message, select, alice)
    # The poller keeps the update in the inbox before acknowledging it and forgets it after
    # (kill -9 loses nothing): at most two writes, the forget batched with the next poll's.
    assert 1 <= counted.calls.pop("inbox_put") <= 2
    # Load the game and save it; the private message is edited (its id stays): no refs write.
    assert counted.calls == {"get_game": 1, "save_game": 1}
    message = person.private_message()
    assert any(":s0:" in d for row in tg.buttons(message) for _t, d in row)
    # A stale button: a fresh screen, nothing written.
    counted.reset()
    await press(tg, chat, message, f"{_gid}:{version + 7}:draw", alice)
    counted.calls.pop("inbox_put")
    assert counted.calls == {"get_game": 1}
    # A label button (no-op): nothing written.
    counted.reset()
    await press(tg, chat, message, f"{_gid}:{version}:noop", alice)
    counted.calls.pop("inbox_put")
    assert counted.calls == {"get_game": 1}
