"""bench/soak_worker.py: every request passes the door as on Telegram, and gets one answer line.

The soak (bench/soak.py) counts a request without an answer line as unanswered, and its flooders
send plain private text, which the worker routes as TelegramAdapter.on_private_text does.
"""

from __future__ import annotations

import argparse
import asyncio
import importlib.util
import shutil
import sys
from pathlib import Path
from typing import Any

import pytest

from bot.core.fair_use import SLOW_DOWN
from bot.store import Store

BENCH = Path(__file__).resolve().parent.parent / "bench"


def _load_worker() -> Any:
    spec = importlib.util.spec_from_file_location("soak_worker", BENCH / "soak_worker.py")
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    sys.modules.setdefault("soak_worker", module)
    spec.loader.exec_module(module)
    return module


soak_worker = _load_worker()


@pytest.fixture
async def worker(sqlite_template: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch):
    path = tmp_path / "soak.db"
    shutil.copyfile(sqlite_template, path)
    store = await Store.open(f"sqlite+aiosqlite:///{path}")
    lines: list[dict[str, Any]] = []
    monkeypatch.setattr(soak_worker, "emit", lines.append)
    w = soak_worker.Worker(store, argparse.Namespace(computer_delay=0.05, tick=0.2, render=0.0))
    w.lines = lines
    await w.service.start()
    try:
        yield w
    finally:
        await w.service.stop()
        await store.close()


def _actor(user: str, chat: str) -> dict[str, Any]:
    return {"platform": "soak", "chat_id": chat, "user": user, "name": "P" + user,
            "private": chat == user}


async def test_a_forward_of_plain_private_text_is_metered_and_every_line_answered(worker):
    flood = [{"id": i, "kind": "text", "actor": _actor("42", "42"), "text": "hi"}
             for i in range(60)]
    await asyncio.gather(*(worker.handle(req) for req in flood))

    assert sorted(line["id"] for line in worker.lines) == list(range(60))  # one answer each
    assert not [line for line in worker.lines if "error" in line]
    admitted = [line for line in worker.lines if "door" not in line]
    turned_away = [line for line in worker.lines if "door" in line]
    # routed as on Telegram: a non-verb gets the pointer to /help
    assert admitted and {line["out"]["reply"] for line in admitted} == {
        "Type /help for the commands."}
    assert turned_away  # 60 at once is past fair use (a person's burst is 20)
    replies = [line["out"]["reply"] for line in turned_away]
    assert replies.count(SLOW_DOWN) == 1  # told once, then silence
    assert replies.count(None) == len(replies) - 1
    assert all(not line["out"]["screens"] for line in turned_away)


async def test_a_flood_turns_away_only_the_flooder(worker):
    flood = [{"id": i, "kind": "command", "actor": _actor("42", "-1001"), "verb": "help",
              "args": ""} for i in range(60)]
    await asyncio.gather(*(worker.handle(req) for req in flood))
    await worker.handle({"id": 100, "kind": "new_game", "actor": _actor("7", "-1002"),
                         "rulebook": None})

    carol = next(line for line in worker.lines if line["id"] == 100)
    assert "door" not in carol and carol["out"]["game"] is not None
    assert sum("door" in line for line in worker.lines) > 0
