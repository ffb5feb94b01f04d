"""`rummy run`: one process serving Telegram and/or Discord over the same core and store.

Settings come from the environment (a `.env` file is read if present):
TELEGRAM_TOKEN, TELEGRAM_BASE_URL (self-hosted Bot API server), TELEGRAM_WEBHOOK_URL (webhook
mode instead of polling) with TELEGRAM_WEBHOOK_PORT, TELEGRAM_WEBHOOK_PATH and
TELEGRAM_WEBHOOK_SECRET, DISCORD_TOKEN, DISCORD_GUILD_ID, DISCORD_API_BASE,
DISCORD_GATEWAY_URL, DISCORD_SHARD_COUNT with DISCORD_SHARD_IDS (this worker's shards, e.g.
"0,1" of 4), DATABASE_URL, RUMMY_COMPUTER_DELAY, RUMMY_LOG_LEVEL, RUMMY_RETENTION_DAYS
(finished games' records; results stay), RUMMY_LESSON_RETENTION_DAYS, RUMMY_WEB_URL (the web
table's public HTTPS base: turns its "Open the table" buttons on) with RUMMY_WEB_APP (the Mini
App's short name, BotFather /newapp) and RUMMY_WEB_PORT (its port without a webhook: 8080).

Many workers on one PostgreSQL: any worker serves any update (README "From one process to N");
of those with TELEGRAM_WEBHOOK_URL the first to start registers the webhook
(TELEGRAM_WEBHOOK_OWNER=1/0 decides it instead).

The secrets (tokens, the webhook secret) never reach the log: see bot/logs.py.
"""

from __future__ import annotations

import asyncio
import contextlib
import hashlib
import hmac
import logging
import os
import re
import signal
from collections.abc import Callable
from pathlib import Path
from typing import Any

from bot import event_loop, logs

log = logging.getLogger("rummy")
WEBHOOK_PATH = "telegram"
# HMAC label of the derived webhook secret: every worker with the same token derives the same.
_WEBHOOK_LABEL = b"rummy-table/telegram-webhook-secret/v1"
# Telegram's rule for secret_token: 1-256 characters A-Z, a-z, 0-9, _ and -.
_SECRET_RE = re.compile(r"[A-Za-z0-9_-]{1,256}")
_PATH_RE = re.compile(r"[A-Za-z0-9_.~-]+(/[A-Za-z0-9_.~-]+)*")


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


_WEB_LABEL = b"rummy-table/web-sessions/v1"


def web_secret(token: str) -> bytes:
    """The key that signs the web table's sessions and links: RUMMY_WEB_SECRET, else derived
    from the bot token (the same in every worker, useless without the token)."""
    given = os.environ.get("RUMMY_WEB_SECRET", "").strip()
    return given.encode() if given else hmac.new(token.encode(), _WEB_LABEL,
                                                 hashlib.sha256).digest()


def web_proxies() -> int:
    """RUMMY_WEB_PROXIES: how many reverse proxies stand in front of the web table (their
    X-Forwarded-For names the client; 0: the peer is the client)."""
    text = os.environ.get("RUMMY_WEB_PROXIES", "").strip() or "0"
    if not (text.isascii() and text.isdecimal()) or int(text) > 16:
        raise SystemExit("RUMMY_WEB_PROXIES: the number of reverse proxies in front (0-16)")
    return int(text)


def web_link_maker(base: str, secret: bytes, now: Callable[[], float]) -> Callable[[Any, int], str]:
    """(member, game) -> the page's address with a short-lived link signed for that member."""
    from bot.web.auth import link_token

    def link(actor: Any, game: int) -> str:
        token = link_token(secret, actor.platform, actor.user, actor.name, game, actor.lang,
                           now())
        return f"{base.rstrip('/')}/web/table?g={game}&k={token}"

    return link


class _WebRunner:
    """The web table's own server as an adapter `shutdown` stops (no webhook to share)."""

    def __init__(self, server: Any, runner: Any) -> None:
        self.server, self.runner = server, runner

    async def stop(self) -> None:
        await self.server.close_all()
        await self.runner.cleanup()


def derive_webhook_secret(token: str) -> str:
    """HMAC-SHA256 of a fixed label keyed with the bot token, in hex (64 characters): no
    configuration, the same in every worker, and useless to anyone without the token."""
    return hmac.new(token.encode(), _WEBHOOK_LABEL, hashlib.sha256).hexdigest()


def webhook_settings(token: str) -> tuple[str, str]:
    """(url_path, secret_token) of the webhook: TELEGRAM_WEBHOOK_PATH (default "telegram", a
    fixed path that is no secret) and TELEGRAM_WEBHOOK_SECRET (default: derived from the token)."""
    path = os.environ.get("TELEGRAM_WEBHOOK_PATH", "").strip().strip("/") or WEBHOOK_PATH
    if not _PATH_RE.fullmatch(path) or token in path:
        raise SystemExit(
            "TELEGRAM_WEBHOOK_PATH: letters, digits, ._~- and / only, and not the bot token"
        )
    secret = os.environ.get("TELEGRAM_WEBHOOK_SECRET", "").strip() or derive_webhook_secret(token)
    if not _SECRET_RE.fullmatch(secret):
        raise SystemExit("TELEGRAM_WEBHOOK_SECRET: 1-256 characters of A-Z a-z 0-9 _ -")
    return path, secret


def build_services(store: Any, **settings: Any) -> Any:
    """The game service over the store, built once and handed to every chat adapter (lessons
    are variants of its hosted games)."""
    from bot.clock import REAL
    from bot.core.service import GameService
    from bot.games import default_games

    settings.setdefault("clock", REAL)  # the one clock; the adapters take the service's
    settings.setdefault("games", default_games())
    service = GameService(store, **settings)
    return service


NO_TOKEN = ("Set TELEGRAM_TOKEN and/or DISCORD_TOKEN (see .env.example). "
            "To play without a token: make play")


def _have_a_token() -> bool:
    return any(os.environ.get(k, "").strip() for k in ("TELEGRAM_TOKEN", "DISCORD_TOKEN"))


async def serve(url: str | None = None) -> None:
    from bot.store import Store

    telegram_token = os.environ.get("TELEGRAM_TOKEN", "").strip()
    discord_token = os.environ.get("DISCORD_TOKEN", "").strip()
    if not _have_a_token():
        raise SystemExit(NO_TOKEN)
    store = await Store.open(url)
    service = build_services(
        store,
        computer_delay=float(os.environ.get("RUMMY_COMPUTER_DELAY", 1.2)),
        retention_days=float(os.environ.get("RUMMY_RETENTION_DAYS", 90)),
        lesson_retention_days=float(os.environ.get("RUMMY_LESSON_RETENTION_DAYS", 30)),
    )
    adapters: list[Any] = []
    web_url = os.environ.get("RUMMY_WEB_URL", "").strip()
    web_server = await _web_server(service, store, url, telegram_token or discord_token,
                                   telegram_token, adapters) if web_url else None
    web_on_webhook = False
    if telegram_token:
        web_on_webhook = await _start_telegram(service, store, telegram_token, web_server,
                                               web_url, adapters)
    if discord_token:
        await _start_discord(service, discord_token, web_server, web_url, adapters)
    if web_server is not None and not web_on_webhook:
        from bot.web.server import serve as serve_web

        runner = await serve_web(web_server, "0.0.0.0",
                                 int(os.environ.get("RUMMY_WEB_PORT") or 8080))
        adapters.append(_WebRunner(web_server, runner))
    await run_until_stopped(
        service, adapters, store,
        started=lambda: log.info("Rummy Table is running (database %s)", store.url),
    )


async def _web_server(service: Any, store: Any, url: str | None, token: str,
                      telegram_token: str, adapters: list[Any]) -> Any:
    """The web table's server (RUMMY_WEB_URL); with several workers (PostgreSQL) also the
    notifier that lets their pages hear each other, started and added to `adapters`."""
    from bot.web.server import WebServer
    from bot.web.table import WebTable

    web_table = WebTable(service)
    web_server = WebServer(web_table, web_secret(token), bot_token=telegram_token or None,
                           proxies=web_proxies())
    if getattr(store, "row_locks", False):  # several workers: their pages hear each other
        from bot.store.urls import database_url
        from bot.web.notify import Notifier

        notifier = Notifier(web_table, database_url(url).render_as_string(
            hide_password=False))
        await notifier.start()
        adapters.append(notifier)
    return web_server


async def _start_telegram(service: Any, store: Any, token: str, web_server: Any,
                          web_url: str, adapters: list[Any]) -> bool:
    """Telegram's adapter started (webhook or polling) and added to `adapters`; True when the
    web table is served on the webhook's port."""
    from bot.adapters.telegram import TelegramAdapter

    base = os.environ.get("TELEGRAM_BASE_URL", "").rstrip("/")
    adapter = TelegramAdapter(
        service,
        token,
        base_url=f"{base}/bot" if base else None,
        base_file_url=f"{base}/file/bot" if base else None,
    )
    webhook = os.environ.get("TELEGRAM_WEBHOOK_URL", "").strip()
    web_on_webhook = False
    if web_server is not None:
        from bot.adapters.telegram import WebEntry

        adapter.web = WebEntry(web_url, os.environ.get("RUMMY_WEB_APP", "table").strip(),
                               watch=web_server.watch_param)
        if webhook:  # the page on the webhook's port: one server per worker
            adapter.web_routes.append(web_server.add_routes)
            web_on_webhook = True
    if webhook:
        path, secret = webhook_settings(token)
        logs.add_secret(secret)
        owner = await webhook_owner(store)
        log.info("Telegram webhook: %s", "registered here" if owner else "another worker's")
        await adapter.start(
            webhook_url=f"{webhook.rstrip('/')}/{path}",
            webhook_path=path,
            webhook_secret=secret,
            port=int(os.environ.get("TELEGRAM_WEBHOOK_PORT") or 8443),
            owner=owner,
        )
    else:
        await adapter.start()
    adapters.append(adapter)
    log.info("Telegram: @%s", adapter.username)
    return web_on_webhook


async def _start_discord(service: Any, token: str, web_server: Any, web_url: str,
                         adapters: list[Any]) -> None:
    """Discord's adapter started and added to `adapters`."""
    from bot.adapters import discord as discord_adapter

    adapter = discord_adapter.DiscordAdapter(
        service,
        token,
        guild_id=int(os.environ["DISCORD_GUILD_ID"])
        if os.environ.get("DISCORD_GUILD_ID")
        else None,
        api_base=os.environ.get("DISCORD_API_BASE") or None,
        gateway_url=os.environ.get("DISCORD_GATEWAY_URL") or None,
        shards=discord_shards(),
    )
    if web_server is not None:  # /rummy web: a member's own signed link
        adapter.web = web_link_maker(web_url, web_server.secret, service.clock)
    await adapter.start()
    adapters.append(adapter)


async def run_until_stopped(
    service: Any, adapters: list[Any], store: Any, *, started: Callable[[], None] | None = None
) -> None:
    """A worker whose adapters are serving: metrics on, computers and timers started, then
    serve until SIGINT or SIGTERM and stop in order (`shutdown`). `started`: said once up."""
    from bot import metrics

    metrics.watch(service)
    await service.start()
    stop = asyncio.Event()
    loop = asyncio.get_running_loop()
    for sig in (signal.SIGINT, signal.SIGTERM):
        with contextlib.suppress(NotImplementedError):
            loop.add_signal_handler(sig, stop.set)
    if started is not None:
        started()
    await stop.wait()
    await shutdown(service, adapters, store)


async def webhook_owner(store: Any) -> bool:
    """Does this worker register the webhook (setWebhook, setMyCommands)? TELEGRAM_WEBHOOK_OWNER
    says so if set; else the first worker to take the store's lead."""
    forced = os.environ.get("TELEGRAM_WEBHOOK_OWNER", "").strip().lower()
    if forced:
        return forced in ("1", "true", "yes")
    return await store.lead("telegram-webhook")


def discord_shards() -> tuple[list[int], int] | None:
    """(this worker's shard ids, the shard count) from DISCORD_SHARD_IDS ("0,1") and
    DISCORD_SHARD_COUNT; None: one connection, no sharding."""
    count = os.environ.get("DISCORD_SHARD_COUNT", "").strip()
    if not count:
        return None
    total = int(count)
    ids = os.environ.get("DISCORD_SHARD_IDS", "").strip()
    shard_ids = [int(x) for x in ids.split(",") if x.strip()] if ids else list(range(total))
    if total < 1 or not shard_ids or any(not 0 <= x < total for x in shard_ids):
        raise SystemExit("DISCORD_SHARD_IDS: shard numbers from 0 to DISCORD_SHARD_COUNT - 1")
    return shard_ids, total


async def shutdown(service: Any, adapters: list[Any], store: Any) -> None:
    """Stop serving: first take no more updates and finish the presses in hand (a webhook
    answers 503 meanwhile: the proxy hands them to another worker), then the computer turns
    and timers (a move delivered through a stopping adapter fails; another worker claims
    their jobs), then the adapters (their deliveries go out), then the store."""
    for adapter in adapters:
        drain = getattr(adapter, "drain", None)
        if drain is not None:
            with contextlib.suppress(Exception):
                await drain()
    await service.stop()
    for adapter in adapters:
        with contextlib.suppress(Exception):
            await adapter.stop()
    await store.close()


def run_bots(url: str | None = None) -> int:
    _load_dotenv()  # first: the log filter reads the secrets from the environment
    if not _have_a_token():  # before the store (and alembic's INFO lines): nothing to serve
        raise SystemExit(NO_TOKEN)
    logs.setup_logging(os.environ.get("RUMMY_LOG_LEVEL", "").strip().upper() or logging.INFO)
    try:
        event_loop.run(serve(url))
    except (SystemExit, KeyboardInterrupt):
        raise
    except Exception:
        # Through the log (redacted), not as a bare traceback: PTB's InvalidToken quotes the
        # token it was given.
        log.critical("rummy run stopped", exc_info=True)
        return 1
    return 0
