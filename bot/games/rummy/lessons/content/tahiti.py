"""The Tahiti lesson: only what differs (data; tests/test_lessons.py checks it)."""

from __future__ import annotations

from typing import Any

from ..model import Goal, Lesson, Position, Step
from ..words import N_
from .common import _at


def lesson() -> Lesson:
    def at(hand: str, **spec: Any) -> Position:
        return _at("tahiti", hand, **spec)

    steps = (
        Step(
            "singles",
            N_("Singles"),
            N_(
                "Tahiti deals 5 cards each, plus 4 cards face up on the table: the singles. "
                "You may use them in your groups; an unused single stays alone and never goes "
                "into a hand. Lay {6H 7H} with the single {5H} (select all three, then New "
                "group)."
            ),
            Goal("lay", places="6H 7H", group="5H 6H 7H"),
            at("6H 7H 2C", singles="5H KC 9D 2S"),
            outline="5H 6H 7H",
            demo=("lay 5H 6H 7H", "done"),
            tools=("new",),
            nudges={"too_few": N_("Add the single {5H} to make three: {5H 6H 7H}.")},
            success=N_("The single {5H} joined your run; the other singles wait."),
        ),
        Step(
            "onejoker",
            N_("One joker per group"),
            N_(
                "Tahiti has 4 jokers, but a group may hold only one. Lay {9S 9H} with one "
                "joker; Done asks which nine it is."
            ),
            Goal("lay", group="9S 9H *"),
            at("9S 9H * * 3C"),
            outline="9S 9H *",
            demo=("lay 9S 9H *", "done", "choose A 9C"),
            tools=("new",),
            nudges={"two_jokers": N_("One joker per group: lay {9S 9H} with a single joker.")},
            success=N_("One joker, one group."),
        ),
        Step(
            "locked",
            N_("A joker locks its group"),
            N_(
                "A group that holds a joker can't be rearranged: none of its cards can move; "
                "you may only add cards from your hand. Add {9H 10H} to group A."
            ),
            Goal("lay", places="9H 10H"),
            at("9H 10H 4S", table=("5H *6H 7H 8H",)),
            outline="9H 10H",
            outline_groups=(0,),
            demo=("add A 9H 10H", "done"),
            tools=("new", "add", "take"),
            nudges={
                "locked": N_(
                    "{8H} can't leave group A while its joker is there. Add {9H 10H} to A from "
                    "your hand."
                ),
                "legal_other": N_("Add both {9H} and {10H} to group A."),
            },
            success=N_("Adding from your hand is always allowed."),
        ),
        Step(
            "free",
            N_("Freeing the joker"),
            N_(
                "To free a joker, lay the real card it stands for from your hand — never a "
                "card already on the table. Then the group may change, and the joker must take "
                "a new card at once. Add your {6H} to group A: Done asks whether the joker is "
                "{4H} or {8H}."
            ),
            Goal("lay", places="6H"),
            at("6H 9S 9D", table=("5H *6H 7H",)),
            outline="6H",
            outline_groups=(0,),
            demo=("add A 6H", "done", "choose A 8H"),
            tools=("new", "add", "take"),
            nudges={
                "too_few": N_(
                    "Without the real {6H} from your hand the joker is stuck in group A: add "
                    "{6H} to A."
                ),
                "loose": N_("A freed joker never goes to a hand: put it back into a group."),
            },
            success=N_("The joker is free and fixed anew."),
        ),
        Step(
            "score",
            N_("Penalty points"),
            N_(
                "Tahiti is one round: whoever empties their hand wins; the others pay joker "
                "30, ace 11, face card 10, other cards face value. Go out: add {KS} to group A."
            ),
            Goal("lay", out=True),
            at("KS", table=("10S JS QS",), cpu="AH * 9C"),
            outline="KS",
            outline_groups=(0,),
            demo=("add A KS", "done"),
            success=N_("You won. The computer pays 11 + 30 + 9 = 50 points."),
        ),
    )
    return Lesson(
        "tahiti",
        N_("Tahiti"),
        N_("Singles on the table, one joker per group, and jokers that lock their group."),
        steps,
        N_("That's Tahiti. Try a real game!"),
    )
