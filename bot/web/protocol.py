"""The web table's one socket vocabulary, strictly parsed: a page's message in, an `Edit` or a
`Hello` out, or None for anything else (the socket answers "bad" and does no work).

The platform's own are hello, review, follow and an edit's "act"; each game's web part adds
its ops and actions (`register`, as its button verbs are registered). A message is one JSON
object of at most `MAX_MESSAGE` bytes with exactly the keys its kind
takes; every number is an ASCII-range int inside its bound, every card a piece's token by its
shape (the game checks it is one of its pieces), at most `MAX_CARDS` of them.

    {"t": "hello", "v": 12}                                   resync: send me the state
    {"t": "review", "v": 12}                                  🔎 my review of the last round
    {"t": "follow", "v": 12}                                  a token for the game's rematch
    {"t": "edit", "v": 12, "op": "place", "cards": ["7H#1"], "to": 2}   hand/loose -> group 2
    {"t": "edit", "v": 12, "op": "place", "cards": ["7H#1"], "to": null} -> a new group
    {"t": "edit", "v": 12, "op": "move", "cards": ["7H#1"], "from": 0, "to": 1}
    {"t": "edit", "v": 12, "op": "take", "cards": ["7H#1"], "from": 0}  group -> loose
    {"t": "edit", "v": 12, "op": "act", "name": "done"}
    {"t": "edit", "v": 12, "op": "play", "cards": ["7H#0"], "to": 4}    Build-to-Ten
"""

from __future__ import annotations

import json
import re
from collections.abc import Iterable, Mapping
from dataclasses import dataclass

from bot.core.buttons import MAX_INDEX, MAX_VERSION

MAX_MESSAGE = 2048  # bytes: the longest real message (a 20-card place) is under 600
MAX_CARDS = 20
# The one-word actions a page may ask for: the platform's own, and each hosted game's (its
# buttons' verbs), added by the game's web part with `register`, as its button verbs are
ACTS: set[str] = {"rematch"}
# op -> the keys it takes besides t, v, op: the platform's "act", and each game's (`register`)
OPS: dict[str, frozenset[str]] = {"act": frozenset({"name"})}
# the ops whose "to" may be null (a new group, pile…)
NEW_TO: set[str] = set()


def register(acts: Iterable[str], ops: Mapping[str, Iterable[str]],
             new_to: Iterable[str] = ()) -> None:
    """Add a hosted game's page vocabulary: its one-word actions, its ops with their keys,
    the ops that may aim at a new place (`"to": null`). An op already known with other keys
    is a clash (two games can't read one op two ways): ValueError."""
    for op, keys in ops.items():
        wanted = frozenset(keys)
        if OPS.setdefault(op, wanted) != wanted or not wanted <= {"cards", "from", "to"}:
            raise ValueError(f"the page op {op!r} is known with other keys")
    ACTS.update(acts)
    NEW_TO.update(new_to)


# A piece's token, by shape only (the platform names no game): a face of up to five capitals,
# digits or `*` (`7H`, `10R`, `*T`, `SHIFT`), `#` and a copy digit, an optional `=` and the face
# a joker stands for. Whether it is a piece of this game, and where, is the game's to say.
_PIECE = re.compile(r"[0-9A-Z*]{1,5}#[0-9](?:=[0-9A-Z]{2,3})?")


@dataclass(frozen=True)
class Hello:
    version: int


@dataclass(frozen=True)
class Review:
    """🔎 Review: the page's seat's review of the last round over (issue 32)."""

    version: int


@dataclass(frozen=True)
class Follow:
    """↻ Rematch made: the page asks for a session of the new game (same person, same chat)."""

    version: int


@dataclass(frozen=True)
class Edit:
    version: int
    op: str
    cards: tuple[str, ...] = ()
    source: int | None = None  # "from": a group
    target: int | None = None  # "to": a group, pile or seat; None: a new one
    name: str = ""  # op "act": the action's word


def _index(value: object, *, null: bool = False) -> int | bool | None:
    """A bounded index; None when `null` allows it; False for anything else."""
    if value is None and null:
        return None
    if type(value) is int and 0 <= value <= MAX_INDEX:
        return value
    return False


def _card(text: object) -> bool:
    return isinstance(text, str) and len(text) <= 12 and bool(
        _PIECE.fullmatch(text))


def parse(raw: str | bytes) -> Hello | Review | Follow | Edit | None:
    if len(raw) > MAX_MESSAGE:
        return None
    try:
        data = json.loads(raw)
    except (ValueError, RecursionError):
        return None
    if not isinstance(data, dict):
        return None
    version = data.get("v")
    if type(version) is not int or not 0 <= version <= MAX_VERSION:
        return None
    kind = data.get("t")
    if kind == "hello":
        return Hello(version) if data.keys() == {"t", "v"} else None
    if kind == "review":
        return Review(version) if data.keys() == {"t", "v"} else None
    if kind == "follow":
        return Follow(version) if data.keys() == {"t", "v"} else None
    if kind != "edit":
        return None
    op = data.get("op")
    keys = OPS.get(op) if isinstance(op, str) else None
    if keys is None or data.keys() != {"t", "v", "op"} | keys:
        return None
    cards: tuple[str, ...] = ()
    if "cards" in keys:
        raw_cards = data["cards"]
        if not isinstance(raw_cards, list) or not 1 <= len(raw_cards) <= MAX_CARDS:
            return None
        if not all(_card(c) for c in raw_cards) or len(set(raw_cards)) != len(raw_cards):
            return None
        cards = tuple(raw_cards)
    source = target = None
    if "from" in keys:
        source = _index(data["from"])
        if source is False:
            return None
    if "to" in keys:
        target = _index(data["to"], null=op in NEW_TO)
        if target is False:
            return None
    name = ""
    if op == "act":
        name = data["name"]
        if not isinstance(name, str) or name not in ACTS:
            return None
    return Edit(version, op, cards, source, target, name)  # type: ignore[arg-type]
