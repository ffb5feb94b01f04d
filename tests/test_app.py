"""`rummy run`'s shutdown: the game service stops before the chat adapters."""

from __future__ import annotations

import asyncio
import contextlib
import logging
import shutil

import pytest

from bot import app
from bot.app import build_services, shutdown
from bot.core.service import Actor, GameService, pack
from bot.games import default_games
from bot.store import Store

ALICE = Actor("test", "-1", "1", "Alice")

async def lp(service, actor, gid, action):
    """A lobby press with the lobby's current version (as its buttons carry it)."""
    row = await service.store.get_game(gid)
    return await service.press(actor, pack(gid, row.record.get("lobby_version", 0), action))



class Adapter:
    """Stands for a chat adapter: stopping takes a while (PTB/discord.py close their HTTP
    sessions), and a delivery after it has begun to stop fails."""

    def __init__(self, service: GameService) -> None:
        self.stopping = False
        self.late = asyncio.Event()
        service.register("test", self.deliver)

    async def deliver(self, outcome) -> None:
        if self.stopping:
            self.late.set()
            raise RuntimeError("the adapter is stopped")

    async def stop(self) -> None:
        self.stopping = True
        # A computer turn that is still running would deliver now.
        with contextlib.suppress(TimeoutError):
            await asyncio.wait_for(self.late.wait(), 1.0)


async def test_shutdown_stops_the_computers_before_the_adapters(sqlite_template, tmp_path,
                                                                 caplog):
    path = tmp_path / "app.db"
    shutil.copy(sqlite_template, path)
    store = await Store.open(f"sqlite+aiosqlite:///{path}")
    service = GameService(store, games=default_games(), computer_delay=0.05, tick=0.02)
    adapter = Adapter(service)
    await service.start()
    gid = (await service.new_game(ALICE, "machiavelli")).game_id
    await lp(service, ALICE, gid, "cpu:easy")
    await lp(service, ALICE, gid, "start")
    state = (await store.get_game(gid)).record["state"]
    if state["turn"] == 0:  # hand the turn to the computer: its task is now waiting to play
        await service.press(ALICE, pack(gid, state["version"], "draw"))
    assert service.scheduler.pending_computers()
    with caplog.at_level(logging.ERROR):
        await shutdown(service, [adapter], store)
    assert not adapter.late.is_set(), "a computer's move was delivered to a stopped adapter"
    assert not [r for r in caplog.records if "delivery failed" in r.getMessage()]


class _Started(Exception):
    pass


async def test_one_service_for_both_adapters(monkeypatch, tmp_path):
    """`rummy run` builds the game service once and hands it to every adapter (lessons are
    variants of its games: no service of their own)."""
    import bot.adapters.discord as discord_adapter
    import bot.adapters.telegram as telegram_adapter

    built: dict[str, tuple] = {}

    def fake(name: str, stop: bool):
        class Adapter:
            username = "rummy_bot"

            def __init__(self, service, token, **kwargs) -> None:
                assert "lessons" not in kwargs
                built[name] = (service,)

            async def start(self, **kwargs) -> None:
                if stop:
                    raise _Started

        return Adapter

    monkeypatch.setattr(telegram_adapter, "TelegramAdapter", fake("telegram", False))
    monkeypatch.setattr(discord_adapter, "DiscordAdapter", fake("discord", True))
    monkeypatch.setenv("TELEGRAM_TOKEN", "123:abc")
    monkeypatch.setenv("DISCORD_TOKEN", "discord-token")
    monkeypatch.delenv("TELEGRAM_WEBHOOK_URL", raising=False)
    with pytest.raises(_Started):
        await app.serve(f"sqlite+aiosqlite:///{tmp_path / 'app.db'}")
    (service,), again = built["telegram"], built["discord"]
    assert again[0] is service and service.lesson_game() is not None


async def test_build_services_shares_the_store(sqlite_template, tmp_path):
    path = tmp_path / "app.db"
    shutil.copy(sqlite_template, path)
    store = await Store.open(f"sqlite+aiosqlite:///{path}")
    try:
        service = build_services(store, computer_delay=0.0)
        assert service.store is store
    finally:
        await store.close()
