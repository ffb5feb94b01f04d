"""Fixed example views: the sample images in docs/ and the benchmark draw these.

Real-looking positions (valid sets and runs from two decks), built deterministically.
"""

from __future__ import annotations

from engine.cards import Card, parse_cards
from render.views import LobbyView, PrivateView, ScoreView, SeatStrip, TableView


def cards(text: str, copy: int = 0) -> tuple[Card, ...]:
    """`cards("5H 6H *7H")`; `copy` picks the second deck's cards."""
    return tuple(Card(c.rank, c.suit, copy, c.as_rank, c.as_suit) for c in parse_cards(text))


SEATS = (
    SeatStrip("Alice", 5, 35, False),
    SeatStrip("Bob", 9, 60, True),
    SeatStrip("🤖 Computer (medium)", 7, 20, False, True),
)


def demo_table(four_color: bool = False) -> TableView:
    groups = (
        cards("5H 6H 7H"),
        cards("9S 9H 9D"),
        cards("10C JC QC KC AC"),
        cards("2S 3S 4S 5S"),
        cards("7D 7S 7C"),
        cards("QH QS QD QC", 1),
        cards("8D 9D 10D JD"),
        cards("KS KH KD"),
    )
    return TableView(
        "Manipulation · Round 2",
        groups,
        changed=frozenset({0, 4}),
        stock=41,
        seats=SEATS,
        status="Bob's turn",
        four_color=four_color,
    )


def big_table(n: int = 100) -> TableView:
    """n cards (9 to 104) as 3-4 card sets from deck 0 and 4-5 card runs from deck 1,
    interleaved, two of them holding a joker: a table late in a 5-player game."""
    sets = [tuple(Card(r, s, 0) for s in "SHDC") for r in range(1, 14)]
    runs = [
        tuple(Card(r, s, 1) for r in span)
        for s in "SHDC"
        for span in (range(1, 5), range(5, 9), range(9, 14))
    ]
    groups: list[tuple[Card, ...]] = []
    for k in range(max(len(sets), len(runs))):
        groups += sets[k : k + 1] + runs[k : k + 1]
    # drop whole groups from the end while that keeps n or more, then shorten groups of 4+
    # (a set loses a suit, a run its top card) until exactly n are left
    while len(groups) > 1 and sum(map(len, groups)) - len(groups[-1]) >= n:
        groups.pop()
    extra = sum(map(len, groups)) - n
    while extra > 0 and any(len(g) > 3 for g in groups):
        for k, g in enumerate(groups):
            if extra and len(g) > 3:
                groups[k] = g[:-1]
                extra -= 1
    # two jokers standing in for cards (as in Carousel or Vatican)
    for gi, pos in ((3, 1), (10, 2)):
        if gi >= len(groups):
            break
        g = list(groups[gi])
        c = g[pos]
        g[pos] = Card(0, "", gi % 2).designate(c.rank, c.suit)
        groups[gi] = tuple(g)
    seats = (
        SeatStrip("Alice", 1, 135, False),
        SeatStrip("Bob", 2, 160, True),
        SeatStrip("Carol", 1, 90, False),
        SeatStrip("Dave", 1, 120, False),
        SeatStrip("Computer", 1, 20, False, True),
    )
    return TableView(
        "Manipulation · Round 7",
        tuple(groups),
        changed=frozenset({2, 5, 11}),
        stock=0,
        seats=seats,
        status="Bob's turn · the stock is empty",
    )


def tahiti_table() -> TableView:
    groups = (
        cards("*4H 4S 4D"),
        cards("9C 10C JC *QC"),
        cards("AD 2D 3D"),
    )
    return TableView(
        "Tahiti",
        groups,
        singles=cards("KS 7H * 2C"),
        changed=frozenset({1}),
        stock=79,
        seats=(
            SeatStrip("Alice", 4, None, True),
            SeatStrip("Bob", 3, None, False),
            SeatStrip("Chloé", 5, None, False),
        ),
        status="Alice's turn",
        four_color=True,
    )


def demo_private(sort: str = "suit", four_color: bool = False) -> PrivateView:
    hand = cards("4S 9H QD AS KH 2D * 7C 10H 5S 3C JH QC")
    from_hand = cards("9C 8D")
    draft = (
        cards("5H 6H 7H"),
        cards("9S 9H 9D") + from_hand[:1],
        cards("10C JC QC KC AC"),
        cards("2S 3S 4S"),
        cards("7D 7S 7C"),
        cards("QH QS", 1),
        from_hand[1:] + cards("9D 10D", 1),
    )
    return PrivateView(
        "Your turn · you drew 1 · hint available",
        hand,
        sort,
        draft,
        changed=frozenset({1, 5, 6}),
        invalid=frozenset({5}),
        loose=cards("5S"),
        placed=frozenset(c.ident for c in from_hand),
        hint_cards=frozenset({hand[2].ident}),
        hint_groups=frozenset({5}),
        four_color=four_color,
    )


def big_private(hand_size: int = 20) -> PrivateView:
    """A 20-card hand over a mid-size draft: the benchmark's private view."""
    table = big_table(40)
    on_table = {c.ident for g in table.groups for c in g}
    spare = [
        Card(r, s, k)
        for k in (0, 1)
        for s in "SHDC"
        for r in range(1, 14)
        if (r, s, k) not in on_table
    ]
    hand = tuple(spare[(i * 7) % len(spare)] for i in range(hand_size))
    changed = frozenset({1, 4})
    return PrivateView(
        "Your turn · you drew 2",
        hand,
        "suit",
        table.groups,
        changed=changed,
        invalid=frozenset({4}),
        hint_cards=frozenset({hand[3].ident}),
        hint_groups=frozenset({2}),
    )


def demo_scores() -> ScoreView:
    return ScoreView(
        "Manipulation · after round 3",
        ("Alice", "Bob", "🤖 Computer (medium)"),
        ((0, 35, 20), (45, 0, 30), (10, 25, 0)),
        target=200,
    )


def final_scores() -> ScoreView:
    rounds = (
        (0, 35, 20, 10),
        (45, 0, 30, 5),
        (10, 25, 0, 30),
        (30, 40, 0, 20),
        (0, 60, 15, 25),
        (20, 0, 50, 40),
        (25, 45, 0, 60),
        (15, 20, 35, 0),
    )
    return ScoreView(
        "Manipulation · final",
        ("Alice", "Bob", "🤖 Computer (hard)", "Dave"),
        rounds,
        target=200,
        final=True,
        winners=(0,),
    )


def carousel_scores() -> ScoreView:
    rounds = ((32, 0, 0), (0, 41, 0), (0, 0, 18), (57, 0, 0), (0, 35, 0))
    return ScoreView(
        "Carousel · after round 5",
        ("Alice", "Bob", "Chloé"),
        rounds,
        target=150,
        lower_is_better=False,
    )


def single_result() -> ScoreView:
    return ScoreView(
        "Machiavelli · result",
        ("Alice", "Bob", "🤖 Computer (easy)"),
        ((0, 4, 7),),
        final=True,
        winners=(0,),
    )


def demo_lobby() -> LobbyView:
    return LobbyView(
        "Manipulation",
        ("must lay: remind", "play to 200", "turn timer 3 min"),
        ("Alice (host)", "Bob", "🤖 Computer (medium)"),
    )
