"""Gateway half of the fake Discord server: HELLO / IDENTIFY / READY / RESUME / heartbeats,
zlib-stream transport compression, sequence numbers and per-session replay buffers."""

from __future__ import annotations

import asyncio
import contextlib
import json
import secrets
import time
import zlib
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

from aiohttp import WSMsgType, web

from .discord_models import (
    INTENT_DIRECT_MESSAGES,
    INTENT_GUILD_MEMBERS,
    INTENT_GUILD_MESSAGES,
    INTENT_GUILDS,
    INTENT_MESSAGE_CONTENT,
    PRIVILEGED_INTENTS,
    FakeGuild,
    iso,
)

if TYPE_CHECKING:
    from .discord_server import FakeDiscord

OP_DISPATCH = 0
OP_HEARTBEAT = 1
OP_IDENTIFY = 2
OP_PRESENCE = 3
OP_VOICE_STATE = 4
OP_RESUME = 6
OP_RECONNECT = 7
OP_REQUEST_MEMBERS = 8
OP_INVALID_SESSION = 9
OP_HELLO = 10
OP_HEARTBEAT_ACK = 11

REPLAY_BUFFER = 2000


class _Compressor:
    """One compression context per connection (Discord's ``compress=`` query param)."""

    def __init__(self, kind: str) -> None:
        self.kind = kind
        if kind == "zlib-stream":
            self._zlib = zlib.compressobj()
        elif kind == "zstd-stream":
            # only asked for when discord.py found a zstd module, so it is importable here too
            try:
                from compression.zstd import ZstdCompressor  # type: ignore[import-not-found]

                self._zstd: Any = ZstdCompressor()
                self._std = True
            except ImportError:
                import zstandard  # type: ignore[import-not-found]

                self._zstd = zstandard.ZstdCompressor().compressobj()
                self._std = False
        else:
            raise ImportError(kind)  # treated as "unsupported" by the caller

    def __call__(self, text: str) -> bytes:
        raw = text.encode()
        if self.kind == "zlib-stream":
            # Z_SYNC_FLUSH ends every payload with 00 00 ff ff, which is what discord.py's
            # _ZlibDecompressionContext waits for before decoding.
            return self._zlib.compress(raw) + self._zlib.flush(zlib.Z_SYNC_FLUSH)
        if self._std:
            return self._zstd.compress(raw, self._zstd.FLUSH_BLOCK)
        import zstandard  # type: ignore[import-not-found]

        return self._zstd.compress(raw) + self._zstd.flush(zstandard.COMPRESSOBJ_FLUSH_BLOCK)


@dataclass(eq=False)
class GatewaySession:
    """A Discord session: survives its connection so a client can RESUME it."""

    id: str
    intents: int
    shard: tuple[int, int] | None
    identify: dict[str, Any]
    created: float = field(default_factory=time.monotonic)
    seq: int = 0
    buffer: list[dict[str, Any]] = field(default_factory=list)
    conn: GatewayConnection | None = None
    invalid: bool = False
    ready: asyncio.Event = field(default_factory=asyncio.Event)  # READY + GUILD_CREATEs sent
    presence: dict[str, Any] | None = None
    resumes: int = 0

    def wants(self, intent: int) -> bool:
        return not intent or bool(self.intents & intent)

    def handles_guild(self, guild_id: int | None) -> bool:
        if self.shard is None:
            return True
        shard_id, count = self.shard
        return (((guild_id or 0) >> 22) % count) == shard_id


@dataclass(eq=False)
class GatewayConnection:
    ws: web.WebSocketResponse
    compress: _Compressor | None
    encoding: str
    session: GatewaySession | None = None
    lock: asyncio.Lock = field(default_factory=asyncio.Lock)
    heartbeats: int = 0
    received: list[dict[str, Any]] = field(default_factory=list)
    server_close_code: int | None = None  # set when *we* closed the socket

    async def close(self, code: int, message: bytes = b"") -> None:
        # ws.close_code can't tell who closed (it often reads 1000 after a server close),
        # so remember our own close to keep the session resumable.
        self.server_close_code = code
        with contextlib.suppress(Exception):
            await self.ws.close(code=code, message=message)

    async def send(self, payload: dict[str, Any]) -> bool:
        text = json.dumps(payload, separators=(",", ":"))
        async with self.lock:  # compression context and frame order must stay in step
            if self.ws.closed:
                return False
            try:
                if self.compress is not None:
                    await self.ws.send_bytes(self.compress(text))
                else:
                    await self.ws.send_str(text)
            except (ConnectionError, RuntimeError):
                return False
        return True


class Gateway:
    """Owned by FakeDiscord; ``handle`` is the aiohttp websocket route."""

    def __init__(self, server: FakeDiscord, heartbeat_interval_ms: int) -> None:
        self.server = server
        self.heartbeat_interval_ms = heartbeat_interval_ms
        self.sessions: list[GatewaySession] = []
        self.connections: list[GatewayConnection] = []
        self.identifies = 0

    # ----------------------------------------------------------------- session selection

    def live_sessions(self) -> list[GatewaySession]:
        """Sessions not invalidated (connected, or disconnected but resumable)."""
        return [s for s in self.sessions if not s.invalid]

    def connected_sessions(self) -> list[GatewaySession]:
        return [s for s in self.live_sessions() if s.conn is not None]

    def newest_session(self, guild_id: int | None) -> GatewaySession | None:
        """Interactions go to one session only; after a bot restart that is the new one."""
        candidates = [s for s in self.live_sessions() if s.handles_guild(guild_id)]
        connected = [s for s in candidates if s.conn is not None]
        pool = connected or candidates
        return max(pool, key=lambda s: s.created) if pool else None

    # ----------------------------------------------------------------- dispatch

    async def dispatch(
        self,
        event: str,
        data: dict[str, Any] | Callable[[GatewaySession], dict[str, Any] | None],
        *,
        intent: int = 0,
        guild_id: int | None = None,
        only: GatewaySession | None = None,
    ) -> int:
        """Send a DISPATCH to every live session that asked for ``intent`` (or to ``only``).
        ``data`` may be a function of the session (e.g. to strip message content)."""
        targets = [only] if only is not None else self.live_sessions()
        sent = 0
        for session in targets:
            if not session.wants(intent) or not session.handles_guild(guild_id):
                continue
            payload = data(session) if callable(data) else data
            if payload is None:
                continue
            await self._send_dispatch(session, event, payload)
            sent += 1
        return sent

    async def _send_dispatch(self, session: GatewaySession, event: str, data: Any) -> None:
        session.seq += 1
        frame = {"op": OP_DISPATCH, "t": event, "s": session.seq, "d": data}
        session.buffer.append(frame)
        del session.buffer[:-REPLAY_BUFFER]
        if session.conn is not None:
            await session.conn.send(frame)

    async def send_op(self, op: int, data: Any = None) -> None:
        for conn in list(self.connections):
            await conn.send({"op": op, "d": data, "s": None, "t": None})

    async def close_all(self, code: int, message: bytes = b"") -> None:
        for conn in list(self.connections):
            await conn.close(code, message)

    # ----------------------------------------------------------------- websocket route

    async def handle(self, request: web.Request) -> web.WebSocketResponse:
        ws = web.WebSocketResponse(max_msg_size=0, autoping=True)
        await ws.prepare(request)
        version = request.query.get("v", "10")
        encoding = request.query.get("encoding", "json")
        compress = request.query.get("compress")
        try:
            compressor = _Compressor(compress) if compress else None
        except ImportError:  # zstd-stream asked for but no zstd module here
            compressor = None
            compress = "unsupported"
        conn = GatewayConnection(ws, compressor, encoding)
        if compress not in (None, "zlib-stream", "zstd-stream"):
            await conn.close(4000, b"Unknown compression.")
            return ws
        if version not in ("9", "10"):
            await conn.close(4012, b"Invalid API version")
            return ws
        if encoding != "json":
            await conn.close(4002, b"Error while decoding payload.")
            return ws
        self.connections.append(conn)
        try:
            await conn.send(
                {
                    "op": OP_HELLO,
                    "d": {"heartbeat_interval": self.heartbeat_interval_ms, "_trace": ["fake"]},
                    "s": None,
                    "t": None,
                }
            )
            async for msg in ws:
                if msg.type is not WSMsgType.TEXT:
                    if msg.type is WSMsgType.BINARY:
                        await conn.close(4002, b"Error while decoding payload.")
                    continue
                try:
                    payload = json.loads(msg.data)
                except ValueError:
                    await conn.close(4002, b"Error while decoding payload.")
                    break
                conn.received.append(payload)
                await self._on_payload(conn, payload)
        finally:
            self.connections.remove(conn)
            session = conn.session
            if session is not None and session.conn is conn:
                session.conn = None
                # A client closing with 1000/1001 ends its session; other codes leave it
                # resumable (discord.py's Client.close() in practice sends 4000).
                if conn.server_close_code is None and ws.close_code in (1000, 1001):
                    session.invalid = True
            self.server._notify()
        return ws

    async def _on_payload(self, conn: GatewayConnection, payload: dict[str, Any]) -> None:
        op = payload.get("op")
        data = payload.get("d")
        if op == OP_HEARTBEAT:
            conn.heartbeats += 1
            await conn.send({"op": OP_HEARTBEAT_ACK, "d": None, "s": None, "t": None})
        elif op == OP_IDENTIFY:
            await self._identify(conn, data or {})
        elif op == OP_RESUME:
            await self._resume(conn, data or {})
        elif conn.session is None:
            await conn.close(4003, b"Not authenticated.")
        elif op == OP_PRESENCE:
            conn.session.presence = data
        elif op == OP_REQUEST_MEMBERS:
            await self._request_members(conn.session, data or {})
        elif op == OP_VOICE_STATE:
            pass
        else:
            await conn.close(4001, b"Unknown opcode.")

    async def _identify(self, conn: GatewayConnection, data: dict[str, Any]) -> None:
        server = self.server
        if conn.session is not None:
            await conn.close(4005, b"Already authenticated.")
            return
        if data.get("token") != server.token:
            await conn.close(4004, b"Authentication failed.")
            return
        if "intents" not in data:
            await conn.close(4013, b"Invalid intent(s).")
            return
        intents = int(data["intents"])
        if intents & PRIVILEGED_INTENTS & ~server.privileged_intents:
            await conn.close(4014, b"Disallowed intent(s).")
            return
        shard = tuple(data["shard"]) if data.get("shard") else None
        if shard is not None and not (0 <= shard[0] < shard[1]):
            await conn.close(4010, b"Invalid shard.")
            return
        self.identifies += 1
        session = GatewaySession(
            id=secrets.token_hex(16),
            intents=intents,
            shard=shard,  # type: ignore[arg-type]
            identify=data,
            presence=data.get("presence"),
        )
        conn.session = session
        session.conn = conn
        self.sessions.append(session)
        guilds = [g for g in server.guilds.values() if session.handles_guild(g.id)]
        ready: dict[str, Any] = {
            "v": 10,
            "user": server.bot_user_payload(),
            "guilds": [{"id": str(g.id), "unavailable": True} for g in guilds],
            "session_id": session.id,
            "session_type": "normal",
            "resume_gateway_url": server.gateway_url,
            "application": {"id": str(server.application_id), "flags": server.application_flags},
            "private_channels": [],
            "relationships": [],
            "presences": [],
            "guild_join_requests": [],
            "geo_ordered_rtc_regions": [],
            "user_settings": {},
            "_trace": ["fake-gateway"],
        }
        if shard is not None:
            ready["shard"] = list(shard)
        await self._send_dispatch(session, "READY", ready)
        if session.wants(INTENT_GUILDS):
            for guild in guilds:
                await self._send_dispatch(
                    session, "GUILD_CREATE", self.guild_create(guild, session)
                )
        session.ready.set()
        server._notify()

    async def _resume(self, conn: GatewayConnection, data: dict[str, Any]) -> None:
        session = next((s for s in self.live_sessions() if s.id == data.get("session_id")), None)
        if data.get("token") != self.server.token:
            await conn.close(4004, b"Authentication failed.")
            return
        seq = data.get("seq") or 0
        if session is None or seq > session.seq:
            # d=false: not resumable; discord.py then IDENTIFYs afresh
            await conn.send({"op": OP_INVALID_SESSION, "d": False, "s": None, "t": None})
            return
        if session.conn is not None and session.conn is not conn:
            await session.conn.close(4000)
        conn.session = session
        session.conn = conn
        session.resumes += 1
        for frame in [f for f in session.buffer if f["s"] > seq]:
            await conn.send(frame)
        await self._send_dispatch(session, "RESUMED", {"_trace": ["fake-gateway"]})
        self.server._notify()

    async def _request_members(self, session: GatewaySession, data: dict[str, Any]) -> None:
        guild = self.server.guilds.get(int(data.get("guild_id", 0)))
        if guild is None:
            return
        query = (data.get("query") or "").lower()
        wanted = {int(u) for u in data.get("user_ids") or []}
        members = [
            m
            for m in guild.members.values()
            if (not wanted or m.id in wanted) and m.name.lower().startswith(query)
        ]
        if not session.wants(INTENT_GUILD_MEMBERS):
            members = [m for m in members if m.id == self.server.bot_id or m.id in wanted]
        limit = data.get("limit") or 0
        if limit:
            members = members[:limit]
        chunk: dict[str, Any] = {
            "guild_id": str(guild.id),
            "members": [m.payload() for m in members],
            "chunk_index": 0,
            "chunk_count": 1,
            "not_found": [str(u) for u in wanted - {m.id for m in members}],
        }
        if data.get("nonce") is not None:
            chunk["nonce"] = data["nonce"]
        if data.get("presences"):
            chunk["presences"] = []
        await self._send_dispatch(session, "GUILD_MEMBERS_CHUNK", chunk)

    # ----------------------------------------------------------------- payloads

    def guild_create(self, guild: FakeGuild, session: GatewaySession) -> dict[str, Any]:
        """GUILD_CREATE as sent after READY. Without GUILD_MEMBERS only the bot's own member
        is included (like Discord); ``member_count`` is always the real total."""
        members = list(guild.members.values())
        if not session.wants(INTENT_GUILD_MEMBERS):
            members = [m for m in members if m.id == self.server.bot_id]
        return {
            "id": str(guild.id),
            "name": guild.name,
            "icon": None,
            "splash": None,
            "banner": None,
            "description": None,
            "owner_id": str(guild.owner_id),
            "unavailable": False,
            "large": False,
            "member_count": len(guild.members),
            "joined_at": iso(guild.joined_at),
            "features": [],
            "verification_level": 0,
            "default_message_notifications": 0,
            "explicit_content_filter": 0,
            "mfa_level": 0,
            "nsfw_level": 0,
            "premium_tier": 0,
            "premium_subscription_count": 0,
            "preferred_locale": "en-US",
            "afk_timeout": 300,
            "afk_channel_id": None,
            "system_channel_id": None,
            "system_channel_flags": 0,
            "rules_channel_id": None,
            "public_updates_channel_id": None,
            "max_members": 500000,
            "vanity_url_code": None,
            "roles": [r.payload() for r in guild.roles.values()],
            "emojis": [],
            "stickers": [],
            "channels": [c.payload() for c in guild.channels.values()],
            "threads": [],
            "members": [m.payload() for m in members],
            "presences": [],  # no presence simulation
            "voice_states": [],
            "stage_instances": [],
            "guild_scheduled_events": [],
            "soundboard_sounds": [],
        }


def message_event_intent(is_dm: bool) -> int:
    return INTENT_DIRECT_MESSAGES if is_dm else INTENT_GUILD_MESSAGES


def strip_content_unless_allowed(
    payload: dict[str, Any], session: GatewaySession, *, bot_id: int, is_dm: bool
) -> dict[str, Any]:
    """MESSAGE_CONTENT is privileged: without it, content/embeds/components/attachments are
    blanked except in DMs, in the bot's own messages and in messages mentioning the bot."""
    if session.wants(INTENT_MESSAGE_CONTENT) or is_dm:
        return payload
    if payload["author"]["id"] == str(bot_id):
        return payload
    if any(m.get("id") == str(bot_id) for m in payload.get("mentions", [])):
        return payload
    return {**payload, "content": "", "embeds": [], "components": [], "attachments": []}
