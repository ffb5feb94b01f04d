"""The bench's view of the fake Telegram server (tests/fakes/telegram_server.py).

`BenchTelegram` is `FakeTelegram` plus what a benchmark with a hundred concurrent users needs:
waiting for a request in one chat is O(1) per recorded request (FakeTelegram.wait_until re-checks
every waiter on every request), uploaded bytes are not kept twice, and `press_and_wait` returns
the two times the benchmark is about: press -> answerCallbackQuery arriving, and press -> the
bot's edit of the pressed message (or a fresh message in that chat) arriving. Times are the fake's
own `time.monotonic()` stamps: the callback query's creation and each request's arrival.
"""

from __future__ import annotations

import asyncio
import contextlib
import sys
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
for _path in (ROOT, ROOT / "tests"):
    if str(_path) not in sys.path:
        sys.path.insert(0, str(_path))

from fakes.telegram_server import FakeTelegram  # noqa: E402

EDITS = frozenset({"editmessagemedia", "editmessagecaption", "editmessagetext",
                   "editmessagereplymarkup"})
POSTS = frozenset({"sendphoto", "sendmessage"})


@dataclass
class Press:
    """One button press as the fake saw it (times in ms after the press was queued)."""

    kind: str
    query_id: str
    pressed: float  # time.monotonic() when the callback_query was queued
    answer_ms: float | None = None  # -> answerCallbackQuery arrived
    edit_ms: float | None = None  # -> edit of the pressed message (or a new post) arrived
    edit_method: str = ""
    edit_status: int = 0
    text: str = ""  # the answer's toast/alert text
    alert: bool = False
    error: str = ""  # timeout / exception on the bench side


def _version_of(callback_data: str | None) -> int | None:
    parts = str(callback_data or "").split(":", 2)
    if len(parts) == 3 and parts[0].isdigit() and parts[1].isdigit():
        return int(parts[1])
    return None


# A lobby's buttons (bench/bot_server.press_kind): their versions count lobby changes, not
# game states, so a lobby and the table after it are not in one order.
LOBBY_ACTIONS = frozenset({"join", "leave", "start", "menu", "cpu", "rb", "opt", "timer"})


def _is_lobby(markup: dict) -> bool:
    for row in markup.get("inline_keyboard", []):
        for button in row:
            parts = str(button.get("callback_data", "")).split(":")
            if len(parts) > 2 and parts[2] in LOBBY_ACTIONS:
                return True
    return False


def markup_version(markup: Any) -> int | None:
    """The game-state version an inline keyboard was made for (None: no game buttons)."""
    if not isinstance(markup, dict):
        return None
    versions = [v for row in markup.get("inline_keyboard", []) for button in row
                if (v := _version_of(button.get("callback_data"))) is not None]
    return max(versions) if versions else None


class BenchTelegram(FakeTelegram):
    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        # chat id -> [(predicate, future)] resolved by the first matching request
        self._chat_waiters: dict[Any, list[tuple[Callable[[Any], bool], asyncio.Future]]] = {}
        self.failed: list[tuple[str, int, str]] = []  # (method, status, description), 4xx/5xx
        self.counts: dict[str, int] = {}

    # -- hook: every answered Bot API request passes here -----------------------------------

    def _record(self, method: str, params: Any, arrived: float, status: int, body: Any) -> None:
        super()._record(method, params, arrived, status, body)
        request = self.requests[-1]
        request.files = {}  # uploads are kept in the chat's messages already
        name = method.lower()
        self.counts[name] = self.counts.get(name, 0) + 1
        if status >= 400:
            self.failed.append((method, status, str(body.get("description", ""))[:120]))
        waiters = self._chat_waiters.get(request.chat_id)
        if not waiters:
            return
        keep = []
        for predicate, future in waiters:
            if future.done():
                continue
            try:
                hit = predicate(request)
            except Exception as error:  # a bench bug: surface it in the waiting task
                future.set_exception(error)
                continue
            if hit:
                future.set_result(request)
            else:
                keep.append((predicate, future))
        if keep:
            self._chat_waiters[request.chat_id] = keep
        else:
            self._chat_waiters.pop(request.chat_id, None)

    def expect(self, chat_id: int, predicate: Callable[[Any], bool]) -> asyncio.Future:
        """A future for the next request in `chat_id` matching `predicate` (register first,
        then act, so nothing is missed)."""
        future = asyncio.get_running_loop().create_future()
        with self._lock:
            self._chat_waiters.setdefault(chat_id, []).append((predicate, future))
        return future

    async def wait_chat(
        self, chat_id: int, condition: Callable[[], bool], timeout: float
    ) -> bool:
        """Wait until `condition()` holds, re-checked after each request in `chat_id`."""
        loop = asyncio.get_running_loop()
        deadline = loop.time() + timeout
        while True:
            with self._lock:
                if condition():
                    return True
                future = self.expect(chat_id, lambda _r: True)
            remaining = deadline - loop.time()
            if remaining <= 0:
                future.cancel()
                return False
            # re-check at least every second: the condition may change via another chat
            with contextlib.suppress(TimeoutError):
                await asyncio.wait_for(future, min(remaining, 1.0))

    def backwards_screens(self, since: int = 0) -> list[tuple[int, int, int, str, float]]:
        """(chat, version before, version after, method) wherever the bot's next screen in a
        chat carried buttons of an older game state than the previous one (out-of-order
        delivery). Versions come from the callback data `game:version:action`."""
        last: dict[tuple[int, int], int] = {}
        found = []
        with self._lock:
            requests = self.requests[since:]
        for request in requests:
            if request.method.lower() not in EDITS | POSTS or request.status != 200:
                continue
            markup = request.params.get("reply_markup")
            if not isinstance(markup, dict) or _is_lobby(markup):
                continue
            versions = {
                (int(data.split(":", 1)[0]), version)
                for row in markup.get("inline_keyboard", [])
                for button in row
                if (version := _version_of(data := str(button.get("callback_data", ""))))
                is not None
            }
            for game, version in versions:
                if game and version:  # lobby screens carry version 0
                    key = (request.chat_id, game)
                    if version < last.get(key, 0):
                        found.append((request.chat_id, last[key], version, request.method,
                                      request.time))
                    last[key] = max(version, last.get(key, 0))
        return found

    def recent(self, chat_id: int, count: int, before: float | None = None) -> list[str]:
        """The last `count` requests in a chat (up to time `before`), short, for diagnostics."""
        out = []
        with self._lock:
            for request in reversed(self.requests[-3000:] if before is None else self.requests):
                if request.chat_id != chat_id or (before is not None and request.time > before):
                    continue
                markup = request.params.get("reply_markup")
                data = ""
                if isinstance(markup, dict) and markup.get("inline_keyboard"):
                    data = str(markup["inline_keyboard"][-1][-1].get("callback_data"))
                media = request.params.get("media")
                caption = request.params.get("caption") or (
                    media.get("caption") if isinstance(media, dict) else "") or ""
                text = request.params.get("text") or ""
                out.append(f"{request.time:.2f} {request.method} {request.status} "
                           f"{data} {(caption or text)[:25]!r}")
                if len(out) >= count:
                    break
        return out[::-1]

    # -- reading what a chat shows ------------------------------------------------------------

    def newest_bot_message(self, chat_id: int, predicate: Callable[[Any], bool] = bool):
        with self._lock:
            history = self._chat(chat_id).history
            for message in reversed(list(history.values())):
                if message.from_bot and not message.deleted and predicate(message):
                    return message
        return None

    def find(self, chat_id: int, label: str):
        """(message, callback_data) of the newest bot button whose label contains `label`."""
        with self._lock:
            history = self._chat(chat_id).history
            for message in reversed(list(history.values())):
                if not message.from_bot or message.deleted:
                    continue
                for row in message.buttons:
                    for text, data in row:
                        if label in text and data:
                            return message, data
        return None

    # -- acting ------------------------------------------------------------------------------

    async def press_and_wait(
        self,
        chat_id: int,
        message_id: int,
        data: str,
        user: Any,
        kind: str,
        *,
        timeout: float = 20.0,
        wait_edit: bool = True,
        strict: bool = True,
    ) -> Press:
        """Press, then wait for the answer and (unless the answer is all there is) the edit."""

        # A lobby's versions count lobby changes; the table that Start posts counts the game's.
        pressed = _version_of(data) if kind != "lobby" else None

        def is_edit(request: Any) -> bool:
            name = request.method.lower()
            if name in EDITS:
                hit = request.params.get("message_id") == message_id
            else:
                hit = name in POSTS and request.params.get("reply_markup") is not None
            # An older screen arriving late (out-of-order delivery) is not this press's result.
            shown = markup_version(request.params.get("reply_markup"))
            return hit and (pressed is None or shown is None or shown >= pressed)

        edited = self.expect(chat_id, is_edit) if wait_edit else None
        query_id = await self.press(chat_id, message_id, data, user, strict=strict)
        # press() has no await inside: nothing ran since; register the answer waiter now.
        answered = self.expect(
            chat_id,
            lambda r: r.method.lower() == "answercallbackquery"
            and str(r.params.get("callback_query_id")) == query_id,
        )
        record = Press(kind, query_id, self.queries[query_id].created)
        try:
            request = await asyncio.wait_for(answered, timeout)
            record.answer_ms = (request.time - record.pressed) * 1000
            answer = self.answers.get(query_id, {})
            record.text = answer.get("text") or ""
            record.alert = bool(answer.get("show_alert"))
        except TimeoutError:
            record.error = "no answer"
        if edited is not None:
            # An alert that changed nothing may come without a screen: don't wait long for it.
            wait = timeout if not record.alert and not record.error else 0.5
            try:
                request = await asyncio.wait_for(edited, wait)
                record.edit_ms = (request.time - record.pressed) * 1000
                record.edit_method = request.method
                record.edit_status = request.status
            except TimeoutError:
                if not record.alert and not record.error:
                    record.error = "no edit"
        return record
