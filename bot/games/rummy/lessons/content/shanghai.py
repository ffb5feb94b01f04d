"""The Shanghai lesson: only what differs (data; tests/test_lessons.py checks it)."""

from __future__ import annotations

from typing import Any

from ..model import Goal, Lesson, Position, Step
from ..words import N_
from .common import _at


def lesson() -> Lesson:
    def at(hand: str, **spec: Any) -> Position:
        return _at("shanghai", hand, **spec)

    steps = (
        Step(
            "ace",
            N_("Ace low only"),
            N_(
                "Shanghai deals 10 cards each, in batches of 3, 3, 3 and 1. The ace is low only: "
                "A-2-3 is a run; Q-K-A and K-A-2 are not. Lay the run with an ace."
            ),
            Goal("lay", places="AD"),
            at("AD 2D 3D QC KC AC"),
            outline="AD 2D 3D",
            demo=("lay AD 2D 3D", "done"),
            tools=("new",),
            nudges={"ace": N_("Here the ace sits below the 2 only: {AD 2D 3D}.")},
            success=N_("{AD 2D 3D}: the ace is low."),
        ),
        Step(
            "draw",
            N_("Must lay: draw until you can"),
            N_(
                "As in Manipulation you must lay if you can, and you draw one card at a time until "
                "you can. Nothing fits: draw, then lay."
            ),
            Goal("lay"),
            at("KD 9C", table=("2H 3H 4H",), stock_top="JS 5H"),
            demo=("draw", "draw", "add A 5H", "done"),
            allow=frozenset({"drew"}),
            nudges={"nothing_added": N_("Nothing of yours fits yet: tap Draw.")},
            success=N_("Drawing doesn't end the turn; laying does."),
        ),
        Step(
            "out",
            N_("One point a card"),
            N_(
                "When a player goes out, every other player takes 1 point for each card left "
                "in hand. Go out: add {8C 9C} to group A."
            ),
            Goal("lay", out=True),
            at("8C 9C", table=("5C 6C 7C",), cpu="KS KD 3C 8D"),
            outline="8C 9C",
            outline_groups=(0,),
            demo=("add A 8C 9C", "done"),
            nudges={"legal_other": N_("Place both cards to go out.")},
            success=N_("The computer takes 4 points: one for each card it holds."),
        ),
        Step(
            "finish",
            N_("No fixed end"),
            N_(
                "Shanghai has no target: after each round the players choose ▶ Next round or "
                "■ Finish, and the lowest total leads. Tap ■ Finish to end the game here."
            ),
            Goal("finish"),
            None,
            demo=("finish",),
            nudges={"legal_other": N_("That starts another round. In this lesson, tap ■ Finish.")},
            success=N_("Game over: the lowest total wins."),
        ),
    )
    return Lesson(
        "shanghai",
        N_("Shanghai"),
        N_("Manipulation's must-lay turns, with a low ace and 1 point a card."),
        steps,
        N_("That's Shanghai. Try a real game!"),
    )
