"""The web table's routes on the bot's own aiohttp server (one port with the webhook, /healthz
and /metrics): the page, its versioned static assets (compressed, a strict CSP, no CDN), the
session exchange, and one WebSocket per page.

    GET  /web/table?g=<game>[&k=<link>]      the page (inside Telegram: ?startapp=<game>)
    GET  /web/static/<version>/<file>        an asset, cached for good (the version names it)
    POST /web/session                        {"init_data"} | {"link"} | {"game"} -> a token
    GET  /web/socket                         WebSocket; the token in Sec-WebSocket-Protocol

Every socket message is size-capped (aiohttp's `max_msg_size`), metered (table.py: a seat's
like a press, a watcher's per page and per address) before it is parsed, then parsed strictly
(protocol.py). Session exchanges and socket opens are metered per address (429).

A socket closes with a code the page can act on: 4003 its token was refused (expired, or
signed with another secret: exchange the link again), 4008 the watchers are full, 4009 the
same seat opened a newer page, 4029 a watcher that would not slow down, 4002 junk.

A watcher needs the game's watch key (`?g=<id>_<key>`, `startapp=<id>_<key>`: what the chat
was posted); a person with a seat needs none.
"""

from __future__ import annotations

import asyncio
import contextlib
import gzip
import hashlib
import inspect
import ipaddress
import json
import logging
from collections.abc import Callable, Iterable
from dataclasses import replace
from pathlib import Path

from aiohttp import WSMsgType, web

from bot import i18n
from bot.clock import Clock, as_clock
from bot.core.fair_use import SLOW_DOWN, Buckets

from . import auth, protocol
from .auth import Session
from .table import Page, WebTable
from .words import WORDS, page_words

log = logging.getLogger(__name__)

STATIC = Path(__file__).with_name("static")
# telegram-web-app.js is vendored (`make web-vendor`: no page loads a script from elsewhere);
# the page loads it itself, only when it was opened as a Mini App (telegram.js).
KINDS = {".js": "text/javascript", ".css": "text/css", ".svg": "image/svg+xml"}
ENTRY = "page.js"  # the page's ES module; it imports the others (no build step)
PRELOADED = ("dom.js", "socket.js", "telegram.js")  # fetched alongside the entry


def asset_files(games: Iterable[object]) -> dict[str, Path]:
    """Every asset by the name it is served under: the shared page's, and each hosted game's
    board module from its wing (`board.js` beside the game's host module) as
    `board-<wing>.js` (the page imports the one its view names)."""
    files = {p.name: p for p in sorted(STATIC.iterdir()) if p.suffix in KINDS}
    wings = {Path(inspect.getfile(type(game))).parent for game in games}
    for board in sorted(w / "board.js" for w in wings if (w / "board.js").exists()):
        files[f"board-{board.parent.name}.js"] = board
    return files


MAX_BODY = 8192  # the session exchange's body
MAX_BAD = 20  # malformed messages before a socket is closed
MAX_SLOW = 20  # a watcher's messages past its meter before its socket is closed
CSP = ("default-src 'none'; script-src 'self'; style-src 'self'; img-src 'self' data:; "
       "connect-src 'self'; base-uri 'none'; form-action 'none'; "
       "frame-ancestors 'self' https://web.telegram.org https://*.telegram.org")
SUBPROTOCOL = "rummy"


def _nothing() -> None:
    return None


class Wake:
    """A page's "a frame is owed" flag (`Page.wake`, set by the table): setting it starts the
    page's sender (`start`), which runs only while there is something to send."""

    __slots__ = ("flag", "start")

    def __init__(self) -> None:
        self.flag = False
        self.start: Callable[[], None] = _nothing

    def set(self) -> None:
        self.flag = True
        self.start()

    def clear(self) -> None:
        self.flag = False

    def is_set(self) -> bool:
        return self.flag


def client_address(request: web.BaseRequest, proxies: int = 0) -> str:
    """Who a request is from, for the per-address meters and caps: the peer, or behind
    `proxies` trusted proxies the address the nearest of them saw (X-Forwarded-For, read from
    the right: anything further left is the client's to write). An IPv6 client is its /64
    (one household's, as one IPv4 address is)."""
    text = request.remote or ""
    if proxies > 0:
        hops = request.headers.get("X-Forwarded-For", "")[:1024].split(",")
        if len(hops) >= proxies:
            text = hops[-proxies].strip() or text
    try:
        address = ipaddress.ip_address(text)
    except ValueError:
        try:
            address = ipaddress.ip_address(request.remote or "")
        except ValueError:
            return "?"
    if address.version == 6 and address.ipv4_mapped is None:
        return str(ipaddress.ip_network(f"{address}/64", strict=False))
    return str(address.ipv4_mapped or address) if address.version == 6 else str(address)


def request_lang(request: web.BaseRequest) -> str:
    """The reader's language by the browser's Accept-Language (a refusal's words before
    anyone is known), else English."""
    first = request.headers.get("Accept-Language", "")[:64].split(",")[0]
    return i18n.supported(first.split(";")[0].split("-")[0].strip()) or "en"


class WebServer:
    """The web table's HTTP side. `secret` signs sessions, links and watch keys (every worker
    the same); `bot_token`: Telegram's, to check initData (None: no Telegram sign-in);
    `proxies`: how many trusted reverse proxies stand in front (RUMMY_WEB_PROXIES);
    `refused`: what a refused link says (the msgid: where a fresh one is to be had)."""

    def __init__(self, table: WebTable, secret: bytes, *, bot_token: str | None = None,
                 clock: Clock | Callable[[], float] | None = None, proxies: int = 0,
                 refused: str = WORDS["refused"]) -> None:
        self.table = table
        self.secret = secret
        self.bot_token = bot_token
        self.time = as_clock(clock)
        self.clock = self.time.now
        self.proxies = proxies
        self.refused = refused
        limits = table.limits
        self.door = Buckets(limits.door_rate, limits.door_burst,
                            clock=lambda: self.time.monotonic())
        self.assets: dict[str, tuple[bytes, bytes, str]] = {}  # name -> (raw, gzip, type)
        digest = hashlib.sha256()
        for name, path in asset_files(table.service.games.values()).items():
            raw = path.read_bytes()
            digest.update(name.encode() + raw)
            self.assets[name] = (raw, gzip.compress(raw, 9, mtime=0), KINDS[path.suffix])
        self.version = digest.hexdigest()[:12]
        self.sockets: set[web.WebSocketResponse] = set()
        self.writers: dict[Page, asyncio.Task[None]] = {}  # pages being sent a frame now

    def watch_param(self, game: int) -> str:
        """`game` as the links its chat is posted carry it (with its watch key)."""
        return auth.watch_param(self.secret, game)

    def add_routes(self, app: web.Application) -> None:
        app.router.add_get("/web/table", self.page)
        app.router.add_get("/web/static/{version}/{name}", self.static)
        app.router.add_get("/favicon.ico", self.favicon)
        app.router.add_post("/web/session", self.session)
        app.router.add_get("/web/socket", self.socket)

    # -- HTTP ---------------------------------------------------------------------------

    def _headers(self) -> dict[str, str]:
        return {"Content-Security-Policy": CSP, "X-Content-Type-Options": "nosniff",
                "Referrer-Policy": "no-referrer", "Cache-Control": "no-store"}

    async def page(self, request: web.Request) -> web.Response:
        base = f"/web/static/{self.version}/"
        preload = "".join(f'<link rel="modulepreload" href="{base}{n}">' for n in PRELOADED)
        html = (
            '<!doctype html><html><head><meta charset="utf-8">'
            '<meta name="viewport" content="width=device-width,initial-scale=1">'
            f'<title>Rummy Table</title><link rel="icon" href="{base}favicon.svg">'
            f'<link rel="stylesheet" href="{base}table.css">{preload}'
            f'<script type="module" src="{base}{ENTRY}"></script></head>'
            '<body data-version="-1"><main id="app"></main></body></html>'
        )
        body = html.encode()
        return self._compressed(request, body, gzip.compress(body, 9, mtime=0),
                                "text/html; charset=utf-8", self._headers())

    def _compressed(self, request: web.Request, raw: bytes, packed: bytes, kind: str,
                    headers: dict[str, str]) -> web.Response:
        headers = {**headers, "Vary": "Accept-Encoding"}
        if "gzip" in request.headers.get("Accept-Encoding", ""):
            headers["Content-Encoding"] = "gzip"
            return web.Response(body=packed, content_type=kind.split(";")[0],
                                charset="utf-8" if "charset" in kind else None, headers=headers)
        return web.Response(body=raw, content_type=kind.split(";")[0],
                            charset="utf-8" if "charset" in kind else None, headers=headers)

    async def favicon(self, request: web.Request) -> web.Response:
        """/favicon.ico, which browsers ask for on their own: the page's icon."""
        raise web.HTTPMovedPermanently(f"/web/static/{self.version}/favicon.svg")

    async def static(self, request: web.Request) -> web.Response:
        name = request.match_info["name"]
        if request.match_info["version"] != self.version or name not in self.assets:
            raise web.HTTPNotFound()
        raw, packed, kind = self.assets[name]
        headers = {"Cache-Control": "public, max-age=31536000, immutable",
                   "X-Content-Type-Options": "nosniff"}
        return self._compressed(request, raw, packed, kind, headers)

    def words(self, lang: str) -> dict[str, str]:
        words = page_words(lang)
        with i18n.using(lang):
            words["refused"] = i18n._(self.refused)
        return words

    def _refused(self, request: web.BaseRequest) -> web.Response:
        words = self.words(request_lang(request))
        return web.json_response({"error": words["refused"], "words": words}, status=403,
                                 headers=self._headers())

    def _slow(self, request: web.BaseRequest) -> web.Response:
        lang = request_lang(request)
        with i18n.using(lang):
            text = i18n._(SLOW_DOWN)
        return web.json_response({"error": text, "words": self.words(lang)}, status=429,
                                 headers={**self._headers(), "Retry-After": "2"})

    def _at_door(self, request: web.BaseRequest) -> str | None:
        """The request's address if its meter lets it in, else None."""
        address = client_address(request, self.proxies)
        return address if self.door.take(address) else None

    async def session(self, request: web.Request) -> web.Response:
        """Exchange what the page was opened with for a session token: Telegram's initData
        (a seat, or a watcher by the game's watch key; with the page's game when a private
        chat's button opened it), a signed link, or a game's watch link (a watcher)."""
        if self._at_door(request) is None:
            return self._slow(request)
        if request.content_length is None or request.content_length > MAX_BODY:
            return self._refused(request)
        try:
            data = json.loads(await request.content.read(MAX_BODY))
        except (ValueError, RecursionError):
            return self._refused(request)
        if not isinstance(data, dict) or not 1 <= len(data) <= 2 or (
                len(data) == 2 and data.keys() != {"init_data", "game"}):
            return self._refused(request)
        now = self.clock()
        found: Session | None = None
        if "init_data" in data and self.bot_token:
            found = await self._telegram(data, now)
        elif "link" in data:
            link = auth.read_link(self.secret, data["link"], now)
            if link is not None:
                found = Session(link.platform, link.user, link.name, link.game, link.lang,
                                now + auth.SESSION_SECONDS)
        elif "game" in data:
            game = auth.read_game(data["game"])
            if game is not None and auth.may_watch(self.secret, *game):
                found = Session("", "", "", game[0], request_lang(request),
                                now + auth.SESSION_SECONDS)
        if found is None:
            return self._refused(request)
        return web.json_response({"token": auth.session_token(self.secret, found),
                                  "game": found.game,
                                  "words": self.words(i18n.supported(found.lang) or "en")},
                                 headers=self._headers())

    async def _telegram(self, data: dict, now: float) -> Session | None:
        """A Telegram user's session: at the game a Direct Link's start_param names (a
        group's), else the page's ?g= (a private chat's web_app button: its initData has no
        start_param), else (the menu button) the newest game the person sits in. Watching
        takes the game's watch key; a seat needs none."""
        checked = auth.telegram_user(data["init_data"], self.bot_token, now)
        if checked is None:
            return None
        user, start = checked
        uid, name = str(user["id"]), str(user.get("first_name", ""))[:64]
        lang = str(user.get("language_code", ""))[:8]
        named = start or data.get("game")
        if not named:  # the menu button
            game = await self.table.game_of("telegram", uid, name)
        else:
            parsed = auth.read_game(named)
            game = parsed[0] if parsed is not None and (
                auth.may_watch(self.secret, *parsed)
                or await self.table.sits("telegram", uid, parsed[0])) else None
        if game is None:
            return None
        return Session("telegram", uid, name, game, lang, now + auth.SESSION_SECONDS)

    # -- the socket ---------------------------------------------------------------------

    async def socket(self, request: web.Request) -> web.StreamResponse:
        address = self._at_door(request)
        if address is None:
            return self._slow(request)
        ws = web.WebSocketResponse(protocols=(SUBPROTOCOL,), heartbeat=30,
                                   max_msg_size=protocol.MAX_MESSAGE)
        if not ws.can_prepare(request).ok:
            return self._refused(request)
        offered = [p.strip() for p in request.headers.get("Sec-WebSocket-Protocol", "").split(",")]
        token = next((p for p in offered if p != SUBPROTOCOL), None)
        session = auth.read_session(self.secret, token, self.clock())
        await ws.prepare(request)
        if session is None:  # said in a close code a page can read (an HTTP 403 it can't)
            await ws.close(code=4003, message=b"refused")
            return ws
        wake = Wake()
        page = Page(session, ws.send_json, address=address, wake=wake)
        wake.start = lambda: self._kick(page, ws)
        if not await self.table.join(page):
            await ws.close(code=4008, message=b"full")
            return ws
        self.sockets.add(ws)
        try:
            await self._read(page, ws)
        finally:
            self.table.leave(page)
            self.sockets.discard(ws)
            wake.start = _nothing
            writer = self.writers.pop(page, None)
            if writer is not None:
                writer.cancel()
                with contextlib.suppress(asyncio.CancelledError):
                    await writer
        return ws

    def _kick(self, page: Page, ws: web.WebSocketResponse) -> None:
        """A frame is owed to `page` (or it was evicted): its sender, unless it runs. An
        idle page has no task of its own (issue 38: memory per socket)."""
        writer = self.writers.get(page)
        if writer is None or writer.done():
            self.writers[page] = asyncio.get_running_loop().create_task(self._write(page, ws))

    async def _write(self, page: Page, ws: web.WebSocketResponse) -> None:
        """Send the page the newest frame it is owed (an older one is never sent after), and
        whatever is owed by the time that was sent; then stop until the next is owed."""
        try:
            while page.wake.is_set() and not ws.closed:
                page.wake.clear()
                if page.evicted:  # the same seat opened a newer page
                    await ws.close(code=4009, message=b"opened elsewhere")
                    return
                frame, text, page.owed, page.owed_text = page.owed, page.owed_text, None, None
                if frame is None:
                    continue
                version = (frame.get("view") or {}).get("version", -1)
                if version < page.sent_version:
                    continue
                page.sent_version = version
                with contextlib.suppress(ConnectionError, RuntimeError):
                    await ws.send_str(text if text is not None else json.dumps(frame))
        finally:
            if self.writers.get(page) is asyncio.current_task():
                del self.writers[page]

    def _owe(self, page: Page, frame: dict) -> None:
        page.owed, page.owed_text = frame, None
        page.sent_version = -1 if frame.get("t") != "state" else page.sent_version
        page.wake.set()

    async def _read(self, page: Page, ws: web.WebSocketResponse) -> None:
        bad = slowed = 0
        async for msg in ws:
            if msg.type != WSMsgType.TEXT:
                bad += 1
            else:
                slow = self.table.meter(page)  # before any work
                if slow:
                    slowed += not page.seated  # (a seat is told, never shut out)
                    if slowed > MAX_SLOW:
                        await ws.close(code=4029, message=b"too fast")
                        return
                    await ws.send_json({"t": "reply", "text": slow, "alert": True})
                    continue
                parsed = protocol.parse(msg.data)
                if parsed is None:
                    bad += 1
                    await ws.send_json({"t": "bad"})
                elif isinstance(parsed, protocol.Review):
                    await ws.send_json(await self.table.review(page.session))
                elif isinstance(parsed, protocol.Follow):
                    await ws.send_json(await self._follow(page.session))
                elif isinstance(parsed, protocol.Hello):
                    frame = await self.table.current(page.session)
                    page.sent_version = -1  # a resync: the page asked for it, even if older
                    self._owe(page, frame)
                else:
                    reply = await self.table.edit(page.session, parsed)
                    await ws.send_json(reply)
                    if reply.get("alert"):  # refused: nothing saved, the page shows the truth
                        self._owe(page, await self.table.current(page.session))
            if bad >= MAX_BAD:
                await ws.close(code=4002, message=b"bad messages")
                return

    async def _follow(self, session: Session) -> dict:
        """↻ Rematch: a token for the same person (or watcher) at the new game."""
        following = await self.table.successor(session)
        if following is None:
            return {"t": "reply", "text": "", "alert": False}
        following = replace(following, expires=self.clock() + auth.SESSION_SECONDS)
        return {"t": "follow", "game": following.game,
                "token": auth.session_token(self.secret, following)}

    async def close_all(self) -> None:
        for ws in list(self.sockets):
            with contextlib.suppress(Exception):
                await ws.close(code=1001, message=b"server stopping")


async def serve(server: WebServer, host: str, port: int) -> web.AppRunner:
    """The web table alone on `host:port` (the terminal's `play --web`, tests)."""
    app = web.Application(client_max_size=MAX_BODY)
    server.add_routes(app)
    runner = web.AppRunner(app, access_log=None)
    await runner.setup()
    await web.TCPSite(runner, host, port).start()
    return runner
