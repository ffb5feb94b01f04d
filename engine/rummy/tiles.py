"""Rummikub tiles in the notation of RULES.md §5 (`7R`, `13O`, `1K`, `*`, a designated `*7R`).

A tile is a `Card` underneath: its number is the rank (1 always low) and its colour one of the
four suits — black K = S, red R = H, blue B = D, orange O = C — so the one meld check, the
referee and the solver read tiles as they read cards (runs: one suit in sequence; groups: one
number in different suits, at most four). `Tile` changes only how it is written: `7R`, never
`7H`. A `Tile` never equals a `Card` (dataclass equality compares the class), and the two
notations never collide (no colour letter is a suit letter; `1`, `11`–`13` are no card ranks),
so a card typed in a tile game names nothing.
"""

from __future__ import annotations

import re
from collections.abc import Iterable
from typing import Protocol

from engine.cards import JOKER, SUITS, Card
from engine.cards import parse_cards as parse_card_faces

COLOURS = "KRBO"  # black, red, blue, orange: in the order of SUITS
COLOUR_OF_SUIT = dict(zip(SUITS, COLOURS, strict=True))
SUIT_OF_COLOUR = dict(zip(COLOURS, SUITS, strict=True))
COLOUR_NAMES = {"K": "black", "R": "red", "B": "blue", "O": "orange"}
# A tile's colour inside a sentence or caption (the letters are for typing only).
COLOUR_MARKS = {"K": "⬛", "R": "🟥", "B": "🟦", "O": "🟧"}

_TILE_FACES = {r: {s: f"{r}{COLOUR_OF_SUIT[s]}" for s in SUITS} for r in range(1, 14)} | {
    JOKER: {"": "*"}
}
_TILE_RE = re.compile(r"^(1[0-3]|[1-9])([KRBO])$")


class Tile(Card):
    """One physical tile: `rank` is its number 1-13 (0 for a joker), `suit` its colour's suit."""

    __slots__ = ()

    @property
    def is_tile(self) -> bool:
        return True

    @property
    def face(self) -> str:
        return _TILE_FACES[self.rank][self.suit]

    @property
    def play_face(self) -> str:
        if self.is_joker and not self.designated:
            return "*"
        return _TILE_FACES[self.play_rank][self.play_suit]

    def designate(self, rank: int, suit: str) -> Tile:
        if not self.is_joker:
            raise ValueError(f"{self} is not a joker")
        return Tile(JOKER, "", self.copy, rank, suit)

    def free(self) -> Tile:
        return Tile(JOKER, "", self.copy) if self.is_joker else self

    def __str__(self) -> str:
        if self.is_joker:
            return "*" + (self.play_face if self.designated else "")
        return self.face

    def __repr__(self) -> str:
        return f"Tile({self.token!r})"

    def pretty(self) -> str:
        """As a player reads and types it in a chat: the tile notation, a joker as its face —
        `7R`, `🃏`, `🃏7R` (parse_tile reads all three; the pictures carry the colours)."""
        if self.is_joker:
            return "🃏" + (self.play_face if self.designated else "")
        return self.face

    def marked(self) -> str:
        """As a sentence shows it: the number and its colour's mark — `7🟥`, `🃏`, `🃏7🟥`."""
        if self.is_joker:
            return "🃏" + (self._marked(self.play_rank, self.play_suit) if self.designated else "")
        return self._marked(self.rank, self.suit)

    @staticmethod
    def _marked(rank: int, suit: str) -> str:
        return f"{rank}{COLOUR_MARKS[COLOUR_OF_SUIT[suit]]}"

    @property
    def token(self) -> str:
        """Saved games: `7R#1`, `*T#0`, `*T#1=7R` (a free joker is marked as a tile's)."""
        if self.is_joker:
            return f"*T#{self.copy}" + (f"={self.play_face}" if self.designated else "")
        return f"{self.face}#{self.copy}"


def is_tile_face(text: str) -> bool:
    return bool(_TILE_RE.match(text.strip().upper()))


def parse_tile_face(text: str) -> tuple[int, str]:
    """`'7r'` -> (7, 'H'): the number and the colour's suit."""
    match = _TILE_RE.match(text.strip().upper())
    if not match:
        raise ValueError(
            f"'{text}' is not a tile: use a number 1-13 and a colour K R B O (like 7R, 13O), "
            "or * for a joker"
        )
    number, colour = match.groups()
    return int(number), SUIT_OF_COLOUR[colour]


def tile_face_text(rank: int, suit: str) -> str:
    return _TILE_FACES[rank][suit]


def parse_tile(text: str, copy: int = 0) -> Tile:
    raw = text.strip()
    if raw.startswith("*") or raw.startswith("🃏"):
        rest = raw[1:].strip()
        joker = Tile(JOKER, "", copy)
        return joker.designate(*parse_tile_face(rest)) if rest else joker
    return Tile(*parse_tile_face(raw), copy)


def parse_tiles(text: str | Iterable[str]) -> list[Tile]:
    """`parse_tiles("7R 13O * *7R")`. Repeated tiles get copy 0, 1, … in order of appearance."""
    tokens = text.replace(",", " ").split() if isinstance(text, str) else list(text)
    seen: dict[str, int] = {}
    tiles = []
    for token in tokens:
        tile = parse_tile(token)
        copy = seen.get(tile.face, 0)
        seen[tile.face] = copy + 1
        tiles.append(Tile(tile.rank, tile.suit, copy, tile.as_rank, tile.as_suit))
    return tiles


def tile_from_token(token: str) -> Tile:
    """The inverse of `Tile.token` (a plain card token's joker `*#0` reads as a tile's too)."""
    face, _, rest = token.partition("#")
    copy_text, _, designation = rest.partition("=")
    tile = parse_tile("*" if face in ("*", "*T") else face, copy=int(copy_text or 0))
    if designation:
        tile = tile.designate(*parse_tile_face(designation))
    return tile


def make_tiles(sets: int, jokers: int) -> list[Tile]:
    """`sets` times the numbers 1-13 in four colours, plus `jokers`, in a fixed order (the
    order of `make_deck`, so a tile game's identities are a card game's)."""
    tiles = [Tile(rank, suit, copy) for copy in range(sets) for suit in SUITS
             for rank in range(1, 14)]
    return tiles + [Tile(JOKER, "", j) for j in range(jokers)]


def parse_cards_or_tiles(text: str | Iterable[str]) -> list[Card]:
    """Cards, or tiles when the text names a tile (`lay 10R 11R 12R`): for text whose game is
    not at hand, like a lesson's moves. The notations never collide, so one tile face decides;
    a lone `*` is a card game's joker (a joker matches a joker of either kind by its face)."""
    tokens = text.replace(",", " ").split() if isinstance(text, str) else list(text)
    if any(is_tile_face(t.lstrip("*🃏")) for t in tokens if t.lstrip("*🃏")):
        return list(parse_tiles(tokens))
    return parse_card_faces(tokens)


class _Notation(Protocol):
    @property
    def tiles(self) -> bool: ...


def parse_cards(text: str | Iterable[str], rulebook: _Notation | None = None) -> list[Card]:
    """`parse_cards("QH 10S * *7H")`; with a `rulebook` played with tiles (Rummikub), its tile
    notation: `parse_cards("7R 13O * *7R", rk)`; each notation refuses the other's."""
    if rulebook is not None and rulebook.tiles:
        return list(parse_tiles(text))
    return parse_card_faces(text)


_TILE_MARKS = frozenset("KRBOT")  # how a tile's token face ends (a card's: a suit or `*`)


def piece_from_token(token: str) -> Card:
    """A card or a Rummikub tile from its saved token (`7H#1`, `*#1=7H`; `7R#1`, `*T#0`)."""
    face = token.partition("#")[0]
    return tile_from_token(token) if face[-1:] in _TILE_MARKS else Card.from_token(token)
