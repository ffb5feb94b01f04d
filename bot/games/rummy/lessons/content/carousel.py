"""The Carousel lesson: only what differs (data; tests/test_lessons.py checks it)."""

from __future__ import annotations

from typing import Any

from ..model import Goal, Lesson, Position, Step
from ..words import N_
from .common import _at


def lesson() -> Lesson:
    def at(hand: str, *, cpu: str = "JS 3H 7D 10C", **spec: Any) -> Position:
        return _at("carousel", hand, cpu=cpu, **spec)  # two players: one deck, one joker

    steps = (
        Step(
            "drawfirst",
            N_("Always draw first"),
            N_(
                "Carousel deals 10 cards each and adds jokers. Every turn starts with a draw — "
                "even when you could lay. Tap Draw."
            ),
            Goal("draw"),
            at("9S 9H * 4C KC", stock_top="2D"),
            demo=("draw",),
            nudges={"draw_first": N_("In Carousel you always draw before laying: tap Draw.")},
            success=N_("Now you may lay cards — or draw again."),
        ),
        Step(
            "joker",
            N_("Jokers"),
            N_(
                "A joker stands for any card you choose, and keeps that card on the table. Lay "
                "{9S 9H *} as a new group: when more than one card fits, Done asks which one "
                "the joker is."
            ),
            Goal("lay", group="9S 9H *"),
            None,
            outline="9S 9H *",
            demo=("lay 9S 9H *", "done", "choose A 9C"),
            tools=("new",),
            nudges={
                "too_few": N_("A set needs three cards: {9S 9H} and the joker."),
                "legal_other": N_("Lay the nines with the joker: {9S 9H *}."),
            },
            success=N_("The joker is fixed as that nine until the real card comes to the table."),
        ),
        Step(
            "freed",
            N_("Freeing a joker"),
            N_(
                "You already drew this turn. The joker in group A stands for {6H}. Add your "
                "real {6H} and your {8H} to group A: the joker is freed and must take a new "
                "card at once — Done asks whether it is now {4H} or {9H}."
            ),
            Goal("lay", places="6H 8H"),
            at("6H 8H 2C", table=("5H *6H 7H",), stock_top="4D", setup=("draw",)),
            outline="6H 8H",
            outline_groups=(0,),
            demo=("add A 6H 8H", "done", "choose A 9H"),
            nudges={
                "legal_other": N_(
                    "That works, but the point is to free the joker: add your {6H} too."
                ),
                "loose": N_("A freed joker never goes to your hand: it must go back into a group."),
            },
            success=N_("The real {6H} took the joker's place and the joker took a new one."),
        ),
        Step(
            "three",
            N_("Up to three draws"),
            N_(
                "After your first draw you lay, or draw again; after the second, lay or draw a "
                "third — and the third card ends your turn without laying. Nothing fits: draw "
                "three times."
            ),
            Goal("turn_over"),
            at("KC QD 2S", stock_top="9D 4S 8C"),
            demo=("draw", "draw", "draw"),
            allow=frozenset({"drew"}),
            nudges={"nothing_added": N_("Nothing fits: tap Draw.")},
            success=N_("Three cards, and your turn is over."),
        ),
        Step(
            "knock",
            N_("Knocking"),
            N_(
                "Cards in hand count: joker 25, face card 10, ace 1, others face value. If "
                "laying after one or two draws leaves you 5 points or fewer, Draw becomes ✊ "
                "Knock: the round ends at once. You drew {AD}. Lay {5H 6H 7H} (New group) — "
                "{2C AD} are worth 3 — and tap ✊ Knock."
            ),
            Goal("knock"),
            at("5H 6H 7H 2C", stock_top="AD", cpu="KS KD 9C", setup=("draw",)),
            outline="5H 6H 7H",
            demo=("lay 5H 6H 7H", "knock"),
            tools=("new",),
            nudges={
                "legal_other": N_(
                    "You laid but didn't knock: with 3 points left, tap ✊ Knock instead of Done."
                ),
                "knock_limit": N_("Lay {5H 6H 7H} first: then only 3 points are left in your "
                                  "hand."),
            },
            success=N_(
                "You knocked with 3 points against the computer's 29 and score the "
                "difference, 26. Had the computer held fewer points, it would have won with 10 "
                "more for the undercut. Going out scores the others' points plus 25; the game "
                "ends when someone reaches 150."
            ),
        ),
    )
    return Lesson(
        "carousel",
        N_("Carousel"),
        N_("Draw first, jokers, and knocking with a light hand."),
        steps,
        N_("That's Carousel. Try a real game!"),
    )
