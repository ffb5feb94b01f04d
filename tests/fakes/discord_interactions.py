"""Records the fake Discord server hands to tests: the REST call log and interaction handles."""

from __future__ import annotations

import asyncio
from collections.abc import Generator
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

from .discord_models import (
    FLAG_EPHEMERAL,
    FakeChannel,
    FakeMember,
    FakeMessage,
    FakeUser,
    UploadedFile,
)

if TYPE_CHECKING:
    from .discord_gateway import GatewaySession
    from .discord_server import FakeDiscord

# Interaction types
APPLICATION_COMMAND = 2
MESSAGE_COMPONENT = 3
AUTOCOMPLETE = 4
MODAL_SUBMIT = 5

# Callback types
PONG = 1
CHANNEL_MESSAGE_WITH_SOURCE = 4
DEFERRED_CHANNEL_MESSAGE_WITH_SOURCE = 5
DEFERRED_UPDATE_MESSAGE = 6
UPDATE_MESSAGE = 7
AUTOCOMPLETE_RESULT = 8
MODAL = 9

ALLOWED_CALLBACKS: dict[int, frozenset[int]] = {
    APPLICATION_COMMAND: frozenset({4, 5, 9}),
    MESSAGE_COMPONENT: frozenset({4, 5, 6, 7, 9}),
    AUTOCOMPLETE: frozenset({8}),
    MODAL_SUBMIT: frozenset({4, 5, 6, 7}),
}


@dataclass(eq=False)
class RestCall:
    """One REST request as the bot made it. ``path`` is relative to the API base
    (``/channels/1/messages``); ``json`` is the JSON body or a multipart ``payload_json``."""

    method: str
    path: str
    query: dict[str, str]
    json: Any
    files: list[UploadedFile]
    headers: dict[str, str]
    at: float
    status: int | None = None
    response: Any = None
    route: str | None = None  # matched template, e.g. "POST /channels/{channel_id}/messages"
    injected: bool = False  # answered by fail_next()

    def __str__(self) -> str:
        return f"{self.method} {self.path} -> {self.status}"


@dataclass(eq=False)
class InteractionResponse:
    """The initial callback (POST /interactions/{id}/{token}/callback) of an interaction."""

    type: int
    data: dict[str, Any] | None
    files: list[UploadedFile]
    message: FakeMessage | None  # created (4/5) or updated (7) message; source for 6
    at: float

    @property
    def ephemeral(self) -> bool:
        return bool((self.data or {}).get("flags", 0) & FLAG_EPHEMERAL)


@dataclass(eq=False)
class FakeInteraction:
    """Handle on an interaction the fake sent. ``await ix`` waits for the initial response."""

    server: FakeDiscord
    id: int
    token: str
    type: int
    data: dict[str, Any]
    user: FakeUser
    member: FakeMember | None
    channel: FakeChannel
    source_message: FakeMessage | None  # message holding the clicked component
    payload: dict[str, Any]
    created: float
    initial: InteractionResponse | None = None
    original_id: int | None = None
    followup_ids: list[int] = field(default_factory=list)
    expired: bool = False  # token older than 15 minutes (expire_interaction)
    expired_unanswered: bool = False  # no callback within the 3 s deadline
    modal: dict[str, Any] | None = None  # data of a type-9 callback
    choices: list[dict[str, Any]] | None = None  # autocomplete result
    timer: asyncio.TimerHandle | None = None
    source_edits_at_ack: int = 0
    # the gateway session it was dispatched to (with shards: the one whose shard has the
    # guild, shard 0 for DMs, as Discord routes them)
    session: GatewaySession | None = None

    def __await__(self) -> Generator[Any, None, InteractionResponse]:
        return self.response().__await__()

    @property
    def acknowledged(self) -> bool:
        return self.initial is not None

    @property
    def response_type(self) -> int | None:
        return None if self.initial is None else self.initial.type

    @property
    def original(self) -> FakeMessage | None:
        return None if self.original_id is None else self.server.messages.get(self.original_id)

    @property
    def followups(self) -> list[FakeMessage]:
        return [self.server.messages[m] for m in self.followup_ids]

    async def response(self, timeout: float = 5.0) -> InteractionResponse:
        await self.server.wait_until(
            lambda: self.initial is not None or self.expired_unanswered,
            timeout,
            f"no response to interaction {self.id}",
        )
        if self.initial is None:
            raise AssertionError(f"interaction {self.id} was not answered within the deadline")
        return self.initial

    async def result(self, timeout: float = 5.0) -> FakeMessage:
        """The message the user ends up looking at: the reply (4), the deferred reply once it
        is no longer loading (5), the updated message (7) or, for a deferred update (6), the
        source message after its next edit."""
        resp = await self.response(timeout)
        if resp.type == MODAL or resp.type == AUTOCOMPLETE_RESULT:
            raise ValueError(f"callback type {resp.type} has no message")
        if resp.type == DEFERRED_UPDATE_MESSAGE:
            source = self.source_message
            assert source is not None
            await self.server.wait_until(
                lambda: len(source.history) > self.source_edits_at_ack,
                timeout,
                f"deferred update of interaction {self.id} never edited the message",
            )
            return source
        await self.server.wait_until(
            lambda: self.original is not None and not self.original.loading,
            timeout,
            f"deferred interaction {self.id} never got its message",
        )
        assert self.original is not None
        return self.original

    async def followup(self, index: int = 0, timeout: float = 5.0) -> FakeMessage:
        await self.server.wait_until(
            lambda: len(self.followup_ids) > index,
            timeout,
            f"interaction {self.id} has no followup #{index}",
        )
        return self.followups[index]

    async def submit_modal(self, values: dict[str, str | list[str]]) -> FakeInteraction:
        return await self.server.submit_modal(self, values)
