"""A game of Build-to-Ten as plain data: where every one of the 100 cards is, whose turn it is.

Orders, so that every list reads the same way: a personal stock's index 0 is its face-up card
(the rest face down beneath it); the general stock draws from its end; a build or discard pile
lists its cards bottom to top. A build pile's value is its length (it holds A, 2, … in order;
a wild card keeps the number it stood for — decision 3).

Places stay put (decision 11): `builds` always holds the 4 build-pile places and each seat's
`discards` its 4 discard-pile places; an empty list is an empty place (a completed build pile,
a discard pile played empty, one never opened), and no pile ever moves to another place.
"""

from __future__ import annotations

import json
from dataclasses import dataclass, field
from typing import Any

HAND_SIZE = 5
MAX_BUILD_PILES = 4
MAX_DISCARD_PILES = 4
STOCK_SIZES = {2: 20, 3: 15, 4: 10}


@dataclass
class BuildState:
    players: int
    seed: int
    stocks: list[list[str]]  # personal stocks, [0] face up
    hands: list[list[str]]
    discards: list[list[list[str]]]  # per seat, 4 places, bottom -> top
    builds: list[list[str]] = field(default_factory=list)  # 4 places, bottom -> top
    general: list[str] = field(default_factory=list)  # the general stock, drawn from the end
    aside: list[str] = field(default_factory=list)  # completed piles and used jokers
    turn: int = 0
    version: int = 0
    rebuilds: int = 0  # how often the general stock was rebuilt (seeds each shuffle)
    idle_turns: int = 0  # turns in a row with no build play and nothing to refill from
    built_this_turn: bool = False
    over: bool = False
    stuck: bool = False  # ended by decision 8, not by an empty stock
    winners: list[int] = field(default_factory=list)
    first: int = 0  # who started (decision 2)

    def __post_init__(self) -> None:
        # a state saved before places stayed put listed only the open piles, in order
        self.builds = with_places(self.builds, MAX_BUILD_PILES)
        self.discards = [with_places(p, MAX_DISCARD_PILES) for p in self.discards]

    def face_up(self, seat: int) -> str | None:
        stock = self.stocks[seat]
        return stock[0] if stock else None

    def needed(self, pile: int) -> int:
        """The next number build pile `pile` takes (1 on an empty place)."""
        return len(self.builds[pile]) + 1

    def copy(self) -> BuildState:
        return BuildState(
            self.players, self.seed,
            [list(s) for s in self.stocks], [list(h) for h in self.hands],
            [[list(p) for p in piles] for piles in self.discards],
            [list(b) for b in self.builds], list(self.general), list(self.aside),
            self.turn, self.version, self.rebuilds, self.idle_turns, self.built_this_turn,
            self.over, self.stuck, list(self.winners), self.first,
        )

    def to_dict(self) -> dict[str, Any]:
        c = self.copy()
        return {k: getattr(c, k) for k in self.__dataclass_fields__}

    @classmethod
    def from_dict(cls, data: dict[str, Any]) -> BuildState:
        # "actions": the host's log of the moves since its last save, kept beside the state
        # (bot/games/buildten/host.py), not part of the position
        fields = {k: v for k, v in data.items() if k != "actions"}
        return cls(**fields).copy()  # the copy: nothing shared with the dict

    def to_json(self) -> str:
        return json.dumps(self.to_dict(), sort_keys=True, separators=(",", ":"))

    @classmethod
    def from_json(cls, text: str) -> BuildState:
        return cls.from_dict(json.loads(text))


def with_places(piles: list[list[str]], places: int) -> list[list[str]]:
    """`piles` with empty places added up to `places` (the piles themselves not copied)."""
    if len(piles) > places:
        raise ValueError(f"{len(piles)} piles for {places} places")
    return [*piles, *([] for _ in range(places - len(piles)))]


def free_place(piles: list[list[str]] | tuple[tuple[str, ...], ...]) -> int | None:
    """The first empty place, where a new pile opens (None: all 4 are taken)."""
    return next((i for i, p in enumerate(piles) if not p), None)
