"""A fake Telegram Bot API server for tests: real HTTP on 127.0.0.1, real wire protocol.

The bot under test runs the real python-telegram-bot ``Application``; only its URLs point here.
The fake keeps what every chat shows (messages, edits, deletions, keyboards, photos), lets a test
act as users (send text, press buttons, open the private chat), logs every API call and can
inject errors (429 flood control, 403, 5xx…).

Usage (the Application is shut down in ``finally`` so no task outlives the test)::

    from telegram.ext import Application, CommandHandler
    from fakes import FakeTelegram

    async def test_ping():
        async with FakeTelegram() as tg:
            app = (
                Application.builder()
                .token(tg.token)
                .base_url(tg.base_url)            # "http://127.0.0.1:<port>/bot"
                .base_file_url(tg.base_file_url)  # "http://127.0.0.1:<port>/file/bot"
                .get_updates_read_timeout(2)      # getUpdates read timeout = this + poll timeout
                .concurrent_updates(True)         # parallel games: don't serialise updates
                .build()
            )                                     # (tg.application_builder() does the first 3)
            app.add_handler(CommandHandler("ping", ping))
            await app.initialize()                # getMe
            await app.start()
            await app.updater.start_polling(poll_interval=0, timeout=1)  # deleteWebhook, getUpdates
            try:
                group = tg.group(-1001, "Table 1")
                alice = tg.user(1, "Alice", "alice")
                await tg.send_text(group, alice, "/ping")
                await tg.wait_for("sendMessage")     # requests made since the last user action
                assert tg.last_message(group).text == "pong"
            finally:
                await app.updater.stop()             # cancels the long poll, acks fetched updates
                await app.stop()
                await app.shutdown()

``running(app)`` (this module) wraps initialize/start/start_polling/stop/shutdown.

Fast-test notes: queued updates are returned to a waiting getUpdates at once, so ``timeout`` only
bounds idle polls (1 s is plenty; stopping cancels the poll, it does not wait for it). Keep
``poll_interval=0``. PTB processes updates one at a time unless ``concurrent_updates(True)``.
``AIORateLimiter()`` defaults (20 messages/min per group) throttle busy tests in real time: pass
``AIORateLimiter(overall_max_rate=0, group_max_rate=0, max_retries=…)`` to keep only its
RetryAfter handling. Stop the Application before the fake (its last getUpdates acks updates).
"""

from __future__ import annotations

import asyncio
import contextlib
import itertools
import json
import re
import threading
import time
from collections.abc import AsyncIterator, Callable, Iterable
from dataclasses import dataclass
from http import HTTPStatus
from typing import TYPE_CHECKING, Any

from aiohttp import web

from bot.clock import REAL, Clock

from .telegram_limits import FloodControl, FloodLimits, counted, retry_after
from .telegram_methods import (
    ADMIN_STATUSES,
    DEFAULT_UPDATE_KINDS,
    NOT_MODIFIED,
    QUERY_TOO_OLD,
    ApiParams,
    BotApiMethods,
    ChatRef,
    Upload,
    UserRef,
)
from .telegram_models import (
    ApiError,
    CallbackQueryRecord,
    FakeChat,
    FakeFile,
    FakeMessage,
    FakeUser,
    FoundButton,
    JSONDict,
    RecordedRequest,
)
from .telegram_text import detect_entities

if TYPE_CHECKING:
    from telegram.ext import Application, ApplicationBuilder

__all__ = ["DEFAULT_TOKEN", "NOT_MODIFIED", "QUERY_TOO_OLD", "FakeTelegram", "running"]

DEFAULT_TOKEN = "123456789:AAFakeTelegramToken_for-tests_0123456"
CONFLICT_TERMINATED = (
    "Conflict: terminated by other getUpdates request; make sure that only one bot instance "
    "is running"
)
CONFLICT_WEBHOOK = (
    "Conflict: can't use getUpdates method while webhook is active; use deleteWebhook to delete "
    "the webhook first"
)
_TOKEN_RE = re.compile(r"\d+:[A-Za-z0-9_-]+")
# Form fields Telegram reads as strings; every other field holds JSON (PTB json.dumps them).
_STRING_PARAMS = frozenset(
    {
        "text", "caption", "parse_mode", "callback_query_id", "url", "action", "language_code",
        "inline_message_id", "secret_token", "business_connection_id", "ip_address",
        "message_effect_id", "file_id", "emoji", "photo", "document", "description",
        "short_description", "name", "title", "query_id", "invite_link", "custom_title",
        "game_short_name", "sticker", "thumbnail",
    }
)  # fmt: skip
Predicate = Callable[[RecordedRequest], bool] | str
SECRET_HEADER = "X-Telegram-Bot-Api-Secret-Token"


class _Unset:
    pass


_UNSET = _Unset()


@dataclass
class _Failure:
    method: str
    error_code: int
    description: str
    parameters: JSONDict | None
    chat_id: int | str | None
    times: int


def _coerce(name: str, raw: str) -> Any:
    if name in _STRING_PARAMS:
        return raw
    try:
        return json.loads(raw)
    except ValueError:
        return raw  # e.g. chat_id="@channelname"


async def _decode_request(request: web.Request) -> tuple[JSONDict, dict[str, Upload]]:
    values: JSONDict = {key: _coerce(key, value) for key, value in request.query.items()}
    uploads: dict[str, Upload] = {}
    if request.can_read_body:
        if request.content_type == "application/json":
            body = await request.json()
            if isinstance(body, dict):
                values.update(body)
        else:  # PTB: urlencoded form, or multipart/form-data when files are uploaded
            form = await request.post()
            for key, value in form.items():
                if isinstance(value, web.FileField):
                    uploads[key] = Upload(value.filename, value.file.read(), value.content_type)
                else:
                    values[key] = _coerce(key, value)
    return values, uploads


class FakeTelegram(BotApiMethods):
    """In-process fake of api.telegram.org (one bot). See the module docstring for usage.

    State lives in plain attributes guarded by ``_lock`` (a threading.RLock held only in
    synchronous sections, never across an ``await``, so concurrent requests and test helpers
    see consistent state).
    """

    def __init__(
        self,
        token: str | Iterable[str] = DEFAULT_TOKEN,
        *,
        bot_username: str = "rummy_table_bot",
        bot_first_name: str = "Rummy Table",
        privacy_mode: bool = False,
        callback_answer_timeout: float = 15.0,
        flood: FloodLimits | None = FloodLimits(),  # noqa: B008 (frozen: shared safely)
        clock: Clock | None = None,
    ) -> None:
        # Telegram's time (bot/clock.py): flood control, dates and each request's `time` are
        # in its seconds (a ScaledClock: virtual ones). Real seconds: the callback answer
        # deadline (it times the bot's own work, which virtual time would only magnify: the
        # limiter never holds an answer back), the helpers' `timeout`s and `settle`'s quiet.
        self.clock: Clock = clock or REAL
        tokens = [token] if isinstance(token, str) else list(token)
        if not tokens:
            raise ValueError("at least one token is needed")
        self.token: str = tokens[0]
        self._tokens = frozenset(tokens)
        self.bot = FakeUser(
            id=int(self.token.split(":", 1)[0]),
            first_name=bot_first_name,
            username=bot_username,
            is_bot=True,
        )
        # privacy_mode=True: in groups the bot only gets commands, replies to it and mentions.
        self.privacy_mode = privacy_mode
        self.callback_answer_timeout = callback_answer_timeout
        # Telegram's flood control (telegram_limits.py); None only for a test that says why.
        self.flood = FloodControl(flood, self.clock.monotonic) if flood is not None else None

        self.requests: list[RecordedRequest] = []
        self.answers: dict[str, JSONDict] = {}  # callback query id -> answerCallbackQuery params
        self.queries: dict[str, CallbackQueryRecord] = {}
        self.webhook: JSONDict | None = None  # last setWebhook parameters
        self.commands: dict[tuple[str, str], list[JSONDict]] = {}  # (scope JSON, language)
        self.menu_buttons: dict[str, JSONDict] = {}  # chat id ("": every chat's default)
        self.internal_errors: list[BaseException] = []  # bugs in the fake, answered with 500

        self._lock = threading.RLock()
        self._users: dict[int, FakeUser] = {self.bot.id: self.bot}
        self._chats: dict[int, FakeChat] = {}
        self._files: dict[str, FakeFile] = {}
        self._failures: list[_Failure] = []
        self._updates: list[JSONDict] = []
        self._allowed_updates: frozenset[str] = DEFAULT_UPDATE_KINDS
        self._update_ids = itertools.count(100_001)
        self._query_ids = itertools.count(1)
        self._file_ids = itertools.count(1)
        self._poll_generation = 0
        self._mark = 0
        self._updates_event = asyncio.Event()
        self._requests_event = asyncio.Event()
        self._closing = False
        self._runner: web.AppRunner | None = None
        self._port: int | None = None

        self._methods = self._api_methods()

    # ---------------------------------------------------------------------------------------
    # lifecycle

    async def start(self) -> FakeTelegram:
        app = web.Application(client_max_size=64 * 1024 * 1024)
        app.router.add_route("*", "/bot{token}/{method}", self._handle_api)
        app.router.add_route("GET", "/file/bot{token}/{path:.+}", self._handle_file)
        # handler_cancellation: a long poll whose client went away (PTB stopping) ends at once.
        self._runner = web.AppRunner(
            app, access_log=None, handler_cancellation=True, shutdown_timeout=1.0
        )
        await self._runner.setup()
        site = web.TCPSite(self._runner, "127.0.0.1", 0)
        await site.start()
        self._port = self._runner.addresses[0][1]
        self._closing = False
        return self

    async def stop(self) -> None:
        with self._lock:
            self._closing = True
            self._wake_pollers()
        if self._runner is not None:
            await self._runner.cleanup()
            self._runner = None

    async def __aenter__(self) -> FakeTelegram:
        return await self.start()

    async def __aexit__(self, *exc_info: object) -> None:
        await self.stop()

    @property
    def port(self) -> int:
        if self._port is None:
            raise RuntimeError("FakeTelegram is not started")
        return self._port

    @property
    def base_url(self) -> str:
        return f"http://127.0.0.1:{self.port}/bot"  # PTB appends the token

    @property
    def base_file_url(self) -> str:
        return f"http://127.0.0.1:{self.port}/file/bot"

    def application_builder(self) -> ApplicationBuilder:
        """``Application.builder()`` already pointed at this server with its token."""
        from telegram.ext import Application

        return (
            Application.builder()
            .token(self.token)
            .base_url(self.base_url)
            .base_file_url(self.base_file_url)
        )

    # ---------------------------------------------------------------------------------------
    # acting as users

    def user(
        self,
        id: int,
        first_name: str,
        username: str | None = None,
        *,
        last_name: str | None = None,
        language_code: str | None = "en",
        started: bool = False,
    ) -> FakeUser:
        """Create (or update and return) a user. ``started``: has opened the bot's DM."""
        if id <= 0:
            raise ValueError("user ids are positive")
        with self._lock:
            user = self._users.get(id)
            if user is None:
                user = self._users[id] = FakeUser(id, first_name, username, last_name)
            user.first_name, user.username, user.last_name = first_name, username, last_name
            user.language_code = language_code
            user.started = user.started or started
            return user

    def group(
        self,
        id: int,
        title: str,
        *,
        type: str | None = None,
        username: str | None = None,
        members: Iterable[FakeUser | tuple[FakeUser, str]] = (),
        bot_status: str = "member",
    ) -> FakeChat:
        """Create (or update and return) a group; ids <= -10**12 are supergroups."""
        if id >= 0:
            raise ValueError("group chat ids are negative")
        kind = type or ("supergroup" if id <= -1_000_000_000_000 else "group")
        with self._lock:
            chat = self._chats.get(id)
            if chat is None:
                chat = self._chats[id] = FakeChat(id=id, type=kind)
            chat.type, chat.title, chat.username = kind, title, username
            chat.bot_status = bot_status
            for member in members:
                user, status = member if isinstance(member, tuple) else (member, "member")
                chat.members[user.id] = status
            return chat

    def groups(self) -> list[FakeChat]:
        """Every group and supergroup the fake knows (where a person looks for a game's table)."""
        with self._lock:
            return [c for c in self._chats.values() if c.type != "private"]

    def private_chat(self, user: UserRef) -> FakeChat:
        with self._lock:
            return self._private_chat(self._user(user))

    async def send_text(
        self,
        chat: ChatRef,
        user: UserRef,
        text: str,
        *,
        reply_to: FakeMessage | int | None = None,
        entities: list[JSONDict] | None = None,
    ) -> FakeMessage:
        """``user`` writes ``text`` in ``chat``; queues a ``message`` update.

        bot_command entities ("/cmd@bot args") and mentions are detected like Telegram does.
        In a private chat this also marks the user as having started (and unblocked) the bot.
        """
        with self._lock:
            target = self._chat(chat)
            sender = self._user(user)
            if target.type == "private":
                if target.id != sender.id:
                    raise ValueError("only the chat's own user writes in a private chat")
                sender.started, sender.blocked = True, False
            else:
                target.members.setdefault(sender.id, "member")
            replied = None
            if reply_to is not None:
                replied = target.history[
                    reply_to.message_id if isinstance(reply_to, FakeMessage) else reply_to
                ]
            message = self._new_message(
                target,
                sender,
                text=text,
                entities=detect_entities(text) if entities is None else entities,
                reply_to=replied,
            )
            if self._bot_sees(message):
                self._enqueue("message", message.to_api())
            else:
                self._mark = len(self.requests)
            return message

    async def press(
        self,
        chat: ChatRef,
        message_id: int | FakeMessage,
        callback_data: str | None,
        user: UserRef,
        *,
        strict: bool = True,
    ) -> str:
        """``user`` presses the inline button carrying ``callback_data`` under a bot message.

        Queues a ``callback_query`` update and returns its query id (see ``answers``).
        ``strict=False`` allows pressing buttons that are gone (stale clients, double taps).
        """
        with self._lock:
            target = self._chat(chat)
            presser = self._user(user)
            mid = message_id.message_id if isinstance(message_id, FakeMessage) else message_id
            message = target.history.get(mid)
            if strict:
                if message is None or message.deleted or not message.from_bot:
                    raise ValueError(f"no visible bot message {mid} in chat {target.id}")
                datas = [data for row in message.buttons for _, data in row]
                if callback_data not in datas:
                    raise ValueError(f"message {mid} has no button {callback_data!r}: {datas}")
            query_id = str(4_611_686_018_427_387_904 + next(self._query_ids) * 7919)
            payload: JSONDict = {
                "id": query_id,
                "from": presser.to_api(),
                "chat_instance": str(abs(target.id) * 104_729 % 10**19),
            }
            if message is not None and not message.deleted:
                payload["message"] = message.to_api()
            if callback_data is not None:
                payload["data"] = callback_data
            self.queries[query_id] = CallbackQueryRecord(
                query_id, presser, target.id, mid, callback_data, time.monotonic()
            )
            self._enqueue("callback_query", payload)
            return query_id

    async def press_button(self, chat: ChatRef, text_substring: str, user: UserRef) -> str:
        """Press the newest visible button whose label contains ``text_substring``."""
        with self._lock:
            chat_id = self._chat(chat).id
            button = self.find_button(chat_id, text_substring)
            if button is None:
                raise ValueError(f"no button containing {text_substring!r} in chat {chat_id}")
        return await self.press(chat, button.message, button.callback_data, user)

    async def start_private(
        self, user: UserRef, payload: str | None = None, *, send_start: bool = True
    ) -> FakeMessage | None:
        """The user opens the bot's private chat (the bot may now DM them).

        With ``send_start`` the ``/start`` (or deep-link ``/start <payload>``) message is queued.
        """
        with self._lock:
            who = self._user(user)
            who.started, who.blocked = True, False
        if not send_start:
            return None
        text = f"/start {payload}" if payload else "/start"
        return await self.send_text(self.private_chat(who), who, text)

    async def block(self, user: UserRef) -> None:
        """The user blocks the bot (DMs now fail with 403); queues ``my_chat_member``."""
        with self._lock:
            who = self._user(user)
            who.blocked = True
            bot = self.bot.to_api()
            self._enqueue(
                "my_chat_member",
                {
                    "chat": self._private_chat(who).to_api(),
                    "from": who.to_api(),
                    "date": int(self.clock.now()),
                    "old_chat_member": {"status": "member", "user": bot},
                    "new_chat_member": {"status": "kicked", "user": bot, "until_date": 0},
                },
            )

    async def queue_update(self, kind: str, payload: JSONDict) -> int:
        """Queue any other update (``{"update_id": n, kind: payload}``); returns its id."""
        with self._lock:
            return self._enqueue(kind, payload)

    async def push_webhook(
        self, url: str, *, secret_token: str | _Unset | None = _UNSET, timeout: float = 5.0
    ) -> list[int]:
        """Deliver the pending updates as Telegram does to a webhook: one JSON POST each to
        ``url`` (the local address the bot listens on; setWebhook's public HTTPS URL is usually
        a proxy in front of it), carrying setWebhook's ``secret_token`` in the
        X-Telegram-Bot-Api-Secret-Token header — or ``secret_token`` if given (None: no header).
        An update answered 2xx is delivered (dropped); any other answer leaves it pending, as
        Telegram keeps retrying. Returns the HTTP statuses in order."""
        import aiohttp

        with self._lock:
            if secret_token is _UNSET:
                secret_token = (self.webhook or {}).get("secret_token")
            batch = self._deliverable(100)
        headers = {} if secret_token is None else {SECRET_HEADER: str(secret_token)}
        statuses: list[int] = []
        delivered: set[int] = set()
        async with aiohttp.ClientSession(timeout=aiohttp.ClientTimeout(total=timeout)) as http:
            for update in batch:
                async with http.post(url, json=update, headers=headers) as answer:
                    statuses.append(answer.status)
                    if 200 <= answer.status < 300:
                        delivered.add(update["update_id"])
        with self._lock:
            self._updates = [u for u in self._updates if u["update_id"] not in delivered]
        return statuses

    # ---------------------------------------------------------------------------------------
    # error injection

    def fail_next(
        self,
        method: str,
        *,
        error_code: int = 429,
        description: str | None = None,
        retry_after: float | None = 1,
        chat_id: int | str | None = None,
        times: int = 1,
        parameters: JSONDict | None = None,
    ) -> None:
        """The next ``times`` calls of ``method`` (``"*"``: any but getUpdates), optionally only
        for ``chat_id``, fail with ``error_code``. 429 answers carry
        ``parameters.retry_after`` (Telegram sends whole seconds; a float is allowed for speed).
        ``description`` defaults to Telegram's text for the code."""
        if description is None:
            description = {
                429: f"Too Many Requests: retry after {retry_after}",
                400: "Bad Request",
                401: "Unauthorized",
                403: "Forbidden",
                409: "Conflict",
            }.get(error_code, HTTPStatus(error_code).phrase)
        params = dict(parameters or {})
        if error_code == 429 and retry_after is not None:
            params["retry_after"] = retry_after
        with self._lock:
            self._failures.append(
                _Failure(method.lower(), error_code, description, params or None, chat_id, times)
            )

    # ---------------------------------------------------------------------------------------
    # held requests (a worker's sends in flight when it dies)

    _held_chats: frozenset[int | str] = frozenset()
    _released: asyncio.Event | None = None
    held = 0  # requests that waited in a hold

    def hold(self, *chats: ChatRef) -> None:
        """Leave every request to these chats (sends, edits, deletes; not a callback query's
        answer) unanswered and unapplied until ``release``: a worker killed meanwhile never
        had them reach Telegram (its connections close, the held requests are dropped)."""
        self._held_chats = frozenset(self.chat(chat).id for chat in chats)
        self._released = asyncio.Event()

    def release(self) -> None:
        """Answer the held requests whose worker still waits for them, as they come."""
        self._held_chats = frozenset()
        if self._released is not None:
            self._released.set()

    async def _unless_held(self, method: str, params: ApiParams) -> None:
        if not self._held_chats or method.lower() == "answercallbackquery":
            return
        if self._request_chat_id(method, params) not in self._held_chats:
            return
        assert self._released is not None
        self.held += 1
        await self._released.wait()  # cancelled when the client goes (handler_cancellation)

    # ---------------------------------------------------------------------------------------
    # waiting and inspection

    def mark(self) -> int:
        """Position in ``requests``; ``wait_for(..., since=mark)`` only looks after it."""
        with self._lock:
            self._mark = len(self.requests)
            return self._mark

    async def wait_for(
        self, predicate: Predicate, timeout: float = 5.0, *, since: int | None = None
    ) -> RecordedRequest:
        """Wait until a request matching ``predicate`` (callable, or a method name) was answered.

        Only requests logged after the last user action (send_text/press/start_private/
        queue_update/mark) are considered, unless ``since`` gives another index (0: all).
        """
        matches = _as_predicate(predicate)
        index = self._mark if since is None else since
        loop = asyncio.get_running_loop()
        deadline = loop.time() + timeout
        while True:
            with self._lock:
                while index < len(self.requests):
                    request = self.requests[index]
                    index += 1
                    if matches(request):
                        return request
                event = self._requests_event
            remaining = deadline - loop.time()
            if remaining <= 0:
                with self._lock:
                    start = self._mark if since is None else since
                    seen = [r for r in self.requests[start:] if r.method != "getUpdates"]
                raise TimeoutError(
                    f"no matching Bot API request within {timeout}s; saw: {seen[-10:]}"
                )
            with contextlib.suppress(TimeoutError):
                await asyncio.wait_for(event.wait(), remaining)

    async def wait_until(self, condition: Callable[[], bool], timeout: float = 5.0) -> None:
        """Wait until ``condition()`` (checked after every request) holds."""
        loop = asyncio.get_running_loop()
        deadline = loop.time() + timeout
        while True:
            with self._lock:
                if condition():
                    return
                event = self._requests_event
            remaining = deadline - loop.time()
            if remaining <= 0:
                raise TimeoutError(f"condition not met within {timeout}s")
            with contextlib.suppress(TimeoutError):
                await asyncio.wait_for(event.wait(), remaining)

    async def settle(self, quiet: float = 0.05, timeout: float = 5.0) -> None:
        """Wait until the bot has made no API call (getUpdates aside) for ``quiet`` seconds."""
        loop = asyncio.get_running_loop()
        deadline = loop.time() + timeout
        while True:
            with self._lock:
                busy = [r.wall for r in self.requests[-50:] if r.method != "getUpdates"]
            idle_for = time.monotonic() - max(busy, default=0.0)
            if idle_for >= quiet:
                return
            if loop.time() >= deadline:
                raise TimeoutError(f"bot still busy after {timeout}s")
            await asyncio.sleep(quiet - idle_for)

    def calls(
        self, method: str | None = None, *, chat_id: int | None = None, ok: bool | None = None
    ) -> list[RecordedRequest]:
        """Logged requests filtered by method (getUpdates only if asked for), chat and outcome."""
        with self._lock:
            return [
                r
                for r in self.requests
                if (r.method.lower() == method.lower() if method else r.method != "getUpdates")
                and (chat_id is None or r.chat_id == chat_id)
                and (ok is None or r.ok == ok)
            ]

    def chat(self, chat: ChatRef) -> FakeChat:
        with self._lock:
            return self._chat(chat)

    def messages(self, chat: ChatRef, include_deleted: bool = False) -> list[FakeMessage]:
        """The chat's messages in order, as members see them now."""
        with self._lock:
            target = self._chat(chat)
            return [m for m in target.history.values() if include_deleted or not m.deleted]

    def last_message(self, chat: ChatRef, *, from_bot: bool | None = None) -> FakeMessage | None:
        shown = [m for m in self.messages(chat) if from_bot is None or m.from_bot == from_bot]
        return shown[-1] if shown else None

    @staticmethod
    def buttons(message: FakeMessage) -> list[list[tuple[str, str | None]]]:
        return message.buttons

    @staticmethod
    def photo(message: FakeMessage) -> bytes:
        """The bytes the bot uploaded for this message's current photo."""
        if message.photo is None or message.photo.data is None:
            raise ValueError(f"{message!r} has no uploaded photo")
        return message.photo.data

    def find_button(self, chat: ChatRef, text_substring: str) -> FoundButton | None:
        """Newest visible bot button whose label contains ``text_substring`` (or None)."""
        for message in reversed(self.messages(chat)):
            if not message.from_bot:
                continue
            for r, row in enumerate(message.buttons):
                for c, (label, data) in enumerate(row):
                    if text_substring in label:
                        return FoundButton(message, r, c, label, data)
        return None

    def transcript(self, chat: ChatRef) -> str:
        """Readable dump of what the chat shows (for assertion messages)."""
        lines = []
        for m in self.messages(chat):
            who = "bot" if m.from_bot else m.sender.first_name
            body = m.text if m.text is not None else f"[photo] {m.caption or ''}"
            buttons = " | ".join(label for row in m.buttons for label, _ in row)
            lines.append(f"#{m.message_id} {who}: {body}" + (f"  [{buttons}]" if buttons else ""))
        return "\n".join(lines)

    @property
    def pending_updates(self) -> list[JSONDict]:
        with self._lock:
            return list(self._updates)

    def drop_update(self, update_id: int) -> None:
        """The update was taken (a webhook answered 200): Telegram no longer holds it."""
        with self._lock:
            self._updates = [u for u in self._updates if u["update_id"] != update_id]

    def file(self, file_id: str) -> FakeFile | None:
        with self._lock:
            return self._files.get(file_id)

    # ---------------------------------------------------------------------------------------
    # HTTP

    async def _handle_api(self, request: web.Request) -> web.Response:
        arrived = self.clock.monotonic(), time.monotonic()
        token = request.match_info["token"]
        method = request.match_info["method"]
        try:
            values, uploads = await _decode_request(request)
        except ValueError:
            values, uploads = {}, {}
        params = ApiParams(values, uploads)
        if token not in self._tokens:
            error = ApiError(401, "Unauthorized")
            if not _TOKEN_RE.fullmatch(token):
                error = ApiError(404, "Not Found")  # Telegram's answer to malformed tokens
            status, body = error.error_code, error.body()
        elif method.lower() == "getupdates":
            status, body = await self._get_updates(params)
        else:
            await self._unless_held(method, params)
            with self._lock:
                status, body = self._dispatch(method, params)
        with self._lock:
            self._record(method, params, arrived, status, body)
        return web.json_response(body, status=status)

    async def _handle_file(self, request: web.Request) -> web.Response:
        if request.match_info["token"] not in self._tokens:
            return web.json_response(ApiError(401, "Unauthorized").body(), status=401)
        path = request.match_info["path"]
        with self._lock:
            found = next((f for f in self._files.values() if f.file_path == path), None)
        if found is None or found.data is None:
            return web.json_response(ApiError(404, "Not Found").body(), status=404)
        return web.Response(body=found.data, content_type=found.mime_type or "image/png")

    def _dispatch(self, method: str, params: ApiParams) -> tuple[int, JSONDict]:
        failure = self._take_failure(method, self._request_chat_id(method, params))
        if failure is not None:
            return failure.error_code, failure.body()
        limited = self.flood is not None and counted(method)
        chat = self._request_chat_id(method, params) if limited else None
        if self.flood is not None and chat is not None:
            wait = self.flood.wait(chat)
            if wait > 0:
                self.flood.refused += 1
                self.flood.refusals.append((chat, wait))
                seconds = retry_after(wait)
                return 429, ApiError(
                    429, f"Too Many Requests: retry after {seconds}", {"retry_after": seconds}
                ).body()
        handler = self._methods.get(method.lower())
        if handler is None:
            return 404, ApiError(404, "Not Found: method not found").body()
        try:
            result = handler(params)
        except ApiError as exc:
            if self.flood is not None and chat is not None and exc.error_code != 403:
                self.flood.spend(chat)
            return exc.error_code, exc.body()
        except Exception as exc:  # a bug in the fake: make it visible, answer like a 500
            self.internal_errors.append(exc)
            return 500, ApiError(500, f"Internal Server Error: fake crashed: {exc!r}").body()
        if self.flood is not None and chat is not None:
            self.flood.spend(chat)
        return 200, {"ok": True, "result": result}

    def _record(
        self, method: str, params: ApiParams, arrived: tuple[float, float], status: int,
        body: JSONDict,
    ) -> None:
        self.requests.append(
            RecordedRequest(
                method=method,
                params=dict(params.values),
                files={name: upload.data for name, upload in params.uploads.items()},
                chat_id=self._request_chat_id(method, params),
                time=arrived[0],
                wall=arrived[1],
                status=status,
                response=body,
            )
        )
        self._requests_event.set()
        self._requests_event = asyncio.Event()

    def _request_chat_id(self, method: str, params: ApiParams) -> int | str | None:
        raw = params.get("chat_id")
        if raw is None and method.lower() == "answercallbackquery":
            query = self.queries.get(str(params.get("callback_query_id")))
            return query.chat_id if query else None
        if isinstance(raw, str) and re.fullmatch(r"-?\d+", raw):
            return int(raw)
        return raw

    def _take_failure(self, method: str, chat_id: int | str | None) -> ApiError | None:
        name = method.lower()
        for failure in self._failures:
            if failure.method != name and not (failure.method == "*" and name != "getupdates"):
                continue
            if failure.chat_id is not None and failure.chat_id != chat_id:
                continue
            failure.times -= 1
            if failure.times <= 0:
                self._failures.remove(failure)
            return ApiError(failure.error_code, failure.description, failure.parameters)
        return None

    # ---------------------------------------------------------------------------------------
    # updates / long polling

    def _enqueue(self, kind: str, payload: JSONDict) -> int:
        update_id = next(self._update_ids)
        self._updates.append({"update_id": update_id, kind: payload})
        self._mark = len(self.requests)
        self._wake_pollers()
        return update_id

    def _wake_pollers(self) -> None:
        self._updates_event.set()
        self._updates_event = asyncio.Event()

    def _bot_sees(self, message: FakeMessage) -> bool:
        if message.chat.bot_status in ("left", "kicked"):
            return False
        if not self.privacy_mode or message.chat.type == "private":
            return True
        if message.chat.bot_status in ADMIN_STATUSES:
            return True
        text = message.text or ""
        for entity in message.entities:
            piece = text.encode("utf-16-le")[entity["offset"] * 2 :][: entity["length"] * 2]
            word = piece.decode("utf-16-le")
            if entity["type"] == "bot_command" and (
                "@" not in word or word.split("@", 1)[1] == self.bot.username
            ):
                return True
            if entity["type"] == "mention" and word[1:] == self.bot.username:
                return True
        return message.reply_to is not None and message.reply_to.from_bot

    async def _get_updates(self, params: ApiParams) -> tuple[int, JSONDict]:
        with self._lock:
            failure = self._take_failure("getUpdates", None)
            if failure is not None:
                return failure.error_code, failure.body()
            if self.webhook is not None:
                return 409, ApiError(409, CONFLICT_WEBHOOK).body()
            try:
                offset = params.as_int("offset")
                limit = min(max(params.as_int("limit") or 100, 1), 100)
                timeout = min(max(params.as_number("timeout") or 0.0, 0.0), 50.0)
                if params.get("allowed_updates") is not None:
                    self._set_allowed_updates(params.as_json("allowed_updates", kind=list))
            except ApiError as exc:
                return exc.error_code, exc.body()
            # A newer getUpdates ends an older one with 409, as on Telegram.
            self._poll_generation += 1
            generation = self._poll_generation
            self._wake_pollers()
        loop = asyncio.get_running_loop()
        deadline = loop.time() + timeout
        while True:
            with self._lock:
                if generation != self._poll_generation:
                    return 409, ApiError(409, CONFLICT_TERMINATED).body()
                if offset is not None:
                    self._confirm_updates(offset)
                batch = self._deliverable(limit)
                event = self._updates_event
                if batch or self._closing:
                    return 200, {"ok": True, "result": batch}
            remaining = deadline - loop.time()
            if remaining <= 0:
                return 200, {"ok": True, "result": []}
            with contextlib.suppress(TimeoutError):
                await asyncio.wait_for(event.wait(), remaining)

    def _confirm_updates(self, offset: int) -> None:
        if offset < 0:
            self._updates = self._updates[offset:]
        elif offset > 0:
            self._updates = [u for u in self._updates if u["update_id"] >= offset]

    def _deliverable(self, limit: int) -> list[JSONDict]:
        # Updates of kinds the bot did not subscribe to are never delivered: drop them.
        self._updates = [u for u in self._updates if _update_kind(u) in self._allowed_updates]
        return self._updates[:limit]


def _update_kind(update: JSONDict) -> str:
    return next(key for key in update if key != "update_id")


def _as_predicate(predicate: Predicate) -> Callable[[RecordedRequest], bool]:
    if isinstance(predicate, str):
        name = predicate.lower()
        return lambda request: request.method.lower() == name
    return predicate


@contextlib.asynccontextmanager
async def running(
    app: Application[Any, Any, Any, Any, Any, Any],
    *,
    poll_timeout: int = 1,
    allowed_updates: list[str] | None = None,
    drop_pending_updates: bool = False,
) -> AsyncIterator[Application[Any, Any, Any, Any, Any, Any]]:
    """initialize → start → start_polling; on exit stop polling, stop and shut down cleanly."""
    try:
        await app.initialize()
    except BaseException:
        await app.bot.shutdown()  # initialize() failed (e.g. InvalidToken): close its clients
        raise
    try:
        await app.start()
        if app.updater is not None:
            await app.updater.start_polling(
                poll_interval=0,
                timeout=poll_timeout,
                allowed_updates=allowed_updates,
                drop_pending_updates=drop_pending_updates,
            )
        yield app
    finally:
        if app.updater is not None and app.updater.running:
            await app.updater.stop()
        if app.running:
            await app.stop()
        await app.shutdown()
