"""Logging for `rummy run`, with the secrets kept out of it.

Bot API URLs carry the bot token (`…/bot<token>/sendMessage`), and httpx logs every request URL
at INFO; PTB logs request parameters at DEBUG (a webhook's `secret_token` among them) and puts
the token in `InvalidToken`'s message. So:

1. httpx and httpcore log only warnings and errors;
2. every handler of the root logger gets a `RedactingFilter`, which replaces the configured
   secrets (TELEGRAM_TOKEN, DISCORD_TOKEN, TELEGRAM_WEBHOOK_SECRET and any added with
   `add_secret`, e.g. a derived webhook secret) and anything shaped like a Telegram bot token
   with "[redacted]" — in the formatted message (so in its args too), the exception text and
   the stack text, whichever logger the record comes from and at whatever level.

A filter on a handler sees every record the handler emits, propagated ones included (a filter
on the root *logger* would not). Handlers added to the root after `setup_logging` get it with
another `setup_logging`/`install` call.
"""

from __future__ import annotations

import logging
import os
import re
from collections.abc import Iterable

REDACTED = "[redacted]"
FORMAT = "%(asctime)s %(levelname)s %(name)s: %(message)s"
# "123456789:AAH…": 6-12 digits, a colon, 30+ of base64url (35 in real tokens). One character
# class after a bounded prefix: the match is linear in the text's length.
TELEGRAM_TOKEN_RE = r"\d{6,12}:[A-Za-z0-9_-]{30,}"
SECRET_ENV = ("TELEGRAM_TOKEN", "DISCORD_TOKEN", "TELEGRAM_WEBHOOK_SECRET")
QUIET_LOGGERS = ("httpx", "httpcore")
MIN_SECRET = 8  # shorter "secrets" would redact ordinary words and numbers


class RedactingFilter(logging.Filter):
    """Replaces secrets in a record with "[redacted]" (it never drops a record)."""

    def __init__(self, secrets: Iterable[str] = ()) -> None:
        super().__init__()
        self._secrets: set[str] = set()
        self._pattern = re.compile(TELEGRAM_TOKEN_RE)
        self.add(*secrets)

    def add(self, *secrets: str | None) -> None:
        """Also redact these (blank or very short values are ignored)."""
        new: set[str] = set()
        for secret in secrets:
            secret = (secret or "").strip()
            # A bot token's secret half alone too (the id before ":" is public): it may be
            # logged cut out of the token, or URL-quoted ("%3A").
            half = secret.partition(":")[2] if re.fullmatch(r"\d+:\S+", secret) else ""
            new |= {s for s in (secret, half) if len(s) >= MIN_SECRET}
        if new - self._secrets:
            self._secrets |= new
            # Longest first, so a secret containing another is replaced whole. Literal
            # alternatives: no backtracking beyond the alternatives themselves.
            literal = "|".join(re.escape(s) for s in sorted(self._secrets, key=len, reverse=True))
            self._pattern = re.compile(f"{literal}|{TELEGRAM_TOKEN_RE}")

    def redact(self, text: str) -> str:
        return self._pattern.sub(REDACTED, text)

    def filter(self, record: logging.LogRecord) -> bool:
        try:
            message = record.getMessage()
        except Exception:  # bad %-args: logging would print msg and args raw in its error report
            message = f"{record.msg!r} % {record.args!r}"
        record.msg = self.redact(message)
        record.args = None  # the message is final: no %-formatting (it may contain "%")
        if record.exc_info and not record.exc_text:
            record.exc_text = _FORMATTER.formatException(record.exc_info)
        if record.exc_text:
            record.exc_text = self.redact(record.exc_text)
        if record.stack_info:
            record.stack_info = self.redact(record.stack_info)
        return True


_FORMATTER = logging.Formatter()
_FILTER = RedactingFilter()


def redacting_filter() -> RedactingFilter:
    """The process's filter (the one `setup_logging` installs)."""
    return _FILTER


def add_secret(*secrets: str | None) -> None:
    """Keep these out of the log from now on (e.g. a secret derived at start)."""
    _FILTER.add(*secrets)


def install(logger: logging.Logger | None = None) -> None:
    """Put the filter on every handler of `logger` (the root logger by default)."""
    for handler in (logger or logging.getLogger()).handlers:
        if _FILTER not in handler.filters:
            handler.addFilter(_FILTER)


def uninstall(logger: logging.Logger | None = None) -> None:
    for handler in (logger or logging.getLogger()).handlers:
        handler.removeFilter(_FILTER)


def setup_logging(level: int | str = logging.INFO) -> RedactingFilter:
    """Log to stderr at `level` (unless the root logger has handlers already), quiet httpx
    and httpcore, and redact the secrets set in the environment on every root handler."""
    root = logging.getLogger()
    logging.basicConfig(level=level, format=FORMAT)  # no-op when handlers exist
    root.setLevel(level)
    for name in QUIET_LOGGERS:
        logging.getLogger(name).setLevel(logging.WARNING)
    add_secret(*(os.environ.get(name) for name in SECRET_ENV))
    install(root)
    return _FILTER
