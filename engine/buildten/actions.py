"""What a seat can do on its turn: small values, JSON-safe (`to_dict` / `action_from_dict`).

Cards are named by their token (unique in the game), so an action says exactly which card it
moves and the engine finds it among the seat's sources.
"""

from __future__ import annotations

from dataclasses import asdict, dataclass
from typing import Any

NEW_PILE = -1  # a Play or Discard onto a pile not there yet


@dataclass(frozen=True)
class Play:
    """A card from my face-up stock card, my hand or a discard top onto build pile `pile`
    (NEW_PILE: start one, with an A or a wild card)."""

    seat: int
    card: str
    pile: int

    kind = "play"


@dataclass(frozen=True)
class Joker:
    """A shift or swap joker from my hand, aimed at seat `target`."""

    seat: int
    card: str
    target: int

    kind = "joker"


@dataclass(frozen=True)
class Discard:
    """End the turn: a hand card onto my discard pile `pile` (NEW_PILE: a new one, up to 4)."""

    seat: int
    card: str
    pile: int

    kind = "discard"


@dataclass(frozen=True)
class Pass:
    """End the turn without a discard: only with an empty hand (decision 6)."""

    seat: int

    kind = "pass"


Action = Play | Joker | Discard | Pass
_KINDS: dict[str, type] = {"play": Play, "joker": Joker, "discard": Discard, "pass": Pass}


def to_dict(action: Action) -> dict[str, Any]:
    return {"kind": action.kind, **asdict(action)}


def action_from_dict(data: dict[str, Any]) -> Action:
    fields = {k: v for k, v in data.items() if k != "kind"}
    return _KINDS[data["kind"]](**fields)
