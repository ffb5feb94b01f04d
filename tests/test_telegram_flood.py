"""No chat can slow another (Telegram, through the fake Bot API with the production limiter):
one person flooding the bot — private text, /help in their own group — must not hold back
another person's press in another chat, and the flooder gets a bounded answer."""

from __future__ import annotations

import asyncio
import contextlib
import shutil
import socket
import time

import aiohttp
import pytest
from fakes.telegram_server import SECRET_HEADER, FakeTelegram
from players.telegram import Person
from test_telegram_delivery import bot, game_against_a_computer  # noqa: F401

from bot.adapters.telegram import TelegramAdapter
from bot.clock import REAL, Clock
from bot.core.fair_use import SLOW_DOWN
from bot.core.service import GameService
from bot.games import default_games
from bot.store import Store

# A person's felt time under a flood, against the real budgets: the wall clock, run alone
# (`make test` runs the realtime tier after the rest, so no other test's work crowds it).
pytestmark = pytest.mark.realtime
MALLORY_GROUP = -100666


@pytest.fixture
def clock() -> Clock:
    """A flood against fair use and the chats' budgets, timed as a person feels it: the wall
    clock (the `bot` fixture's fake and service take it)."""
    return REAL


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
    print(f"{flood}: Alice's press answered and shown after {seconds:.3f} s")
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


# -- the webhook -----------------------------------------------------------------------------

SECRET = "a-webhook-secret"
CONNECTIONS = 40  # setWebhook's max_connections default: Telegram's posts in flight at once


async def _telegram_posts(tg: FakeTelegram, url: str) -> None:
    """Telegram's side of a webhook: every pending update posted, up to CONNECTIONS at once,
    dropped when answered 2xx, posted again later otherwise."""
    flying: set[int] = set()
    posts: set[asyncio.Future[None]] = set()
    slots = asyncio.Semaphore(CONNECTIONS)
    timeout = aiohttp.ClientTimeout(total=60)
    async with aiohttp.ClientSession(timeout=timeout) as http:

        async def post(update: dict) -> None:
            try:
                async with http.post(url, json=update, headers={SECRET_HEADER: SECRET}) as a:
                    if 200 <= a.status < 300:
                        tg.drop_update(update["update_id"])
            except (aiohttp.ClientError, TimeoutError):
                pass
            finally:
                flying.discard(update["update_id"])
                slots.release()

        while True:
            for update in tg.pending_updates:
                if update["update_id"] in flying:
                    continue
                await slots.acquire()
                flying.add(update["update_id"])
                task = asyncio.ensure_future(post(update))
                posts.add(task)
                task.add_done_callback(posts.discard)
            await asyncio.sleep(0.01)


@pytest.fixture
async def webhook_bot(sqlite_template, tmp_path):
    path = tmp_path / "rummy.db"
    shutil.copy(sqlite_template, path)
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        port = probe.getsockname()[1]
    async with FakeTelegram() as tg:
        store = await Store.open(f"sqlite+aiosqlite:///{path}")
        service = GameService(store, games=default_games(), computer_delay=0.0, tick=0.05)
        adapter = TelegramAdapter(service, tg.token, base_url=tg.base_url,
                                  base_file_url=tg.base_file_url, poll_timeout=1)
        await adapter.start(webhook_url="https://bot.example.test/telegram",
                            webhook_path="telegram", webhook_secret=SECRET,
                            listen="127.0.0.1", port=port)
        await service.start()
        posting = asyncio.ensure_future(_telegram_posts(tg, f"http://127.0.0.1:{port}/telegram"))
        try:
            yield tg, store, service, adapter
        finally:
            posting.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await posting
            await adapter.drain()
            await service.stop()
            await adapter.stop()
            await store.close()


async def test_a_webhook_flood_does_not_hold_back_a_press_in_another_chat(webhook_bot):
    """Webhook mode: each post was held until its update was handled, and handling waited for
    the flooder's chat budget, so Telegram's 40 connections carried ~40 updates per 10 s and
    Carol's press came after the flood (90 s). Now a post is answered once its change is
    committed."""
    tg, store, _service, _adapter = webhook_bot

    class Counted:  # game_against_a_computer reads the store through `.inner`
        inner = store

    alice, _gid, _state = await game_against_a_computer(tg, Counted)
    mallory = tg.user(66, "Mallory", started=True)
    group = tg.group(MALLORY_GROUP, "Mallory's own")
    for _ in range(270):
        await tg.send_text(group, mallory, "/help")
    seconds = await _alice_presses(tg, alice)
    print(f"webhook: Alice's press answered and shown after {seconds:.3f} s")
    assert seconds < 1.0, f"Alice waited {seconds:.2f} s behind Mallory's flood"
    await tg.wait_until(lambda: not tg.pending_updates, timeout=60)
