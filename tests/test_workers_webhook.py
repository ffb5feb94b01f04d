"""The webhook of many workers: one worker registers it (setWebhook, setMyCommands) — the one
that takes the store's lead on PostgreSQL; every worker checks the secret token header, says
/healthz, shows /metrics (Prometheus text) and, stopping, finishes the presses in hand while
it answers new posts 503 (the proxy hands them to another worker)."""

from __future__ import annotations

import asyncio
import socket

import aiohttp
from fakes.telegram_server import FakeTelegram
from sqlalchemy.engine import make_url
from store_fixtures import _pg_truncate

from bot.adapters.telegram import SECRET_HEADER, TelegramAdapter
from bot.core.service import GameService
from bot.games import default_games
from bot.store import Store

SECRET = "a-webhook-secret"


def _free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return probe.getsockname()[1]


class Worker:
    def __init__(self, tg: FakeTelegram, url: str) -> None:
        self.tg, self.url = tg, url
        self.port = _free_port()

    async def up(self) -> None:
        self.store = await Store.open(self.url)
        self.service = GameService(self.store, games=default_games(), computer_delay=0.0, tick=0.05)
        self.adapter = TelegramAdapter(
            self.service,
            self.tg.token,
            base_url=self.tg.base_url,
            base_file_url=self.tg.base_file_url,
            poll_timeout=1,
        )
        await self.adapter.start(
            webhook_url="https://bot.example.test/telegram",
            webhook_path="telegram",
            webhook_secret=SECRET,
            listen="127.0.0.1",
            port=self.port,
            owner=await self.store.lead("telegram-webhook"),
        )
        await self.service.start()

    async def down(self) -> None:
        await self.adapter.drain()
        await self.service.stop()
        await self.adapter.stop()
        await self.store.close()

    @property
    def base(self) -> str:
        return f"http://127.0.0.1:{self.port}"


async def test_one_owner_health_metrics_and_a_graceful_stop(postgres_url, tmp_path):
    await _pg_truncate(make_url(postgres_url))
    async with FakeTelegram() as tg:
        workers = [Worker(tg, postgres_url) for _ in range(3)]
        for worker in workers:
            await worker.up()
        try:
            # one registration, however many workers started
            assert len(tg.calls("setWebhook")) == 1
            assert tg.webhook["secret_token"] == SECRET
            assert len(tg.calls("setMyCommands")) == len(tg.commands) == 3  # en, he, ru
            async with aiohttp.ClientSession() as http:
                for worker in workers:
                    async with http.get(worker.base + "/healthz") as answer:
                        assert answer.status == 200
                alice = tg.user(7, "Alice", started=True)
                chat = tg.private_chat(alice)
                await tg.send_text(chat, alice, "/help")
                update = dict(tg.pending_updates[0])
                hook = workers[1].base + "/telegram"
                async with http.post(hook, json=update) as answer:
                    assert answer.status == 403  # no secret: nothing done
                async with http.post(hook, json=update, headers={SECRET_HEADER: "x"}) as answer:
                    assert answer.status == 403
                await asyncio.sleep(0.2)
                assert not tg.calls("sendMessage")
                # Telegram's post: answered once it was handled
                async with http.post(hook, json=update, headers={SECRET_HEADER: SECRET}) as a:
                    assert a.status == 200
                assert tg.calls("sendMessage")
                async with http.get(workers[1].base + "/metrics") as answer:
                    assert answer.status == 200
                    page = await answer.text()
                assert 'rummy_webhook_updates_total{status="403"}' in page
                assert "rummy_jobs_due 0.0" in page and "rummy_deliveries_total" in page

                # Stopping: a press in hand is finished, a new post is turned away (503).
                sent = len(tg.calls("sendMessage"))
                await tg.send_text(chat, alice, "/rules")
                second = dict(tg.pending_updates[-1])
                headers = {SECRET_HEADER: SECRET}
                post = asyncio.create_task(http.post(hook, json=second, headers=headers))
                hook_server = workers[1].adapter.webhook
                while not hook_server.inflight:  # the post is in, its handling under way
                    await asyncio.sleep(0.001)
                drain = asyncio.create_task(workers[1].adapter.drain())
                await asyncio.sleep(0)
                async with http.post(hook, json=second, headers=headers) as answer:
                    assert answer.status == 503
                async with http.get(workers[1].base + "/healthz") as answer:
                    assert answer.status == 503
                answer = await post
                assert answer.status == 200
                await drain
                # the /rules in hand was answered: its reply goes out through the chat's lane,
                # within the private chat's budget (its third message in a second waits 0.33 s)
                await tg.wait_until(lambda: len(tg.calls("sendMessage")) > sent, timeout=10)
        finally:
            for worker in workers:
                await worker.down()
