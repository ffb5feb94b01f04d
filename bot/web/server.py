"""The web table's routes on the bot's own aiohttp server (one port with the webhook, /healthz
and /metrics): the page, its versioned static assets (compressed, a strict CSP, no CDN), the
session exchange, and one WebSocket per page.

    GET  /web/table?g=<game>[&k=<link>]      the page (inside Telegram: ?startapp=<game>)
    GET  /web/static/<version>/<file>        an asset, cached for good (the version names it)
    POST /web/session                        {"init_data"} | {"link"} | {"game"} -> a token
    GET  /web/socket                         WebSocket; the token in Sec-WebSocket-Protocol

Every socket message is size-capped (aiohttp's `max_msg_size`), metered like a press (the
service's fair use) before it is parsed, then parsed strictly (protocol.py).
"""

from __future__ import annotations

import asyncio
import contextlib
import gzip
import hashlib
import json
import logging
import time
from collections.abc import Callable
from dataclasses import replace
from pathlib import Path

from aiohttp import WSMsgType, web

from . import auth, protocol
from .auth import Session
from .table import Page, WebTable
from .words import page_words

log = logging.getLogger(__name__)

STATIC = Path(__file__).with_name("static")
GAMES = Path(__file__).parent.parent / "games"  # each game's board part: games/<game>/board.js
# telegram-web-app.js is vendored (`make web-vendor`: no page loads a script from elsewhere);
# the page loads it itself, only when it was opened as a Mini App (telegram.js).
KINDS = {".js": "text/javascript", ".css": "text/css", ".svg": "image/svg+xml"}
ENTRY = "page.js"  # the page's ES module; it imports the others (no build step)
PRELOADED = ("dom.js", "socket.js", "telegram.js")  # fetched alongside the entry


def asset_files() -> dict[str, Path]:
    """Every asset by the name it is served under: the shared page's, and each game's board
    module from its wing as `board-<game>.js` (the page imports the one its view names)."""
    files = {p.name: p for p in sorted(STATIC.iterdir()) if p.suffix in KINDS}
    for board in sorted(GAMES.glob("*/board.js")):
        files[f"board-{board.parent.name}.js"] = board
    return files


MAX_BODY = 8192  # the session exchange's body
MAX_BAD = 20  # malformed messages before a socket is closed
CSP = ("default-src 'none'; script-src 'self'; style-src 'self'; img-src 'self' data:; "
       "connect-src 'self'; base-uri 'none'; form-action 'none'; "
       "frame-ancestors 'self' https://web.telegram.org https://*.telegram.org")
SUBPROTOCOL = "rummy"


class WebServer:
    """The web table's HTTP side. `secret` signs sessions and links (every worker the same);
    `bot_token`: Telegram's, to check initData (None: no Telegram sign-in)."""

    def __init__(self, table: WebTable, secret: bytes, *, bot_token: str | None = None,
                 clock: Callable[[], float] = time.time) -> None:
        self.table = table
        self.secret = secret
        self.bot_token = bot_token
        self.clock = clock
        self.assets: dict[str, tuple[bytes, bytes, str]] = {}  # name -> (raw, gzip, type)
        digest = hashlib.sha256()
        for name, path in asset_files().items():
            raw = path.read_bytes()
            digest.update(name.encode() + raw)
            self.assets[name] = (raw, gzip.compress(raw, 9, mtime=0), KINDS[path.suffix])
        self.version = digest.hexdigest()[:12]
        self.sockets: set[web.WebSocketResponse] = set()

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

    def _refused(self, lang: str = "") -> web.Response:
        words = page_words(lang or "en")
        return web.json_response({"error": words["refused"], "words": words}, status=403,
                                 headers=self._headers())

    async def session(self, request: web.Request) -> web.Response:
        """Exchange what the page was opened with for a session token: Telegram's initData
        (a seat, or a watcher; with the page's game when a private chat's button opened it),
        a signed link, or a bare game id (a watcher)."""
        if request.content_length is None or request.content_length > MAX_BODY:
            return self._refused()
        try:
            data = json.loads(await request.content.read(MAX_BODY))
        except ValueError:
            return self._refused()
        if not isinstance(data, dict) or not 1 <= len(data) <= 2 or (
                len(data) == 2 and data.keys() != {"init_data", "game"}):
            return self._refused()
        now = self.clock()
        found: Session | None = None
        if "init_data" in data and self.bot_token:
            checked = auth.telegram_user(data["init_data"], self.bot_token, now)
            if checked is not None:
                # a Direct Link's start_param (a group), else the page's ?g= (a private
                # chat's web_app button: its initData has no start_param)
                user, start = checked
                game = auth.game_param(start or data.get("game"))
                name = str(user.get("first_name", ""))[:64]
                lang = str(user.get("language_code", ""))[:8]
                if game is None and not (start or data.get("game")):  # the menu button
                    game = await self.table.game_of("telegram", str(user["id"]), name)
                if game is not None:
                    found = Session("telegram", str(user["id"]), name, game, lang,
                                    now + auth.SESSION_SECONDS)
        elif "link" in data:
            link = auth.read_link(self.secret, data["link"], now)
            if link is not None:
                found = Session(link.platform, link.user, link.name, link.game, link.lang,
                                now + auth.SESSION_SECONDS)
        elif "game" in data:
            game = auth.game_param(data["game"])
            if game is not None:
                found = Session("", "", "", game, "", now + auth.SESSION_SECONDS)
        if found is None:
            return self._refused()
        from bot import i18n

        lang = i18n.supported(found.lang) or "en"
        return web.json_response({"token": auth.session_token(self.secret, found),
                                  "game": found.game, "words": page_words(lang)},
                                 headers=self._headers())

    # -- the socket ---------------------------------------------------------------------

    async def socket(self, request: web.Request) -> web.StreamResponse:
        offered = [p.strip() for p in request.headers.get("Sec-WebSocket-Protocol", "").split(",")]
        token = next((p for p in offered if p != SUBPROTOCOL), None)
        session = auth.read_session(self.secret, token, self.clock())
        if session is None:
            return self._refused()
        ws = web.WebSocketResponse(protocols=(SUBPROTOCOL,), heartbeat=30,
                                   max_msg_size=protocol.MAX_MESSAGE)
        await ws.prepare(request)
        page = Page(session, ws.send_json)
        if not self.table.join(page):
            await ws.close(code=4008, message=b"full")
            return ws
        self.sockets.add(ws)
        writer = asyncio.create_task(self._write(page, ws))
        try:
            await self._read(page, ws)
        finally:
            self.table.leave(page)
            self.sockets.discard(ws)
            writer.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await writer
        return ws

    async def _write(self, page: Page, ws: web.WebSocketResponse) -> None:
        """Send each page the newest frame it is owed (an older one is never sent after)."""
        while not ws.closed:
            await page.wake.wait()
            page.wake.clear()
            frame, page.owed = page.owed, None
            if frame is None:
                continue
            version = (frame.get("view") or {}).get("version", -1)
            if version < page.sent_version:
                continue
            page.sent_version = version
            with contextlib.suppress(ConnectionError, RuntimeError):
                await ws.send_json(frame)

    def _owe(self, page: Page, frame: dict) -> None:
        page.owed = frame
        page.sent_version = -1 if frame.get("t") != "state" else page.sent_version
        page.wake.set()

    async def _read(self, page: Page, ws: web.WebSocketResponse) -> None:
        bad = 0
        async for msg in ws:
            if msg.type != WSMsgType.TEXT:
                bad += 1
            else:
                slow = self.table.meter(page.session)  # before any work
                if slow:
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
