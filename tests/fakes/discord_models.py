"""Data model of the fake Discord server: snowflakes, users, guilds, channels, messages,
component inspection and Discord-shaped validation errors.

Everything here is plain data; the aiohttp server lives in ``discord_server.py``.
"""

from __future__ import annotations

import datetime as dt
import itertools
import re
import threading
import time
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from typing import Any, NamedTuple

DISCORD_EPOCH_MS = 1_420_070_400_000

# Message flags (https://discord.com/developers/docs/resources/message#message-object-message-flags)
FLAG_SUPPRESS_EMBEDS = 1 << 2
FLAG_EPHEMERAL = 1 << 6
FLAG_LOADING = 1 << 7
FLAG_SUPPRESS_NOTIFICATIONS = 1 << 12
FLAG_COMPONENTS_V2 = 1 << 15

# Gateway intents the fake cares about.
INTENT_GUILDS = 1 << 0
INTENT_GUILD_MEMBERS = 1 << 1
INTENT_GUILD_PRESENCES = 1 << 8
INTENT_GUILD_MESSAGES = 1 << 9
INTENT_DIRECT_MESSAGES = 1 << 12
INTENT_MESSAGE_CONTENT = 1 << 15
PRIVILEGED_INTENTS = INTENT_GUILD_MEMBERS | INTENT_GUILD_PRESENCES | INTENT_MESSAGE_CONTENT

# What @everyone may do in a fake guild: enough for a game bot (view, send, embed, attach,
# history, reactions, external emoji, slash commands, threads).
DEFAULT_EVERYONE_PERMISSIONS = (
    (1 << 6)
    | (1 << 10)
    | (1 << 11)
    | (1 << 14)
    | (1 << 15)
    | (1 << 16)
    | (1 << 18)
    | (1 << 31)
    | (1 << 35)
    | (1 << 38)
)
ALL_PERMISSIONS = (1 << 53) - 1

SELECT_TYPES = frozenset({3, 5, 6, 7, 8})


class Snowflakes:
    """Monotonic, real-looking snowflakes (discord.py derives timestamps from them)."""

    def __init__(self, now: Callable[[], float] = time.time) -> None:
        self.now = now  # the fake's clock: epoch seconds
        self._lock = threading.Lock()
        self._last = 0
        self._inc = itertools.count()

    def next(self) -> int:
        with self._lock:
            value = (
                ((int(self.now() * 1000) - DISCORD_EPOCH_MS) << 22)
                | (1 << 17)
                | (next(self._inc) & 0xFFF)
            )
            value = max(value, self._last + 1)
            self._last = value
            return value


def iso(ts: float | None = None) -> str:
    moment = dt.datetime.fromtimestamp(time.time() if ts is None else ts, dt.UTC)
    return moment.isoformat()


def snowflake_time(snowflake: int) -> float:
    return ((snowflake >> 22) + DISCORD_EPOCH_MS) / 1000


# --------------------------------------------------------------------------- errors


class ApiError(Exception):
    """Raised by a REST handler; rendered as Discord's JSON error body."""

    def __init__(
        self, status: int, code: int, message: str, errors: dict[str, Any] | None = None
    ) -> None:
        super().__init__(f"{status} {code} {message}")
        self.status = status
        self.code = code
        self.message = message
        self.errors = errors

    def body(self) -> dict[str, Any]:
        body: dict[str, Any] = {"message": self.message, "code": self.code}
        if self.errors:
            body["errors"] = self.errors
        return body


def form_error(path: list[str | int], code: str, message: str) -> ApiError:
    """50035 Invalid Form Body with Discord's nested ``errors`` object (discord.py flattens it
    into ``In data.components.0.components.1.custom_id: ...``)."""
    node: dict[str, Any] = {"_errors": [{"code": code, "message": message}]}
    for part in reversed(path):
        node = {str(part): node}
    return ApiError(400, 50035, "Invalid Form Body", node)


def unknown_message() -> ApiError:
    return ApiError(404, 10008, "Unknown Message")


def unknown_channel() -> ApiError:
    return ApiError(404, 10003, "Unknown Channel")


def unknown_interaction() -> ApiError:
    return ApiError(404, 10062, "Unknown interaction")


def unknown_webhook() -> ApiError:
    return ApiError(404, 10015, "Unknown Webhook")


def invalid_webhook_token() -> ApiError:
    return ApiError(401, 50027, "Invalid Webhook Token")


# --------------------------------------------------------------------------- entities


@dataclass(eq=False)
class FakeUser:
    id: int
    name: str
    bot: bool = False
    dm_open: bool = True  # False → bot DMs fail with 403 / 50007
    locale: str = "en-US"  # the member's client language (sent with their interactions)

    def payload(self) -> dict[str, Any]:
        return {
            "id": str(self.id),
            "username": self.name,
            "discriminator": "0",
            "global_name": None if self.bot else self.name,
            "avatar": None,
            "bot": self.bot,
            "public_flags": 0,
        }


@dataclass(eq=False)
class FakeRole:
    id: int
    name: str
    permissions: int
    position: int = 0

    def payload(self) -> dict[str, Any]:
        return {
            "id": str(self.id),
            "name": self.name,
            "permissions": str(self.permissions),
            "position": self.position,
            "color": 0,
            "colors": {"primary_color": 0, "secondary_color": None, "tertiary_color": None},
            "hoist": False,
            "managed": False,
            "mentionable": False,
            "icon": None,
            "unicode_emoji": None,
            "flags": 0,
        }


@dataclass(eq=False)
class FakeGuild:
    id: int
    name: str
    owner_id: int
    roles: dict[int, FakeRole] = field(default_factory=dict)
    channels: dict[int, FakeChannel] = field(default_factory=dict)
    members: dict[int, FakeMember] = field(default_factory=dict)
    joined_at: float = field(default_factory=time.time)

    @property
    def everyone(self) -> FakeRole:
        return self.roles[self.id]

    def permissions_of(self, user_id: int) -> int:
        if user_id == self.owner_id:
            return ALL_PERMISSIONS
        perms = self.everyone.permissions
        member = self.members.get(user_id)
        for role_id in member.role_ids if member else ():
            perms |= self.roles[role_id].permissions
        return ALL_PERMISSIONS if perms & (1 << 3) else perms  # ADMINISTRATOR

    def partial(self) -> dict[str, Any]:
        return {"id": str(self.id), "locale": "en-US", "features": []}


@dataclass(eq=False)
class FakeMember:
    guild: FakeGuild
    user: FakeUser
    nick: str | None = None
    role_ids: list[int] = field(default_factory=list)
    joined_at: float = field(default_factory=time.time)

    @property
    def id(self) -> int:
        return self.user.id

    @property
    def name(self) -> str:
        return self.user.name

    @property
    def dm_open(self) -> bool:
        return self.user.dm_open

    @dm_open.setter
    def dm_open(self, value: bool) -> None:
        self.user.dm_open = value

    def payload(self, *, with_user: bool = True, permissions: bool = False) -> dict[str, Any]:
        data: dict[str, Any] = {
            "roles": [str(r) for r in self.role_ids],
            "joined_at": iso(self.joined_at),
            "nick": self.nick,
            "avatar": None,
            "banner": None,
            "premium_since": None,
            "communication_disabled_until": None,
            "deaf": False,
            "mute": False,
            "pending": False,
            "flags": 0,
        }
        if with_user:
            data["user"] = self.user.payload()
        if permissions:
            data["permissions"] = str(self.guild.permissions_of(self.id))
        return data


@dataclass(eq=False)
class FakeChannel:
    id: int
    name: str
    type: int = 0  # 0 guild text, 1 DM
    guild: FakeGuild | None = None
    recipient: FakeUser | None = None  # DMs only
    position: int = 0

    @property
    def is_dm(self) -> bool:
        return self.type == 1

    def payload(self) -> dict[str, Any]:
        if self.is_dm:
            assert self.recipient is not None
            return {
                "id": str(self.id),
                "type": 1,
                "last_message_id": None,
                "flags": 0,
                "recipients": [self.recipient.payload()],
            }
        assert self.guild is not None
        return {
            "id": str(self.id),
            "type": self.type,
            "guild_id": str(self.guild.id),
            "name": self.name,
            "position": self.position,
            "permission_overwrites": [],
            "nsfw": False,
            "parent_id": None,
            "topic": None,
            "last_message_id": None,
            "rate_limit_per_user": 0,
            "flags": 0,
        }


@dataclass(eq=False)
class UploadedFile:
    """One ``files[n]`` part of a multipart request."""

    field: str
    filename: str
    content_type: str | None
    data: bytes


@dataclass(eq=False)
class FakeAttachment:
    id: int
    filename: str
    data: bytes
    url: str
    content_type: str | None = None
    description: str | None = None

    def payload(self) -> dict[str, Any]:
        data: dict[str, Any] = {
            "id": str(self.id),
            "filename": self.filename,
            "size": len(self.data),
            "url": self.url,
            "proxy_url": self.url,
        }
        if self.content_type:
            data["content_type"] = self.content_type
        if self.description is not None:
            data["description"] = self.description
        return data


@dataclass(eq=False)
class FakeMessage:
    """A message as Discord stores it. ``ephemeral_to`` is the only user who sees it."""

    id: int
    channel: FakeChannel
    author: FakeUser
    content: str = ""
    embeds: list[dict[str, Any]] = field(default_factory=list)
    components: list[dict[str, Any]] = field(default_factory=list)
    attachments: list[FakeAttachment] = field(default_factory=list)
    flags: int = 0
    ephemeral_to: int | None = None
    deleted: bool = False
    type: int = 0
    webhook_id: int | None = None
    interaction: dict[str, Any] | None = None  # interaction_metadata
    edited_at: float | None = None
    # (content, embeds, components) before each edit, oldest first
    history: list[tuple[str, list[dict[str, Any]], list[dict[str, Any]]]] = field(
        default_factory=list
    )
    reactions: dict[str, set[int]] = field(default_factory=dict)
    created_at: float = field(default_factory=time.time)  # FakeDiscord.age() moves it back
    old_edits: int = 0  # edits made after it was an hour old (error 30046 past a few)

    @property
    def channel_id(self) -> int:
        return self.channel.id

    @property
    def ephemeral(self) -> bool:
        return bool(self.flags & FLAG_EPHEMERAL)

    @property
    def loading(self) -> bool:
        return bool(self.flags & FLAG_LOADING)

    def visible_to(self, user_id: int) -> bool:
        return not self.deleted and (self.ephemeral_to is None or self.ephemeral_to == user_id)

    def controls(self) -> list[list[Control]]:
        return controls_of(self.components)

    def find_component(self, custom_id: str) -> dict[str, Any] | None:
        return next(
            (c for c in walk_components(self.components) if c.get("custom_id") == custom_id),
            None,
        )

    def payload(self, *, guild_extras: bool = False) -> dict[str, Any]:
        data: dict[str, Any] = {
            "id": str(self.id),
            "channel_id": str(self.channel.id),
            "type": self.type,
            "author": self.author.payload(),
            "content": self.content,
            "timestamp": iso(snowflake_time(self.id)),
            "edited_timestamp": None if self.edited_at is None else iso(self.edited_at),
            "tts": False,
            "mention_everyone": False,
            "mentions": [],
            "mention_roles": [],
            "attachments": [a.payload() for a in self.attachments],
            "embeds": self.embeds,
            "components": self.components,
            "pinned": False,
            "flags": self.flags,
        }
        if self.reactions:
            data["reactions"] = [
                {"emoji": {"id": None, "name": name}, "count": len(users), "me": False}
                for name, users in self.reactions.items()
                if users
            ]
        if self.webhook_id is not None:
            data["webhook_id"] = str(self.webhook_id)
            data["application_id"] = str(self.webhook_id)
        if self.interaction is not None:
            data["interaction_metadata"] = self.interaction
        if guild_extras and self.channel.guild is not None:
            data["guild_id"] = str(self.channel.guild.id)
            member = self.channel.guild.members.get(self.author.id)
            if member is not None and self.webhook_id is None:
                data["member"] = member.payload(with_user=False)
        return data


# --------------------------------------------------------------------------- components


class Option(NamedTuple):
    label: str
    value: str
    description: str | None
    default: bool


class _ControlBase(NamedTuple):
    label: str | None
    custom_id: str | None
    style: int | None
    disabled: bool


class Control(_ControlBase):
    """``(label, custom_id, style, disabled)``; extra attributes ``type``, ``options``, ``url``,
    ``placeholder`` and ``raw``. Select menus have ``style=None`` and label = placeholder."""

    type: int
    options: list[Option]
    url: str | None
    placeholder: str | None
    raw: dict[str, Any]

    @classmethod
    def from_component(cls, comp: dict[str, Any]) -> Control:
        ctype = comp.get("type", 0)
        is_select = ctype in SELECT_TYPES
        emoji = comp.get("emoji") or {}
        label = comp.get("placeholder") if is_select else comp.get("label") or emoji.get("name")
        ctl = cls(
            label,
            comp.get("custom_id"),
            None if is_select else comp.get("style"),
            bool(comp.get("disabled", False)),
        )
        ctl.type = ctype
        ctl.url = comp.get("url")
        ctl.placeholder = comp.get("placeholder")
        ctl.raw = comp
        ctl.options = [
            Option(o["label"], o["value"], o.get("description"), bool(o.get("default", False)))
            for o in comp.get("options", [])
        ]
        return ctl


def walk_components(components: list[dict[str, Any]]) -> Iterator[dict[str, Any]]:
    """Depth-first over every component, including v2 containers/sections/labels."""
    for comp in components:
        yield comp
        yield from walk_components(comp.get("components", []))
        for key in ("accessory", "component"):
            if isinstance(comp.get(key), dict):
                yield from walk_components([comp[key]])


def controls_of(components: list[dict[str, Any]]) -> list[list[Control]]:
    """Rows of interactive controls: one row per action row (v2 section accessories get
    a row of their own)."""
    rows: list[list[Control]] = []

    def visit(comps: list[dict[str, Any]]) -> None:
        for comp in comps:
            if comp.get("type") == 1:
                rows.append([Control.from_component(c) for c in comp.get("components", [])])
                continue
            if comp.get("type") == 9 and isinstance(comp.get("accessory"), dict):
                acc = comp["accessory"]
                if acc.get("type") == 2:
                    rows.append([Control.from_component(acc)])
            visit(comp.get("components", []))

    visit(components)
    return rows


def validate_components(components: Any, flags: int, prefix: list[str | int]) -> None:
    """The subset of Discord's component rules a bot is likely to trip over."""
    if components is None:
        return
    path = [*prefix, "components"]
    if not isinstance(components, list):
        raise form_error(path, "LIST_TYPE_CONVERT", "Must be a list.")
    v2 = bool(flags & FLAG_COMPONENTS_V2)
    if not v2 and len(components) > 5:
        raise form_error(path, "BASE_TYPE_MAX_LENGTH", "Must be 5 or fewer in length.")
    if v2 and sum(1 for _ in walk_components(components)) > 40:
        raise form_error(path, "BASE_TYPE_MAX_LENGTH", "Must be 40 or fewer in length.")
    seen: set[str] = set()
    for i, top in enumerate(components):
        if not v2 and top.get("type") != 1:
            raise form_error(
                [*path, i, "type"],
                "UNION_TYPE_CHOICES",
                'Value of field "type" must be one of (1,).',
            )
        _validate_tree(top, [*path, i], seen)


def _validate_tree(comp: dict[str, Any], path: list[str | int], seen: set[str]) -> None:
    ctype = comp.get("type")
    if ctype == 1:
        children = comp.get("components", [])
        cpath = [*path, "components"]
        if not 1 <= len(children) <= 5:
            raise form_error(cpath, "BASE_TYPE_BAD_LENGTH", "Must be between 1 and 5 in length.")
        if any(c.get("type") in SELECT_TYPES for c in children) and len(children) > 1:
            raise form_error(
                cpath,
                "COMPONENT_LAYOUT_WIDTH_EXCEEDED",
                "The specified component exceeds the maximum width",
            )
    custom_id = comp.get("custom_id")
    if custom_id is not None:
        if not 1 <= len(custom_id) <= 100:
            raise form_error(
                [*path, "custom_id"], "BASE_TYPE_BAD_LENGTH", "Must be between 1 and 100 in length."
            )
        if custom_id in seen:
            raise form_error(
                [*path, "custom_id"],
                "COMPONENT_CUSTOM_ID_DUPLICATED",
                "Component custom id cannot be duplicated",
            )
        seen.add(custom_id)
    if ctype == 2:
        style = comp.get("style")
        if style == 5 and not comp.get("url"):
            raise form_error([*path, "url"], "BASE_TYPE_REQUIRED", "This field is required")
        if style in (1, 2, 3, 4) and custom_id is None:
            raise form_error([*path, "custom_id"], "BASE_TYPE_REQUIRED", "This field is required")
        if len(comp.get("label") or "") > 80:
            raise form_error(
                [*path, "label"], "BASE_TYPE_MAX_LENGTH", "Must be 80 or fewer in length."
            )
    if ctype == 3:
        options = comp.get("options", [])
        if not 1 <= len(options) <= 25:
            raise form_error(
                [*path, "options"], "BASE_TYPE_BAD_LENGTH", "Must be between 1 and 25 in length."
            )
        values = [o.get("value") for o in options]
        if len(set(values)) != len(values):
            raise form_error(
                [*path, "options"],
                "SELECT_COMPONENT_OPTION_VALUE_DUPLICATED",
                "Select component option values cannot be duplicated",
            )
    for i, child in enumerate(comp.get("components", [])):
        _validate_tree(child, [*path, "components", i], seen)
    for key in ("accessory", "component"):
        if isinstance(comp.get(key), dict):
            _validate_tree(comp[key], [*path, key], seen)


_MENTION = re.compile(r"<@!?(\d+)>")


def mentioned_ids(content: str) -> list[int]:
    return [int(m) for m in _MENTION.findall(content or "")]
