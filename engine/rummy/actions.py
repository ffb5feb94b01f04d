"""Actions: small values a seat sends to the game, and the one error for a refused action
(`IllegalAction`: a sentence a player can read plus a code from engine/rummy/reasons.py).

Every action carries its seat. Cards in actions are matched by face against what the seat may
use (so `parse_cards("7H")` names either 7H in a hand), jokers by their designation.
"""

from __future__ import annotations

from dataclasses import dataclass, field, fields
from typing import Any, ClassVar

from engine.cards import Card
from engine.errors import IllegalAction

from .tiles import piece_from_token


class JokerChoiceNeeded(IllegalAction):
    """Done was pressed but a joker could stand for more than one card: ask the player."""

    def __init__(self, group: int, options: list[tuple[str, ...]], message: str) -> None:
        super().__init__(message, code="joker_choice_needed", group=group, options=options)
        self.group = group
        self.options = options


@dataclass(frozen=True)
class Action:
    seat: int
    kind: ClassVar[str] = ""

    def to_dict(self) -> dict[str, Any]:
        out: dict[str, Any] = {"kind": self.kind}
        for f in fields(self):
            out[f.name] = _encode(getattr(self, f.name))
        return out


def _encode(value: Any) -> Any:
    if isinstance(value, Card):
        return value.token
    if isinstance(value, (list, tuple)):
        return [_encode(v) for v in value]
    if isinstance(value, dict):
        return {str(k): _encode(v) for k, v in value.items()}
    return value


@dataclass(frozen=True)
class Draw(Action):
    kind: ClassVar[str] = "draw"


@dataclass(frozen=True)
class Pass(Action):
    kind: ClassVar[str] = "pass"


@dataclass(frozen=True)
class Knock(Action):
    """Carousel: lay the draft (or `arrangement`) and end the round."""

    arrangement: tuple[tuple[Card, ...], ...] | None = None
    joker_choices: dict[int, tuple[str, ...]] = field(default_factory=dict)
    kind: ClassVar[str] = "knock"


@dataclass(frozen=True)
class Commit(Action):
    """Done: lay `arrangement` (the whole new table), or the seat's draft when it is None."""

    arrangement: tuple[tuple[Card, ...], ...] | None = None
    joker_choices: dict[int, tuple[str, ...]] = field(default_factory=dict)
    kind: ClassVar[str] = "commit"


@dataclass(frozen=True)
class GiveUp(Action):
    """Give up (+3): pressed twice, puts everything back and draws three."""

    kind: ClassVar[str] = "give_up"


@dataclass(frozen=True)
class TimeUp(Action):
    """The turn timer ran out (Rummikub's `turn_timer`; the platform keeps the clock)."""

    kind: ClassVar[str] = "time_up"


@dataclass(frozen=True)
class Reset(Action):
    kind: ClassVar[str] = "reset"


@dataclass(frozen=True)
class Place(Action):
    """Put cards (from the hand, the loose area or Tahiti's singles) into a group (None = new)."""

    cards: tuple[Card, ...] = ()
    group: int | None = None
    kind: ClassVar[str] = "place"


@dataclass(frozen=True)
class Take(Action):
    """Take a card out of a draft group into the loose area (a hand card goes back to hand)."""

    group: int = 0
    card: Card | None = None
    kind: ClassVar[str] = "take"


@dataclass(frozen=True)
class Move(Action):
    """Move cards from one draft group to another (None = a new group)."""

    cards: tuple[Card, ...] = ()
    source: int = 0
    target: int | None = None
    kind: ClassVar[str] = "move"


@dataclass(frozen=True)
class Split(Action):
    """Split a draft group before its `at`-th card (1-based count of cards kept on the left)."""

    group: int = 0
    at: int = 1
    kind: ClassVar[str] = "split"


@dataclass(frozen=True)
class SetDraft(Action):
    """Replace the draft by a whole arrangement (Auto-place, typed layouts)."""

    arrangement: tuple[tuple[Card, ...], ...] = ()
    kind: ClassVar[str] = "set_draft"


@dataclass(frozen=True)
class Hint(Action):
    kind: ClassVar[str] = "hint"


@dataclass(frozen=True)
class NextRound(Action):
    kind: ClassVar[str] = "next_round"


@dataclass(frozen=True)
class Finish(Action):
    """Shanghai: stop after this round; the lowest total wins."""

    kind: ClassVar[str] = "finish"


ACTION_TYPES: dict[str, type[Action]] = {
    cls.kind: cls
    for cls in (
        Draw,
        Pass,
        Knock,
        Commit,
        GiveUp,
        TimeUp,
        Reset,
        Place,
        Take,
        Move,
        Split,
        SetDraft,
        Hint,
        NextRound,
        Finish,
    )
}


# The one-word turn actions of typed moves (the chats' `/done`, the terminal, the lessons' demos).
WORD_ACTIONS: dict[str, type[Action]] = {
    "done": Commit,
    "reset": Reset,
    "draw": Draw,
    "pass": Pass,
    "knock": Knock,
    "giveup": GiveUp,
    "hint": Hint,
}
# Every one-word action: those above, and between rounds `next` and `finish` (the lessons' demos).
TYPED_WORDS: dict[str, type[Action]] = {**WORD_ACTIONS, "next": NextRound, "finish": Finish}


def action_from_dict(data: dict[str, Any]) -> Action:
    cls = ACTION_TYPES[data["kind"]]
    kwargs: dict[str, Any] = {}
    for f in fields(cls):
        if f.name not in data:
            continue
        value = data[f.name]
        if f.name in ("cards",):
            value = tuple(piece_from_token(t) for t in value)
        elif f.name == "card":
            value = piece_from_token(value) if value else None
        elif f.name == "arrangement":
            value = (
                None
                if value is None
                else tuple(tuple(piece_from_token(t) for t in g) for g in value)
            )
        elif f.name == "joker_choices":
            value = {int(k): tuple(v) for k, v in value.items()}
        kwargs[f.name] = value
    return cls(**kwargs)
