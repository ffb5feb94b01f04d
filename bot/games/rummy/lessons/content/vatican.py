"""The Vatican lesson: only what differs (data; tests/test_lessons.py checks it)."""

from __future__ import annotations

from typing import Any

from ..model import Goal, Lesson, Position, Step
from ..words import N_
from .common import _at


def lesson() -> Lesson:
    def at(hand: str, **spec: Any) -> Position:
        return _at("vatican", hand, **spec)

    steps = (
        Step(
            "first",
            N_("The first lay"),
            N_(
                "Vatican deals 13 cards each, with jokers. The first time you lay, you must "
                "lay from your hand a run of three cards of one suit (a joker doesn't count). "
                "After that — in the same turn too — anything goes. Lay {6H 7H 8H} and the set "
                "{5H 5S 5D} together."
            ),
            Goal("lay", places="6H 7H 8H 5H 5S 5D"),
            at("5H 5S 5D 6H 7H 8H 2C"),
            outline="6H 7H 8H",
            demo=("lay 6H 7H 8H", "lay 5H 5S 5D", "done"),
            tools=("new",),
            nudges={
                "first_lay": N_("A set doesn't open the game: include the run {6H 7H 8H}."),
                "legal_other": N_("Good — now lay both groups together: {6H 7H 8H} and {5H 5S "
                                  "5D}."),
            },
            success=N_("Your first lay is done; from now on you may add and rearrange freely."),
        ),
        Step(
            "draw",
            N_("Draw or lay, never both"),
            N_(
                "On your turn you draw one card or lay cards, never both. Nothing fits: tap Draw — "
                "your turn ends."
            ),
            Goal("draw"),
            at("KD 2H 9C", table=("5S 6S 7S",), first_lay_done=True, cpu="8S 9S QC 3D"),
            demo=("draw",),
            nudges={"nothing_added": N_("Nothing of yours fits: tap Draw.")},
            success=N_("You drew, and the turn passed on."),
            computers=True,
        ),
        Step(
            "stays",
            N_("A joker stays beside its cards"),
            N_(
                "A joker on the table can't move to another group until the real card it "
                "stands for is on the table. It may stay when its group changes, as long as a "
                "card that was beside it stays beside it. Add {3C 4C} to group A: the joker "
                "keeps {6C} beside it."
            ),
            Goal("lay", places="3C 4C"),
            at("3C 4C 2S", table=("*5C 6C 7C 8C",), first_lay_done=True),
            outline="3C 4C",
            outline_groups=(0,),
            demo=("add A 3C 4C", "done"),
            tools=("new", "add", "take"),
            nudges={
                "joker_immobile": N_(
                    "The joker can't leave {6C} while the real {5C} is not on the table. Add "
                    "{3C 4C} to group A instead."
                ),
                "legal_other": N_("Add both {3C} and {4C} to group A."),
            },
            success=N_("{3C 4C * 6C 7C 8C}: the joker never left its neighbour."),
        ),
        Step(
            "free",
            N_("Freeing the joker"),
            N_(
                "Once the real {5C} is on the table the joker is free — and must go into a "
                "group as a new card at once; it never goes to a hand. Add your {5C} to group "
                "A: Done asks whether the joker is now {3C} or {8C}."
            ),
            Goal("lay", places="5C"),
            at("5C 9D 10D", table=("4C *5C 6C 7C",), first_lay_done=True),
            outline="5C",
            outline_groups=(0,),
            demo=("add A 5C", "done", "choose A 8C"),
            tools=("new", "add", "take"),
            nudges={
                "loose": N_("A freed joker can never go to your hand: put it back into a group."),
            },
            success=N_("The real {5C} is in, and the joker found a new place."),
        ),
    )
    return Lesson(
        "vatican",
        N_("Vatican"),
        N_("A first lay of three, draw-or-lay turns, and jokers that stay put."),
        steps,
        N_("That's Vatican. Try a real game!"),
    )
