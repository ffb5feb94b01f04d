"""A fake Discord (REST + gateway) on 127.0.0.1 that the real discord.py 2.x talks to.

Usage (see tests/test_fake_discord.py for complete examples)::

    async with FakeDiscord(token="t0k3n") as fake, fake.configure_discord_py():
        guild = fake.guild(1000, "Card Room")
        table = fake.text_channel(guild, 1001, "table")
        alice = fake.member(guild, 2001, "alice")
        bot = MyBot(intents=discord.Intents.default(), guild_ready_timeout=0.05)
        await bot.login("t0k3n")                    # GET /users/@me, /oauth2/applications/@me
        task = asyncio.create_task(bot.connect())   # gateway: HELLO, IDENTIFY, READY, GUILD_CREATE
        await bot.wait_until_ready()
        ix = await fake.slash(table, alice, "rummy", subcommand="new", options={"rulebook": "x"})
        reply = await ix.result()                   # what alice sees
        await fake.click(reply, "rummy:join:1", alice)
        await bot.close(); await task

``configure_discord_py()`` points ``discord.http.Route.BASE`` (REST and interaction webhooks)
and ``DiscordWebSocket.DEFAULT_GATEWAY`` at this server and restores both on exit; the
sharded client gets the same URL from ``GET /gateway/bot``.

Stores: ``messages`` (id → FakeMessage), ``channel_messages()``, ``visible_to()``,
``ephemeral_for()``, ``dm_messages()``, ``components()``, ``attachment()``; ``requests`` is the
ordered REST log, ``interactions`` every interaction sent, ``unanswered`` those not answered
within ``ack_deadline`` (3 s like Discord).
"""

from __future__ import annotations

import asyncio
import contextlib
import hashlib
import json
import math
import re
import secrets
from collections.abc import Awaitable, Callable, Coroutine, Iterable
from dataclasses import dataclass
from types import TracebackType
from typing import Any, Self
from urllib.parse import unquote

from aiohttp import web

from bot.clock import REAL, Clock

from .discord_gateway import (
    OP_INVALID_SESSION,
    OP_RECONNECT,
    Gateway,
    GatewaySession,
    message_event_intent,
    strip_content_unless_allowed,
)
from .discord_interactions import (
    ALLOWED_CALLBACKS,
    APPLICATION_COMMAND,
    AUTOCOMPLETE,
    CHANNEL_MESSAGE_WITH_SOURCE,
    DEFERRED_CHANNEL_MESSAGE_WITH_SOURCE,
    DEFERRED_UPDATE_MESSAGE,
    MESSAGE_COMPONENT,
    MODAL,
    MODAL_SUBMIT,
    UPDATE_MESSAGE,
    FakeInteraction,
    InteractionResponse,
    RestCall,
)
from .discord_models import (
    DEFAULT_EVERYONE_PERMISSIONS,
    FLAG_COMPONENTS_V2,
    FLAG_EPHEMERAL,
    FLAG_LOADING,
    FLAG_SUPPRESS_EMBEDS,
    FLAG_SUPPRESS_NOTIFICATIONS,
    INTENT_GUILD_MEMBERS,
    INTENT_GUILDS,
    PRIVILEGED_INTENTS,
    SELECT_TYPES,
    ApiError,
    Control,
    FakeAttachment,
    FakeChannel,
    FakeGuild,
    FakeMember,
    FakeMessage,
    FakeRole,
    FakeUser,
    Snowflakes,
    UploadedFile,
    controls_of,
    form_error,
    invalid_webhook_token,
    mentioned_ids,
    unknown_channel,
    unknown_interaction,
    unknown_message,
    unknown_webhook,
    validate_components,
)

__all__ = [
    "Control",
    "FakeAttachment",
    "FakeChannel",
    "FakeDiscord",
    "FakeGuild",
    "FakeInteraction",
    "FakeMember",
    "FakeMessage",
    "FakeUser",
    "InteractionResponse",
    "RestCall",
    "UploadedFile",
]

Handler = Callable[..., Awaitable[tuple[int, Any]]]
Who = FakeMember | FakeUser | int
MessageRef = FakeMessage | int
ChannelRef = FakeChannel | int

_CREATE_FLAGS = FLAG_SUPPRESS_EMBEDS | FLAG_SUPPRESS_NOTIFICATIONS | FLAG_COMPONENTS_V2
_COMMAND_NAME = re.compile(r"^[-_'\w]{1,32}$")


@dataclass(eq=False)
class _Route:
    method: str
    template: str
    regex: re.Pattern[str]
    handler: Handler
    auth: bool


@dataclass(eq=False)
class _Bucket:
    count: int
    reset_at: float  # the fake's clock.monotonic()
    reset_epoch: float  # for X-RateLimit-Reset
    clock: Clock = REAL

    @property
    def reset_after(self) -> float:
        return max(self.reset_at - self.clock.monotonic(), 0.0)


@dataclass(eq=False)
class _Failure:
    needle: str
    method: str | None
    status: int
    retry_after: float
    code: int | None
    message: str | None
    is_global: bool
    times: int


class _ClockedAsyncio:
    """discord.py's `asyncio` as its REST modules see it while pointed at a fake on virtual
    time: `sleep` is the fake's clock's, everything else asyncio's. discord.py waits out a
    spent bucket's X-RateLimit-Reset-After and a 429's retry_after with asyncio.sleep; those
    are Discord's seconds, so on a virtual clock they are waited in virtual seconds too."""

    def __init__(self, clock: Clock) -> None:
        self.sleep = clock.sleep

    def __getattr__(self, name: str) -> Any:
        return getattr(asyncio, name)


class _DiscordPyPatch:
    """Sync *and* async context manager, so it can sit in the same ``async with`` line."""

    def __init__(self, fake: FakeDiscord) -> None:
        self.fake = fake
        self._saved: tuple[str, Any] | None = None
        self._modules: list[tuple[Any, Any]] = []

    def __enter__(self) -> FakeDiscord:
        import discord.http
        import discord.webhook.async_
        import yarl
        from discord.gateway import DiscordWebSocket
        from discord.http import Route

        self._saved = (Route.BASE, DiscordWebSocket.DEFAULT_GATEWAY)
        Route.BASE = self.fake.api_base
        DiscordWebSocket.DEFAULT_GATEWAY = yarl.URL(self.fake.gateway_url)
        if self.fake.clock is not REAL:
            for module in (discord.http, discord.webhook.async_):
                self._modules.append((module, module.asyncio))
                module.asyncio = _ClockedAsyncio(self.fake.clock)  # type: ignore[attr-defined]
        return self.fake

    def __exit__(self, *exc: object) -> None:
        from discord.gateway import DiscordWebSocket
        from discord.http import Route

        assert self._saved is not None
        Route.BASE, DiscordWebSocket.DEFAULT_GATEWAY = self._saved
        for module, saved in reversed(self._modules):
            module.asyncio = saved
        self._modules.clear()

    async def __aenter__(self) -> FakeDiscord:
        return self.__enter__()

    async def __aexit__(self, *exc: object) -> None:
        self.__exit__()


OLD_EDITS_ALLOWED = 3  # edits of a message over an hour old before error 30046 (Discord's is
# undocumented and small; 3 makes a test see it at once)


def age(message: FakeMessage, seconds: float) -> None:
    """Make a message `seconds` older (a long game's table, without waiting an hour)."""
    message.created_at -= seconds


class FakeDiscord:
    """Fake Discord. ``privileged_intents``: which privileged intents the "developer portal"
    enables (others → close 4014); ``ack_deadline``: seconds before an unacknowledged
    interaction is ``expired_unanswered``; ``rate_limit``: (requests, window) per route bucket
    and major parameter, advertised in X-RateLimit-* headers (Discord's ~5 per 5 s per channel
    for messages, by default: discord.py and the bot must live with it)."""

    def __init__(
        self,
        *,
        token: str = "fake-bot-token",
        bot_id: int = 900_000_000_000_000_001,
        bot_name: str = "RummyTable",
        application_id: int | None = None,
        owner_id: int = 900_000_000_000_000_002,
        application_flags: int = (1 << 15) | (1 << 19),
        privileged_intents: int = PRIVILEGED_INTENTS,
        heartbeat_interval_ms: int = 41_250,
        ack_deadline: float = 3.0,
        rate_limit: tuple[int, float] = (5, 5.0),
        shards: int = 1,
        clock: Clock | None = None,
    ) -> None:
        # Discord's time (bot/clock.py): buckets, message ages and edit times are in its
        # seconds (discord.py's rate-limit sleeps too: configure_discord_py). Real seconds:
        # the 3 s ack deadline (it times the bot's own work, which virtual time would only
        # magnify: no budget stands before an ack) and `wait_until`/`wait_for` timeouts.
        self.clock: Clock = clock or REAL
        self.token = token
        self.bot_id = bot_id
        self.bot = FakeUser(bot_id, bot_name, bot=True)
        self.application_id = application_id or bot_id  # modern apps: app id == bot user id
        self.owner = FakeUser(owner_id, "owner")
        self.application_flags = application_flags
        self.privileged_intents = privileged_intents  # which privileged intents are enabled
        self.ack_deadline = ack_deadline
        self.rate_limit = rate_limit  # (requests, window seconds) per bucket + major param
        self.shards = shards

        self.guilds: dict[int, FakeGuild] = {}
        self.users: dict[int, FakeUser] = {bot_id: self.bot, owner_id: self.owner}
        self.channels: dict[int, FakeChannel] = {}
        self.messages: dict[int, FakeMessage] = {}
        self.commands: dict[int | None, list[dict[str, Any]]] = {}  # guild id (None: global)
        self.interactions: list[FakeInteraction] = []
        self.unanswered: list[FakeInteraction] = []
        self.requests: list[RestCall] = []
        self.limited = 0  # 429s answered for a full bucket
        self.drained = 0  # answers that said a bucket is spent (X-RateLimit-Remaining: 0)
        self.uploads: dict[int, FakeAttachment] = {}  # attachment options of slash commands

        self.gateway = Gateway(self, heartbeat_interval_ms)
        self._ids = Snowflakes(self.clock.now)
        self._dm_by_user: dict[int, FakeChannel] = {}
        self._ix_by_id: dict[int, FakeInteraction] = {}
        self._ix_by_token: dict[str, FakeInteraction] = {}
        self._failures: list[_Failure] = []
        self._buckets: dict[tuple[str, str], _Bucket] = {}
        self._routes: list[_Route] = []
        self._changed = asyncio.Event()
        self._tasks: set[asyncio.Task[Any]] = set()
        self._runner: web.AppRunner | None = None
        self.port = 0
        self._register_routes()

    # ================================================================== lifecycle

    @property
    def http_base(self) -> str:
        return f"http://127.0.0.1:{self.port}"

    @property
    def api_base(self) -> str:
        return f"{self.http_base}/api/v10"

    @property
    def gateway_url(self) -> str:
        return f"ws://127.0.0.1:{self.port}/gateway"

    async def start(self) -> None:
        app = web.Application(client_max_size=64 * 1024 * 1024)
        app.router.add_get("/gateway", self.gateway.handle)
        app.router.add_get("/attachments/{channel_id}/{attachment_id}/{filename}", self._cdn)
        app.router.add_route("*", r"/api/v{version:\d+}/{tail:.*}", self._api)
        self._runner = web.AppRunner(app, access_log=None, shutdown_timeout=1.0)
        await self._runner.setup()
        site = web.TCPSite(self._runner, "127.0.0.1", 0)
        await site.start()
        self.port = self._runner.addresses[0][1]

    async def stop(self) -> None:
        for ix in self.interactions:
            if ix.timer is not None:
                ix.timer.cancel()
        await self.flush()
        await self.gateway.close_all(1001, b"fake discord stopping")
        if self._runner is not None:
            await self._runner.cleanup()
            self._runner = None

    async def __aenter__(self) -> Self:
        await self.start()
        return self

    async def __aexit__(
        self,
        exc_type: type[BaseException] | None,
        exc: BaseException | None,
        tb: TracebackType | None,
    ) -> None:
        await self.stop()

    def configure_discord_py(self) -> _DiscordPyPatch:
        """Point discord.py at this server (``with`` or ``async with``); restores on exit."""
        return _DiscordPyPatch(self)

    async def flush(self) -> None:
        """Wait for gateway dispatches scheduled by the sync helpers (guild/member/...)."""
        while self._tasks:
            await asyncio.gather(*list(self._tasks), return_exceptions=True)

    def _spawn(self, coro: Coroutine[Any, Any, Any]) -> None:
        task = asyncio.get_running_loop().create_task(coro)
        self._tasks.add(task)
        task.add_done_callback(self._tasks.discard)

    # ================================================================== waiting

    def _notify(self) -> None:
        self._changed.set()
        self._changed = asyncio.Event()

    async def wait_until(
        self, check: Callable[[], bool], timeout: float = 5.0, what: str = "condition"
    ) -> None:
        loop = asyncio.get_running_loop()
        deadline = loop.time() + timeout
        while not check():
            remaining = deadline - loop.time()
            if remaining <= 0:
                raise TimeoutError(f"timed out waiting for {what}")
            # Woken by server-side changes; the short cap also catches bot-side state.
            with contextlib.suppress(TimeoutError):
                await asyncio.wait_for(self._changed.wait(), min(remaining, 0.02))

    async def wait_for(
        self, predicate: Callable[[RestCall], bool], timeout: float = 5.0, *, since: int = 0
    ) -> RestCall:
        """First *answered* REST call (from log index ``since``) matching ``predicate``."""
        found: list[RestCall] = []

        def check() -> bool:
            for call in self.requests[since:]:
                if call.status is not None and predicate(call):
                    found.append(call)
                    return True
            return False

        await self.wait_until(check, timeout, "a matching REST call")
        return found[0]

    async def wait_ready(self, timeout: float = 5.0) -> GatewaySession:
        """Until a session has been sent READY and its GUILD_CREATEs."""

        def check() -> bool:
            return any(s.ready.is_set() and s.conn for s in self.gateway.live_sessions())

        await self.wait_until(check, timeout, "a READY gateway session")
        return max(
            (s for s in self.gateway.live_sessions() if s.ready.is_set()), key=lambda s: s.created
        )

    def calls(self, method: str | None = None, contains: str = "") -> list[RestCall]:
        return [
            c
            for c in self.requests
            if (method is None or c.method == method) and contains in c.path
        ]

    # ================================================================== world building

    def guild(self, id: int, name: str, *, owner_id: int | None = None) -> FakeGuild:
        if id in self.guilds:
            return self.guilds[id]
        guild = FakeGuild(id=id, name=name, owner_id=owner_id or self.owner.id)
        guild.roles[id] = FakeRole(id, "@everyone", DEFAULT_EVERYONE_PERMISSIONS)
        guild.members[self.bot_id] = FakeMember(guild, self.bot)
        self.guilds[id] = guild
        if self.gateway.live_sessions():
            self._spawn(self._guild_create_all(guild))
        return guild

    def user(self, id: int, name: str, *, dm_open: bool = True) -> FakeUser:
        user = self.users.get(id)
        if user is None:
            user = self.users[id] = FakeUser(id, name, dm_open=dm_open)
        user.dm_open = dm_open
        return user

    def member(
        self, guild: FakeGuild | int, user_id: int, name: str, dm_open: bool = True
    ) -> FakeMember:
        g = self._guild(guild)
        user = self.user(user_id, name, dm_open=dm_open)
        if user_id in g.members:
            return g.members[user_id]
        member = g.members[user_id] = FakeMember(g, user)
        if self.gateway.live_sessions():
            payload = {**member.payload(), "guild_id": str(g.id)}
            self._spawn(
                self.gateway.dispatch(
                    "GUILD_MEMBER_ADD", payload, intent=INTENT_GUILD_MEMBERS, guild_id=g.id
                )
            )
        return member

    def set_dm_open(self, user: Who, dm_open: bool) -> None:
        self._user(user).dm_open = dm_open

    def text_channel(self, guild: FakeGuild | int, id: int, name: str) -> FakeChannel:
        g = self._guild(guild)
        if id in g.channels:
            return g.channels[id]
        channel = FakeChannel(id, name, 0, guild=g, position=len(g.channels))
        g.channels[id] = self.channels[id] = channel
        if self.gateway.live_sessions():
            self._spawn(
                self.gateway.dispatch(
                    "CHANNEL_CREATE", channel.payload(), intent=INTENT_GUILDS, guild_id=g.id
                )
            )
        return channel

    def dm_channel(self, user: Who) -> FakeChannel:
        """The DM channel between the bot and ``user`` (Discord keeps one per user)."""
        u = self._user(user)
        channel = self._dm_by_user.get(u.id)
        if channel is None:
            channel = FakeChannel(self._ids.next(), "", 1, recipient=u)
            self._dm_by_user[u.id] = self.channels[channel.id] = channel
        return channel

    async def _guild_create_all(self, guild: FakeGuild) -> None:
        for session in self.gateway.live_sessions():
            await self.gateway.dispatch(
                "GUILD_CREATE",
                lambda s, g=guild: self.gateway.guild_create(g, s),
                intent=INTENT_GUILDS,
                guild_id=guild.id,
                only=session,
            )

    # ================================================================== fault injection

    def fail_next(
        self,
        route_substring: str,
        status: int = 429,
        retry_after: float = 0.05,
        *,
        method: str | None = None,
        code: int | None = None,
        message: str | None = None,
        is_global: bool = False,
        times: int = 1,
    ) -> None:
        """Answer the next ``times`` requests whose ``"METHOD /path"`` contains
        ``route_substring`` with ``status`` instead of handling them. 429s carry Discord's
        body (``retry_after``, ``global``) and headers (Retry-After, X-RateLimit-*, Via)."""
        self._failures.append(
            _Failure(route_substring, method, status, retry_after, code, message, is_global, times)
        )

    def expire_interaction(self, interaction: FakeInteraction | str) -> None:
        """Make an interaction token older than 15 minutes."""
        ix = (
            interaction
            if isinstance(interaction, FakeInteraction)
            else self._ix_by_token[interaction]
        )
        ix.expired = True
        if ix.timer is not None:
            ix.timer.cancel()

    async def force_reconnect(self) -> None:
        """Send op 7 RECONNECT: discord.py closes and RESUMEs on resume_gateway_url."""
        await self.gateway.send_op(OP_RECONNECT)

    async def invalidate_sessions(self) -> None:
        """Send op 9 (d=false): discord.py drops its session and IDENTIFYs again."""
        for session in self.gateway.live_sessions():
            session.invalid = True
        await self.gateway.send_op(OP_INVALID_SESSION, False)

    async def drop_connections(self, code: int = 4000) -> None:
        """Close every gateway socket from the server side (resumable codes ≥ 4000)."""
        await self.gateway.close_all(code)

    # ================================================================== queries

    def message(self, message: MessageRef) -> FakeMessage:
        mid = message.id if isinstance(message, FakeMessage) else message
        return self.messages[mid]

    def channel_messages(
        self,
        channel: ChannelRef,
        *,
        include_ephemeral: bool = False,
        include_deleted: bool = False,
    ) -> list[FakeMessage]:
        """Messages of a channel, oldest first; by default what every member sees."""
        cid = channel.id if isinstance(channel, FakeChannel) else channel
        return [
            m
            for m in self.messages.values()
            if m.channel.id == cid
            and (include_deleted or not m.deleted)
            and (include_ephemeral or m.ephemeral_to is None)
        ]

    def visible_to(self, user: Who, channel: ChannelRef) -> list[FakeMessage]:
        """What ``user`` sees in ``channel``: public messages plus their own ephemerals."""
        uid = self._user(user).id
        return [
            m for m in self.channel_messages(channel, include_ephemeral=True) if m.visible_to(uid)
        ]

    def ephemeral_for(self, user: Who, channel: ChannelRef | None = None) -> list[FakeMessage]:
        uid = self._user(user).id
        cid = (
            None if channel is None else channel.id if isinstance(channel, FakeChannel) else channel
        )
        return [
            m
            for m in self.messages.values()
            if m.ephemeral_to == uid and not m.deleted and (cid is None or m.channel.id == cid)
        ]

    def dm_messages(self, user: Who) -> list[FakeMessage]:
        channel = self._dm_by_user.get(self._user(user).id)
        return [] if channel is None else self.channel_messages(channel, include_ephemeral=True)

    def last_message(self, channel: ChannelRef) -> FakeMessage | None:
        msgs = self.channel_messages(channel)
        return msgs[-1] if msgs else None

    def components(self, message: MessageRef) -> list[list[Control]]:
        """Rows of ``(label, custom_id, style, disabled)``; selects carry ``.options``."""
        return controls_of(self.message(message).components)

    def attachment(self, message: MessageRef, index: int = 0) -> bytes:
        return self.message(message).attachments[index].data

    def guild_commands(self, guild: FakeGuild | int | None) -> list[dict[str, Any]]:
        gid = None if guild is None else self._guild(guild).id
        return self.commands.get(gid, [])

    # ================================================================== driving the bot

    async def slash(
        self,
        channel: ChannelRef | None,
        member: Who,
        name: str,
        subcommand: str | None = None,
        options: dict[str, Any] | None = None,
    ) -> FakeInteraction:
        """Invoke a *registered* chat-input command as ``member``. ``subcommand`` may be
        ``"new"`` or ``"group sub"``; option values are converted with the registered option
        types (users/members/channels/roles/attachments are put into ``resolved``; a choice
        may be given by name or value). ``channel=None`` means the member's DM with the bot."""
        chan = self.dm_channel(member) if channel is None else self._channel(channel)
        user, mem = self._actor(chan, member)
        data = self._command_data(name, subcommand, options, chan, None)
        return await self._send_interaction(APPLICATION_COMMAND, data, chan, user, mem, None)

    async def autocomplete(
        self,
        channel: ChannelRef | None,
        member: Who,
        name: str,
        subcommand: str | None = None,
        options: dict[str, Any] | None = None,
        *,
        focused: str,
    ) -> FakeInteraction:
        """Type-4 interaction while ``member`` types option ``focused`` (its value is sent
        as typed, unvalidated). The bot's choices land in ``interaction.choices``."""
        chan = self.dm_channel(member) if channel is None else self._channel(channel)
        user, mem = self._actor(chan, member)
        data = self._command_data(name, subcommand, options, chan, focused)
        return await self._send_interaction(AUTOCOMPLETE, data, chan, user, mem, None)

    def _command_data(
        self,
        name: str,
        subcommand: str | None,
        options: dict[str, Any] | None,
        chan: FakeChannel,
        focused: str | None,
    ) -> dict[str, Any]:
        cmd = self._find_command(name, chan)
        resolved: dict[str, dict[str, Any]] = {}
        given = dict(options or {})
        defs = cmd.get("options", [])
        has_subs = any(o.get("type") in (1, 2) for o in defs)
        parts = subcommand.split() if subcommand else []
        if has_subs != bool(parts):
            raise ValueError(f"/{name}: subcommand {'required' if has_subs else 'not expected'}")
        data_options: list[dict[str, Any]]
        if not parts:
            data_options = self._options(defs, given, chan, resolved, focused)
        else:
            node = _named(defs, parts[0], 2 if len(parts) == 2 else 1, name)
            if len(parts) == 2:
                sub = _named(node.get("options", []), parts[1], 1, f"{name} {parts[0]}")
                inner = self._options(sub.get("options", []), given, chan, resolved, focused)
                data_options = [
                    {
                        "type": 2,
                        "name": parts[0],
                        "options": [{"type": 1, "name": parts[1], "options": inner}],
                    }
                ]
            else:
                inner = self._options(node.get("options", []), given, chan, resolved, focused)
                data_options = [{"type": 1, "name": parts[0], "options": inner}]
        data: dict[str, Any] = {
            "id": cmd["id"],
            "name": cmd["name"],
            "type": 1,
            "options": data_options,
        }
        if cmd.get("guild_id"):
            data["guild_id"] = cmd["guild_id"]
        if resolved:
            data["resolved"] = resolved
        return data

    async def click(self, message: MessageRef, custom_id: str, member: Who) -> FakeInteraction:
        """Press a button. Raises if the member can't see the message or the button is
        missing/disabled (a real client can't send that)."""
        msg, comp, user, mem = self._component_target(message, custom_id, member)
        if comp.get("type") != 2:
            raise ValueError(f"{custom_id!r} is not a button")
        data: dict[str, Any] = {"custom_id": custom_id, "component_type": 2}
        if "id" in comp:
            data["id"] = comp["id"]
        return await self._send_interaction(MESSAGE_COMPONENT, data, msg.channel, user, mem, msg)

    async def select(
        self, message: MessageRef, custom_id: str, values: Iterable[Any], member: Who
    ) -> FakeInteraction:
        """Pick ``values`` in a select menu (string values, or users/roles/channels for the
        entity selects, which also get ``resolved``)."""
        msg, comp, user, mem = self._component_target(message, custom_id, member)
        ctype = comp.get("type")
        if ctype not in SELECT_TYPES:
            raise ValueError(f"{custom_id!r} is not a select menu")
        picked = list(values)
        lo, hi = comp.get("min_values", 1), comp.get("max_values", 1)
        if not lo <= len(picked) <= hi:
            raise ValueError(f"select {custom_id!r} takes {lo}..{hi} values, got {len(picked)}")
        data: dict[str, Any] = {"custom_id": custom_id, "component_type": ctype}
        if ctype == 3:
            allowed = {o["value"] for o in comp.get("options", [])}
            strs = [str(v) for v in picked]
            if not set(strs) <= allowed:
                raise ValueError(f"{strs} not among the options {sorted(allowed)}")
            data["values"] = strs
        else:
            resolved: dict[str, dict[str, Any]] = {}
            kind = {5: 6, 6: 8, 7: 9, 8: 7}[ctype]
            data["values"] = [self._resolve_value(kind, v, msg.channel, resolved) for v in picked]
            data["resolved"] = resolved
        if "id" in comp:
            data["id"] = comp["id"]
        return await self._send_interaction(MESSAGE_COMPONENT, data, msg.channel, user, mem, msg)

    async def submit_modal(
        self, interaction: FakeInteraction, values: dict[str, str | list[str]]
    ) -> FakeInteraction:
        """Submit the modal the bot answered ``interaction`` with (callback type 9)."""
        modal = interaction.modal
        if modal is None:
            raise ValueError(f"interaction {interaction.id} was not answered with a modal")
        unused = dict(values)

        def leaf(comp: dict[str, Any]) -> dict[str, Any]:
            cid = comp.get("custom_id")
            if comp.get("type") == 4:
                value = unused.pop(cid, comp.get("value") or "")
                if comp.get("required", True) and not value:
                    raise ValueError(f"modal field {cid!r} is required")
                return {"type": 4, "custom_id": cid, "value": value}
            if comp.get("type") in SELECT_TYPES:
                picked = unused.pop(cid, [])
                return {"type": comp["type"], "custom_id": cid, "values": list(picked)}
            return {"type": comp.get("type"), "id": comp.get("id")}

        out: list[dict[str, Any]] = []
        for comp in modal.get("components", []):
            if comp.get("type") == 1:
                out.append({"type": 1, "components": [leaf(c) for c in comp["components"]]})
            elif comp.get("type") == 18:
                out.append({"type": 18, "component": leaf(comp["component"])})
            else:
                out.append(leaf(comp))
        if unused:
            raise ValueError(f"modal has no fields {sorted(unused)}")
        data = {"custom_id": modal["custom_id"], "components": out}
        source = interaction.source_message if interaction.type == MESSAGE_COMPONENT else None
        return await self._send_interaction(
            MODAL_SUBMIT,
            data,
            interaction.channel,
            interaction.user,
            interaction.member,
            source,
        )

    async def say(self, channel: ChannelRef | None, member: Who, content: str) -> FakeMessage:
        """A member posts a plain message (MESSAGE_CREATE; content only with the
        MESSAGE_CONTENT intent, in DMs or when the bot is mentioned)."""
        chan = self.dm_channel(member) if channel is None else self._channel(channel)
        user, _ = self._actor(chan, member)
        msg = FakeMessage(self._ids.next(), chan, user, content=content,
                          created_at=self.clock.now())
        self.messages[msg.id] = msg
        await self._dispatch_message("MESSAGE_CREATE", msg)
        self._notify()
        return msg

    # ================================================================== driving helpers

    def _guild(self, guild: FakeGuild | int) -> FakeGuild:
        return guild if isinstance(guild, FakeGuild) else self.guilds[guild]

    def _channel(self, channel: ChannelRef) -> FakeChannel:
        return channel if isinstance(channel, FakeChannel) else self.channels[channel]

    def _user(self, who: Who) -> FakeUser:
        if isinstance(who, FakeMember):
            return who.user
        if isinstance(who, FakeUser):
            return who
        return self.users[who]

    def _actor(self, channel: FakeChannel, who: Who) -> tuple[FakeUser, FakeMember | None]:
        user = self._user(who)
        if channel.is_dm:
            if channel.recipient is not user:
                raise ValueError(f"{user.name} is not the recipient of DM channel {channel.id}")
            return user, None
        assert channel.guild is not None
        member = channel.guild.members.get(user.id)
        if member is None:
            raise ValueError(f"{user.name} is not a member of guild {channel.guild.id}")
        return user, member

    def _find_command(self, name: str, channel: FakeChannel) -> dict[str, Any]:
        scopes: list[int | None] = [None]
        if channel.guild is not None:
            scopes.insert(0, channel.guild.id)
        for scope in scopes:
            for cmd in self.commands.get(scope, []):
                if cmd["name"] == name and cmd.get("type", 1) == 1:
                    contexts = cmd.get("contexts")
                    if channel.is_dm and contexts is not None and 1 not in contexts:
                        raise ValueError(f"/{name} is not available in bot DMs")
                    return cmd
        raise LookupError(f"/{name} is not registered (did the bot sync its command tree?)")

    def _options(
        self,
        defs: list[dict[str, Any]],
        given: dict[str, Any],
        channel: FakeChannel,
        resolved: dict[str, dict[str, Any]],
        focused: str | None = None,
    ) -> list[dict[str, Any]]:
        by_name = {d["name"]: d for d in defs}
        unknown = set(given) - set(by_name)
        if unknown:
            raise ValueError(f"unknown options {sorted(unknown)}; command has {sorted(by_name)}")
        out: list[dict[str, Any]] = []
        for d in defs:
            if d["name"] == focused:
                value = str(given.get(d["name"], ""))
                out.append({"name": d["name"], "type": d["type"], "value": value, "focused": True})
                continue
            if d["name"] not in given:
                if d.get("required") and focused is None:
                    raise ValueError(f"option {d['name']!r} is required")
                continue
            value = self._option_value(d, given[d["name"]], channel, resolved)
            out.append({"name": d["name"], "type": d["type"], "value": value})
        return out

    def _option_value(
        self,
        d: dict[str, Any],
        raw: Any,
        channel: FakeChannel,
        resolved: dict[str, dict[str, Any]],
    ) -> Any:
        otype = d["type"]
        if otype in (3, 4, 10):
            value: Any = str(raw) if otype == 3 else int(raw) if otype == 4 else float(raw)
            choices = d.get("choices")
            if choices:
                by_name = {c["name"]: c["value"] for c in choices}
                if value not in by_name.values():
                    if raw not in by_name:
                        raise ValueError(f"{raw!r} is not a choice of {d['name']!r}")
                    value = by_name[raw]
            if otype == 3 and not d.get("min_length", 0) <= len(value) <= d.get("max_length", 6000):
                raise ValueError(f"{d['name']!r}: length out of range")
            if otype != 3 and not d.get("min_value", -math.inf) <= value <= d.get(
                "max_value", math.inf
            ):
                raise ValueError(f"{d['name']!r}: {value} out of range")
            return value
        if otype == 5:
            return bool(raw)
        return self._resolve_value(otype, raw, channel, resolved)

    def _resolve_value(
        self, otype: int, raw: Any, channel: FakeChannel, resolved: dict[str, dict[str, Any]]
    ) -> str:
        """Snowflake option/select value plus its ``resolved`` entry."""
        guild = channel.guild
        if otype in (6, 9) and not isinstance(raw, FakeRole):
            user = self._user(raw)
            resolved.setdefault("users", {})[str(user.id)] = user.payload()
            member = guild.members.get(user.id) if guild else None
            if member is not None:
                resolved.setdefault("members", {})[str(user.id)] = member.payload(
                    with_user=False, permissions=True
                )
            return str(user.id)
        if otype in (8, 9):
            if guild is None:
                raise ValueError("roles only exist in guilds")
            role = raw if isinstance(raw, FakeRole) else guild.roles[int(raw)]
            resolved.setdefault("roles", {})[str(role.id)] = role.payload()
            return str(role.id)
        if otype == 7:
            chan = self._channel(raw)
            entry = {
                **chan.payload(),
                "permissions": str(guild.permissions_of(self.bot_id) if guild else 0),
            }
            resolved.setdefault("channels", {})[str(chan.id)] = entry
            return str(chan.id)
        if otype == 11:
            if isinstance(raw, FakeAttachment):
                att = raw
            else:
                filename, blob = raw if isinstance(raw, tuple) else ("upload.bin", raw)
                att_id = self._ids.next()
                url = f"{self.http_base}/attachments/{channel.id}/{att_id}/{filename}"
                att = FakeAttachment(att_id, filename, bytes(blob), url)
            self.uploads[att.id] = att
            resolved.setdefault("attachments", {})[str(att.id)] = att.payload()
            return str(att.id)
        raise ValueError(f"unsupported option type {otype}")

    def _component_target(
        self, message: MessageRef, custom_id: str, member: Who
    ) -> tuple[FakeMessage, dict[str, Any], FakeUser, FakeMember | None]:
        msg = self.message(message)
        user, mem = self._actor(msg.channel, member)
        if not msg.visible_to(user.id):
            raise ValueError(f"{user.name} cannot see message {msg.id}")
        comp = msg.find_component(custom_id)
        if comp is None:
            raise LookupError(f"message {msg.id} has no component {custom_id!r}")
        if comp.get("disabled"):
            raise ValueError(f"component {custom_id!r} is disabled")
        return msg, comp, user, mem

    async def _send_interaction(
        self,
        itype: int,
        data: dict[str, Any],
        channel: FakeChannel,
        user: FakeUser,
        member: FakeMember | None,
        message: FakeMessage | None,
    ) -> FakeInteraction:
        guild = channel.guild
        session = self.gateway.newest_session(guild.id if guild else None)
        if session is None:
            raise RuntimeError("no bot is connected to the fake gateway")
        ix_id = self._ids.next()
        token = "aW50ZXJhY3Rpb246" + secrets.token_urlsafe(48)
        payload: dict[str, Any] = {
            "id": str(ix_id),
            "application_id": str(self.application_id),
            "type": itype,
            "data": data,
            "token": token,
            "version": 1,
            "locale": user.locale,
            "channel_id": str(channel.id),
            "channel": channel.payload(),
            "app_permissions": str(guild.permissions_of(self.bot_id) if guild else 0),
            "entitlements": [],
            "attachment_size_limit": 10 * 1024 * 1024,
            "context": 0 if guild else 1,
            "authorizing_integration_owners": {"0": str(guild.id) if guild else "0"},
        }
        if guild is not None and member is not None:
            payload["guild_id"] = str(guild.id)
            payload["guild"] = guild.partial()
            payload["guild_locale"] = "en-US"
            payload["member"] = member.payload(permissions=True)
        else:
            payload["user"] = user.payload()
        if message is not None:
            payload["message"] = message.payload(guild_extras=True)
        loop = asyncio.get_running_loop()
        ix = FakeInteraction(
            server=self,
            id=ix_id,
            token=token,
            type=itype,
            data=data,
            user=user,
            member=member,
            channel=channel,
            source_message=message,
            payload=payload,
            created=self.clock.monotonic(),
            session=session,
        )
        self.interactions.append(ix)
        self._ix_by_id[ix_id] = ix
        self._ix_by_token[token] = ix
        ix.timer = loop.call_later(self.ack_deadline, self._deadline_passed, ix)
        # The guild decides the shard (DMs: shard 0); without it every shard but 0 dropped it.
        await self.gateway.dispatch("INTERACTION_CREATE", payload, only=session,
                                    guild_id=guild.id if guild else None)
        return ix

    def _deadline_passed(self, ix: FakeInteraction) -> None:
        ix.timer = None
        if ix.initial is None and not ix.expired:
            ix.expired_unanswered = True
            self.unanswered.append(ix)
            self._notify()

    # ================================================================== HTTP plumbing

    def _register_routes(self) -> None:
        r = self._route
        r("GET", "/users/@me", self._get_me)
        r("GET", "/users/{user_id}", self._get_user)
        r("POST", "/users/@me/channels", self._create_dm)
        r("GET", "/gateway", self._get_gateway, auth=False)
        r("GET", "/gateway/bot", self._get_gateway_bot)
        r("GET", "/oauth2/applications/@me", self._get_app)
        r("GET", "/applications/@me", self._get_app)
        for prefix in (
            "/applications/{application_id}",
            "/applications/{application_id}/guilds/{guild_id}",
        ):
            r("GET", prefix + "/commands", self._get_commands)
            r("PUT", prefix + "/commands", self._put_commands)
            r("POST", prefix + "/commands", self._post_command)
            r("GET", prefix + "/commands/{command_id}", self._get_command)
            r("PATCH", prefix + "/commands/{command_id}", self._patch_command)
            r("DELETE", prefix + "/commands/{command_id}", self._delete_command)
        r("GET", "/guilds/{guild_id}", self._get_guild)
        r("GET", "/guilds/{guild_id}/channels", self._get_guild_channels)
        r("GET", "/guilds/{guild_id}/members/{user_id}", self._get_member)
        r("GET", "/channels/{channel_id}", self._get_channel)
        r("POST", "/channels/{channel_id}/typing", self._typing)
        r("GET", "/channels/{channel_id}/messages", self._list_messages)
        r("POST", "/channels/{channel_id}/messages", self._post_message)
        r("GET", "/channels/{channel_id}/messages/{message_id}", self._get_message)
        r("PATCH", "/channels/{channel_id}/messages/{message_id}", self._patch_message)
        r("DELETE", "/channels/{channel_id}/messages/{message_id}", self._delete_message)
        reaction = "/channels/{channel_id}/messages/{message_id}/reactions/{emoji}/@me"
        r("PUT", reaction, self._put_reaction)
        r("DELETE", reaction, self._delete_reaction)
        r("POST", "/interactions/{interaction_id}/{token}/callback", self._callback, auth=False)
        hook = "/webhooks/{application_id}/{token}"
        r("POST", hook, self._followup, auth=False)
        for mid in ("@original", "{message_id}"):
            r("GET", f"{hook}/messages/{mid}", self._hook_get, auth=False)
            r("PATCH", f"{hook}/messages/{mid}", self._hook_patch, auth=False)
            r("DELETE", f"{hook}/messages/{mid}", self._hook_delete, auth=False)

    def _route(self, method: str, template: str, handler: Handler, *, auth: bool = True) -> None:
        def group(m: re.Match[str]) -> str:
            name = m[1]
            return f"(?P<{name}>\\d+)" if name.endswith("_id") else f"(?P<{name}>[^/]+)"

        regex = re.compile("^" + re.sub(r"\{(\w+)\}", group, template) + "$")
        self._routes.append(_Route(method, template, regex, handler, auth))

    async def _read_body(self, request: web.Request) -> tuple[Any, list[UploadedFile]]:
        files: list[UploadedFile] = []
        if request.content_type.startswith("multipart/"):
            payload: Any = None
            reader = await request.multipart()
            async for part in reader:
                blob = await part.read()  # type: ignore[union-attr]
                name = part.name or ""
                if name == "payload_json":
                    payload = json.loads(blob)
                elif part.filename is not None:  # type: ignore[union-attr]
                    ctype = part.headers.get("Content-Type")
                    files.append(UploadedFile(name, part.filename, ctype, bytes(blob)))  # type: ignore[union-attr]
            return payload, files
        raw = await request.read()
        if not raw:
            return None, files
        try:
            return json.loads(raw), files
        except ValueError:
            return raw.decode(errors="replace"), files

    async def _api(self, request: web.Request) -> web.StreamResponse:
        path = "/" + request.match_info["tail"]
        body, files = await self._read_body(request)
        call = RestCall(
            method=request.method,
            path=path,
            query=dict(request.query),
            json=body,
            files=files,
            headers=dict(request.headers),
            at=self.clock.monotonic(),
        )
        self.requests.append(call)
        try:
            response = await self._handle(call, request)
        finally:
            self._notify()
        return response

    async def _handle(self, call: RestCall, request: web.Request) -> web.StreamResponse:
        route, params = self._match(call)
        call.route = f"{call.method} {route.template}" if route else None
        failure = self._take_failure(call)
        if failure is not None:
            call.injected = True
            return self._failure_response(call, failure)
        if route is None:
            return self._respond(call, 404, {"message": "404: Not Found", "code": 0})
        if route.auth and request.headers.get("Authorization") != f"Bot {self.token}":
            return self._respond(call, 401, {"message": "401: Unauthorized", "code": 0})
        bucket = self._bucket(route, params)
        if bucket.count > self.rate_limit[0]:
            retry = max(bucket.reset_after, 0.001)
            body = {"message": "You are being rate limited.", "retry_after": retry, "global": False}
            return self._respond(call, 429, body, route=route, bucket=bucket, retry_after=retry)
        try:
            status, body = await route.handler(call, **params)
        except ApiError as err:
            status, body = err.status, err.body()
        return self._respond(call, status, body, route=route, bucket=bucket)

    def _match(self, call: RestCall) -> tuple[_Route | None, dict[str, str]]:
        for route in self._routes:
            if route.method != call.method:
                continue
            m = route.regex.match(call.path)
            if m:
                return route, {k: unquote(v) for k, v in m.groupdict().items()}
        return None, {}

    def _bucket(self, route: _Route, params: dict[str, str]) -> _Bucket:
        major = (
            params.get("channel_id")
            or params.get("guild_id")
            or (params.get("interaction_id", "") + params.get("application_id", ""))
            + params.get("token", "")
        )
        key = (f"{route.method} {route.template}", major)
        state = self._buckets.get(key)
        if state is None or state.reset_after <= 0:
            window = self.rate_limit[1]
            state = _Bucket(0, self.clock.monotonic() + window, self.clock.now() + window,
                            self.clock)
            self._buckets[key] = state
        state.count += 1
        return state

    def _take_failure(self, call: RestCall) -> _Failure | None:
        label = f"{call.method} {call.path}"
        for failure in self._failures:
            if failure.needle in label and failure.method in (None, call.method):
                failure.times -= 1
                if failure.times <= 0:
                    self._failures.remove(failure)
                return failure
        return None

    def _failure_response(self, call: RestCall, f: _Failure) -> web.Response:
        if f.status == 429:
            body = {
                "message": f.message or "You are being rate limited.",
                "retry_after": f.retry_after,
                "global": f.is_global,
            }
            if f.code is not None:
                body["code"] = f.code
            headers = {
                "Retry-After": str(max(1, math.ceil(f.retry_after))),
                "X-RateLimit-Limit": str(self.rate_limit[0]),
                "X-RateLimit-Remaining": "0",
                "X-RateLimit-Reset": f"{self.clock.now() + f.retry_after:.3f}",
                "X-RateLimit-Reset-After": f"{f.retry_after:.3f}",
                "X-RateLimit-Bucket": _bucket_hash(call.route or call.path),
                "X-RateLimit-Scope": "global" if f.is_global else "user",
                "Via": "1.1 google",  # discord.py treats a 429 without Via as a Cloudflare ban
            }
            if f.is_global:
                headers["X-RateLimit-Global"] = "true"
            call.status, call.response = 429, body
            return _json_response(body, status=429, headers=headers)
        body = {"message": f.message or _REASONS.get(f.status, "error"), "code": f.code or 0}
        call.status, call.response = f.status, body
        return _json_response(body, status=f.status, headers={"Via": "1.1 google"})

    def _respond(
        self,
        call: RestCall,
        status: int,
        body: Any,
        *,
        route: _Route | None = None,
        bucket: _Bucket | None = None,
        retry_after: float | None = None,
    ) -> web.Response:
        call.status, call.response = status, body
        headers = {"Via": "1.1 google"}
        if route is not None and bucket is not None:
            limit = self.rate_limit[0]
            if status == 429:
                self.limited += 1
            elif bucket.count >= limit:
                self.drained += 1  # discord.py waits Reset-After before this bucket's next
            headers.update(
                {
                    "X-RateLimit-Limit": str(limit),
                    "X-RateLimit-Remaining": str(max(limit - bucket.count, 0)),
                    "X-RateLimit-Reset": f"{bucket.reset_epoch:.3f}",
                    "X-RateLimit-Reset-After": f"{bucket.reset_after:.3f}",
                    "X-RateLimit-Bucket": _bucket_hash(route.template),
                }
            )
        if retry_after is not None:
            headers["Retry-After"] = str(max(1, math.ceil(retry_after)))
            headers["X-RateLimit-Scope"] = "user"
        if body is None or status == 204:
            return web.Response(status=204, headers=headers)
        return _json_response(body, status=status, headers=headers)

    async def _cdn(self, request: web.Request) -> web.Response:
        att_id = int(request.match_info["attachment_id"])
        att = self.uploads.get(att_id)
        if att is None:
            att = next(
                (a for m in self.messages.values() for a in m.attachments if a.id == att_id), None
            )
        if att is None:
            return web.Response(status=404, text="Not Found")
        return web.Response(
            body=att.data, content_type=att.content_type or "application/octet-stream"
        )

    # ================================================================== REST: identity

    def bot_user_payload(self) -> dict[str, Any]:
        return {
            **self.bot.payload(),
            "verified": True,
            "mfa_enabled": False,
            "flags": 0,
            "email": None,
            "locale": "en-US",
        }

    async def _get_me(self, call: RestCall) -> tuple[int, Any]:
        return 200, self.bot_user_payload()

    async def _get_user(self, call: RestCall, user_id: str) -> tuple[int, Any]:
        user = self.users.get(int(user_id))
        if user is None:
            raise ApiError(404, 10013, "Unknown User")
        return 200, user.payload()

    async def _get_gateway(self, call: RestCall) -> tuple[int, Any]:
        return 200, {"url": self.gateway_url}

    async def _get_gateway_bot(self, call: RestCall) -> tuple[int, Any]:
        limit = {"total": 1000, "remaining": 999, "reset_after": 14_400_000, "max_concurrency": 1}
        return 200, {"url": self.gateway_url, "shards": self.shards, "session_start_limit": limit}

    async def _get_app(self, call: RestCall) -> tuple[int, Any]:
        return 200, {
            "id": str(self.application_id),
            "name": self.bot.name,
            "icon": None,
            "description": "",
            "summary": "",
            "type": None,
            "bot_public": True,
            "bot_require_code_grant": False,
            "verify_key": "0" * 64,
            "flags": self.application_flags,
            "owner": self.owner.payload(),
            "team": None,
            "bot": self.bot.payload(),
            "interactions_endpoint_url": None,  # else discord.py warns components won't arrive
            "redirect_uris": [],
            "tags": [],
            "approximate_guild_count": len(self.guilds),
            "integration_types_config": {"0": {}},
        }

    # ================================================================== REST: commands

    def _check_app(self, application_id: str) -> None:
        if int(application_id) != self.application_id:
            raise ApiError(403, 50001, "Missing Access")

    def _scope(self, application_id: str, guild_id: str | None) -> int | None:
        self._check_app(application_id)
        if guild_id is None:
            return None
        gid = int(guild_id)
        if gid not in self.guilds:
            raise ApiError(403, 50001, "Missing Access")
        return gid

    def _store_command(
        self, raw: dict[str, Any], scope: int | None, old: list[dict[str, Any]], index: int | str
    ) -> dict[str, Any]:
        ctype = raw.get("type", 1)
        name = raw.get("name", "")
        path: list[str | int] = [index] if isinstance(index, int) else []
        if not _COMMAND_NAME.match(name) or (ctype == 1 and name != name.lower()):
            raise form_error(
                [*path, "name"], "APPLICATION_COMMAND_INVALID_NAME", "Command name is invalid"
            )
        if ctype == 1 and not 1 <= len(raw.get("description", "")) <= 100:
            raise form_error(
                [*path, "description"],
                "BASE_TYPE_BAD_LENGTH",
                "Must be between 1 and 100 in length.",
            )
        _check_options(raw.get("options", []), [*path, "options"])
        prev = next((c for c in old if c["name"] == name and c.get("type", 1) == ctype), None)
        cmd = {
            "default_member_permissions": None,
            "dm_permission": True,
            "nsfw": False,
            "description_localizations": None,
            "name_localizations": None,
            "integration_types": [0],
            **raw,
            "type": ctype,
            "id": prev["id"] if prev else str(self._ids.next()),
            "application_id": str(self.application_id),
            "version": str(self._ids.next()),
        }
        if scope is not None:
            cmd["guild_id"] = str(scope)
        return cmd

    async def _get_commands(
        self, call: RestCall, application_id: str, guild_id: str | None = None
    ) -> tuple[int, Any]:
        return 200, self.commands.get(self._scope(application_id, guild_id), [])

    async def _put_commands(
        self, call: RestCall, application_id: str, guild_id: str | None = None
    ) -> tuple[int, Any]:
        scope = self._scope(application_id, guild_id)
        raws = call.json or []
        if len(raws) > 100:
            raise form_error([], "BASE_TYPE_MAX_LENGTH", "Must be 100 or fewer in length.")
        old = self.commands.get(scope, [])
        new = [self._store_command(raw, scope, old, i) for i, raw in enumerate(raws)]
        names = [(c["name"], c["type"]) for c in new]
        if len(set(names)) != len(names):
            raise form_error(
                [],
                "APPLICATION_COMMANDS_DUPLICATE_NAME",
                "Application command names must be unique",
            )
        self.commands[scope] = new
        return 200, new

    async def _post_command(
        self, call: RestCall, application_id: str, guild_id: str | None = None
    ) -> tuple[int, Any]:
        scope = self._scope(application_id, guild_id)
        old = self.commands.get(scope, [])
        cmd = self._store_command(call.json or {}, scope, old, "")
        existed = any(c["id"] == cmd["id"] for c in old)
        self.commands[scope] = [c for c in old if c["id"] != cmd["id"]] + [cmd]
        return (200 if existed else 201), cmd

    def _command(self, scope: int | None, command_id: str) -> dict[str, Any]:
        for cmd in self.commands.get(scope, []):
            if cmd["id"] == command_id:
                return cmd
        raise ApiError(404, 10063, "Unknown application command")

    async def _get_command(
        self, call: RestCall, application_id: str, command_id: str, guild_id: str | None = None
    ) -> tuple[int, Any]:
        return 200, self._command(self._scope(application_id, guild_id), command_id)

    async def _patch_command(
        self, call: RestCall, application_id: str, command_id: str, guild_id: str | None = None
    ) -> tuple[int, Any]:
        scope = self._scope(application_id, guild_id)
        cmd = self._command(scope, command_id)
        cmd.update({k: v for k, v in (call.json or {}).items() if k not in ("id", "type")})
        return 200, cmd

    async def _delete_command(
        self, call: RestCall, application_id: str, command_id: str, guild_id: str | None = None
    ) -> tuple[int, Any]:
        scope = self._scope(application_id, guild_id)
        cmd = self._command(scope, command_id)
        self.commands[scope].remove(cmd)
        return 204, None

    # ================================================================== REST: guilds/channels

    def _api_guild(self, guild_id: str) -> FakeGuild:
        guild = self.guilds.get(int(guild_id))
        if guild is None:
            raise ApiError(404, 10004, "Unknown Guild")
        return guild

    def _api_channel(self, channel_id: str) -> FakeChannel:
        channel = self.channels.get(int(channel_id))
        if channel is None:
            raise unknown_channel()
        return channel

    async def _get_guild(self, call: RestCall, guild_id: str) -> tuple[int, Any]:
        guild = self._api_guild(guild_id)
        session = self.gateway.newest_session(guild.id)
        data = self.gateway.guild_create(guild, session) if session else {"id": guild_id}
        for key in ("channels", "members", "threads", "presences", "voice_states", "joined_at"):
            data.pop(key, None)
        return 200, data

    async def _get_guild_channels(self, call: RestCall, guild_id: str) -> tuple[int, Any]:
        return 200, [c.payload() for c in self._api_guild(guild_id).channels.values()]

    async def _get_member(self, call: RestCall, guild_id: str, user_id: str) -> tuple[int, Any]:
        member = self._api_guild(guild_id).members.get(int(user_id))
        if member is None:
            raise ApiError(404, 10007, "Unknown Member")
        return 200, member.payload()

    async def _get_channel(self, call: RestCall, channel_id: str) -> tuple[int, Any]:
        return 200, self._api_channel(channel_id).payload()

    async def _typing(self, call: RestCall, channel_id: str) -> tuple[int, Any]:
        self._api_channel(channel_id)
        return 204, None

    async def _create_dm(self, call: RestCall) -> tuple[int, Any]:
        rid = (call.json or {}).get("recipient_id")
        if rid is None or int(rid) not in self.users or int(rid) == self.bot_id:
            raise ApiError(400, 50033, "Invalid Recipient(s)")
        return 200, self.dm_channel(int(rid)).payload()

    # ================================================================== REST: messages

    def _api_message(self, channel_id: str, message_id: str) -> FakeMessage:
        msg = self.messages.get(int(message_id))
        # bots can't see ephemeral messages through the channel API
        if msg is None or msg.channel.id != int(channel_id) or msg.deleted or msg.ephemeral:
            raise unknown_message()
        return msg

    async def _list_messages(self, call: RestCall, channel_id: str) -> tuple[int, Any]:
        channel = self._api_channel(channel_id)
        msgs = self.channel_messages(channel)
        if "before" in call.query:
            msgs = [m for m in msgs if m.id < int(call.query["before"])]
        if "after" in call.query:
            msgs = [m for m in msgs if m.id > int(call.query["after"])]
        limit = int(call.query.get("limit", 50))
        if "after" in call.query:
            msgs = msgs[:limit]  # oldest first after an anchor, as Discord pages forwards
        else:
            msgs = msgs[-limit:]
        return 200, [m.payload() for m in reversed(msgs)]

    async def _post_message(self, call: RestCall, channel_id: str) -> tuple[int, Any]:
        channel = self._api_channel(channel_id)
        payload = _require_dict(call.json)
        if channel.is_dm and channel.recipient is not None and not channel.recipient.dm_open:
            raise ApiError(403, 50007, "Cannot send messages to this user")
        flags = int(payload.get("flags") or 0)
        if flags & ~_CREATE_FLAGS:
            raise form_error(["flags"], "MESSAGE_FLAGS_INVALID", "Invalid flags")
        msg = FakeMessage(self._ids.next(), channel, self.bot, flags=flags,
                          created_at=self.clock.now())
        if payload.get("message_reference"):
            msg.type = 19
        self._apply(msg, payload, call.files, creating=True, prefix=[])
        self.messages[msg.id] = msg
        await self._dispatch_message("MESSAGE_CREATE", msg)
        return 200, self._message_response(msg)

    async def _get_message(
        self, call: RestCall, channel_id: str, message_id: str
    ) -> tuple[int, Any]:
        return 200, self._message_response(self._api_message(channel_id, message_id))

    async def _patch_message(
        self, call: RestCall, channel_id: str, message_id: str
    ) -> tuple[int, Any]:
        msg = self._api_message(channel_id, message_id)
        if msg.author is not self.bot:
            raise ApiError(403, 50005, "Cannot edit a message authored by another user")
        if self.clock.now() - msg.created_at >= 3600:  # Discord limits edits of hour-old messages
            msg.old_edits += 1
            if msg.old_edits > OLD_EDITS_ALLOWED:
                raise ApiError(400, 30046, "Maximum number of edits to messages older than 1 "
                                           "hour reached. Try again later.")
        self._apply(msg, _require_dict(call.json), call.files, creating=False, prefix=[])
        await self._dispatch_message("MESSAGE_UPDATE", msg)
        return 200, self._message_response(msg)

    async def _delete_message(
        self, call: RestCall, channel_id: str, message_id: str
    ) -> tuple[int, Any]:
        msg = self._api_message(channel_id, message_id)
        await self._delete(msg)
        return 204, None

    async def _put_reaction(
        self, call: RestCall, channel_id: str, message_id: str, emoji: str
    ) -> tuple[int, Any]:
        msg = self._api_message(channel_id, message_id)
        msg.reactions.setdefault(emoji, set()).add(self.bot_id)
        return 204, None

    async def _delete_reaction(
        self, call: RestCall, channel_id: str, message_id: str, emoji: str
    ) -> tuple[int, Any]:
        msg = self._api_message(channel_id, message_id)
        msg.reactions.get(emoji, set()).discard(self.bot_id)
        return 204, None

    def _message_response(self, msg: FakeMessage) -> dict[str, Any]:
        data = msg.payload()
        guild = msg.channel.guild
        mentions = []
        for uid in mentioned_ids(msg.content):
            user = self.users.get(uid)
            if user is None:
                continue
            entry = user.payload()
            member = guild.members.get(uid) if guild else None
            if member is not None:
                entry["member"] = member.payload(with_user=False)
            mentions.append(entry)
        data["mentions"] = mentions
        return data

    def _apply(
        self,
        msg: FakeMessage,
        payload: dict[str, Any],
        files: list[UploadedFile],
        *,
        creating: bool,
        prefix: list[str | int],
    ) -> None:
        """Validate first, then mutate: a rejected edit leaves the message untouched."""
        flags = msg.flags
        if payload.get("flags") is not None:
            # only SUPPRESS_EMBEDS / IS_COMPONENTS_V2 may change after creation
            mutable = FLAG_SUPPRESS_EMBEDS | FLAG_COMPONENTS_V2
            flags = (flags & ~mutable) | (int(payload["flags"]) & mutable)
        content = payload.get("content", msg.content)
        content = "" if content is None else str(content)
        embeds = payload.get("embeds", msg.embeds)
        embeds = embeds or []
        components = payload.get("components", msg.components)
        components = components or []
        if len(content) > 2000:
            raise form_error(
                [*prefix, "content"], "BASE_TYPE_MAX_LENGTH", "Must be 2000 or fewer in length."
            )
        if len(embeds) > 10:
            raise form_error(
                [*prefix, "embeds"], "BASE_TYPE_MAX_LENGTH", "Must be 10 or fewer in length."
            )
        if flags & FLAG_COMPONENTS_V2 and (content or embeds):
            raise form_error(
                [*prefix, "content" if content else "embeds"],
                "MESSAGE_CANNOT_USE_LEGACY_FIELDS_WITH_COMPONENTS_V2",
                "The 'content' and 'embeds' fields cannot be used when using "
                "MessageFlags.IS_COMPONENTS_V2",
            )
        validate_components(components, flags, prefix)
        attachments = self._attachments(msg, payload, files, prefix)
        if creating and not (content or embeds or components or attachments or payload.get("poll")):
            raise ApiError(400, 50006, "Cannot send an empty message")
        if not creating:
            msg.history.append((msg.content, msg.embeds, msg.components))
            msg.edited_at = self.clock.now()
        msg.content, msg.embeds, msg.components = content, embeds, components
        msg.attachments, msg.flags = attachments, flags

    def _attachments(
        self,
        msg: FakeMessage,
        payload: dict[str, Any],
        files: list[UploadedFile],
        prefix: list[str | int],
    ) -> list[FakeAttachment]:
        def new(index: int, meta: dict[str, Any]) -> FakeAttachment:
            up = files[index]
            att_id = self._ids.next()
            filename = meta.get("filename") or up.filename
            url = f"{self.http_base}/attachments/{msg.channel.id}/{att_id}/{filename}"
            return FakeAttachment(
                att_id, filename, up.data, url, up.content_type, meta.get("description")
            )

        if "attachments" not in payload:
            # discord.py always lists uploads in "attachments"; raw clients may not
            return msg.attachments + [new(i, {}) for i in range(len(files))]
        existing = {a.id: a for a in msg.attachments}
        out: list[FakeAttachment] = []
        for i, meta in enumerate(payload["attachments"] or []):
            ref = int(meta.get("id", -1))
            if ref in existing:
                out.append(existing[ref])
            elif 0 <= ref < len(files):
                out.append(new(ref, meta))
            else:
                raise form_error(
                    [*prefix, "attachments", i, "id"], "ATTACHMENT_NOT_FOUND", "Unknown attachment"
                )
        return out

    async def _delete(self, msg: FakeMessage) -> None:
        msg.deleted = True
        if msg.ephemeral_to is None:
            guild = msg.channel.guild
            data = {"id": str(msg.id), "channel_id": str(msg.channel.id)}
            if guild is not None:
                data["guild_id"] = str(guild.id)
            await self.gateway.dispatch(
                "MESSAGE_DELETE",
                data,
                intent=message_event_intent(msg.channel.is_dm),
                guild_id=guild.id if guild else None,
            )

    async def _dispatch_message(self, event: str, msg: FakeMessage) -> None:
        """Gateway echo of a public message (ephemeral ones never reach the gateway)."""
        if msg.ephemeral_to is not None:
            return
        payload = self._message_response(msg)
        guild = msg.channel.guild
        if guild is not None:
            payload["guild_id"] = str(guild.id)
            member = guild.members.get(msg.author.id)
            if member is not None and msg.webhook_id is None:
                payload["member"] = member.payload(with_user=False)
        is_dm = msg.channel.is_dm

        def shaped(session: GatewaySession) -> dict[str, Any]:
            return strip_content_unless_allowed(payload, session, bot_id=self.bot_id, is_dm=is_dm)

        await self.gateway.dispatch(
            event, shaped, intent=message_event_intent(is_dm), guild_id=guild.id if guild else None
        )

    # ================================================================== REST: interactions

    def _interaction_message(
        self, ix: FakeInteraction, *, flags: int, ephemeral: bool, mtype: int
    ) -> FakeMessage:
        meta = {
            "id": str(ix.id),
            "type": ix.type,
            "user": ix.user.payload(),
            "authorizing_integration_owners": ix.payload["authorizing_integration_owners"],
        }
        if ix.source_message is not None:
            meta["interacted_message_id"] = str(ix.source_message.id)
        return FakeMessage(
            self._ids.next(),
            ix.channel,
            self.bot,
            created_at=self.clock.now(),
            flags=flags | (FLAG_EPHEMERAL if ephemeral else 0),
            ephemeral_to=ix.user.id if ephemeral else None,
            type=mtype,
            webhook_id=self.application_id,
            interaction=meta,
        )

    async def _callback(self, call: RestCall, interaction_id: str, token: str) -> tuple[int, Any]:
        ix = self._ix_by_id.get(int(interaction_id))
        if ix is None:
            raise unknown_interaction()
        if ix.token != token:
            raise invalid_webhook_token()
        if ix.expired or ix.expired_unanswered:
            raise unknown_interaction()  # 10062: too late (3 s / 15 min)
        if ix.initial is not None:
            raise ApiError(400, 40060, "Interaction has already been acknowledged.")
        body = _require_dict(call.json)
        ctype = body.get("type")
        data = body.get("data")
        allowed = ALLOWED_CALLBACKS[ix.type]
        if ctype in (DEFERRED_UPDATE_MESSAGE, UPDATE_MESSAGE) and ix.source_message is None:
            allowed = allowed - {DEFERRED_UPDATE_MESSAGE, UPDATE_MESSAGE}
        if ctype not in allowed:
            raise form_error(
                ["type"], "INTERACTION_RESPONSE_TYPE_INVALID", "Invalid interaction response type"
            )
        flags = int((data or {}).get("flags") or 0)
        ephemeral = bool(flags & FLAG_EPHEMERAL)
        message: FakeMessage | None = None
        created = updated = False
        if ctype == CHANNEL_MESSAGE_WITH_SOURCE:
            mtype = 20 if ix.type == APPLICATION_COMMAND else 19
            message = self._interaction_message(
                ix, flags=flags & _CREATE_FLAGS, ephemeral=ephemeral, mtype=mtype
            )
            self._apply(message, _require_dict(data), call.files, creating=True, prefix=["data"])
            created = True
        elif ctype == DEFERRED_CHANNEL_MESSAGE_WITH_SOURCE:
            mtype = 20 if ix.type == APPLICATION_COMMAND else 19
            message = self._interaction_message(
                ix, flags=FLAG_LOADING, ephemeral=ephemeral, mtype=mtype
            )
            created = True
        elif ctype == DEFERRED_UPDATE_MESSAGE:
            message = ix.source_message
        elif ctype == UPDATE_MESSAGE:
            message = ix.source_message
            assert message is not None
            if message.deleted:
                raise unknown_message()
            self._apply(message, _require_dict(data), call.files, creating=False, prefix=["data"])
            updated = True
        elif ctype == MODAL:
            modal = _require_dict(data)
            _check_modal(modal)
            ix.modal = modal
        else:  # autocomplete result
            ix.choices = list((data or {}).get("choices", []))
        if ix.timer is not None:
            ix.timer.cancel()
            ix.timer = None
        if created:
            assert message is not None
            self.messages[message.id] = message
            await self._dispatch_message("MESSAGE_CREATE", message)
        elif updated:
            assert message is not None
            await self._dispatch_message("MESSAGE_UPDATE", message)
        if message is not None:
            ix.original_id = message.id
        if ix.source_message is not None:
            ix.source_edits_at_ack = len(ix.source_message.history)
        ix.initial = InteractionResponse(ctype, data, call.files, message, self.clock.monotonic())
        if call.query.get("with_response") not in ("1", "true", "True"):
            return 204, None
        meta: dict[str, Any] = {"id": str(ix.id), "type": ix.type}
        if message is not None and ctype != DEFERRED_UPDATE_MESSAGE:
            meta["response_message_id"] = str(message.id)
            meta["response_message_loading"] = message.loading
            meta["response_message_ephemeral"] = message.ephemeral
        resource: dict[str, Any] = {"type": ctype}
        if message is not None and ctype in (4, 5, 7):
            resource["message"] = self._message_response(message)
        return 200, {"interaction": meta, "resource": resource}

    def _hook_interaction(self, application_id: str, token: str) -> FakeInteraction:
        if int(application_id) != self.application_id:
            raise unknown_webhook()
        ix = self._ix_by_token.get(token)
        if ix is None or ix.expired:
            raise invalid_webhook_token()  # 401 / 50027 like a >15 min old token
        if ix.initial is None:
            raise unknown_webhook()  # the interaction webhook exists only after the callback
        return ix

    def _hook_message(self, ix: FakeInteraction, message_id: str) -> FakeMessage:
        if message_id == "@original":
            msg = ix.original
        else:
            mid = int(message_id)
            owned = mid == ix.original_id or mid in ix.followup_ids
            msg = self.messages.get(mid) if owned else None
        if msg is None or msg.deleted:
            raise unknown_message()
        return msg

    async def _followup(self, call: RestCall, application_id: str, token: str) -> tuple[int, Any]:
        ix = self._hook_interaction(application_id, token)
        payload = _require_dict(call.json)
        flags = int(payload.get("flags") or 0)
        original = ix.original
        if (
            ix.response_type == DEFERRED_CHANNEL_MESSAGE_WITH_SOURCE
            and original is not None
            and original.loading
        ):
            # The first followup after a "thinking" defer replaces the loading message and
            # keeps the defer's visibility (ephemeral-ness is decided by defer()).
            self._apply(original, payload, call.files, creating=True, prefix=[])
            original.flags &= ~FLAG_LOADING
            original.edited_at = self.clock.now()
            ix.followup_ids.append(original.id)
            await self._dispatch_message("MESSAGE_UPDATE", original)
            msg = original
        else:
            msg = self._interaction_message(
                ix, flags=flags & _CREATE_FLAGS, ephemeral=bool(flags & FLAG_EPHEMERAL), mtype=0
            )
            self._apply(msg, payload, call.files, creating=True, prefix=[])
            self.messages[msg.id] = msg
            ix.followup_ids.append(msg.id)
            await self._dispatch_message("MESSAGE_CREATE", msg)
        if call.query.get("wait") in ("1", "true", "True"):
            return 200, self._message_response(msg)
        return 204, None

    async def _hook_get(
        self, call: RestCall, application_id: str, token: str, message_id: str = "@original"
    ) -> tuple[int, Any]:
        ix = self._hook_interaction(application_id, token)
        return 200, self._message_response(self._hook_message(ix, message_id))

    async def _hook_patch(
        self, call: RestCall, application_id: str, token: str, message_id: str = "@original"
    ) -> tuple[int, Any]:
        ix = self._hook_interaction(application_id, token)
        msg = self._hook_message(ix, message_id)
        was_loading = msg.loading
        self._apply(msg, _require_dict(call.json), call.files, creating=was_loading, prefix=[])
        if was_loading:
            msg.flags &= ~FLAG_LOADING
            msg.edited_at = self.clock.now()
        await self._dispatch_message("MESSAGE_UPDATE", msg)
        return 200, self._message_response(msg)

    async def _hook_delete(
        self, call: RestCall, application_id: str, token: str, message_id: str = "@original"
    ) -> tuple[int, Any]:
        ix = self._hook_interaction(application_id, token)
        await self._delete(self._hook_message(ix, message_id))
        return 204, None


# ====================================================================== helpers

_REASONS = {
    400: "400: Bad Request",
    401: "401: Unauthorized",
    403: "Missing Permissions",
    404: "404: Not Found",
    500: "500: Internal Server Error",
    502: "502: Bad Gateway",
    503: "503: Service Unavailable",
}


def _json_response(body: Any, *, status: int, headers: dict[str, str]) -> web.Response:
    # discord.py's json_or_text() only decodes when Content-Type is *exactly*
    # "application/json" (no charset), as Discord sends it.
    return web.Response(
        body=json.dumps(body).encode(),
        status=status,
        headers={**headers, "Content-Type": "application/json"},
    )


def _bucket_hash(template: str) -> str:
    return hashlib.sha1(template.encode()).hexdigest()[:16]


def _require_dict(value: Any) -> dict[str, Any]:
    if not isinstance(value, dict):
        raise ApiError(400, 50109, "The request body contains invalid JSON.")
    return value


def _named(options: list[dict[str, Any]], name: str, otype: int, where: str) -> dict[str, Any]:
    for opt in options:
        if opt.get("name") == name and opt.get("type") == otype:
            return opt
    kind = "subcommand group" if otype == 2 else "subcommand"
    raise LookupError(f"/{where} has no {kind} {name!r}")


def _check_options(options: list[dict[str, Any]], path: list[str | int]) -> None:
    if len(options) > 25:
        raise form_error(path, "BASE_TYPE_MAX_LENGTH", "Must be 25 or fewer in length.")
    seen_optional = False
    for i, opt in enumerate(options):
        name = opt.get("name", "")
        if not _COMMAND_NAME.match(name) or name != name.lower():
            raise form_error(
                [*path, i, "name"], "APPLICATION_COMMAND_INVALID_NAME", "Command name is invalid"
            )
        if not 1 <= len(opt.get("description", "")) <= 100:
            raise form_error(
                [*path, i, "description"],
                "BASE_TYPE_BAD_LENGTH",
                "Must be between 1 and 100 in length.",
            )
        if opt.get("type") in (1, 2):
            _check_options(opt.get("options", []), [*path, i, "options"])
            continue
        if opt.get("required"):
            if seen_optional:
                raise form_error(
                    [*path, i, "required"],
                    "APPLICATION_COMMAND_OPTIONS_REQUIRED_INVALID",
                    "Required options must be placed before non-required options",
                )
        else:
            seen_optional = True


def _check_modal(modal: dict[str, Any]) -> None:
    if not 1 <= len(modal.get("custom_id") or "") <= 100:
        raise form_error(
            ["data", "custom_id"], "BASE_TYPE_BAD_LENGTH", "Must be between 1 and 100 in length."
        )
    if not 1 <= len(modal.get("title") or "") <= 45:
        raise form_error(
            ["data", "title"], "BASE_TYPE_BAD_LENGTH", "Must be between 1 and 45 in length."
        )
    comps = modal.get("components") or []
    if not 1 <= len(comps) <= 5:
        raise form_error(
            ["data", "components"], "BASE_TYPE_BAD_LENGTH", "Must be between 1 and 5 in length."
        )
