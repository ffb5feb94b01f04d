"""The button vocabulary: every action a button carries, and the one strict parser for it.

Callback data (Telegram) and custom ids (Discord) are client-supplied, so a press is believed
only as far as `parse` checks it: `game:version:verb[:arg…]`, at most 64 bytes, ASCII
digits only, every number inside its range, known verbs with exactly their arguments. Anything
else is None, which the core answers politely ("That button is not from this bot.").

    >>> parse("7:3:cpu:hard")
    Press(game_id=7, version=3, verb='cpu', args=('hard',))
    >>> parse("7:3:cpu:Hard") is None
    True
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from dataclasses import dataclass

MAX_DATA = 64  # bytes: Telegram's callback-data limit
MAX_GAME_ID = 2**31 - 1  # the store's integer ids
MAX_VERSION = 10**9
OLD_LESSON = "L:"  # the prefix lessons' buttons had before they were hosted games (0008)
MAX_INDEX = 199  # groups, pages, split positions: far above any real table (≤ 110 cards)
TIMER_CHOICES = (60, 180, 300)  # the turn timers the lobby offers

# Argument kinds the platform knows. A game adds its own as anchored patterns (its
# `vocabulary`: a compiled `re.Pattern` per kind, no nested repetition: linear time).
IDX = "idx"  # 0..MAX_INDEX
WORD = "word"  # a variant, level, option key/value or menu name
SECS = "secs"  # one of TIMER_CHOICES
Kind = str | re.Pattern[str]

_PATTERNS: dict[str, re.Pattern[str]] = {WORD: re.compile(r"[a-z0-9_]{0,24}")}

# verb -> argument kinds: the platform's own buttons (lobby, table), the same for every game
PLATFORM: dict[str, tuple[Kind, ...]] = {
    "join": (), "leave": (), "start": (), "menu": (WORD,), "cpu": (WORD,), "rb": (WORD,),
    "opt": (WORD, WORD), "timer": (SECS,), "cards": (), "noop": (),
    "review": (IDX,),  # 🔎 Review under a round's scores: that round (bot/core/reviews.py)
    # under a finished game's result: ↻ Rematch (I'm in) and the host's ▶ Start now
    "rematch": (), "rmstart": (),
    "solve": (re.compile(r"2[0-9]{7}"),),  # 🧩 Solve under a chat's puzzle of a day (its day)
}
# every verb a game's button may carry: the platform's and each hosted game's (`register`)
GAME: dict[str, tuple[Kind, ...]] = dict(PLATFORM)
LOBBY = frozenset({"join", "leave", "start", "menu", "cpu", "rb", "opt", "timer"})


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


def _arg(kind: Kind, text: str) -> int | str | None:
    if isinstance(kind, re.Pattern):  # a game's own kind
        return text if kind.fullmatch(text) else None
    if kind == IDX:
        return ascii_number(text, MAX_INDEX)
    if kind == SECS:
        value = ascii_number(text, 3600)
        return value if value in TIMER_CHOICES else None
    return text if _PATTERNS[kind].fullmatch(text) else None


def register(vocabulary: Mapping[str, tuple[Kind, ...]]) -> None:
    """Add a hosted game's own button verbs (bot/core/hosting.py `vocabulary`). A verb may be
    shared by games only with the very same argument kinds, so one parser serves them all."""
    for verb, kinds in vocabulary.items():
        if not all(isinstance(k, re.Pattern) or k in _PATTERNS.keys() | {IDX, SECS}
                   for k in kinds):
            raise ValueError(f"unknown argument kind in {verb!r}: {kinds}")
        if GAME.get(verb, kinds) != kinds:
            raise ValueError(f"button verb {verb!r} already means {GAME[verb]}")
        if verb in LOBBY:
            raise ValueError(f"button verb {verb!r} belongs to the lobby")
        GAME[verb] = tuple(kinds)


def parse(data: str) -> Press | None:
    """The press this data names, or None if it is not exactly a button of this bot's."""
    if not isinstance(data, str) or len(data) > MAX_DATA or len(data.encode()) > MAX_DATA:
        return None
    # A lesson's button sent before migration 0008 (`L:game:version:…`): the same row's press,
    # made for an older version, so it answers with the screen where the lesson stands.
    parts = data.removeprefix(OLD_LESSON).split(":")
    if len(parts) < 3:
        return None
    game_id, version = ascii_number(parts[0], MAX_GAME_ID), ascii_number(parts[1], MAX_VERSION)
    kinds = GAME.get(parts[2])
    if game_id is None or version is None or kinds is None or len(parts) != 3 + len(kinds):
        return None
    args = tuple(_arg(kind, text) for kind, text in zip(kinds, parts[3:], strict=True))
    if any(a is None for a in args):
        return None
    return Press(game_id, version, parts[2], args)  # type: ignore[arg-type]


def parse_action(action: str) -> Press | None:
    """An action as a screen's Button carries it (no game id or version)."""
    return parse(f"0:0:{action}")


def press_of(game_id: int, version: int, action: str) -> Press | None:
    """The press of a screen's action (a terminal's numbered button, a web page's named
    action), decoded by the one parser; None unless it is exactly one of this bot's."""
    if not (0 <= game_id <= MAX_GAME_ID and 0 <= version <= MAX_VERSION):
        return None
    return parse(f"{game_id}:{version}:{action}")


def pack(game_id: int, version: int, action: str) -> str:
    """Callback data: `game:version:action` (Telegram allows 64 bytes)."""
    data = f"{game_id}:{version}:{action}"
    if len(data.encode()) > MAX_DATA:
        raise ValueError(f"callback data too long: {data}")
    return data
