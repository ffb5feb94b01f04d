"""The Guadeloupe lesson: only what differs (data; tests/test_lessons.py checks it)."""

from __future__ import annotations

from typing import Any

from ..model import Goal, Lesson, Position, Step
from .common import _at


def lesson() -> Lesson:
    def at(hand: str, **spec: Any) -> Position:
        return _at("guadeloupe", hand, **spec)

    steps = (
        Step(
            "drawtwo",
            "Play, or draw two",
            "Guadeloupe deals 5 cards each. On your turn you play cards or draw TWO cards. "
            "Nothing fits: tap Draw.",
            Goal("draw"),
            at("KD 2H 9C", table=("5S 6S 7S",), stock_top="4H JC", cpu="8S 9S QC"),
            demo=("draw",),
            nudges={"nothing_added": "Nothing of yours fits: tap Draw."},
            success="Two cards, and your turn is over.",
            computers=True,
        ),
        Step(
            "playone",
            "Play, then draw one",
            "If you play cards without emptying your hand, you draw ONE card at the end of your "
            "turn. Add 8♠ 9♠ to group A.",
            Goal("lay", places="8S 9S"),
            at("8S 9S KD 2H", table=("5S 6S 7S",), stock_top="3C"),
            outline="8S 9S",
            outline_groups=(0,),
            demo=("add A 8S 9S", "done"),
            nudges={"legal_other": "Add both 8♠ and 9♠ to group A."},
            success="You laid two cards and drew one (3♣) to end your turn.",
        ),
        Step(
            "ace",
            "Ace high or low — and going out",
            "An ace plays high or low, never both: A-2-3 and Q-K-A are runs, K-A-2 is not. "
            "Go out: lay A♥ 2♥ 3♥ as a new group. Nobody draws after going out.",
            Goal("lay", out=True),
            at("AH 2H 3H", table=("JH QH KH",)),
            outline="AH 2H 3H",
            demo=("lay AH 2H 3H", "done"),
            nudges={
                "ace": "J-Q-K-A-2-3 would put the ace in the middle. Keep it at one end: "
                "A♥ 2♥ 3♥ as a new group.",
                "legal_other": "Legal — but 2♥ 3♥ stay in your hand. Lay A♥ 2♥ 3♥ together to "
                "go out.",
            },
            success="You went out and won the round.",
        ),
    )
    return Lesson(
        "guadeloupe",
        "Guadeloupe",
        "Five cards, draw two — or play and draw one.",
        steps,
        "That's Guadeloupe. Try a real game!",
    )
