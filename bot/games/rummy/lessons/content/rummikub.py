"""The Rummikub lesson: the initial meld, adding and rearranging, taking a joker (data;
tests/test_lessons.py checks it). Tiles are written as the players type them: 7R, 13O, *."""

from __future__ import annotations

from typing import Any

from ..model import Goal, Lesson, Position, Step

try:  # the lessons' msgids (lessons/words.py, where lessons are shown translated)
    from ..words import N_  # type: ignore[import-not-found]
except ImportError:  # before it: the English text itself, marked for `make locale`

    def N_(message: str) -> str:
        return message


CPU = "1K 4R 7B 10O 13K"  # the computer's rack: no combination, it draws


def lesson() -> Lesson:
    def at(rack: str, **spec: Any) -> Position:
        return Position("rummikub", (rack, CPU), **spec)

    steps = (
        Step(
            "meld",
            N_("The initial meld"),
            N_(
                "Rummikub is played with tiles: a number 1–13 in a colour — ⬛ black, 🟥 red, "
                "🟦 blue, 🟧 orange (typed K, R, B, O). Before you may touch the table, lay an "
                "initial meld: new combinations from your own rack worth at least 30, a tile "
                "counting its number. 10-11-12 red would be 33. 3-4-5 black with three 6s is "
                "exactly 30. Three 2s and three 3s are only 15. Lay {3K 4K 5K} and {6R 6B 6O}."
            ),
            Goal("lay", places="3K 4K 5K 6R 6B 6O"),
            at("2K 2R 2B 3R 3B 3O 3K 4K 5K 6R 6B 6O 9O"),
            outline="3K 4K 5K 6R 6B 6O",
            demo=("lay 3K 4K 5K", "lay 6R 6B 6O", "done"),
            tools=("new",),
            nudges={
                "illegal": N_(
                    "Three 2s and three 3s make only 15, and one run alone is too little: lay "
                    "{3K 4K 5K} and {6R 6B 6O} together — exactly 30."
                ),
                "legal_other": N_("Lay both: {3K 4K 5K} and {6R 6B 6O}."),
            },
            success=N_(
                "3 + 4 + 5 + 6 + 6 + 6 = 30: your initial meld is down. From now on you "
                "may add to the table and rearrange it."
            ),
        ),
        Step(
            "rearrange",
            N_("Adding and rearranging"),
            N_(
                "The table holds the run {3R 4R 5R 6R} and three 9s. Your {6B} and {6K} can't "
                "go anywhere alone — but the run can spare its 6: {3R 4R 5R} is still a run. "
                "Take the {6R} out of group A and lay it with {6B 6K}."
            ),
            Goal("lay", places="6B 6K", group="6R 6B 6K"),
            at("6B 6K 1O", table=("3R 4R 5R 6R", "9K 9R 9B"), first_lay_done=True),
            outline="6B 6K",
            outline_groups=(0,),
            demo=("take A 6R", "lay 6R 6B 6K", "done"),
            tools=("new", "add", "take"),
            nudges={
                "too_few": N_("{6B 6K} alone are only two: take the {6R} from group A to make "
                              "three."),
                "loose": N_("The {6R} you took must go into a combination: lay it with {6B 6K}."),
                "legal_other": N_("Make the group {6R 6B 6K}."),
            },
            success=N_(
                "{3R 4R 5R} and {6R 6B 6K}: two tiles from your rack, and every combination "
                "still valid."
            ),
        ),
        Step(
            "split",
            N_("Splitting a run"),
            N_(
                "The table holds the run {2B} to {7B}. Your {5R} and {5K} want the {5B} — but "
                "taking it from the middle leaves {2B 3B 4B} and {6B 7B}, and two tiles are no "
                "run. Your {8B} makes it work: {6B 7B 8B}. Split group A after its 3rd tile, "
                "take the {5B}, lay {5B 5R 5K}, and add {8B} to the {6B 7B}."
            ),
            Goal("lay", places="5R 5K 8B", group="6B 7B 8B"),
            at("5R 5K 8B 1O", table=("2B 3B 4B 5B 6B 7B",), first_lay_done=True),
            outline="5R 5K 8B",
            outline_groups=(0,),
            demo=("split A 3", "take B 5B", "lay 5B 5R 5K", "add B 8B", "done"),
            tools=("new", "add", "take", "split"),
            nudges={
                "too_few": N_("{6B 7B} alone are only two tiles: add your {8B} to make {6B 7B "
                              "8B}."),
                "not_meld": N_("A run needs its numbers in order: split group A after {4B} "
                               "first."),
                "legal_other": N_("Lay {5B 5R 5K} and make {6B 7B 8B}."),
            },
            success=N_(
                "{2B 3B 4B} · {5B 5R 5K} · {6B 7B 8B}: the {8B} made the rest of the run long "
                "enough."
            ),
        ),
        Step(
            "joker",
            N_("Taking a joker"),
            N_(
                "A joker stands for the tile it replaces — in group A, {7K}. After your "
                "initial meld you may take it by laying from your rack a tile it could be: in "
                "a group of three, either missing colour, so {7K} or {7O}; a tile already on "
                "the table never frees it. The freed joker "
                "never goes to your rack: in this same move it goes into a new combination "
                "with at least two of your tiles. Take the joker from A, add your {7O} to A, "
                "and lay the joker with {12O 13O}."
            ),
            Goal("lay", places="7O 12O 13O", group="7R 7B 7O", contains="* 12O 13O"),
            at("7O 12O 13O 2K", table=("*7K 7R 7B", "1B 2B 3B"), first_lay_done=True),
            outline="7O 12O 13O",
            outline_groups=(0,),
            demo=("take A *", "add A 7O", "lay * 12O 13O", "done"),
            tools=("new", "add", "take"),
            nudges={
                "too_few": N_(
                    "Group A needs a third 7 when the joker leaves: add your {7O} to it — that "
                    "is what frees the joker."
                ),
                "illegal": N_(
                    "A freed joker must go into a new combination with two tiles from your "
                    "rack: lay it with {12O 13O}."
                ),
                "loose": N_("The joker you took must go into a combination: lay it with {12O "
                            "13O}."),
                "legal_other": N_("Free the joker with {7O} and lay it with {12O 13O}."),
            },
            success=N_("{7R 7B 7O}, and the joker is now {11O} in {11O 12O 13O}."),
        ),
    )
    return Lesson(
        "rummikub",
        N_("Rummikub"),
        N_("Tiles instead of cards: an initial meld of 30, rearranging the table, taking a joker."),
        steps,
        N_("That's Rummikub. Whoever lays their last tile wins the round — try a real game!"),
    )
