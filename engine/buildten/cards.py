"""The 100 cards: two 52-card decks without Jacks (96) plus two shift and two swap jokers.

A card is a token string, unique in the game: rank, suit, `#`, deck — `7H#0`, `10S#1`,
`QC#0` — or a joker: `SHIFT#0`, `SHIFT#1` (the "colour" jokers), `SWAP#0`, `SWAP#1` (the
"black" ones). Q and K are wild; an ace is 1 (decision 1).
"""

from __future__ import annotations

RANKS = ("A", "2", "3", "4", "5", "6", "7", "8", "9", "10", "Q", "K")
SUITS = ("S", "H", "D", "C")
WILD_RANKS = frozenset({"Q", "K"})
SHIFT, SWAP = "SHIFT", "SWAP"
JOKERS = tuple(f"{kind}#{d}" for kind in (SHIFT, SWAP) for d in (0, 1))
NUMBER_CARDS = tuple(f"{r}{s}#{d}" for d in (0, 1) for s in SUITS for r in RANKS)
DECK = NUMBER_CARDS + JOKERS  # 96 + 4 = 100
TOP = 10  # a build pile that reaches 10 is set aside
JOKER_NAMES = {SHIFT: "colour joker (shift)", SWAP: "black joker (swap)"}  # decision 12
SUIT_SIGNS = {"S": "♠", "H": "♥", "D": "♦", "C": "♣"}


def face(card: str) -> str:
    """`7H#1` -> `7H`; `SHIFT#0` -> `SHIFT`."""
    return card.split("#", 1)[0]


def is_joker(card: str) -> bool:
    return card.startswith((SHIFT, SWAP))


def joker_kind(card: str) -> str | None:
    """"SHIFT" or "SWAP" for a joker, else None."""
    return face(card) if is_joker(card) else None


def rank(card: str) -> str:
    return face(card)[:-1]


def is_wild(card: str) -> bool:
    return not is_joker(card) and rank(card) in WILD_RANKS


def number(card: str) -> int | None:
    """The number a card stands for by itself: A = 1 … 10; None for a wild card or a joker."""
    if is_joker(card) or is_wild(card):
        return None
    r = rank(card)
    return 1 if r == "A" else int(r)


def fits(card: str, needed: int) -> bool:
    """Can this card go where `needed` is the next number (wild cards stand for any)?"""
    return not is_joker(card) and (is_wild(card) or number(card) == needed)


def card_label(card: str) -> str:
    """What a player reads: `7♥`, `Q♣`, `colour joker (shift)`, `black joker (swap)`."""
    kind = joker_kind(card)
    if kind:
        return JOKER_NAMES[kind]
    f = face(card)
    return f[:-1] + SUIT_SIGNS[f[-1]]


def parse_face(text: str) -> str | None:
    """A typed card (`7h`, `10S`, `q♣`, `shift`, `swap`) as a face (`7H`, `SHIFT`), or None."""
    t = text.strip().upper()
    for letter, sign in SUIT_SIGNS.items():
        t = t.replace(sign, letter)
    if t in (SHIFT, SWAP):
        return t
    if t == "1" or (t[:-1] == "1" and len(t) == 2):
        t = "A" + t[1:]
    if len(t) >= 2 and t[:-1] in RANKS and t[-1] in SUITS:
        return t
    return None
