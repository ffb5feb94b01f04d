"""`rummy party`: a game for a room — each player on their own phone, on the host's local
network, no internet and no bot token (issue 37).

The party is one more platform of the game service ("party", one chat, "room"): the same lobby,
rules, computers, review and scores as the chats. A person is their seat key: a random secret
the server signs and the lobby page keeps in its storage (`localStorage`), so a reload or a
phone that died and came back lands in the same seat. The key never leaves the person's page;
the record holds only a hash of it (the seat's user id). The table is the web table (server.py,
table.py), opened with a signed link per seat as `play --web` does.

    GET  /  (and /party)                   the lobby page (static/lobby.js)
    GET  /party/qr.svg                     the printed address as a QR code
    POST /party/state {key?, lang, seen}   the lobby as this person sees it; waits (long poll)
                                           while `seen` is still the newest version
    POST /party/do    {key?, lang, do, arg?}  join, leave, and the host's choices (below)

Every request is metered per address before it is read, its body bounded and parsed strictly;
a key not signed by this party is refused; the host's actions check the record's host. The
party names no game: the game list and each game's options come from the service's registry.
"""

from __future__ import annotations

import asyncio
import base64
import contextlib
import functools
import hashlib
import hmac
import io
import json
import logging
import random
import socket
from collections import Counter
from collections.abc import Callable
from pathlib import Path
from typing import Any

from aiohttp import web

from bot import i18n
from bot.clock import REAL
from bot.core import narrate
from bot.core.actor import Actor
from bot.core.buttons import TIMER_CHOICES, press_of
from bot.core.fair_use import SLOW_DOWN, Buckets
from bot.core.lobby import most_seats
from bot.core.record import Record
from bot.core.service import GameService
from bot.core.unit import Refusal
from bot.core.views import Outcome
from bot.i18n import N_

from . import auth
from .server import CSP, MAX_BODY, WebServer, request_lang
from .server import client_address as address_of
from .table import Limits, WebTable

log = logging.getLogger(__name__)

PLATFORM = "party"
ROOM = "room"  # the party's one chat
STORE_FILE = "party.db"
SECRET_FILE = "party-secret"
LINK_DAYS = 7  # a seat's table link (a reload of the table page reuses it)
CLAIM_SECONDS = 15 * 60  # a seat handed to a new device: its link works this long
MAX_KEY = 80
MAX_ARG = 600  # a claim token is the longest argument
POLL_SECONDS = 25.0  # a long poll's longest wait
WAITERS_PER_ADDRESS = 8  # long polls one address may hold open
LANGS = ("en", "he", "ru")
DOES = frozenset({"join", "leave", "game", "opt", "cpu", "timer", "start", "computer",
                  "handover", "claim", "end"})
HOST_DOES = frozenset({"game", "opt", "cpu", "timer", "start", "computer", "handover", "end"})

BACK_TO_LOBBY = N_("Back to the lobby")
REFUSED = N_("This link is not valid or has expired. Open the party's address again.")
# the lobby page's words (the page holds no sentence: they come in the reader's language)
WORDS = {
    "title": N_("Rummy party"),
    "join_head": N_("Join the table"),
    "name": N_("Your name"),
    "language": N_("Language"),
    "join": N_("Take a seat"),
    "watch": N_("Watch"),
    "leave": N_("Leave the seat"),
    "seats": N_("Players ({n} of {most})"),
    "you": N_("you"),
    "no_game": N_("No game yet: the first to take a seat is the host."),
    "waiting_host": N_("Waiting for the host to start the game."),
    "game": N_("Game"),
    "timer": N_("Turn timer"),
    "seconds": N_("{s} s"),
    "add_computer": N_("Add a computer"),
    "start": N_("Start the game"),
    "playing": N_("The game is on."),
    "finished": N_("The game is over."),
    "to_table": N_("Go to your table"),
    "to_watch": N_("Watch the game"),
    "computer_plays": N_("Computer plays this seat"),
    "end": N_("End the game"),
    "end_sure": N_("Tap again to end the game for everyone"),
    "handover": N_("Hand to a new phone"),
    "handover_help": N_("Open this on the new phone (within 15 minutes): it gets this seat, "
                        "and the old phone no longer does."),
    "address": N_("Others join at"),
    "board": N_("Scores in this room"),
    "bad_name": N_("Pick a name first."),
    "watching": N_("You are watching."),
}


# -- seat keys and claims (pure: the secret and the time are passed in) -----------------------

def _mac(secret: bytes, kind: str, text: str, size: int = 22) -> str:
    digest = hmac.new(secret, f"party.{kind}.{text}".encode(), hashlib.sha256).digest()
    return base64.urlsafe_b64encode(digest).rstrip(b"=").decode()[:size]


def _plain(text: object, most: int) -> bool:
    return isinstance(text, str) and 0 < len(text) <= most and text.isascii() and all(
        c.isalnum() or c in "-_." for c in text)


def new_key(secret: bytes) -> str:
    """A fresh seat key: 144 random bits and this party's signature of them."""
    import secrets

    token = secrets.token_urlsafe(18)
    return f"{token}.{_mac(secret, 'key', token)}"


def user_of(secret: bytes, key: object) -> str | None:
    """The person (the seat's user id) a key stands for; None for a key this party did not
    make. The id is a hash of the key: the record never holds the key itself."""
    if not _plain(key, MAX_KEY):
        return None
    token, _dot, mac = str(key).partition(".")
    if not token or not hmac.compare_digest(mac, _mac(secret, "key", token)):
        return None
    return "p" + hashlib.sha256(token.encode()).hexdigest()[:24]


def claim_token(secret: bytes, user: str, now: float, seconds: float = CLAIM_SECONDS) -> str:
    """What hands the seat of `user` to a new device (the host's action), for a while."""
    payload = f"{user}-{int(now + seconds)}"
    return f"{payload}.{_mac(secret, 'claim', payload)}"


def read_claim(secret: bytes, token: object, now: float) -> str | None:
    """The user whose seat a claim hands over; None: forged or expired."""
    if not _plain(token, MAX_ARG):
        return None
    payload, _dot, mac = str(token).partition(".")
    if not hmac.compare_digest(mac, _mac(secret, "claim", payload)):
        return None
    user, _dash, until = payload.partition("-")
    if not until.isdecimal() or now >= int(until):
        return None
    return user


def clean_lang(text: object) -> str:
    return text if isinstance(text, str) and text in LANGS else ""


def words(lang: str) -> dict[str, str]:
    with i18n.using(lang):
        out = {k: i18n._(v) for k, v in WORDS.items()}
        out["host_mark"] = narrate.HOST_MARK.strip()
        out["dir"] = "rtl" if i18n.is_rtl(lang) else "ltr"
        out["lang"] = lang
        return out


def addresses(host: str, port: int) -> list[str]:
    """The addresses a phone on the same network opens: this machine's own (not loopback)
    when the party listens on every interface, else the one it was given."""
    if host not in ("", "0.0.0.0", "::"):
        shown = f"[{host}]" if ":" in host else host
        return [f"http://{shown}:{port}/"]
    found: list[str] = []
    # the route a packet would take (none is sent)
    with contextlib.suppress(OSError), socket.socket(socket.AF_INET, socket.SOCK_DGRAM) as probe:
        probe.connect(("10.255.255.255", 1))
        found.append(probe.getsockname()[0])
    with contextlib.suppress(OSError):
        for info in socket.getaddrinfo(socket.gethostname(), None, socket.AF_INET):
            found.append(str(info[4][0]))
    seen = [a for a in dict.fromkeys(found) if not a.startswith("127.")]
    return [f"http://{a}:{port}/" for a in seen] or [f"http://127.0.0.1:{port}/"]


def qr_text(address: str) -> str:
    """The address as a QR code for the terminal (two rows a line)."""
    import segno

    out = io.StringIO()
    segno.make(address, error="m").terminal(out=out, compact=True)
    return out.getvalue()


@functools.lru_cache(maxsize=16)  # the printed address's, asked by every lobby page
def qr_svg(address: str) -> bytes:
    import segno

    out = io.BytesIO()
    segno.make(address, error="m").save(out, kind="svg", scale=6, border=2, dark="#111",
                                         light="#fff")
    return out.getvalue()


class PartyTable(WebTable):
    """The web table of a party: ↻ Rematch is the host's (one tap, every page follows), and
    each frame carries the way back to the lobby (the host's seat actions are there)."""

    def frame(self, session: auth.Session, record: Record) -> dict:
        frame = super().frame(session, record)
        with i18n.using(i18n.supported(session.lang) or record.lang or "en"):
            frame["home"] = {"href": "/", "text": i18n._(BACK_TO_LOBBY)}
        return frame

    rematch_at_once = True  # the host's tap: every seat of the room at once

    async def rematch(self, session: auth.Session) -> Outcome:
        row = await self.service.store.get_game(session.game)
        if row is not None and Record.from_dict(row.record).host != session.user:
            raise Refusal(narrate.HOST_ONLY)
        return await super().rematch(session)


class Party:
    """The lobby's HTTP side, beside the web table's routes on the same server."""

    def __init__(self, service: GameService, secret: bytes, *, address: str = "",
                 limits: Limits | None = None) -> None:
        self.service = service
        self.secret = secret
        self.address = address  # the printed one: the lobby shows it and its QR
        self.table = PartyTable(service, **({"limits": limits} if limits else {}))
        self.web = WebServer(self.table, secret, refused=REFUSED)
        self.time = service.time
        # a room's phones poll the lobby: more than the table's door, still bounded
        self.door = Buckets(8.0, 80, clock=lambda: self.time.monotonic())
        self.waiting: Counter[str] = Counter()
        self.version = random.randrange(1 << 30)  # a restart never looks like "no change"
        self.changed = asyncio.Event()
        self.closed = False
        service.watchers.append(self._saved)
        service.register(PLATFORM, self._deliver)

    # -- wiring -------------------------------------------------------------------------

    def add_routes(self, app: web.Application) -> None:
        self.web.add_routes(app)
        app.router.add_get("/", self.page)
        app.router.add_get("/party", self.page)
        app.router.add_get("/party/qr.svg", self.qr)
        app.router.add_post("/party/state", self.state)
        app.router.add_post("/party/do", self.do)

    async def _deliver(self, _outcome: Outcome) -> None:
        """The party has no chat to post to: its pages hear of every saved change."""

    def _saved(self, _game_id: int, _record: Record) -> None:
        self._bump()

    def _bump(self) -> None:
        self.version += 1
        changed, self.changed = self.changed, asyncio.Event()
        changed.set()

    async def close(self) -> None:
        """Let every waiting poll go (the server's shutdown would wait for them) and close
        the tables' sockets."""
        self.closed = True
        self._bump()
        await self.web.close_all()

    # -- HTTP ---------------------------------------------------------------------------

    def _headers(self) -> dict[str, str]:
        return {"Content-Security-Policy": CSP, "X-Content-Type-Options": "nosniff",
                "Referrer-Policy": "no-referrer", "Cache-Control": "no-store"}

    async def page(self, request: web.Request) -> web.Response:
        base = f"/web/static/{self.web.version}/"
        lang = request_lang(request)
        html = (
            f'<!doctype html><html lang="{lang}" dir="{"rtl" if i18n.is_rtl(lang) else "ltr"}">'
            '<head><meta charset="utf-8">'
            '<meta name="viewport" content="width=device-width,initial-scale=1">'
            f'<title>Rummy party</title><link rel="icon" href="{base}favicon.svg">'
            f'<link rel="stylesheet" href="{base}table.css">'
            f'<link rel="stylesheet" href="{base}lobby.css">'
            f'<link rel="modulepreload" href="{base}dom.js">'
            f'<script type="module" src="{base}lobby.js"></script></head>'
            '<body data-party=""><main id="app"></main></body></html>'
        )
        return web.Response(text=html, content_type="text/html", headers=self._headers())

    async def qr(self, request: web.Request) -> web.Response:
        if not self.door.take(address_of(request)):
            return self._slow(request)
        body = await asyncio.to_thread(qr_svg, self.address or str(request.url.origin()) + "/")
        return web.Response(body=body, content_type="image/svg+xml",
                            headers={**self._headers(), "Cache-Control": "max-age=600"})

    def _slow(self, request: web.BaseRequest) -> web.Response:
        with i18n.using(request_lang(request)):
            text = i18n._(SLOW_DOWN)
        return web.json_response({"error": text}, status=429,
                                 headers={**self._headers(), "Retry-After": "2"})

    def _refused(self, lang: str, text: str = REFUSED, status: int = 403) -> web.Response:
        with i18n.using(lang):
            said = i18n._(text)
        return web.json_response({"error": said}, status=status, headers=self._headers())

    async def _read(self, request: web.Request, keys: frozenset[str]) -> dict | None:
        """The body: one JSON object of these keys at most, within MAX_BODY; else None."""
        if request.content_length is None or request.content_length > MAX_BODY:
            return None
        try:
            data = json.loads(await request.content.read(MAX_BODY))
        except (ValueError, RecursionError):
            return None
        if not isinstance(data, dict) or not set(data) <= keys:
            return None
        return data

    async def state(self, request: web.Request) -> web.Response:
        address = address_of(request)
        if not self.door.take(address):
            return self._slow(request)
        data = await self._read(request, frozenset({"key", "lang", "seen"}))
        lang = request_lang(request)
        if data is None:
            return self._refused(lang, status=400)
        lang = clean_lang(data.get("lang")) or lang
        user = None
        if "key" in data:
            user = user_of(self.secret, data["key"])
            if user is None:  # a key this party never made: forged, or another party's
                return self._refused(lang)
        seen = data.get("seen")
        if (type(seen) is int and seen == self.version and not self.closed
                and self.waiting[address] < WAITERS_PER_ADDRESS):
            self.waiting[address] += 1
            try:
                with contextlib.suppress(TimeoutError):
                    await asyncio.wait_for(self.changed.wait(), POLL_SECONDS)
            finally:
                self.waiting[address] -= 1
                if self.waiting[address] <= 0:
                    del self.waiting[address]
        return web.json_response(await self.view(user, lang), headers=self._headers())

    async def do(self, request: web.Request) -> web.Response:
        if not self.door.take(address_of(request)):
            return self._slow(request)
        data = await self._read(request, frozenset({"key", "lang", "do", "arg", "seat"}))
        lang = request_lang(request)
        if data is None or data.get("do") not in DOES:
            return self._refused(lang, status=400)
        lang = clean_lang(data.get("lang")) or lang
        what, arg, seat = data["do"], data.get("arg", ""), data.get("seat")
        if not isinstance(arg, str) or len(arg) > MAX_ARG or (
                seat is not None and (type(seat) is not int or not 0 <= seat < 16)):
            return self._refused(lang, status=400)
        key = data.get("key")
        user = user_of(self.secret, key) if key is not None else None
        if key is not None and user is None:
            return self._refused(lang)
        if user is None and what not in ("join", "claim"):
            return self._refused(lang)
        extra: dict[str, Any] = {}
        i18n.set_locale(lang)
        try:
            if what == "join":
                if user is None:
                    key = new_key(self.secret)
                    user = user_of(self.secret, key)
                    extra["key"] = key
                assert user is not None
                reply = await self._join(user, arg, lang)
            elif what == "claim":
                key = new_key(self.secret)
                fresh = user_of(self.secret, key)
                assert fresh is not None
                reply = await self._claim(arg, fresh)
                user, extra["key"] = fresh, key
            else:
                assert user is not None
                reply, more = await self._act(user, what, arg, seat, lang)
                extra.update(more)
        except Refusal as refusal:
            with i18n.using(lang):
                said = i18n._(refusal.text) if refusal.text else ""
            return web.json_response({"error": said, **await self.view(user, lang)},
                                     status=409, headers=self._headers())
        except Exception:
            log.exception("party %s failed", what)
            with i18n.using(lang):
                said = i18n._(narrate.SORRY)
            return web.json_response({"error": said}, status=500, headers=self._headers())
        self._bump()  # (a refusal changed nothing; this did, or may have)
        out = {**await self.view(user, lang), **extra}
        if reply:
            with i18n.using(lang):
                out["reply"] = i18n._(reply)
        return web.json_response(out, headers=self._headers())

    # -- the game of the room -----------------------------------------------------------

    async def current(self) -> Any:
        """The room's game: the one in its lobby or on, else the newest (its scores)."""
        store = self.service.store
        return await store.active_game(PLATFORM, ROOM) or await store.last_game(PLATFORM, ROOM)

    def actor(self, user: str, name: str, lang: str) -> Actor:
        return Actor(PLATFORM, ROOM, user, name, lang=lang)

    async def _press(self, actor: Actor, game: int, action: str) -> Outcome:
        row = await self.service.store.get_game(game)
        version = row.record.get("lobby_version", 0) if row is not None else 0
        press = press_of(game, version, action)
        if press is None:
            raise Refusal(narrate.NOT_FOR_LOBBY)
        out = await self.service.press(actor, press)
        if out.alert:
            raise Refusal(out.reply or "")
        return out

    async def _join(self, user: str, name: str, lang: str) -> str | None:
        """A seat at the room's game: a new lobby when there is none (the first is the
        host); in a lobby, the next seat; a game already on: nothing (the person watches)."""
        name = name.strip()
        if not name:
            raise Refusal(WORDS["bad_name"])
        actor = self.actor(user, name, lang)  # (its language is the seat's: nothing stored)
        row = await self.service.store.active_game(PLATFORM, ROOM)
        if row is None:
            out = await self.service.new_game(actor)
            if not out.alert and out.game_id is not None:
                return None
            # two first joins at once: the other made the lobby, this one takes a seat in it
            row = await self.service.store.active_game(PLATFORM, ROOM)
            if row is None:
                raise Refusal(out.reply or narrate.SORRY)
        record = Record.from_dict(row.record)
        if record.seat_of(user) is not None:
            return None
        if row.status != "lobby":
            return WORDS["watching"]
        await self._press(actor, row.id, "join")
        return None

    async def _claim(self, token: str, fresh: str) -> str | None:
        """A seat handed to this device: its user id becomes the new key's."""
        old = read_claim(self.secret, token, self.time.now())
        row = await self.service.store.active_game(PLATFORM, ROOM)
        if old is None or row is None:
            raise Refusal(REFUSED)

        def change(_row: Any, record: Record) -> Outcome:
            seat = record.seat_of(old)
            if seat is None:
                raise Refusal(REFUSED)
            record.seats[seat].user = fresh
            if record.host == old:
                record.host = fresh
            if record.state is None:
                record.lobby_version += 1
            return Outcome()

        await self.service.unit.mutate(row.id, change)
        return None

    async def _act(self, user: str, what: str, arg: str, seat: int | None,
                   lang: str) -> tuple[str | None, dict[str, Any]]:
        row = await self.service.store.active_game(PLATFORM, ROOM)
        if row is None:
            raise Refusal(narrate.NO_GAME)
        record = Record.from_dict(row.record)
        me = record.seat_of(user)
        if me is None:
            raise Refusal(narrate.PLAYERS_ONLY)
        if what in HOST_DOES and record.host != user:
            raise Refusal(narrate.HOST_ONLY)
        actor = self.actor(user, record.seats[me].name, lang)
        lobby_only = what in ("leave", "game", "opt", "cpu", "timer", "start")
        if lobby_only and row.status != "lobby":
            raise Refusal(narrate.OLD_LOBBY_BUTTON)
        if what == "leave":
            await self._press(actor, row.id, "leave")
        elif what == "game":
            await self._choose(row.id, user, arg)
        elif what == "opt":
            key, _eq, value = arg.partition("=")
            await self._press(actor, row.id, f"opt:{key}:{value}")
        elif what == "cpu":
            await self._press(actor, row.id, f"cpu:{arg}")
        elif what == "timer":
            await self._press(actor, row.id, f"timer:{arg}")
        elif what == "start":
            await self._press(actor, row.id, "start")
        elif what == "end":  # the host closes the room's game (a new one may begin)
            out = await self.service.commands.end(row.id, actor)
            with contextlib.suppress(Exception):
                await self.service.deliver(out)
        else:  # computer, handover: a seat of a person
            if seat is None or not 0 <= seat < len(record.seats) or (
                    record.seats[seat].is_computer or not record.seats[seat].user):
                raise Refusal(narrate.NOT_SEATED_GAME)
            them = record.seats[seat]
            if what == "handover":
                token = claim_token(self.secret, str(them.user), self.time.now())
                link = f"{self.address or '/'}?claim={token}"
                qr = await asyncio.to_thread(qr_svg, link)
                return None, {"claim": link, "claim_qr": "data:image/svg+xml;base64,"
                              + base64.b64encode(qr).decode(), "claim_seat": seat}
            if row.status != "playing":
                raise Refusal(narrate.NOT_RUNNING_GAME)
            out = await self.service.commands.leave(
                row.id, self.actor(str(them.user), them.name, lang))
            with contextlib.suppress(Exception):
                await self.service.deliver(out)
        return None, {}

    async def _choose(self, game_id: int, user: str, arg: str) -> None:
        """The host picks the game and its variant (`<game>/<variant>`): the lobby's seats
        stay (as many as the new choice takes), its options are the variant's defaults."""
        name, _slash, variant = arg.partition("/")
        game = self.service.games.get(name)
        if game is None or not any(v.name == variant for v in game.variants()):
            raise Refusal(narrate.NOT_FOR_LOBBY)
        settings = game.settings(variant, {})

        def change(row: Any, record: Record) -> Outcome:
            if record.state is not None or record.host != user:
                raise Refusal(narrate.HOST_ONLY)
            before = (record.game_name, record.rulebook, record.options)
            record.game_name, record.rulebook = game.name, settings.variant
            record.options = dict(settings.options)
            if len(record.seats) > most_seats(game, record):
                record.game_name, record.rulebook, record.options = before
                raise Refusal(narrate.full(most_seats(game, record)))
            record.lobby_version += 1
            return Outcome()

        await self.service.unit.mutate(game_id, change)

    # -- what a page sees -----------------------------------------------------------------

    def link(self, user: str, name: str, game: int, lang: str) -> str:
        token = auth.link_token(self.secret, PLATFORM, user, name, game, lang, REAL.now(),
                                seconds=LINK_DAYS * 86400)
        return f"/web/table?g={game}&k={token}"

    async def view(self, user: str | None, lang: str) -> dict[str, Any]:
        """The lobby as this person sees it, in their language: no other seat's key, no
        hand (the table's frames have those rules), the host's choices for the host."""
        out: dict[str, Any] = {"v": self.version, "words": words(lang),
                               "address": self.address, "game": None, "table": None}
        row = await self.current()
        if row is None:
            return out
        record = Record.from_dict(row.record)
        game = self.service.unit.game_of(record)
        me = record.seat_of(user) if user else None
        host = bool(user) and record.host == user
        with i18n.using(lang):
            settings = game.settings(record.rulebook, record.options)
            out["game"] = {
                "id": row.id, "status": row.status, "title": settings.title,
                "described": list(settings.describe()), "timer": record.turn_seconds,
                "most": most_seats(game, record), "least": game.min_seats,
                # the name as typed (the page isolates it), the rest in the reader's words
                "seats": [{"name": s.name,
                           "computer": narrate.level(s.computer) if s.is_computer else None,
                           "host": s.user == record.host and not s.is_computer,
                           "me": i == me} for i, s in enumerate(record.seats)],
            }
            out["me"] = {"seat": me, "host": host}
            if row.status == "lobby" and host:
                out["choices"] = self._choices(game, record)
            if row.status != "lobby" and not record.lesson:
                if me is not None:
                    out["table"] = self.link(str(user), record.seats[me].name, row.id, lang)
                else:
                    out["table"] = f"/web/table?g={auth.watch_param(self.secret, row.id)}"
            actor = self.actor(user or "-", "-", lang)
            out["board"] = await self.service.commands.leaderboard(actor, None)
        return out

    def _choices(self, game: Any, record: Record) -> dict[str, Any]:
        """The host's menu: every game's variants (the registry's), the chosen variant's
        options with each value's words, the computer levels, the turn timers."""
        games = [{"id": f"{g.name}/{v.name}", "title": v.title,
                  "on": g.name == record.game_name and v.name == record.rulebook}
                 for g in self.service.games.values() for v in g.variants()]
        settings = game.settings(record.rulebook, record.options)
        variant = next(v for v in game.variants() if v.name == settings.variant)
        options = []
        for key, values in variant.options.items():
            each = [game.settings(record.rulebook, {**settings.options, key: v}) for v in values]
            # the option named once (its prompt), each value alone where the game says it
            name = settings.label(key).partition(":")[0].strip() or key
            options.append({"key": key, "prompt": name[:1].upper() + name[1:], "values": [
                {"v": str(v), "label": _value_words(one, key), "on": v == settings.options[key]}
                for v, one in zip(values, each, strict=True)]})
        levels = [{"v": lv, "label": f"🤖 {narrate.level(lv)}"} for lv in game.levels]
        return {"games": games, "options": options, "levels": levels,
                "timers": list(TIMER_CHOICES)}


def _value_words(settings: Any, key: str) -> str:
    """An option's value as its menu says it, under the option's name: the game's own words
    for the value alone, else its label without the name ("initial meld: 30" -> "30")."""
    said = settings.choice(key)
    if said == settings.label(key) and ":" in said:
        said = said.partition(":")[2].strip() or said
    return said


# -- running it --------------------------------------------------------------------------------

async def serve_party(party: Party, host: str, port: int) -> web.AppRunner:
    app = web.Application(client_max_size=MAX_BODY)
    party.add_routes(app)
    runner = web.AppRunner(app, access_log=None)
    await runner.setup()
    await web.TCPSite(runner, host, port).start()
    return runner


async def run_party(*, data: Path, host: str = "0.0.0.0", port: int = 8765,
                    write: Callable[[str], None] = print, stop: asyncio.Event | None = None,
                    computer_delay: float = 0.8, qr: bool = True,
                    ready: Callable[[Party, list[str]], None] | None = None) -> None:
    """Serve the party from `data` (its SQLite file and secret) until `stop` is set: every
    action is saved, so a restart carries on where it was."""
    from bot.games import default_games
    from bot.store import Store

    from .local import local_secret

    store = await Store.open(f"sqlite+aiosqlite:///{data / STORE_FILE}")
    service = GameService(store, games=default_games(), computer_delay=computer_delay)
    secret = local_secret(data, SECRET_FILE)
    party = Party(service, secret)
    runner = None
    try:
        await service.start()
        runner = await serve_party(party, host, port)
        bound = runner.addresses[0][1] if runner.addresses else port
        shown = addresses(host, bound)
        party.address = shown[0]
        write(f"Rummy party: open {shown[0]} on every phone (same Wi-Fi or hotspot).")
        for other in shown[1:]:
            write(f"  (or {other})")
        if qr:
            write(qr_text(shown[0]))
        write("Ctrl-C stops; every action is saved and a restart carries on.")
        if ready is not None:
            ready(party, shown)
        await (stop or asyncio.Event()).wait()
    finally:
        await party.close()
        if runner is not None:
            await runner.cleanup()
        await service.stop()
        await store.close()
