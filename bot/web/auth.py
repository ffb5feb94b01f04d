"""Who a web page speaks for: Telegram's signed `initData`, a signed link (Discord, the
terminal's `play --web`), exchanged for a short-lived session token the page sends in a header.

Everything here is pure (the time is passed in) and every input is hostile: bounded lengths,
strict parsing, constant-time comparisons; anything wrong is None, never an exception.

Telegram (core.telegram.org/bots/webapps#validating-data-received-via-the-mini-app): the
secret key is HMAC-SHA256(key="WebAppData", msg=bot token); the hash is HMAC-SHA256(key=secret,
msg=the received fields except `hash`, as `key=value`, sorted, joined by "\\n"), in hex.
"""

from __future__ import annotations

import base64
import hashlib
import hmac
import json
from dataclasses import dataclass
from urllib.parse import parse_qsl

from bot.core.buttons import MAX_GAME_ID, ascii_number

MAX_INIT_DATA = 4096  # bytes: a real initData is well under 1 KB
# Telegram Desktop can hand out an initData a day old (the issue): lenient, but not forever
INIT_DATA_AGE = 2 * 86400
SESSION_SECONDS = 6 * 3600
LINK_SECONDS = 15 * 60
MAX_TOKEN = 600
WATCH_KEY = 16  # characters of a game's watch key (96 bits, base64url)
_KEY_CHARS = frozenset("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_")


@dataclass(frozen=True)
class Session:
    """A page's right to speak: for `user` of `platform` (\"\" a spectator) at game `game`."""

    platform: str
    user: str
    name: str
    game: int
    lang: str
    expires: float


def _b64(data: bytes) -> str:
    return base64.urlsafe_b64encode(data).rstrip(b"=").decode()


def _unb64(text: str) -> bytes:
    return base64.urlsafe_b64decode(text + "=" * (-len(text) % 4))


def _sign(secret: bytes, kind: str, payload: str) -> str:
    return _b64(hmac.new(secret, f"{kind}.{payload}".encode(), hashlib.sha256).digest())


def _seal(secret: bytes, kind: str, session: Session) -> str:
    body = json.dumps([session.platform, session.user, session.name, session.game,
                       session.lang, int(session.expires)], separators=(",", ":"))
    payload = _b64(body.encode())
    return f"{payload}.{_sign(secret, kind, payload)}"


def _open(secret: bytes, kind: str, token: object, now: float) -> Session | None:
    if not isinstance(token, str) or not 0 < len(token) <= MAX_TOKEN or not token.isascii():
        return None
    payload, _dot, mac = token.partition(".")
    if not hmac.compare_digest(mac, _sign(secret, kind, payload)):
        return None
    try:
        platform, user, name, game, lang, expires = json.loads(_unb64(payload))
    except (ValueError, TypeError):
        return None
    if now >= expires:
        return None
    return Session(platform, user, name, game, lang, expires)


def session_token(secret: bytes, session: Session) -> str:
    return _seal(secret, "session", session)


def read_session(secret: bytes, token: object, now: float) -> Session | None:
    """The session a token carries, or None (forged, stale, anything else)."""
    return _open(secret, "session", token, now)


def link_token(secret: bytes, platform: str, user: str, name: str, game: int, lang: str,
               now: float, seconds: float = LINK_SECONDS) -> str:
    """A short-lived signed link for one member (Discord's ephemeral button, `play --web`)."""
    return _seal(secret, "link", Session(platform, user, name, game, lang, now + seconds))


def read_link(secret: bytes, token: object, now: float) -> Session | None:
    return _open(secret, "link", token, now)


def telegram_user(init_data: object, bot_token: str, now: float,
                  max_age: float = INIT_DATA_AGE) -> tuple[dict, str] | None:
    """(the user object, the start parameter) of a genuine, recent enough initData; None for
    a forged, stale or malformed one."""
    if not isinstance(init_data, str) or not 0 < len(init_data) <= MAX_INIT_DATA:
        return None
    try:
        pairs = parse_qsl(init_data, keep_blank_values=True, strict_parsing=True,
                          max_num_fields=32)
    except ValueError:
        return None
    fields = dict(pairs)
    if len(fields) != len(pairs):  # a key given twice: which one was signed?
        return None
    received = fields.pop("hash", "")
    if len(received) != 64 or not received.isascii():  # (compare_digest takes ASCII only)
        return None
    check = "\n".join(f"{k}={v}" for k, v in sorted(fields.items()))
    secret = hmac.new(b"WebAppData", bot_token.encode(), hashlib.sha256).digest()
    expected = hmac.new(secret, check.encode(), hashlib.sha256).hexdigest()
    if not hmac.compare_digest(received, expected):
        return None
    auth_date = ascii_number(fields.get("auth_date", ""), 2**40)
    if auth_date is None or not now - max_age <= auth_date <= now + 300:
        return None
    try:
        user = json.loads(fields.get("user", ""))
    except (ValueError, RecursionError):
        return None
    if not isinstance(user, dict) or type(user.get("id")) is not int:
        return None
    return user, fields.get("start_param", "")


def watch_key(secret: bytes, game: int) -> str:
    """The key that lets anyone who has it watch `game`: what its chat is posted, never
    guessed from the id (a MAC of it; nothing stored, so every game already has one)."""
    return _sign(secret, "watch", str(game))[:WATCH_KEY]


def watch_param(secret: bytes, game: int) -> str:
    """A game as its chat's links carry it (`startapp=`, `?g=`): `<id>_<watch key>`."""
    return f"{game}_{watch_key(secret, game)}"


def read_game(text: object) -> tuple[int, str] | None:
    """(game id, watch key: "" when none was given) of a link's game parameter, strictly."""
    if not isinstance(text, str) or len(text) > 64:
        return None
    number, sep, key = text.partition("_")
    game = ascii_number(number, MAX_GAME_ID)
    if game is None or (sep and (len(key) != WATCH_KEY or not _KEY_CHARS.issuperset(key))):
        return None
    return game, key


def may_watch(secret: bytes, game: int, key: str) -> bool:
    """Whether `key` (ASCII, as `read_game` gives it) is `game`'s watch key."""
    return bool(key) and hmac.compare_digest(key, watch_key(secret, game))
