"""Answer at once in a real group (issue 15): the shipped bot — its production rate limiter,
computer delay and timers — against a fake Bot API that enforces Telegram's flood control
(tests/fakes/telegram_limits.py: 20 requests a minute per group, ~1 a second per private chat,
30 a second overall). People press only after their own screen has changed, as people do.

What a person feels: press → their own private screen shows the result. It must not wait
behind the group's budget (it did: 5.7 s median in a busy group)."""

from __future__ import annotations

import asyncio
import statistics
import time

import pytest
from fakes.telegram_server import FakeTelegram

from bot.adapters.telegram import TelegramAdapter
from bot.adapters.telegram_limiter import ChatRateLimiter
from bot.core.record import Record
from bot.core.service import GameService
from bot.games import default_games
from bot.store import Store

pytestmark = [pytest.mark.e2e, pytest.mark.realtime]  # the production pace, on the wall clock

GROUP = -100777


def _version(tg: FakeTelegram, message) -> int:
    return int(tg.buttons(message)[-1][0][1].split(":")[1])


def _private(tg: FakeTelegram, user):
    for message in reversed(tg.messages(tg.private_chat(user))):
        if message.from_bot and message.buttons:
            return message
    return None


async def _press_group(tg: FakeTelegram, user, label: str) -> None:
    chat = tg.chat(GROUP)
    await tg.wait_until(lambda: tg.find_button(chat, label) is not None, 30)
    found = tg.find_button(chat, label)
    query = await tg.press(chat, found.message.message_id, found.callback_data, user)
    await tg.wait_until(lambda: query in tg.answers, timeout=30)
    await tg.settle(quiet=0.3, timeout=30)  # the lobby's edit (its buttons carry its version)


async def _moved(store, game_id: int, version: int) -> None:
    for _ in range(600):
        record = Record.from_dict((await store.get_game(game_id)).record)
        if record.state["version"] != version:
            return
        await asyncio.sleep(0.05)
    raise AssertionError("the computer never moved")


def p95(values: list[float]) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, round(0.95 * (len(ordered) - 1)))]


async def test_three_people_and_a_computer_see_their_own_screens_at_once(tmp_path):
    async with FakeTelegram() as tg:
        store = await Store.open(f"sqlite+aiosqlite:///{tmp_path / 'pace.db'}")
        service = GameService(store, games=default_games())  # production computer delay and ticks
        adapter = TelegramAdapter(service, tg.token, base_url=tg.base_url,
                                  base_file_url=tg.base_file_url, poll_timeout=1)
        assert isinstance(adapter.app.bot.rate_limiter, ChatRateLimiter)  # the shipped one
        await adapter.start()
        await service.start()
        try:
            group = tg.group(GROUP, "Busy table")
            people = [tg.user(i, n, started=True) for i, n in ((41, "Alice"), (42, "Bob"),
                                                                (43, "Carol"))]
            alice, bob, carol = people
            await tg.send_text(group, alice, "/newgame machiavelli")
            await tg.settle(quiet=0.3, timeout=30)
            await _press_group(tg, bob, "Join")
            await _press_group(tg, carol, "Join")
            await _press_group(tg, alice, "Computer")
            await _press_group(tg, alice, "medium")
            await _press_group(tg, alice, "Start")
            row = await store.active_game("telegram", str(GROUP))
            by_seat = {}
            record = Record.from_dict(row.record)
            for seat, info in enumerate(record.seats):
                by_seat[seat] = next((p for p in people if str(p.id) == info.user), None)

            waits: list[float] = []
            for _ in range(14):  # turns of people, each pressing Draw on their own screen
                record = Record.from_dict((await store.get_game(row.id)).record)
                state = record.state
                assert state["phase"] == "play"
                person = by_seat[state["turn"]]
                if person is None:  # the computer's turn: people look at the group meanwhile
                    await _moved(store, row.id, state["version"])
                    continue
                version = state["version"]

                def ready(p=person, v=version) -> bool:
                    message = _private(tg, p)
                    return message is not None and _version(tg, message) == v and any(
                        t == "Draw" for r in tg.buttons(message) for t, _ in r)

                await tg.wait_until(ready, timeout=60)
                message = _private(tg, person)
                data = next(d for r in tg.buttons(message) for t, d in r if t == "Draw")
                pressed = time.monotonic()
                await tg.press(tg.private_chat(person), message.message_id, data, person)

                def changed(p=person, v=version) -> bool:
                    message = _private(tg, p)
                    return message is not None and _version(tg, message) > v

                await tg.wait_until(changed, timeout=60)
                waits.append(time.monotonic() - pressed)
            assert len(waits) >= 8
            print(f"press → own screen: median {statistics.median(waits):.2f} s, "
                  f"p95 {p95(waits):.2f} s over {len(waits)} presses; "
                  f"429s {tg.flood.refusals}")
            print([round(w, 2) for w in waits])
            assert p95(waits) <= 1.0, f"own screen waited: {sorted(waits)}"
            assert tg.flood.refused == 0, "the bot ran into Telegram's flood control"
        finally:
            await service.stop()  # as `rummy run` stops: computers and timers first
            await adapter.stop()
            await store.close()
