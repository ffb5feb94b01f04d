"""Secrets stay secret: the bot token never reaches the log (bot/logs.py), and the webhook is
reached at a fixed path and only with Telegram's secret header (bot/app.py).

The log test runs a real PTB Application against the fake Bot API with every logger at DEBUG
(httpx too) and reads two captures of the same records: one without the filter (it must show
the token — so the test can see a leak) and the handlers `setup_logging` filtered (they must
not).
"""

from __future__ import annotations

import asyncio
import io
import logging
import shutil
import socket
import time

import pytest
from fakes.telegram_server import DEFAULT_TOKEN, FakeTelegram, running
from telegram import Update
from telegram.error import InvalidToken
from telegram.ext import CommandHandler, ContextTypes

from bot import app as rummy_app
from bot import logs
from bot.adapters.telegram import TelegramAdapter
from bot.core.service import GameService
from bot.games import default_games
from bot.store import Store

SHORT_TOKEN = "4242:not-token-shaped"  # not caught by the token pattern: only as configured
SECRET_ENV = ("TELEGRAM_TOKEN", "DISCORD_TOKEN", "TELEGRAM_WEBHOOK_SECRET", "TELEGRAM_WEBHOOK_PATH")


@pytest.fixture
def clean_logging(monkeypatch: pytest.MonkeyPatch):
    """setup_logging changes process-wide state: put it back after the test."""
    for name in (*SECRET_ENV, "RUMMY_LOG_LEVEL"):
        monkeypatch.delenv(name, raising=False)
    root = logging.getLogger()
    level, handlers = root.level, list(root.handlers)
    quiet = {name: logging.getLogger(name).level for name in logs.QUIET_LOGGERS}
    yield root
    logs.uninstall(root)
    root.handlers[:] = handlers
    root.setLevel(level)
    for name, old in quiet.items():
        logging.getLogger(name).setLevel(old)


def _capture(formatter: logging.Formatter | None = None) -> tuple[logging.Handler, io.StringIO]:
    text = io.StringIO()
    handler = logging.StreamHandler(text)
    handler.setLevel(logging.DEBUG)
    handler.setFormatter(formatter or logging.Formatter(logs.FORMAT))
    return handler, text


async def _ping(update: Update, context: ContextTypes.DEFAULT_TYPE) -> None:
    assert update.effective_message is not None
    await update.effective_message.reply_text("pong")


async def _until(condition, timeout: float = 5.0) -> None:
    deadline = time.monotonic() + timeout
    while not condition():
        if time.monotonic() > deadline:
            raise TimeoutError("condition not met")
        await asyncio.sleep(0.02)


@pytest.mark.parametrize("token", [DEFAULT_TOKEN, SHORT_TOKEN], ids=["token-shaped", "configured"])
async def test_the_token_never_reaches_the_log(
    token: str, clean_logging: logging.Logger, monkeypatch: pytest.MonkeyPatch, caplog
) -> None:
    root = clean_logging
    monkeypatch.setenv("TELEGRAM_TOKEN", token)
    console, shown = _capture()
    root.addHandler(console)
    logs.setup_logging(logging.DEBUG)
    assert logging.getLogger("httpx").level == logging.WARNING
    assert logging.getLogger("httpcore").level == logging.WARNING
    assert logs.redacting_filter() in console.filters
    # Now every logger at DEBUG, httpx included: the filter alone must keep the token out.
    for name in logs.QUIET_LOGGERS:
        logging.getLogger(name).setLevel(logging.DEBUG)
    raw_handler, raw = _capture()
    root.handlers.insert(0, raw_handler)  # formats each record before the filter rewrites it
    caplog.set_level(logging.DEBUG)

    secret_half = token.partition(":")[2]
    async with FakeTelegram(token) as tg:
        # 1. A failing start: Telegram answers 401, PTB's InvalidToken quotes the token.
        tg.fail_next("getMe", error_code=401)
        app = tg.application_builder().concurrent_updates(True).build()
        app.add_handler(CommandHandler("ping", _ping))
        try:
            await app.initialize()
        except InvalidToken:
            logging.getLogger("rummy").exception("Telegram start failed")
        else:
            raise AssertionError("getMe should have failed")
        finally:
            await app.bot.shutdown()
        # 2. A few requests, and a handler whose request fails (PTB logs its traceback).
        group = tg.group(-1001, "Table 1")
        alice = tg.user(1, "Alice")
        async with running(app):
            await tg.send_text(group, alice, "/ping")
            await tg.wait_for("sendMessage")
            tg.fail_next("sendMessage", error_code=500)
            await tg.send_text(group, alice, "/ping")
            await _until(lambda: "No error handlers are registered" in raw.getvalue())
            # 3. Our own code, careless: the token in args, split over args, in a cause.
            log = logging.getLogger("rummy.test")
            log.info("token %s and %r", token, {"url": f"https://api/bot{token}/getMe"})
            bot_id, _, rest = token.partition(":")
            log.debug("bot%s:%s/sendMessage 100%% done", bot_id, rest)
            try:
                try:
                    raise RuntimeError(f"request to /bot{token}/x failed")
                except RuntimeError as error:
                    raise ValueError("wrapped") from error
            except ValueError:
                log.warning("with a cause", exc_info=True, stack_info=True)

    everything = raw.getvalue()
    # The raw capture shows the token: httpx's request lines and the traceback, so a leak
    # would be seen.
    assert f"/bot{token}/getMe" in everything  # httpx: "HTTP Request: POST …/bot<token>/getMe"
    assert f"The token `{token}` was rejected" in everything
    assert "Traceback" in everything and "NetworkError" in everything
    filtered = shown.getvalue()
    for text in (filtered, caplog.text):
        assert token not in text and secret_half not in text
        assert "[redacted]" in text
        assert "HTTP Request: POST" in text  # the records are kept, redacted
        assert "The token `[redacted]` was rejected" in text
        assert "100% done" in text  # the message is final: no second %-formatting
        assert "Traceback" in text and "request to /bot[redacted]/x failed" in text
    assert not tg.internal_errors


def test_redaction_rules(clean_logging: logging.Logger, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("DISCORD_TOKEN", "MTAx.discord-token.value")
    monkeypatch.setenv("TELEGRAM_WEBHOOK_SECRET", "webhook-secret-value")
    console, shown = _capture()
    clean_logging.addHandler(console)
    logs.setup_logging(logging.INFO)
    log = logging.getLogger("rummy.test")
    log.info("discord %s", "MTAx.discord-token.value")
    log.info("header %s", "webhook-secret-value")
    log.info("unconfigured but token-shaped: 987654321:%s", "A" * 35)
    log.info("ordinary: 12:30, 1234567:short, abc")
    log.info("bad args %d", "x")  # a formatting error must not print the args raw
    text = shown.getvalue()
    assert "discord-token" not in text and "webhook-secret-value" not in text
    assert "A" * 35 not in text
    assert "ordinary: 12:30, 1234567:short, abc" in text
    assert text.count("[redacted]") == 3
    logs.add_secret("derived-later-secret")
    log.info("now %s", "derived-later-secret")
    assert "derived-later-secret" not in shown.getvalue()
    # Linear: long digit runs and near-tokens don't make the pattern backtrack.
    hostile = ("1234567890" * 3 + ":" + "a" * 29 + " ") * 20_000
    started = time.perf_counter()
    assert logs.redacting_filter().redact(hostile) == hostile
    assert time.perf_counter() - started < 1.0


def test_run_bots_logs_a_failed_start_redacted(
    clean_logging: logging.Logger, monkeypatch: pytest.MonkeyPatch, caplog
) -> None:
    """`rummy run` with a revoked token: PTB's InvalidToken goes through the log, redacted,
    instead of a bare traceback on stderr."""
    monkeypatch.setenv("TELEGRAM_TOKEN", SHORT_TOKEN)
    monkeypatch.setattr(rummy_app, "_load_dotenv", lambda: None)

    async def serve(url: str | None = None) -> None:
        raise InvalidToken(f"The token `{SHORT_TOKEN}` was rejected by the server.")

    monkeypatch.setattr(rummy_app, "serve", serve)
    assert rummy_app.run_bots() == 1
    assert "rummy run stopped" in caplog.text and "InvalidToken" in caplog.text
    assert SHORT_TOKEN not in caplog.text and "not-token-shaped" not in caplog.text


# -- the webhook ----------------------------------------------------------------------------


def test_webhook_settings(monkeypatch: pytest.MonkeyPatch) -> None:
    for name in SECRET_ENV:
        monkeypatch.delenv(name, raising=False)
    path, secret = rummy_app.webhook_settings(DEFAULT_TOKEN)
    assert path == "telegram" and DEFAULT_TOKEN not in path
    # Derived: the same in every worker, not the token, and another per token.
    assert secret == rummy_app.webhook_settings(DEFAULT_TOKEN)[1]
    assert len(secret) == 64 and int(secret, 16) >= 0
    assert DEFAULT_TOKEN.partition(":")[2] not in secret
    assert secret != rummy_app.webhook_settings("123456789:AAAnother_token_of_the_same_shape")[1]
    monkeypatch.setenv("TELEGRAM_WEBHOOK_SECRET", "my_Secret-1")
    monkeypatch.setenv("TELEGRAM_WEBHOOK_PATH", "/hooks/tg/")
    assert rummy_app.webhook_settings(DEFAULT_TOKEN) == ("hooks/tg", "my_Secret-1")
    monkeypatch.setenv("TELEGRAM_WEBHOOK_SECRET", "has spaces!")
    with pytest.raises(SystemExit):
        rummy_app.webhook_settings(DEFAULT_TOKEN)
    monkeypatch.delenv("TELEGRAM_WEBHOOK_SECRET")
    monkeypatch.setenv("TELEGRAM_WEBHOOK_PATH", DEFAULT_TOKEN)
    with pytest.raises(SystemExit):
        rummy_app.webhook_settings(DEFAULT_TOKEN)


def _free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return probe.getsockname()[1]


async def test_webhook_needs_telegrams_secret_header(
    tmp_path, sqlite_template, monkeypatch: pytest.MonkeyPatch
) -> None:
    for name in SECRET_ENV:
        monkeypatch.delenv(name, raising=False)
    db = tmp_path / "rummy.db"
    shutil.copyfile(sqlite_template, db)
    async with FakeTelegram() as tg:
        path, secret = rummy_app.webhook_settings(tg.token)
        store = await Store.open(f"sqlite+aiosqlite:///{db}")
        service = GameService(store, games=default_games(), computer_delay=0.0, tick=0.05)
        adapter = TelegramAdapter(
            service,
            tg.token,
            base_url=tg.base_url,
            base_file_url=tg.base_file_url,
            poll_timeout=1,
        )
        port = _free_port()
        await adapter.start(
            webhook_url=f"https://bot.example.test/{path}",
            webhook_path=path,
            webhook_secret=secret,
            listen="127.0.0.1",
            port=port,
        )
        await service.start()
        try:
            assert tg.webhook is not None
            assert tg.webhook["url"] == "https://bot.example.test/telegram"
            assert tg.webhook["secret_token"] == secret
            assert tg.token not in tg.webhook["url"] and tg.token.partition(":")[2] not in path
            alice = tg.user(7, "Alice", started=True)
            chat = tg.private_chat(alice)
            await tg.send_text(chat, alice, "/help")
            local = f"http://127.0.0.1:{port}/{path}"
            # Anyone who finds the URL: no header, a wrong one -> 403, nothing processed.
            assert await tg.push_webhook(local, secret_token=None) == [403]
            assert await tg.push_webhook(local, secret_token="guessed") == [403]
            assert await tg.push_webhook(local, secret_token=secret[:-1]) == [403]
            # The old path (the token itself) is served no more.
            assert await tg.push_webhook(f"http://127.0.0.1:{port}/{tg.token}") == [404]
            await asyncio.sleep(0.3)
            assert not tg.calls("sendMessage") and len(tg.pending_updates) == 1
            # Telegram, with the secret: processed.
            assert await tg.push_webhook(local) == [200]
            reply = await tg.wait_for("sendMessage")
            assert reply.ok and reply.chat_id == alice.id
            assert not tg.pending_updates
        finally:
            await adapter.stop()
            await service.stop()
            await store.close()
        assert not tg.internal_errors


async def test_a_webhook_without_a_secret_is_refused() -> None:
    adapter = TelegramAdapter.__new__(TelegramAdapter)  # start() checks before any request
    with pytest.raises(ValueError, match="secret"):
        await adapter.start(webhook_url="https://bot.example.test/telegram")
