"""`rummy run`: one process serving Telegram and/or Discord over the same core and store.

Settings come from the environment (a `.env` file is read if present):
TELEGRAM_TOKEN, TELEGRAM_BASE_URL (self-hosted Bot API server), TELEGRAM_WEBHOOK_URL and
TELEGRAM_WEBHOOK_PORT (webhook mode instead of polling), DISCORD_TOKEN, DISCORD_GUILD_ID,
DISCORD_API_BASE, DISCORD_GATEWAY_URL, DATABASE_URL, RUMMY_COMPUTER_DELAY.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import os
import signal
from pathlib import Path
from typing import Any

log = logging.getLogger("rummy")


def _load_dotenv(path: Path = Path(".env")) -> None:
    """Minimal KEY=VALUE reader; real environment variables win."""
    if not path.exists():
        return
    for line in path.read_text().splitlines():
        line = line.strip()
        if not line or line.startswith("#") or "=" not in line:
            continue
        key, value = line.split("=", 1)
        os.environ.setdefault(key.strip(), value.strip().strip('"').strip("'"))


async def serve(url: str | None = None) -> None:
    from bot.core.service import GameService
    from bot.store import Store

    telegram_token = os.environ.get("TELEGRAM_TOKEN", "").strip()
    discord_token = os.environ.get("DISCORD_TOKEN", "").strip()
    if not telegram_token and not discord_token:
        raise SystemExit(
            "Set TELEGRAM_TOKEN and/or DISCORD_TOKEN (see .env.example). "
            "To play without a token: make play"
        )
    store = await Store.open(url)
    service = GameService(store, computer_delay=float(os.environ.get("RUMMY_COMPUTER_DELAY", 1.2)))
    adapters = []
    if telegram_token:
        from bot.adapters.telegram import TelegramAdapter

        base = os.environ.get("TELEGRAM_BASE_URL", "").rstrip("/")
        adapter = TelegramAdapter(
            service,
            telegram_token,
            base_url=f"{base}/bot" if base else None,
            base_file_url=f"{base}/file/bot" if base else None,
        )
        webhook = os.environ.get("TELEGRAM_WEBHOOK_URL")
        await adapter.start(polling=not webhook)
        if webhook and adapter.app.updater:
            await adapter.app.updater.start_webhook(
                listen="0.0.0.0",
                port=int(os.environ.get("TELEGRAM_WEBHOOK_PORT", 8443)),
                url_path=telegram_token,
                webhook_url=f"{webhook.rstrip('/')}/{telegram_token}",
                allowed_updates=["message", "callback_query"],
            )
        adapters.append(adapter)
        log.info("Telegram: @%s", adapter.username)
    if discord_token:
        from bot.adapters import discord as discord_adapter

        adapter = discord_adapter.DiscordAdapter(
            service,
            discord_token,
            guild_id=int(os.environ["DISCORD_GUILD_ID"])
            if os.environ.get("DISCORD_GUILD_ID")
            else None,
            api_base=os.environ.get("DISCORD_API_BASE") or None,
            gateway_url=os.environ.get("DISCORD_GATEWAY_URL") or None,
        )
        await adapter.start()
        adapters.append(adapter)
    await service.start()
    stop = asyncio.Event()
    loop = asyncio.get_running_loop()
    for sig in (signal.SIGINT, signal.SIGTERM):
        with contextlib.suppress(NotImplementedError):
            loop.add_signal_handler(sig, stop.set)
    log.info("Rummy Table is running (database %s)", store.url)
    await stop.wait()
    await shutdown(service, adapters, store)


async def shutdown(service: Any, adapters: list[Any], store: Any) -> None:
    """Stop serving: first the computer turns and timers (a move delivered through a stopping
    adapter fails), then the adapters (they finish the updates in hand), then the store."""
    await service.stop()
    for adapter in adapters:
        with contextlib.suppress(Exception):
            await adapter.stop()
    await store.close()


def run_bots(url: str | None = None) -> int:
    logging.basicConfig(
        level=logging.INFO, format="%(asctime)s %(levelname)s %(name)s: %(message)s"
    )
    _load_dotenv()
    asyncio.run(serve(url))
    return 0
