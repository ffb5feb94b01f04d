"""The guided lessons, one per rulebook, as data (RULES.md §1–2; UX.md §5).

Manipulation teaches the common rules step by step; the other rulebooks teach only what differs.
Seat 0 is the learner, seat 1 the computer. Every step's `demo` is checked by tests/test_lessons.py
against the real engine, so a position and its instruction cannot drift apart unnoticed.
"""

from __future__ import annotations

from typing import Any

from .lessons_model import Goal, Lesson, Position, Step

CPU = "KS KD 3C 8D 2S"  # a computer hand that plays no part in the step


def _at(rulebook: str, hand: str, *, cpu: str = CPU, **spec: Any) -> Position:
    return Position(rulebook, (hand, cpu), **spec)


# -- Manipulation: the common rules, in order ------------------------------------------------


def _manipulation() -> Lesson:
    def at(hand: str, **spec: Any) -> Position:
        return _at("manipulation", hand, **spec)

    steps = (
        Step(
            "run",
            "Sets and runs",
            "Every group on the table is a set or a run. A run is 3 or more cards of one suit in "
            "order. Lay 5♥ 6♥ 7♥ as a new group: select them, tap New group, then ✔ Done.",
            Goal("lay", group="5H 6H 7H"),
            at("5H 6H 7H 9C"),
            outline="5H 6H 7H",
            demo=("lay 5H 6H 7H", "done"),
            tools=("new",),
            nudges={
                "too_few": "Select all three — 5♥, 6♥ and 7♥ — before New group.",
                "not_meld": "9♣ is a club: a run keeps to one suit. Use 5♥ 6♥ 7♥.",
            },
            success="5♥ 6♥ 7♥ is a run: one suit, in order.",
        ),
        Step(
            "set",
            "Sets — and what is neither",
            "A set is 3 or 4 cards of one rank, each of a different suit. 7♥ 7♥ 8♥ is neither: "
            "a run can't hold the same card twice, and a set can't mix ranks. Lay the set "
            "9♠ 9♥ 9♦.",
            Goal("lay", group="9S 9H 9D"),
            at("7H 7H 8H 9S 9H 9D"),
            outline="9S 9H 9D",
            demo=("lay 9S 9H 9D", "done"),
            tools=("new",),
            nudges={
                "not_meld": "7♥ 7♥ 8♥ holds 7♥ twice, so it is no run, and two ranks, so it is "
                "no set. The nines are a set: 9♠ 9♥ 9♦.",
            },
            success="Three nines in three suits: a set.",
        ),
        Step(
            "ace",
            "Ace high only",
            "In Manipulation the ace is high only: Q-K-A is a run; A-2-3 and K-A-2 are not. "
            "Lay the run that holds your A♠.",
            Goal("lay", places="AS"),
            at("QS KS AS 2S 3S 8D"),
            outline="QS KS AS",
            demo=("lay QS KS AS", "done"),
            tools=("new",),
            nudges={
                "ace": "The ace only goes above the king here: Q♠ K♠ A♠.",
                "too_few": "A run needs three cards: Q♠ K♠ A♠.",
                "legal_other": "That run is fine, but it leaves your A♠ behind — an ace only "
                "goes above a king: Q♠ K♠ A♠.",
            },
            success="Q♠ K♠ A♠: the ace sits above the king.",
        ),
        Step(
            "add",
            "Adding to a group",
            "You may add cards from your hand to the groups on the table. Select 8♥, tap "
            "Add to ▸ and pick group A (5♥ 6♥ 7♥), then ✔ Done.",
            Goal("lay", places="8H", contains="5H 6H 7H 8H"),
            at("8H 4C KD 2S", table=("5H 6H 7H", "9S 9H 9D")),
            outline="8H",
            outline_groups=(0,),
            demo=("add A 8H", "done"),
            nudges={
                "not_meld": "8♥ goes after 7♥ in group A, not with the nines in B.",
                "too_few": "On its own 8♥ is no group: add it to group A.",
            },
            success="5♥ 6♥ 7♥ 8♥ — the run grew by one.",
        ),
        Step(
            "split",
            "Splitting a run",
            "Two decks means two of every card. Your 7♥ fits if you split the run: tap Split ▸, "
            "group A, after 7♥ — that leaves 5♥ 6♥ 7♥ and 8♥ 9♥. Then add your 7♥ to 8♥ 9♥ "
            "(group B) and tap ✔ Done.",
            Goal("lay", places="7H", rearranged=True),
            at("7H 2C KS", table=("5H 6H 7H 8H 9H",)),
            outline="7H",
            outline_groups=(0,),
            demo=("split A 3", "add B 7H", "done"),
            tools=("new", "add", "split"),
            nudges={
                "not_meld": "A run can't hold 7♥ twice. Split it first, so each 7♥ gets its "
                "own run.",
                "too_few": "8♥ 9♥ alone is too short: add your 7♥ to it.",
                "nothing_added": "Splitting alone adds nothing: now add your 7♥ to 8♥ 9♥.",
            },
            success="5♥ 6♥ 7♥ and 7♥ 8♥ 9♥: you rearranged the table to place a card.",
        ),
        Step(
            "move",
            "Moving cards between groups",
            "You may also move cards from one group to another, as long as every group is valid "
            "when you tap Done. Take 5♠ out of A and 5♣ out of B (Take from ▸); then select them "
            "with your 5♦ and tap New group — a set of fives. A and B are still runs.",
            Goal("lay", places="5D", group="5S 5C 5D"),
            at("5D KH 2C", table=("2S 3S 4S 5S", "5C 6C 7C 8C")),
            outline="5D 5S 5C",
            outline_groups=(0, 1),
            demo=("take A 5S", "take B 5C", "lay 5S 5C 5D", "done"),
            tools=("new", "add", "take"),
            nudges={
                "too_few": "A set needs three fives: 5♠ from A, 5♣ from B and your 5♦.",
                "loose": "Put the cards you took out into a group: select them with 5♦ and tap "
                "New group.",
                "not_meld": "Check each group: A and B must stay runs of three or more.",
            },
            success="5♠ 5♣ 5♦ is a set, and 2♠ 3♠ 4♠ and 6♣ 7♣ 8♣ are still runs.",
        ),
        Step(
            "copy",
            "Your private copy: Done and Reset",
            "Everything you build happens on your own private copy: nobody sees it until you tap "
            "✔ Done. Try it: add 9♣ and K♣ to group A — then tap ↺ Reset instead of Done. Your "
            "cards come back and the table is as it was.",
            Goal("reset"),
            at("9C KC 4D 4H", table=("10C JC QC",)),
            outline="9C KC",
            outline_groups=(0,),
            demo=("add A 9C KC", "reset"),
            nudges={
                "legal_other": "Done plays your copy for real. In this step, put the cards back "
                "with ↺ Reset.",
                "unchanged": "Change your copy first: add 9♣ and K♣ to group A, then Reset.",
            },
            success="Reset put everything back. Only ✔ Done ever changes the real table.",
        ),
        Step(
            "must",
            "You must lay if you can",
            "In Manipulation you must lay cards if you can. Tap Draw: since you have a move, "
            "you get a reminder instead of a card — the picture outlines a card you can play and "
            "the group it goes to. Then play it; any legal move is accepted.",
            Goal("lay"),
            at("8S KD 2H", table=("5S 6S 7S",), stock_top="3C"),
            outline="8S",
            outline_groups=(0,),
            demo=("draw", "add A 8S", "done"),
            nudges={
                "drew": "A second tap on Draw draws anyway (a real game allows it, and your "
                "turn goes on). Here, play 8♠ on group A instead.",
                "too_few": "8♠ belongs at the end of group A.",
            },
            success="You laid a card you could play — that is the must-lay rule.",
        ),
        Step(
            "draw",
            "Draw until you can lay",
            "Nothing in your hand fits the table. Tap Draw, one card at a time — your turn goes "
            "on — until you can lay; then lay.",
            Goal("lay"),
            at("KD 2H 9C", table=("5S 6S 7S",), stock_top="4D 8S"),
            demo=("draw", "draw", "add A 8S", "done"),
            allow=frozenset({"drew"}),
            nudges={
                "nothing_added": "Nothing of yours fits yet: tap Draw.",
                "pass_stock": "The stock still has cards, so you draw, not pass.",
            },
            success="Drawing doesn't end your turn in Manipulation: laying does.",
        ),
        Step(
            "pass",
            "Passing",
            "When the stock is empty you can't draw: you pass instead. If every player passes in "
            "a row with nobody laying, the round is blocked and scored as if someone went out. "
            "The stock is empty and nothing fits: tap Pass.",
            Goal("pass"),
            at("KD 2H", table=("5S 6S 7S",), empty_stock=True),
            demo=("pass",),
            nudges={"stock_empty": "There is nothing left to draw: tap Pass."},
            success="You passed. A round where everyone passes in a row is blocked.",
        ),
        Step(
            "out",
            "Going out",
            "The round ends the moment a player lays their last card. Add Q♥ to group A and 4♥ "
            "to group B — both in the same move — to go out.",
            Goal("lay", out=True),
            at("QH 4H", table=("9H 10H JH", "4C 4D 4S")),
            outline="QH 4H",
            outline_groups=(0, 1),
            demo=("add A QH", "add B 4H", "done"),
            nudges={
                "legal_other": "A fine move, but you keep a card. Place Q♥ and 4♥ in one move "
                "to go out.",
                "not_meld": "Q♥ follows J♥ in group A; 4♥ joins the fours in group B.",
            },
            success="You went out: the round is over, and every other player pays for the "
            "cards left in hand.",
        ),
        Step(
            "score",
            "Penalty points",
            "Cards left when someone goes out cost penalty points: ace 15, tens and face cards "
            "10, any other card 5. Lower is better; the game goes on until someone reaches 200. "
            "The computer will go out next turn. Lay so that you keep as few points as "
            "possible.",
            Goal("lay", group="AS AH AD"),
            at("QD KD AD AS AH", table=("10C JC QC",), cpu="9C"),
            outline="AS AH AD",
            demo=("lay AS AH AD", "done"),
            nudges={
                "legal_other": "That's legal, but it leaves A♠ A♥: 30 points. Laying the three "
                "aces leaves Q♦ K♦: only 20.",
            },
            success="The aces are gone: Q♦ K♦ left cost you only 20.",
            computers=True,
        ),
    )
    return Lesson(
        "manipulation",
        "Manipulation",
        "Rearrange the table to be the first to empty your hand.",
        steps,
        "You know Manipulation! Try a real game against the computer.",
    )


# -- the other rulebooks: only what differs --------------------------------------------------


def _machiavelli() -> Lesson:
    def at(hand: str, **spec: Any) -> Position:
        return _at("machiavelli", hand, **spec)

    steps = (
        Step(
            "ace",
            "Ace high or low",
            "Machiavelli deals 13 cards each. An ace plays high or low, never both: A-2-3 and "
            "Q-K-A are runs, K-A-2 is not. Lay a run with an ace in it.",
            Goal("lay", places_any="AH AC"),
            at("KH AH 2H 3H QC KC AC"),
            outline="AH 2H 3H",
            demo=("lay AH 2H 3H", "done"),
            tools=("new",),
            nudges={
                "ace": "K-A-2 turns the corner, which no run may do: try A♥ 2♥ 3♥ or Q♣ K♣ A♣.",
                "legal_other": "Use one of your aces: A♥ 2♥ 3♥ or Q♣ K♣ A♣.",
            },
            success="An ace at one end of a run — low here, high in Q-K-A.",
        ),
        Step(
            "draw",
            "Play or draw",
            "On your turn you either play cards or draw one card — and drawing ends your turn. "
            "Nothing fits: tap Draw and watch the computer take its turn.",
            Goal("draw"),
            at("KD 2H 9C", table=("5S 6S 7S",), stock_top="4H", cpu="8S 9S QC 3D"),
            demo=("draw",),
            nudges={"nothing_added": "Nothing of yours fits: tap Draw."},
            success="You drew one card and your turn ended.",
            computers=True,
        ),
        Step(
            "giveup",
            "Give up (+3)",
            "With the option Unfinished move: give back, draw 3, a move you start but can't "
            "finish costs three cards. Split group A (Split ▸) — Reset has now become Give up "
            "(+3). This move can't be finished, so tap Give up (+3) twice: the table goes back "
            "and you draw three cards.",
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
                "reset_is_give_up": "With this option there is no free Reset once the table "
                "changed: tap Give up (+3).",
                "give_up_first": "You can't draw in the middle of a move: finish it or tap "
                "Give up (+3).",
                "nothing_to_give_up": "Change the table first: split group A.",
            },
            success="Everything went back and you drew three cards; your turn is over. With "
            "the default option (Reset, no penalty) Reset is always free.",
        ),
        Step(
            "out",
            "Going out wins",
            "Machiavelli is a single round: whoever empties their hand wins, and every card left "
            "in another hand counts 1 point. Go out: add all three cards to group A.",
            Goal("lay", out=True),
            at("QD KD AD", table=("9D 10D JD",), cpu="2S 5C 7H 9S JC"),
            outline="QD KD AD",
            outline_groups=(0,),
            demo=("add A QD KD AD", "done"),
            nudges={
                "legal_other": "You keep a card: add all three — A♦ may sit above K♦.",
            },
            success="You won: the computer's five cards count 5 points.",
        ),
    )
    return Lesson(
        "machiavelli",
        "Machiavelli",
        "Manipulation's table, with 13 cards, a two-way ace, and play-or-draw turns.",
        steps,
        "That's what Machiavelli changes. Try a real game!",
    )


def _shanghai() -> Lesson:
    def at(hand: str, **spec: Any) -> Position:
        return _at("shanghai", hand, **spec)

    steps = (
        Step(
            "ace",
            "Ace low only",
            "Shanghai deals 10 cards each, in batches of 3, 3, 3 and 1. The ace is low only: "
            "A-2-3 is a run; Q-K-A and K-A-2 are not. Lay the run with an ace.",
            Goal("lay", places="AD"),
            at("AD 2D 3D QC KC AC"),
            outline="AD 2D 3D",
            demo=("lay AD 2D 3D", "done"),
            tools=("new",),
            nudges={"ace": "Here the ace sits below the 2 only: A♦ 2♦ 3♦."},
            success="A♦ 2♦ 3♦: the ace is low.",
        ),
        Step(
            "draw",
            "Must lay: draw until you can",
            "As in Manipulation you must lay if you can, and you draw one card at a time until "
            "you can. Nothing fits: draw, then lay.",
            Goal("lay"),
            at("KD 9C", table=("2H 3H 4H",), stock_top="JS 5H"),
            demo=("draw", "draw", "add A 5H", "done"),
            allow=frozenset({"drew"}),
            nudges={"nothing_added": "Nothing of yours fits yet: tap Draw."},
            success="Drawing doesn't end the turn; laying does.",
        ),
        Step(
            "out",
            "One point a card",
            "When a player goes out, every other player takes 1 point for each card left in "
            "hand. Go out: add 8♣ 9♣ to group A.",
            Goal("lay", out=True),
            at("8C 9C", table=("5C 6C 7C",), cpu="KS KD 3C 8D"),
            outline="8C 9C",
            outline_groups=(0,),
            demo=("add A 8C 9C", "done"),
            nudges={"legal_other": "Place both cards to go out."},
            success="The computer takes 4 points: one for each card it holds.",
        ),
        Step(
            "finish",
            "No fixed end",
            "Shanghai has no target: after each round the players choose ▶ Next round or "
            "■ Finish, and the lowest total leads. Tap ■ Finish to end the game here.",
            Goal("finish"),
            None,
            demo=("finish",),
            nudges={"legal_other": "That starts another round. In this lesson, tap ■ Finish."},
            success="Game over: the lowest total wins.",
        ),
    )
    return Lesson(
        "shanghai",
        "Shanghai",
        "Manipulation's must-lay turns, with a low ace and 1 point a card.",
        steps,
        "That's Shanghai. Try a real game!",
    )


def _guadeloupe() -> Lesson:
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


def _carousel() -> Lesson:
    def at(hand: str, *, cpu: str = "JS 3H 7D 10C", **spec: Any) -> Position:
        return _at("carousel", hand, cpu=cpu, **spec)  # two players: one deck, one joker

    steps = (
        Step(
            "drawfirst",
            "Always draw first",
            "Carousel deals 10 cards each and adds jokers. Every turn starts with a draw — "
            "even when you could lay. Tap Draw.",
            Goal("draw"),
            at("9S 9H * 4C KC", stock_top="2D"),
            demo=("draw",),
            nudges={"draw_first": "In Carousel you always draw before laying: tap Draw."},
            success="Now you may lay cards — or draw again.",
        ),
        Step(
            "joker",
            "Jokers",
            "A joker stands for any card you choose, and keeps that card on the table. Lay "
            "9♠ 9♥ 🃏 as a new group: when more than one card fits, Done asks which one the "
            "joker is.",
            Goal("lay", group="9S 9H *"),
            None,
            outline="9S 9H *",
            demo=("lay 9S 9H *", "done", "choose A 9C"),
            tools=("new",),
            nudges={
                "too_few": "A set needs three cards: 9♠ 9♥ and the joker.",
                "legal_other": "Lay the nines with the joker: 9♠ 9♥ 🃏.",
            },
            success="The joker is fixed as that nine until the real card comes to the table.",
        ),
        Step(
            "freed",
            "Freeing a joker",
            "You already drew this turn. The joker in group A stands for 6♥. Add your real 6♥ "
            "and your 8♥ to group A: the joker is freed and must take a new card at once — "
            "Done asks whether it is now 4♥ or 9♥.",
            Goal("lay", places="6H 8H"),
            at("6H 8H 2C", table=("5H *6H 7H",), stock_top="4D", setup=("draw",)),
            outline="6H 8H",
            outline_groups=(0,),
            demo=("add A 6H 8H", "done", "choose A 9H"),
            nudges={
                "legal_other": "That works, but the point is to free the joker: add your 6♥ too.",
                "loose": "A freed joker never goes to your hand: it must go back into a group.",
            },
            success="The real 6♥ took the joker's place and the joker took a new one.",
        ),
        Step(
            "three",
            "Up to three draws",
            "After your first draw you lay, or draw again; after the second, lay or draw a "
            "third — and the third card ends your turn without laying. Nothing fits: draw three "
            "times.",
            Goal("turn_over"),
            at("KC QD 2S", stock_top="9D 4S 8C"),
            demo=("draw", "draw", "draw"),
            allow=frozenset({"drew"}),
            nudges={"nothing_added": "Nothing fits: tap Draw."},
            success="Three cards, and your turn is over.",
        ),
        Step(
            "knock",
            "Knocking",
            "Cards in hand count: joker 25, face card 10, ace 1, others face value. If laying "
            "after one or two draws leaves you 5 points or fewer, Draw becomes ✊ Knock: the "
            "round ends at once. You drew A♦. Lay 5♥ 6♥ 7♥ (New group) — 2♣ A♦ are worth 3 — "
            "and tap ✊ Knock.",
            Goal("knock"),
            at("5H 6H 7H 2C", stock_top="AD", cpu="KS KD 9C", setup=("draw",)),
            outline="5H 6H 7H",
            demo=("lay 5H 6H 7H", "knock"),
            tools=("new",),
            nudges={
                "legal_other": "You laid but didn't knock: with 3 points left, tap ✊ Knock "
                "instead of Done.",
                "knock_limit": "Lay 5♥ 6♥ 7♥ first: then only 3 points are left in your hand.",
            },
            success="You knocked with 3 points against the computer's 29 and score the "
            "difference, 26. Had the computer held fewer points, it would have won with 10 "
            "more for the undercut. Going out scores the others' points plus 25; the game "
            "ends when someone reaches 150.",
        ),
    )
    return Lesson(
        "carousel",
        "Carousel",
        "Draw first, jokers, and knocking with a light hand.",
        steps,
        "That's Carousel. Try a real game!",
    )


def _vatican() -> Lesson:
    def at(hand: str, **spec: Any) -> Position:
        return _at("vatican", hand, **spec)

    steps = (
        Step(
            "first",
            "The first lay",
            "Vatican deals 13 cards each, with jokers. The first time you lay, you must lay "
            "from your hand a run of three cards of one suit (a joker doesn't count). After "
            "that — in the same turn too — anything goes. Lay 6♥ 7♥ 8♥ and the set 5♥ 5♠ 5♦ "
            "together.",
            Goal("lay", places="6H 7H 8H 5H 5S 5D"),
            at("5H 5S 5D 6H 7H 8H 2C"),
            outline="6H 7H 8H",
            demo=("lay 6H 7H 8H", "lay 5H 5S 5D", "done"),
            tools=("new",),
            nudges={
                "first_lay": "A set doesn't open the game: include the run 6♥ 7♥ 8♥.",
                "legal_other": "Good — now lay both groups together: 6♥ 7♥ 8♥ and 5♥ 5♠ 5♦.",
            },
            success="Your first lay is done; from now on you may add and rearrange freely.",
        ),
        Step(
            "draw",
            "Draw or lay, never both",
            "On your turn you draw one card or lay cards, never both. Nothing fits: tap Draw — "
            "your turn ends.",
            Goal("draw"),
            at("KD 2H 9C", table=("5S 6S 7S",), first_lay_done=True, cpu="8S 9S QC 3D"),
            demo=("draw",),
            nudges={"nothing_added": "Nothing of yours fits: tap Draw."},
            success="You drew, and the turn passed on.",
            computers=True,
        ),
        Step(
            "stays",
            "A joker stays beside its cards",
            "A joker on the table can't move to another group until the real card it stands "
            "for is on the table. It may stay when its group changes, as long as a card that "
            "was beside it stays beside it. Add 3♣ 4♣ to group A: the joker keeps 6♣ beside it.",
            Goal("lay", places="3C 4C"),
            at("3C 4C 2S", table=("*5C 6C 7C 8C",), first_lay_done=True),
            outline="3C 4C",
            outline_groups=(0,),
            demo=("add A 3C 4C", "done"),
            tools=("new", "add", "take"),
            nudges={
                "joker_immobile": "The joker can't leave 6♣ while the real 5♣ is not on the "
                "table. Add 3♣ 4♣ to group A instead.",
                "legal_other": "Add both 3♣ and 4♣ to group A.",
            },
            success="3♣ 4♣ 🃏 6♣ 7♣ 8♣: the joker never left its neighbour.",
        ),
        Step(
            "free",
            "Freeing the joker",
            "Once the real 5♣ is on the table the joker is free — and must go into a group as a "
            "new card at once; it never goes to a hand. Add your 5♣ to group A: Done asks "
            "whether the joker is now 3♣ or 8♣.",
            Goal("lay", places="5C"),
            at("5C 9D 10D", table=("4C *5C 6C 7C",), first_lay_done=True),
            outline="5C",
            outline_groups=(0,),
            demo=("add A 5C", "done", "choose A 8C"),
            tools=("new", "add", "take"),
            nudges={
                "loose": "A freed joker can never go to your hand: put it back into a group.",
            },
            success="The real 5♣ is in, and the joker found a new place.",
        ),
    )
    return Lesson(
        "vatican",
        "Vatican",
        "A first lay of three, draw-or-lay turns, and jokers that stay put.",
        steps,
        "That's Vatican. Try a real game!",
    )


def _tahiti() -> Lesson:
    def at(hand: str, **spec: Any) -> Position:
        return _at("tahiti", hand, **spec)

    steps = (
        Step(
            "singles",
            "Singles",
            "Tahiti deals 5 cards each, plus 4 cards face up on the table: the singles. You may "
            "use them in your groups; an unused single stays alone and never goes into a hand. "
            "Lay 6♥ 7♥ with the single 5♥ (select all three, then New group).",
            Goal("lay", places="6H 7H", group="5H 6H 7H"),
            at("6H 7H 2C", singles="5H KC 9D 2S"),
            outline="5H 6H 7H",
            demo=("lay 5H 6H 7H", "done"),
            tools=("new",),
            nudges={"too_few": "Add the single 5♥ to make three: 5♥ 6♥ 7♥."},
            success="The single 5♥ joined your run; the other singles wait.",
        ),
        Step(
            "onejoker",
            "One joker per group",
            "Tahiti has 4 jokers, but a group may hold only one. Lay 9♠ 9♥ with one joker; "
            "Done asks which nine it is.",
            Goal("lay", group="9S 9H *"),
            at("9S 9H * * 3C"),
            outline="9S 9H *",
            demo=("lay 9S 9H *", "done", "choose A 9C"),
            tools=("new",),
            nudges={"two_jokers": "One joker per group: lay 9♠ 9♥ with a single joker."},
            success="One joker, one group.",
        ),
        Step(
            "locked",
            "A joker locks its group",
            "A group that holds a joker can't be rearranged: none of its cards can move; you "
            "may only add cards from your hand. Add 9♥ 10♥ to group A.",
            Goal("lay", places="9H 10H"),
            at("9H 10H 4S", table=("5H *6H 7H 8H",)),
            outline="9H 10H",
            outline_groups=(0,),
            demo=("add A 9H 10H", "done"),
            tools=("new", "add", "take"),
            nudges={
                "locked": "8♥ can't leave group A while its joker is there. Add 9♥ 10♥ to A "
                "from your hand.",
                "legal_other": "Add both 9♥ and 10♥ to group A.",
            },
            success="Adding from your hand is always allowed.",
        ),
        Step(
            "free",
            "Freeing the joker",
            "To free a joker, lay the real card it stands for from your hand — never a card "
            "already on the table. Then the group may change, and the joker must take a new "
            "card at once. Add your 6♥ to group A: Done asks whether the joker is 4♥ or 8♥.",
            Goal("lay", places="6H"),
            at("6H 9S 9D", table=("5H *6H 7H",)),
            outline="6H",
            outline_groups=(0,),
            demo=("add A 6H", "done", "choose A 8H"),
            tools=("new", "add", "take"),
            nudges={
                "too_few": "Without the real 6♥ from your hand the joker is stuck in group A: "
                "add 6♥ to A.",
                "loose": "A freed joker never goes to a hand: put it back into a group.",
            },
            success="The joker is free and fixed anew.",
        ),
        Step(
            "score",
            "Penalty points",
            "Tahiti is one round: whoever empties their hand wins; the others pay joker 30, "
            "ace 11, face card 10, other cards face value. Go out: add K♠ to group A.",
            Goal("lay", out=True),
            at("KS", table=("10S JS QS",), cpu="AH * 9C"),
            outline="KS",
            outline_groups=(0,),
            demo=("add A KS", "done"),
            success="You won. The computer pays 11 + 30 + 9 = 50 points.",
        ),
    )
    return Lesson(
        "tahiti",
        "Tahiti",
        "Singles on the table, one joker per group, and jokers that lock their group.",
        steps,
        "That's Tahiti. Try a real game!",
    )


LESSONS: dict[str, Lesson] = {
    lesson.name: lesson
    for lesson in (
        _manipulation(),
        _machiavelli(),
        _shanghai(),
        _guadeloupe(),
        _carousel(),
        _vatican(),
        _tahiti(),
    )
}
