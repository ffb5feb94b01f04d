"""Cards with identity, in the notation of RULES.md (`QH`, `10S`, `*`, a designated joker `*7H`).

With two decks every card exists twice: the copies are equal for play but are distinct physical
cards, so a `Card` carries `copy` (which deck it came from; for jokers, which joker it is).
A joker on the table also carries the card it stands for (`as_rank`, `as_suit`).
"""

from __future__ import annotations

import re
from collections.abc import Iterable
from dataclasses import dataclass

SUITS = "SHDC"
SUIT_SYMBOLS = {"S": "♠", "H": "♥", "D": "♦", "C": "♣"}
_SYMBOL_SUITS = {v: k for k, v in SUIT_SYMBOLS.items()} | {"♤": "S", "♡": "H", "♢": "D", "♧": "C"}
RANK_NAMES = {1: "A", 11: "J", 12: "Q", 13: "K"}
_RANK_VALUES = {"A": 1, "J": 11, "Q": 12, "K": 13, "T": 10, "1": None}
JOKER = 0  # the rank of a joker


def rank_name(rank: int) -> str:
    return RANK_NAMES.get(rank, str(rank))


# face text by rank and suit, looked up rather than formatted: the referee and the solver ask
# for faces hundreds of thousands of times a game
_FACES = {r: {s: f"{rank_name(r)}{s}" for s in SUITS} for r in range(1, 14)} | {JOKER: {"": "*"}}


@dataclass(frozen=True, slots=True, order=True)
class Card:
    """One physical card. `rank` 1-13 (0 for a joker), `suit` in SHDC ('' for a joker)."""

    rank: int
    suit: str
    copy: int = 0
    as_rank: int = 0
    as_suit: str = ""

    @property
    def is_joker(self) -> bool:
        return self.rank == JOKER

    @property
    def is_tile(self) -> bool:
        """A Rummikub tile (engine/rummy/tiles.py's `Tile`): what a picture draws as a tile."""
        return False

    @property
    def face(self) -> str:
        """What the card is, ignoring its copy and a joker's designation: `7H` or `*`."""
        return _FACES[self.rank][self.suit]

    @property
    def designated(self) -> bool:
        return self.is_joker and self.as_rank != 0

    @property
    def play_rank(self) -> int:
        """The rank it plays as (a designated joker: its designation; a free joker: 0)."""
        return self.as_rank if self.is_joker else self.rank

    @property
    def play_suit(self) -> str:
        return self.as_suit if self.is_joker else self.suit

    @property
    def play_face(self) -> str:
        """`7H` for a real 7H and for a joker fixed as 7H; `*` for a free joker."""
        if self.is_joker and not self.designated:
            return "*"
        return f"{rank_name(self.play_rank)}{self.play_suit}"

    @property
    def ident(self) -> tuple[int, str, int]:
        """The physical card, whatever a joker currently stands for."""
        return (self.rank, self.suit, self.copy)

    def __copy__(self) -> Card:
        return self

    def __deepcopy__(self, memo: dict) -> Card:
        return self  # immutable: copies of a game state share their cards

    def designate(self, rank: int, suit: str) -> Card:
        if not self.is_joker:
            raise ValueError(f"{self} is not a joker")
        return Card(JOKER, "", self.copy, rank, suit)

    def free(self) -> Card:
        """This joker without a designation (a real card is returned unchanged)."""
        return Card(JOKER, "", self.copy) if self.is_joker else self

    def __str__(self) -> str:
        if self.is_joker:
            return "*" + (self.play_face if self.designated else "")
        return self.face

    def pretty(self) -> str:
        """With suit symbols: `Q♥`, `10♠`, `🃏`, `🃏7♥`."""
        if self.is_joker:
            if not self.designated:
                return "🃏"
            return "🃏" + rank_name(self.as_rank) + SUIT_SYMBOLS[self.as_suit]
        return rank_name(self.rank) + SUIT_SYMBOLS[self.suit]

    def marked(self) -> str:
        """As a sentence shows it: a card with its suit symbol (`Q♥`); a tile overrides it."""
        return self.pretty()

    @property
    def token(self) -> str:
        """Lossless text form for saved games: `7H#1`, `*#0`, `*#1=7H`."""
        base = f"{self.face}#{self.copy}"
        return base + (f"={self.play_face}" if self.designated else "")

    @staticmethod
    def from_token(token: str) -> Card:
        face, _, rest = token.partition("#")
        copy_text, _, designation = rest.partition("=")
        card = parse_card(face, copy=int(copy_text or 0))
        if designation:
            as_rank, as_suit = parse_face(designation)
            card = card.designate(as_rank, as_suit)
        return card


_CARD_RE = re.compile(r"^(10|[2-9]|[AJQKT])([SHDC])$")


def parse_face(text: str) -> tuple[int, str]:
    """`'10h'` -> (10, 'H'); suit symbols and `T` for ten are accepted."""
    raw = text.strip()
    if raw and raw[-1] in _SYMBOL_SUITS:
        raw = raw[:-1] + _SYMBOL_SUITS[raw[-1]]
    match = _CARD_RE.match(raw.upper())
    if not match:
        raise ValueError(
            f"'{text}' is not a card: use a rank A 2-10 J Q K and a suit S H D C (like QH, 10S), "
            "or * for a joker"
        )
    rank_text, suit = match.groups()
    rank = _RANK_VALUES.get(rank_text) or int(rank_text)
    return rank, suit


def parse_card(text: str, copy: int = 0) -> Card:
    raw = text.strip()
    if raw.startswith("*") or raw.startswith("🃏"):
        rest = raw[1:].strip()
        joker = Card(JOKER, "", copy)
        return joker.designate(*parse_face(rest)) if rest else joker
    rank, suit = parse_face(raw)
    return Card(rank, suit, copy)


def parse_cards(text: str | Iterable[str]) -> list[Card]:
    """`parse_cards("QH 10S * *7H")`. Repeated cards get copy 0, 1, … in order of appearance.
    (A Rummikub game's tiles: engine/rummy/tiles.py's `parse_tiles`, or the rummy family's
    `parse_cards(text, rulebook)`.)"""
    tokens = text.replace(",", " ").split() if isinstance(text, str) else list(text)
    seen: dict[str, int] = {}
    cards = []
    for token in tokens:
        card = parse_card(token)
        copy = seen.get(card.face, 0)
        seen[card.face] = copy + 1
        cards.append(Card(card.rank, card.suit, copy, card.as_rank, card.as_suit))
    return cards


def format_cards(cards: Iterable[Card], *, pretty: bool = False) -> str:
    return " ".join(card.pretty() if pretty else str(card) for card in cards)


def make_deck(decks: int, jokers: int) -> list[Card]:
    """`decks` full 52-card decks plus `jokers` jokers, in a fixed order (shuffle separately)."""
    cards = [
        Card(rank, suit, copy) for copy in range(decks) for suit in SUITS for rank in range(1, 14)
    ]
    cards += [Card(JOKER, "", j) for j in range(jokers)]
    return cards


def suit_order(card: Card) -> tuple[int, int, int]:
    """Sort key: by suit, then rank (jokers last)."""
    if card.is_joker:
        return (4, 0, card.copy)
    return (SUITS.index(card.suit), card.rank, card.copy)


def rank_order(card: Card) -> tuple[int, int, int]:
    """Sort key: by rank, then suit (jokers last)."""
    if card.is_joker:
        return (99, 0, card.copy)
    return (card.rank, SUITS.index(card.suit), card.copy)
