"""How a piece (card or tile) is marked and how big it is drawn: shared by the card sprites
(render/sprites.py) and the tile sprites (render/tiles.py)."""

from __future__ import annotations

from typing import NamedTuple


class Look(NamedTuple):
    """How a card is marked. Marks live inside the card's box, so layouts never move."""

    placed: bool = False  # from your hand, now in the draft: cream face and a dog-ear
    selected: bool = False  # thick blue border
    hint: bool = False  # thick cyan border


class Size(NamedTuple):
    w: int
    h: int


TABLE_CARD = Size(48, 68)
HAND_CARD = Size(56, 80)
PLAIN = Look()
