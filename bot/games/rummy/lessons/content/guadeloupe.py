"""The Guadeloupe lesson: only what differs (data; tests/test_lessons.py checks it)."""

from __future__ import annotations

from typing import Any

from ..model import Goal, Lesson, Position, Step
from ..words import N_
from .common import _at


def lesson() -> Lesson:
    def at(hand: str, **spec: Any) -> Position:
        return _at("guadeloupe", hand, **spec)

    steps = (
        Step(
            "drawtwo",
            N_("Play, or draw two"),
            N_(
                "Guadeloupe deals 5 cards each. On your turn you play cards or draw TWO cards. "
                "Nothing fits: tap Draw."
            ),
            Goal("draw"),
            at("KD 2H 9C", table=("5S 6S 7S",), stock_top="4H JC", cpu="8S 9S QC"),
            demo=("draw",),
            nudges={"nothing_added": N_("Nothing of yours fits: tap Draw.")},
            success=N_("Two cards, and your turn is over."),
            computers=True,
        ),
        Step(
            "playone",
            N_("Play, then draw one"),
            N_(
                "If you play cards without emptying your hand, you draw ONE card at the end of "
                "your turn. Add {8S 9S} to group A."
            ),
            Goal("lay", places="8S 9S"),
            at("8S 9S KD 2H", table=("5S 6S 7S",), stock_top="3C"),
            outline="8S 9S",
            outline_groups=(0,),
            demo=("add A 8S 9S", "done"),
            nudges={"legal_other": N_("Add both {8S} and {9S} to group A.")},
            success=N_("You laid two cards and drew one ({3C}) to end your turn."),
        ),
        Step(
            "ace",
            N_("Ace high or low — and going out"),
            N_(
                "An ace plays high or low, never both: A-2-3 and Q-K-A are runs, K-A-2 is not. "
                "Go out: lay {AH 2H 3H} as a new group. Nobody draws after going out."
            ),
            Goal("lay", out=True),
            at("AH 2H 3H", table=("JH QH KH",)),
            outline="AH 2H 3H",
            demo=("lay AH 2H 3H", "done"),
            nudges={
                "ace": N_(
                    "J-Q-K-A-2-3 would put the ace in the middle. Keep it at one end: {AH 2H "
                    "3H} as a new group."
                ),
                "legal_other": N_(
                    "Legal — but {2H 3H} stay in your hand. Lay {AH 2H 3H} together to go out."
                ),
            },
            success=N_("You went out and won the round."),
        ),
    )
    return Lesson(
        "guadeloupe",
        N_("Guadeloupe"),
        N_("Five cards, draw two — or play and draw one."),
        steps,
        N_("That's Guadeloupe. Try a real game!"),
    )
