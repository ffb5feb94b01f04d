"""Test doubles (fake chat-platform servers) shared by the test suite.

``FakeTelegram`` (telegram_server.py) is a fake Telegram Bot API server; its names are
re-exported here lazily, so importing one fake never imports another fake's dependencies.
"""

from __future__ import annotations

import importlib
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from .telegram_models import (
        ApiError,
        CallbackQueryRecord,
        FakeChat,
        FakeFile,
        FakeMessage,
        FakeUser,
        FoundButton,
        RecordedRequest,
    )
    from .telegram_server import DEFAULT_TOKEN, NOT_MODIFIED, QUERY_TOO_OLD, FakeTelegram, running

_LAZY = {
    **dict.fromkeys(
        (
            "ApiError",
            "CallbackQueryRecord",
            "FakeChat",
            "FakeFile",
            "FakeMessage",
            "FakeUser",
            "FoundButton",
            "RecordedRequest",
        ),
        ".telegram_models",
    ),
    **dict.fromkeys(
        ("DEFAULT_TOKEN", "NOT_MODIFIED", "QUERY_TOO_OLD", "FakeTelegram", "running"),
        ".telegram_server",
    ),
}

__all__ = [
    "DEFAULT_TOKEN",
    "NOT_MODIFIED",
    "QUERY_TOO_OLD",
    "ApiError",
    "CallbackQueryRecord",
    "FakeChat",
    "FakeFile",
    "FakeMessage",
    "FakeTelegram",
    "FakeUser",
    "FoundButton",
    "RecordedRequest",
    "running",
]


def __getattr__(name: str) -> Any:
    module = _LAZY.get(name)
    if module is None:
        raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
    return getattr(importlib.import_module(module, __name__), name)
