"""Seeded random positions (a valid table and a hand) for the solver's tests and benchmark.

Pure: all randomness comes from the `random.Random` passed in.
"""

from __future__ import annotations

import random
from dataclasses import dataclass

from engine.cards import SUITS, Card, make_deck

from ..melds import AcePolicy
from .model import value_range


@dataclass
class RandomPosition:
    table: list[list[Card]]
    hand: list[Card]
    singles: list[Card]


def random_position(
    rng: random.Random,
    table_size: int,
    hand_size: int,
    *,
    ace: AcePolicy = "high",
    jokers: int = 0,
    decks: int = 2,
    singles: int = 0,
    joker_groups: float = 0.5,
) -> RandomPosition:
    """A valid table of about `table_size` cards (random runs and sets, some holding a
    designated joker when `jokers`), `singles` loose singles, and a hand from the rest."""
    deck = make_deck(decks, jokers)
    free: dict[tuple[int, str], list[Card]] = {}
    for card in deck:
        if not card.is_joker:
            free.setdefault((card.rank, card.suit), []).append(card)
    for cards in free.values():
        rng.shuffle(cards)
    joker_pool = [c for c in deck if c.is_joker]
    rng.shuffle(joker_pool)
    low, high = value_range(ace)
    table: list[list[Card]] = []
    size = 0
    failures = 0
    while size < table_size and failures < 400:
        room = table_size - size
        if room < 3:
            break
        if rng.random() < 0.5:
            suit = rng.choice(SUITS)
            n = min(room, rng.choice((3, 3, 4, 4, 5, 6)))
            if ace == "either":
                start = rng.randint(low, high - n + 1)
                if start == 1 and start + n - 1 == 14:
                    failures += 1
                    continue
            else:
                start = rng.randint(low, high - n + 1)
            faces = [(1 if v == 14 else v, suit) for v in range(start, start + n)]
        else:
            rank = rng.randint(1, 13)
            n = min(room, rng.choice((3, 4)))
            faces = [(rank, s) for s in rng.sample(SUITS, n)]
        use_joker = bool(joker_pool) and rng.random() < joker_groups * 0.5
        slot = rng.randrange(len(faces)) if use_joker else -1
        if any(not free[f] for i, f in enumerate(faces) if i != slot):
            failures += 1
            continue
        group = []
        for i, (rank, suit) in enumerate(faces):
            if i == slot:
                group.append(joker_pool.pop().designate(rank, suit))
            else:
                group.append(free[(rank, suit)].pop())
        table.append(group)
        size += len(group)
    rest = [c for cards in free.values() for c in cards] + joker_pool
    rest.sort(key=lambda c: (c.rank, c.suit, c.copy))
    rng.shuffle(rest)
    loose = [rest.pop() for _ in range(min(singles, len(rest)))]
    loose = [c for c in loose if not c.is_joker] or loose[:0]
    hand = rest[:hand_size]
    return RandomPosition(table + [[c] for c in loose], hand, loose)
