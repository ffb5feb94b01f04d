"""The Machiavelli lesson: only what differs (data; tests/test_lessons.py checks it)."""

from __future__ import annotations

from typing import Any

from ..model import Goal, Lesson, Position, Step
from ..words import N_
from .common import _at


def lesson() -> Lesson:
    def at(hand: str, **spec: Any) -> Position:
        return _at("machiavelli", hand, **spec)

    steps = (
        Step(
            "ace",
            N_("Ace high or low"),
            N_(
                "Machiavelli deals 13 cards each. An ace plays high or low, never both: A-2-3 and "
                "Q-K-A are runs, K-A-2 is not. Lay a run with an ace in it."
            ),
            Goal("lay", places_any="AH AC"),
            at("KH AH 2H 3H QC KC AC"),
            outline="AH 2H 3H",
            demo=("lay AH 2H 3H", "done"),
            tools=("new",),
            nudges={
                "ace": N_("K-A-2 turns the corner, which no run may do: try {AH 2H 3H} or {QC "
                          "KC AC}."),
                "legal_other": N_("Use one of your aces: {AH 2H 3H} or {QC KC AC}."),
            },
            success=N_("An ace at one end of a run — low here, high in Q-K-A."),
        ),
        Step(
            "draw",
            N_("Play or draw"),
            N_(
                "On your turn you either play cards or draw one card — and drawing ends your turn. "
                "Nothing fits: tap Draw and watch the computer take its turn."
            ),
            Goal("draw"),
            at("KD 2H 9C", table=("5S 6S 7S",), stock_top="4H", cpu="8S 9S QC 3D"),
            demo=("draw",),
            nudges={"nothing_added": N_("Nothing of yours fits: tap Draw.")},
            success=N_("You drew one card and your turn ended."),
            computers=True,
        ),
        Step(
            "giveup",
            N_("Give up (+3)"),
            N_(
                "With the option Unfinished move: give back, draw 3, a move you start but can't "
                "finish costs three cards. Split group A (Split ▸) — Reset has now become Give up "
                "(+3). This move can't be finished, so tap Give up (+3) twice: the table goes back "
                "and you draw three cards."
            ),
            Goal("give_up"),
            at(
                "2C KS",
                table=("5H 6H 7H 8H 9H",),
                options={"unfinished_move": "give_back_draw_3"},
                stock_top="3S 4S 5S",
            ),
            outline_groups=(0,),
            demo=("split A 3", "giveup", "giveup"),
            tools=("new", "add", "split"),
            nudges={
                "reset_is_give_up": N_(
                    "With this option there is no free Reset once the table "
                    "changed: tap Give up (+3)."
                ),
                "give_up_first": N_(
                    "You can't draw in the middle of a move: finish it or tap Give up (+3)."
                ),
                "nothing_to_give_up": N_("Change the table first: split group A."),
            },
            success=N_(
                "Everything went back and you drew three cards; your turn is over. With "
                "the default option (Reset, no penalty) Reset is always free."
            ),
        ),
        Step(
            "out",
            N_("Going out wins"),
            N_(
                "Machiavelli is a single round: whoever empties their hand wins, and every card "
                "left in another hand counts 1 point. Go out: add all three cards to group A."
            ),
            Goal("lay", out=True),
            at("QD KD AD", table=("9D 10D JD",), cpu="2S 5C 7H 9S JC"),
            outline="QD KD AD",
            outline_groups=(0,),
            demo=("add A QD KD AD", "done"),
            nudges={
                "legal_other": N_("You keep a card: add all three — {AD} may sit above {KD}."),
            },
            success=N_("You won: the computer's five cards count 5 points."),
        ),
    )
    return Lesson(
        "machiavelli",
        N_("Machiavelli"),
        N_("Manipulation's table, with 13 cards, a two-way ace, and play-or-draw turns."),
        steps,
        N_("That's what Machiavelli changes. Try a real game!"),
    )
