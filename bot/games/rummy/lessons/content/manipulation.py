"""The Manipulation lesson: the common rules in order (data; tests/test_lessons.py checks it)."""

from __future__ import annotations

from typing import Any

from ..model import Goal, Lesson, Position, Step
from ..words import N_
from .common import _at


def lesson() -> Lesson:
    def at(hand: str, **spec: Any) -> Position:
        return _at("manipulation", hand, **spec)

    steps = (
        Step(
            "run",
            N_("Sets and runs"),
            N_(
                "Every group on the table is a set or a run. A run is 3 or more cards of one "
                "suit in order. Lay {5H 6H 7H} as a new group: select them, tap New group, "
                "then ✔ Done."
            ),
            Goal("lay", group="5H 6H 7H"),
            at("5H 6H 7H 9C"),
            outline="5H 6H 7H",
            demo=("lay 5H 6H 7H", "done"),
            tools=("new",),
            nudges={
                "too_few": N_("Select all three — {5H}, {6H} and {7H} — before New group."),
                "not_meld": N_("{9C} is a club: a run keeps to one suit. Use {5H 6H 7H}."),
            },
            success=N_("{5H 6H 7H} is a run: one suit, in order."),
        ),
        Step(
            "set",
            N_("Sets — and what is neither"),
            N_(
                "A set is 3 or 4 cards of one rank, each of a different suit. {7H 7H 8H} is "
                "neither: a run can't hold the same card twice, and a set can't mix ranks. Lay "
                "the set {9S 9H 9D}."
            ),
            Goal("lay", group="9S 9H 9D"),
            at("7H 7H 8H 9S 9H 9D"),
            outline="9S 9H 9D",
            demo=("lay 9S 9H 9D", "done"),
            tools=("new",),
            nudges={
                "not_meld": N_(
                    "{7H 7H 8H} holds {7H} twice, so it is no run, and two ranks, so it is no "
                    "set. The nines are a set: {9S 9H 9D}."
                ),
            },
            success=N_("Three nines in three suits: a set."),
        ),
        Step(
            "ace",
            N_("Ace high only"),
            N_(
                "In Manipulation the ace is high only: Q-K-A is a run; A-2-3 and K-A-2 are "
                "not. Lay the run that holds your {AS}."
            ),
            Goal("lay", places="AS"),
            at("QS KS AS 2S 3S 8D"),
            outline="QS KS AS",
            demo=("lay QS KS AS", "done"),
            tools=("new",),
            nudges={
                "ace": N_("The ace only goes above the king here: {QS KS AS}."),
                "too_few": N_("A run needs three cards: {QS KS AS}."),
                "legal_other": N_(
                    "That run is fine, but it leaves your {AS} behind — an ace only goes above "
                    "a king: {QS KS AS}."
                ),
            },
            success=N_("{QS KS AS}: the ace sits above the king."),
        ),
        Step(
            "add",
            N_("Adding to a group"),
            N_(
                "You may add cards from your hand to the groups on the table. Select {8H}, tap "
                "Add to ▸ and pick group A ({5H 6H 7H}), then ✔ Done."
            ),
            Goal("lay", places="8H", contains="5H 6H 7H 8H"),
            at("8H 4C KD 2S", table=("5H 6H 7H", "9S 9H 9D")),
            outline="8H",
            outline_groups=(0,),
            demo=("add A 8H", "done"),
            nudges={
                "not_meld": N_("{8H} goes after {7H} in group A, not with the nines in B."),
                "too_few": N_("On its own {8H} is no group: add it to group A."),
            },
            success=N_("{5H 6H 7H 8H} — the run grew by one."),
        ),
        Step(
            "split",
            N_("Splitting a run"),
            N_(
                "Two decks means two of every card. Your {7H} fits if you split the run: tap "
                "Split ▸, group A, after {7H} — that leaves {5H 6H 7H} and {8H 9H}. Then add "
                "your {7H} to {8H 9H} (group B) and tap ✔ Done."
            ),
            Goal("lay", places="7H", rearranged=True),
            at("7H 2C KS", table=("5H 6H 7H 8H 9H",)),
            outline="7H",
            outline_groups=(0,),
            demo=("split A 3", "add B 7H", "done"),
            tools=("new", "add", "split"),
            nudges={
                "not_meld": N_(
                    "A run can't hold {7H} twice. Split it first, so each {7H} gets its own "
                    "run."
                ),
                "too_few": N_("{8H 9H} alone is too short: add your {7H} to it."),
                "nothing_added": N_("Splitting alone adds nothing: now add your {7H} to {8H "
                                    "9H}."),
            },
            success=N_("{5H 6H 7H} and {7H 8H 9H}: you rearranged the table to place a card."),
        ),
        Step(
            "move",
            N_("Moving cards between groups"),
            N_(
                "You may also move cards from one group to another, as long as every group is "
                "valid when you tap Done. Take {5S} out of A and {5C} out of B (Take from ▸); "
                "then select them with your {5D} and tap New group — a set of fives. A and B "
                "are still runs."
            ),
            Goal("lay", places="5D", group="5S 5C 5D"),
            at("5D KH 2C", table=("2S 3S 4S 5S", "5C 6C 7C 8C")),
            outline="5D 5S 5C",
            outline_groups=(0, 1),
            demo=("take A 5S", "take B 5C", "lay 5S 5C 5D", "done"),
            tools=("new", "add", "take"),
            nudges={
                "too_few": N_("A set needs three fives: {5S} from A, {5C} from B and your {5D}."),
                "loose": N_(
                    "Put the cards you took out into a group: select them with {5D} and tap "
                    "New group."
                ),
                "not_meld": N_("Check each group: A and B must stay runs of three or more."),
            },
            success=N_("{5S 5C 5D} is a set, and {2S 3S 4S} and {6C 7C 8C} are still runs."),
        ),
        Step(
            "copy",
            N_("Your private copy: Done and Reset"),
            N_(
                "Everything you build happens on your own private copy: nobody sees it until "
                "you tap ✔ Done. Try it: add {9C} and {KC} to group A — then tap ↺ Reset "
                "instead of Done. Your cards come back and the table is as it was."
            ),
            Goal("reset"),
            at("9C KC 4D 4H", table=("10C JC QC",)),
            outline="9C KC",
            outline_groups=(0,),
            demo=("add A 9C KC", "reset"),
            nudges={
                "legal_other": N_(
                    "Done plays your copy for real. In this step, put the cards back with ↺ Reset."
                ),
                "unchanged": N_("Change your copy first: add {9C} and {KC} to group A, then "
                                "Reset."),
            },
            success=N_("Reset put everything back. Only ✔ Done ever changes the real table."),
        ),
        Step(
            "must",
            N_("You must lay if you can"),
            N_(
                "In Manipulation you must lay cards if you can. Tap Draw: since you have a move, "
                "you get a reminder instead of a card — the picture outlines a card you can play "
                "and the group it goes to. Then play it; any legal move is accepted."
            ),
            Goal("lay"),
            at("8S KD 2H", table=("5S 6S 7S",), stock_top="3C"),
            outline="8S",
            outline_groups=(0,),
            demo=("draw", "add A 8S", "done"),
            nudges={
                "drew": N_(
                    "A second tap on Draw draws anyway (a real game allows it, and your turn "
                    "goes on). Here, play {8S} on group A instead."
                ),
                "too_few": N_("{8S} belongs at the end of group A."),
            },
            success=N_("You laid a card you could play — that is the must-lay rule."),
        ),
        Step(
            "draw",
            N_("Draw until you can lay"),
            N_(
                "Nothing in your hand fits the table. Tap Draw, one card at a time — your turn "
                "goes on — until you can lay; then lay."
            ),
            Goal("lay"),
            at("KD 2H 9C", table=("5S 6S 7S",), stock_top="4D 8S"),
            demo=("draw", "draw", "add A 8S", "done"),
            allow=frozenset({"drew"}),
            nudges={
                "nothing_added": N_("Nothing of yours fits yet: tap Draw."),
                "pass_stock": N_("The stock still has cards, so you draw, not pass."),
            },
            success=N_("Drawing doesn't end your turn in Manipulation: laying does."),
        ),
        Step(
            "pass",
            N_("Passing"),
            N_(
                "When the stock is empty you can't draw: you pass instead. If every player passes "
                "in a row with nobody laying, the round is blocked and scored as if someone went "
                "out. The stock is empty and nothing fits: tap Pass."
            ),
            Goal("pass"),
            at("KD 2H", table=("5S 6S 7S",), empty_stock=True),
            demo=("pass",),
            nudges={"stock_empty": N_("There is nothing left to draw: tap Pass.")},
            success=N_("You passed. A round where everyone passes in a row is blocked."),
        ),
        Step(
            "out",
            N_("Going out"),
            N_(
                "The round ends the moment a player lays their last card. Add {QH} to group A "
                "and {4H} to group B — both in the same move — to go out."
            ),
            Goal("lay", out=True),
            at("QH 4H", table=("9H 10H JH", "4C 4D 4S")),
            outline="QH 4H",
            outline_groups=(0, 1),
            demo=("add A QH", "add B 4H", "done"),
            nudges={
                "legal_other": N_(
                    "A fine move, but you keep a card. Place {QH} and {4H} in one move to go "
                    "out."
                ),
                "not_meld": N_("{QH} follows {JH} in group A; {4H} joins the fours in group B."),
            },
            success=N_(
                "You went out: the round is over, and every other player pays for the "
                "cards left in hand."
            ),
        ),
        Step(
            "score",
            N_("Penalty points"),
            N_(
                "Cards left when someone goes out cost penalty points: ace 15, tens and face "
                "cards 10, any other card 5. Lower is better; the game goes on until someone "
                "reaches 200. The computer will go out next turn. Lay so that you keep as few "
                "points as possible."
            ),
            Goal("lay", group="AS AH AD"),
            at("QD KD AD AS AH", table=("10C JC QC",), cpu="9C"),
            outline="AS AH AD",
            demo=("lay AS AH AD", "done"),
            nudges={
                "legal_other": N_(
                    "That's legal, but it leaves {AS AH}: 30 points. Laying the three aces "
                    "leaves {QD KD}: only 20."
                ),
            },
            success=N_("The aces are gone: {QD KD} left cost you only 20."),
            computers=True,
        ),
    )
    return Lesson(
        "manipulation",
        N_("Manipulation"),
        N_("Rearrange the table to be the first to empty your hand."),
        steps,
        N_("You know Manipulation! Try a real game against the computer."),
    )
