"""A playing card's name read aloud ("7 of hearts", "queen of spades"): the words every card
game's wing shares (a screen reader's label on the web table), as engine/cards.py is the card
every card game shares."""

from __future__ import annotations

from . import N_, _, fill

RANKS = {"A": N_("ace"), "J": N_("jack"), "Q": N_("queen"), "K": N_("king")}
SUITS = {"H": N_("{rank} of hearts"), "D": N_("{rank} of diamonds"),
         "C": N_("{rank} of clubs"), "S": N_("{rank} of spades")}


def card_name(face: str) -> str:
    """A playing card's name in the current language from its face (`7H`: "7 of hearts",
    `QS`: "queen of spades"); a face it can't read: the face itself."""
    rank, mark = face[:-1], face[-1:]
    if mark in SUITS and rank:
        return fill(_(SUITS[mark]), rank=_(RANKS[rank]) if rank in RANKS else rank)
    return face
