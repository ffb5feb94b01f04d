"""The soak run's worker: the real GameService (and lessons) over a real Store, driven through
newline-delimited JSON on stdin/stdout. Started (and SIGKILLed, and started again) by
bench/soak.py; not meant to be run by hand, though it can be:

    .venv/bin/python bench/soak_worker.py --url sqlite+aiosqlite:////tmp/x/soak.db

Requests, one JSON object a line:

    {"id": 7, "kind": "press", "actor": {...}, "data": "12:3:draw"}
    {"id": 8, "kind": "command", "actor": {...}, "verb": "lay", "args": "7H 8H 9H"}
    {"id": 9, "kind": "new_game", "actor": {...}, "rulebook": null}
    {"id": 10, "kind": "text", "actor": {...}, "text": "hi"}     (plain text, private chat)

with actor = {"platform": "soak", "chat_id": "...", "user": "...", "name": "...",
"private": false}. Each request gets one answer line, {"id": 7, "out": OUTCOME}, where OUTCOME
is the outcome the service returned (reply, alert, revision, and every screen it carries, each
with its buttons packed into callback data exactly as the Telegram adapter packs them).

Every request passes the door first, as on Telegram (`TelegramAdapter._dispatch`): metered per
person and per chat (`Intake.meter`), then run in its chat's line (`Intake.submit`). One turned
away gets an outcome with only a reply (the slow-down text once a window, then none) and says
why in the answer line: {"id": 7, "out": {...}, "door": "warn" | "quiet" | "full"} ("full":
the chat's line was full).
Outcomes the service delivers by itself (computer turns, turn timers) come as unsolicited
lines {"deliver": OUTCOME}. The first line is {"ready": true, "pid": ...} once the service has
started (every active game resumed). EOF on stdin stops the service and the store cleanly.

Logging goes to stderr (the parent counts the tracebacks there).
"""

from __future__ import annotations

import argparse
import asyncio
import json
import logging
import os
import random
import sys
import traceback
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))


from bot import event_loop  # noqa: E402
from bot.adapters.intake import Intake, Verdict  # noqa: E402
from bot.core.buttons import pack  # noqa: E402
from bot.core.fair_use import SLOW_DOWN  # noqa: E402
from bot.core.service import Actor, GameService  # noqa: E402
from bot.core.views import Outcome, Screen  # noqa: E402
from bot.games import default_games  # noqa: E402
from bot.i18n import _  # noqa: E402
from bot.store import Store  # noqa: E402

PLATFORM = "soak"
log = logging.getLogger("soak_worker")


def emit(obj: dict[str, Any]) -> None:
    sys.stdout.write(json.dumps(obj, ensure_ascii=False, default=str) + "\n")
    sys.stdout.flush()


def buttons_of(screen: Screen, problems: list[str]) -> list[str]:
    """The callback data of the screen's buttons, as telegram.keyboard() builds them."""
    if not screen.buttons:
        return []
    if screen.game_id is None:
        problems.append(f"a screen with buttons but no game id: {screen.text[:80]!r}")
        return []
    out = []
    for row in screen.buttons:
        for b in row:
            try:
                out.append(pack(screen.game_id, screen.version, b.action))
            except ValueError as error:  # longer than Telegram's 64 bytes
                problems.append(str(error))
    return out


class Worker:
    def __init__(self, store: Store, args: argparse.Namespace) -> None:
        self.service = GameService(
            store, games=default_games(), computer_delay=args.computer_delay, tick=args.tick
        )
        self.service.register(PLATFORM, self.deliver)
        self.intake = Intake(lambda: self.service.fair_use)
        self.render = args.render
        self.rng = random.Random()

    def encode(self, out: Outcome) -> dict[str, Any]:
        problems: list[str] = []
        screens = []

        def add(to: str, chat: str, screen: Screen, new: bool) -> None:
            if self.render and self.rng.random() < self.render:
                _picture = screen.image  # the picture, as an adapter would send it
            screens.append(
                {
                    "to": to,  # "group", "note" or a user id (their private chat)
                    "chat": chat,
                    "game": screen.game_id,
                    "version": screen.version,
                    "text": screen.text,
                    "buttons": buttons_of(screen, problems),
                    "new": new,
                }
            )

        if out.group is not None:
            add("group", out.chat_id, out.group, out.group_new)
        for note in out.notes:
            add("note", out.chat_id, note, True)
        for user, screen in out.private.items():
            add(str(user), str(user), screen, user in out.private_new)
        return {
            "reply": out.reply,
            "alert": out.alert,
            "game": out.game_id,
            "platform": out.platform,
            "chat": out.chat_id,
            "revision": out.revision,
            "screens": screens,
            "pnotes": {str(k): v for k, v in out.private_notes.items()},
            "problems": problems,
        }

    async def deliver(self, outcome: Outcome) -> None:
        """The 'soak' platform: what a computer turn or a timer sends by itself."""
        if self.render:
            msg = await asyncio.to_thread(self.encode, outcome)
        else:
            msg = self.encode(outcome)
        emit({"deliver": msg})

    async def handle(self, req: dict[str, Any]) -> None:
        """One request line, through the door as on Telegram: metered first, then run in its
        chat's line; exactly one answer line either way."""
        rid = req.get("id")
        try:
            a = req["actor"]
            actor = Actor(a["platform"], str(a["chat_id"]), str(a["user"]), a["name"],
                          bool(a.get("private")))
        except Exception as error:
            self.failed(rid, req, error)
            return
        verdict = self.intake.meter(actor.platform, actor.user, actor.chat_id)
        door = verdict.value
        if verdict is Verdict.GO:
            if await self.intake.submit(actor.chat_id, lambda: self.answer(rid, req, actor)):
                return
            verdict, door = Verdict.QUIET, "full"  # the chat's line was full: turned away
        # A press gets only its callback answer, a command or text one "slow down" a window:
        # an outcome with only that reply (none when quiet).
        reply = _(SLOW_DOWN) if verdict is Verdict.WARN else None
        emit({"id": rid, "out": self.encode(Outcome(reply=reply)), "door": door})

    async def answer(self, rid: Any, req: dict[str, Any], actor: Actor) -> None:
        """An admitted request, routed as the Telegram adapter's handlers route it."""
        try:
            kind = req["kind"]
            if kind == "press":
                out = await self.service.press(actor, req["data"])
            elif kind == "command":
                out = await self.service.command(actor, req["verb"], req.get("args", ""))
            elif kind == "text":
                out = await self.private_text(actor, req["text"])
            elif kind == "new_game":
                out = await self.service.new_game(actor, req.get("rulebook"))
            else:
                raise ValueError(f"unknown request kind {kind!r}")
            msg = await asyncio.to_thread(self.encode, out) if self.render else self.encode(out)
            emit({"id": rid, "out": msg})
        except Exception as error:  # an exception the service let through: a finding
            self.failed(rid, req, error)

    async def private_text(self, actor: Actor, text: str) -> Outcome:
        """Plain text in a private chat, routed as TelegramAdapter.on_private_text routes it
        (what answers in chat is that outcome's reply or screens)."""
        if not actor.private:
            raise ValueError("plain text comes only from a private chat")
        verb, _sep, rest = text.strip().partition(" ")
        if verb.lower() not in self.service.typed_verbs:
            return Outcome(reply=_("Type /help for the commands."))
        return await self.service.command(actor, verb, rest)

    @staticmethod
    def failed(rid: Any, req: dict[str, Any], error: Exception) -> None:
        log.exception("soak request %s failed: %r", rid, req)
        emit({"id": rid, "error": f"{type(error).__name__}: {error}",
              "trace": traceback.format_exc()[-2000:]})


async def open_store(url: str, schema: str | None) -> Store:
    if not schema:
        return await Store.open(url)
    # PostgreSQL in a schema of its own: the same engine settings as the store's, plus the
    # search path (tables, indexes and alembic_version all land in that schema).
    from sqlalchemy.ext.asyncio import create_async_engine

    from bot.store.migrate import run_migrations
    from bot.store.urls import database_url

    engine = create_async_engine(
        database_url(url), pool_pre_ping=True,
        connect_args={"server_settings": {"search_path": schema}},
    )
    await run_migrations(engine)
    return Store(engine)


async def main(args: argparse.Namespace) -> None:
    store = await open_store(args.url, args.schema)
    worker = Worker(store, args)
    await worker.service.start()
    emit({"ready": True, "pid": os.getpid()})
    loop = asyncio.get_running_loop()
    reader = asyncio.StreamReader(limit=1 << 22)
    await loop.connect_read_pipe(lambda: asyncio.StreamReaderProtocol(reader), sys.stdin)
    tasks: set[asyncio.Task] = set()
    while True:
        line = await reader.readline()
        if not line:
            break
        try:
            req = json.loads(line)
        except ValueError:
            log.error("soak: unreadable request line %r", line[:200])
            continue
        task = asyncio.create_task(worker.handle(req))
        tasks.add(task)
        task.add_done_callback(tasks.discard)
    if tasks:
        await asyncio.wait(tasks, timeout=5)
    await worker.service.stop()
    await store.close()


if __name__ == "__main__":
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--url", required=True)
    parser.add_argument("--schema", default=None, help="PostgreSQL schema to use")
    parser.add_argument("--computer-delay", type=float, default=0.05)
    parser.add_argument("--tick", type=float, default=0.2)
    parser.add_argument("--render", type=float, default=0.0,
                        help="fraction of screens whose picture is rendered")
    logging.basicConfig(
        level=logging.WARNING, stream=sys.stderr,
        format="%(asctime)s %(levelname)s %(name)s: %(message)s",
    )
    event_loop.run(main(parser.parse_args()))  # as rummy run
