"""The button vocabulary: every action a button carries, and the one strict parser for it.

Callback data (Telegram) and custom ids (Discord) are client-supplied, so a press is believed
only as far as `parse` checks it: `[prefix]game:version:verb[:arg…]`, at most 64 bytes, ASCII
digits only, every number inside its range, known verbs with exactly their arguments. Anything
else is None, which the core answers politely ("That button is not from this bot.").

    >>> parse("7:3:tc:2:QS#1")
    Press(game_id=7, version=3, verb='tc', args=(2, 'QS#1'))
    >>> parse("7:3:tc:-2:QS#1") is None
    True
"""

from __future__ import annotations

import re
from dataclasses import dataclass

MAX_DATA = 64  # bytes: Telegram's callback-data limit
MAX_GAME_ID = 2**31 - 1  # the store's integer ids
MAX_VERSION = 10**9
MAX_INDEX = 199  # groups, pages, split positions: far above any real table (≤ 110 cards)
TIMER_CHOICES = (60, 180, 300)  # the turn timers the lobby offers
LESSON_PREFIX = "L:"

# Argument kinds. Each pattern is anchored and has no nested repetition: linear time.
IDX = "idx"  # 0..MAX_INDEX
TOKEN = "token"  # a card token, `7H#1`, `*#0`, `*#1=7H` (or a tile's, `7R#1`, `*T#0`)
FACES = "faces"  # joker faces, `5H` or `5H,6H`
WORD = "word"  # a rulebook, level, option key/value or menu name
SECS = "secs"  # one of TIMER_CHOICES

_CARD_FACE = r"(?:10|[2-9AJQK])[SHDC]"
_TILE_FACE = r"(?:1[0-3]|[1-9])[KRBO]"  # a Rummikub tile, `7R` (engine/rummy/tiles.py)
_FACE = rf"(?:{_CARD_FACE}|{_TILE_FACE})"
_PATTERNS = {  # a tile's token: `7R#1`, `*T#0`, `*T#1=7R`
    TOKEN: re.compile(rf"(?:{_CARD_FACE}|\*)#[0-9](?:={_CARD_FACE})?"
                      rf"|(?:{_TILE_FACE}|\*T)#[0-9](?:={_TILE_FACE})?"),
    FACES: re.compile(rf"{_FACE}(?:,{_FACE}){{0,7}}"),
    WORD: re.compile(r"[a-z0-9_]{0,24}"),
}

# verb -> argument kinds: the platform's own buttons (lobby, table), the same for every game
PLATFORM: dict[str, tuple[str, ...]] = {
    "join": (), "leave": (), "start": (), "menu": (WORD,), "cpu": (WORD,), "rb": (WORD,),
    "opt": (WORD, WORD), "timer": (SECS,), "cards": (), "noop": (),
}
# the rummy family's buttons (round end, private screen): its HostedGame.vocabulary
RUMMY_VERBS: dict[str, tuple[str, ...]] = {
    "next": (), "finish": (),
    "sort": (), "pg": (IDX,), "s1": (TOKEN,), "s0": (TOKEN,), "cancel": (), "addm": (),
    "takem": (), "take": (IDX,), "new": (), "add": (IDX,), "tc": (IDX, TOKEN), "auto": (),
    "jk": (IDX, FACES), "done": (), "reset": (), "giveup": (), "draw": (), "pass": (),
    "knock": (), "hint": (), "show": (),
}
# every verb a game's button may carry: the platform's and each hosted game's (`register`)
GAME: dict[str, tuple[str, ...]] = {**PLATFORM, **RUMMY_VERBS}
LOBBY = frozenset({"join", "leave", "start", "menu", "cpu", "rb", "opt", "timer"})
# verb -> argument kinds, for a lesson's buttons (`L:` + the same layout)
LESSON: dict[str, tuple[str, ...]] = {
    "go": (WORD,), "play": (), "s0": (TOKEN,), "s1": (TOKEN,), "noop": (), "cancel": (),
    "addm": (), "takem": (), "splm": (), "more": (), "take": (IDX,), "spl": (IDX,),
    "show": (), "skip": (), "restart": (), "quit": (), "new": (), "add": (IDX,),
    "tc": (IDX, TOKEN), "spa": (IDX, IDX), "jk": (IDX, FACES), "done": (), "reset": (),
    "giveup": (), "draw": (), "pass": (), "knock": (), "next": (), "finish": (),
}


@dataclass(frozen=True)
class Press:
    game_id: int
    version: int
    verb: str
    args: tuple[int | str, ...] = ()

    @property
    def action(self) -> str:
        """The action part as the screens wrote it: `tc:2:QS#1`."""
        return ":".join([self.verb, *map(str, self.args)])

    def int(self, i: int = 0) -> int:
        value = self.args[i]
        assert isinstance(value, int)
        return value

    def str(self, i: int = 0) -> str:
        return str(self.args[i])


def ascii_number(text: str, limit: int) -> int | None:
    """A plain ASCII decimal in 0..limit, no leading zeros, else None (`'²'.isdigit()` is
    True, and `int('²')` fails): for buttons and for numbers people type."""
    if not text or len(text) > len(str(limit)) or not (text.isascii() and text.isdecimal()):
        return None
    if len(text) > 1 and text[0] == "0":  # one spelling per number: what `pack` writes
        return None
    value = int(text)
    return value if value <= limit else None


def _arg(kind: str, text: str) -> int | str | None:
    if kind == IDX:
        return ascii_number(text, MAX_INDEX)
    if kind == SECS:
        value = ascii_number(text, 3600)
        return value if value in TIMER_CHOICES else None
    return text if _PATTERNS[kind].fullmatch(text) else None


def register(vocabulary: dict[str, tuple[str, ...]]) -> None:
    """Add a hosted game's own button verbs (bot/core/hosting.py `vocabulary`). A verb may be
    shared by games only with the very same argument kinds, so one parser serves them all."""
    for verb, kinds in vocabulary.items():
        if not _PATTERNS.keys() | {IDX, SECS} >= set(kinds):
            raise ValueError(f"unknown argument kind in {verb!r}: {kinds}")
        if GAME.get(verb, kinds) != kinds:
            raise ValueError(f"button verb {verb!r} already means {GAME[verb]}")
        if verb in LOBBY:
            raise ValueError(f"button verb {verb!r} belongs to the lobby")
        GAME[verb] = tuple(kinds)


def parse(data: str, *, lesson: bool = False) -> Press | None:
    """The press this data names, or None if it is not exactly a button of this bot's."""
    if not isinstance(data, str) or len(data) > MAX_DATA or len(data.encode()) > MAX_DATA:
        return None
    if lesson:
        if not data.startswith(LESSON_PREFIX):
            return None
        data = data[len(LESSON_PREFIX) :]
    parts = data.split(":")
    if len(parts) < 3:
        return None
    game_id, version = ascii_number(parts[0], MAX_GAME_ID), ascii_number(parts[1], MAX_VERSION)
    kinds = (LESSON if lesson else GAME).get(parts[2])
    if game_id is None or version is None or kinds is None or len(parts) != 3 + len(kinds):
        return None
    args = tuple(_arg(kind, text) for kind, text in zip(kinds, parts[3:], strict=True))
    if any(a is None for a in args):
        return None
    return Press(game_id, version, parts[2], args)  # type: ignore[arg-type]


def parse_action(action: str, *, lesson: bool = False) -> Press | None:
    """An action as a screen's Button carries it (no game id or version)."""
    return parse((LESSON_PREFIX if lesson else "") + f"0:0:{action}", lesson=lesson)


def pack(game_id: int, version: int, action: str, prefix: str = "") -> str:
    """Callback data: `[prefix]game:version:action` (Telegram allows 64 bytes)."""
    data = f"{prefix}{game_id}:{version}:{action}"
    if len(data.encode()) > MAX_DATA:
        raise ValueError(f"callback data too long: {data}")
    return data
