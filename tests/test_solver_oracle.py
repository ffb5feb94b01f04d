"""The solver against a brute-force oracle on small positions (every rulebook, every objective).

The oracle knows nothing of the solver: it tries every subset of the hand, every partition of
the cards in play into groups, and every joker designation, and asks check_move. Every move the
solver returns must pass check_move, and score exactly what the oracle's best scores.
"""

from __future__ import annotations

import random
from itertools import product

import pytest
from hypothesis import HealthCheck, Phase, given, settings
from hypothesis import strategies as st
from tiers import sampled

from engine.cards import SUITS, Card
from engine.rummy.melds import designate, readings
from engine.rummy.moves import check_move
from engine.rummy.rulebooks import get_rulebook
from engine.rummy.solver import find_move

# A seed is all a case needs; shrinking a seed would only waste time.
SETTINGS = settings(max_examples=40, deadline=None, derandomize=True,
                    phases=[Phase.explicit, Phase.generate],
                    suppress_health_check=[HealthCheck.too_slow])


# -- small dense positions -------------------------------------------------------------------


def _window(rng: random.Random, ace: str) -> list[int]:
    """Five consecutive run values inside the ace policy's range (14 is the high ace)."""
    low, high = {"high": (2, 14), "low": (1, 13), "either": (1, 14), "ends": (1, 14)}[ace]
    start = rng.randint(low, high - 4)
    return list(range(start, start + 5))


def make_position(rng: random.Random, name: str):
    """A valid table of up to 3 groups, a hand of 3-6 cards over 5 ranks of a few suits."""
    rules = get_rulebook(name)
    values = _window(rng, rules.ace)
    suits = rng.sample(SUITS, rng.choice((2, 3, 3, 4)))
    pool = {(1 if v == 14 else v, s): [Card(1 if v == 14 else v, s, c) for c in range(2)]
            for v in values for s in SUITS}
    jokers = [Card(0, "", j) for j in range(min(2, rules.jokers))]
    table: list[list[Card]] = []
    for _ in range(rng.randint(1, 3)):
        if rng.random() < 0.6:
            s = rng.choice(suits)
            n = rng.randint(3, 4)
            a = rng.randint(0, 5 - n)
            faces = [(1 if v == 14 else v, s) for v in values[a:a + n]]
        else:
            v = rng.choice(values)
            faces = [(1 if v == 14 else v, s) for s in rng.sample(SUITS, 3)]
        if any(not pool[f] for f in faces):
            continue
        slot = rng.randrange(len(faces)) if jokers and rng.random() < 0.4 else -1
        group = []
        for i, (r, s) in enumerate(faces):
            if i == slot:
                group.append(jokers.pop().designate(r, s))
            else:
                group.append(pool[(r, s)].pop())
        table.append(group)
    rest = [c for (_, s), cards in pool.items() if s in suits for c in cards]
    rng.shuffle(rest)
    singles = []
    if rules.singles:
        singles = rest[:rng.randint(0, 2)]
        rest = rest[len(singles):]
        if jokers and rng.random() < 0.3:  # a joker dealt as a single
            singles.append(jokers.pop())
    hand = rest[:rng.randint(3, 6)]
    if jokers and rng.random() < 0.4:
        hand.append(jokers.pop())
    rng.shuffle(hand)
    table += [[c] for c in singles]
    first_lay_done = not rules.first_lay_run3 or rng.random() < 0.5
    return rules, table, hand, singles, first_lay_done


# -- the oracle --------------------------------------------------------------------------------


def legal_moves(rules, table, hand, singles, first_lay_done):
    """Every legal lay (check_move's verdict), as MoveCheck results with their new tables."""
    table_cards = [c for g in table for c in g]
    pool = table_cards + list(hand)
    n_table = len(table_cards)
    single_ids = {id(c) for c in singles}
    groups: dict[int, list[list[Card]]] = {}  # mask -> designated versions of the group
    for mask in _candidate_masks(pool):
        cards = [pool[i] for i in range(len(pool)) if mask >> i & 1]
        if len(cards) == 1:
            if id(cards[0]) in single_ids:
                groups[mask] = [cards]
            continue
        if len(cards) < 3:
            continue
        free = [c.free() for c in cards]
        found = readings(free, rules.ace, max_jokers=rules.max_jokers_per_group)
        if not found:
            continue
        # free() keeps real cards as they are; jokers keep their copy (their identity).
        groups[mask] = [designate(free, reading) for reading in found]
    table_mask = (1 << n_table) - 1
    results = []
    hand_bits = list(range(n_table, len(pool)))
    for pick in range(1, 1 << len(hand_bits)):
        used = table_mask | sum(1 << hand_bits[i] for i in range(len(hand_bits)) if pick >> i & 1)
        for cover in _covers(used, groups):
            for choice in product(*(groups[m] for m in cover)):
                # Groups holding a joker first: check_move pairs a Tahiti locked group with
                # the first new group that holds its cards, which could be another group.
                new_table = sorted((list(g) for g in choice),
                                   key=lambda g: not any(c.is_joker for c in g))
                result = check_move(rules, table, hand, new_table, first_lay_done=first_lay_done,
                                    singles=singles)
                if result.ok:
                    results.append(result)
    return results


def _candidate_masks(pool: list[Card]) -> set[int]:
    """Subsets that could be a group: one card, or cards sharing a suit or a rank, plus jokers."""
    jokers = [i for i, c in enumerate(pool) if c.is_joker]
    joker_masks = [sum(1 << jokers[i] for i in range(len(jokers)) if pick >> i & 1)
                   for pick in range(1 << len(jokers))]
    out = {1 << i for i in range(len(pool))}
    families = [[i for i, c in enumerate(pool) if not c.is_joker and c.suit == s] for s in SUITS]
    families += [[i for i, c in enumerate(pool) if not c.is_joker and c.rank == r]
                 for r in range(1, 14)]
    for family in families:
        for pick in range(1, 1 << len(family)):
            base = sum(1 << family[i] for i in range(len(family)) if pick >> i & 1)
            out.update(base | j for j in joker_masks)
    return out


def _covers(used: int, groups: dict[int, list]):
    """Every partition of the set `used` into group masks."""
    if not used:
        yield []
        return
    low = used & -used
    for mask in groups:
        if mask & low and mask & used == mask:
            for rest in _covers(used & ~mask, groups):
                yield [mask, *rest]


def key(objective: str, rules, result) -> tuple:
    placed, changed = result.placed, result.changed
    if objective == "max_cards":
        return (len(placed), -len(changed))
    if objective == "max_points":
        return (sum(rules.card_value(c) for c in placed), -len(changed))
    if objective == "select":
        return (-len(changed),)
    return (-len(changed), -len(placed))  # hint


def check_identity(move, table, hand) -> None:
    """Every card of the move is an input card (a joker may carry a new designation)."""
    inputs = {id(c) for g in table for c in g} | {id(c) for c in hand}
    jokers = {c.copy for g in table for c in g if c.is_joker} | {c.copy for c in hand if c.is_joker}
    seen = set()
    for group in move.new_table:
        for card in group:
            if card.is_joker:  # designated, unless it is a joker single left alone
                assert (card.designated or len(group) == 1) and card.copy in jokers
                assert card.copy not in seen
                seen.add(card.copy)
            else:
                assert id(card) in inputs
                assert id(card) not in seen
                seen.add(id(card))
    hand_ids = {id(c) for c in hand}
    assert all(id(c) in hand_ids for c in move.placed)


def solver_vs_oracle(rules, table, hand, singles, first_lay_done) -> None:
    moves = legal_moves(rules, table, hand, singles, first_lay_done)

    def solve(expected: bool, label, **options):
        """The solver's move and check_move's verdict on it; None exactly when not expected."""
        move = find_move(rules, table, hand, first_lay_done=first_lay_done, singles=singles,
                         **options)
        if not expected:
            assert move is None, label
            return None, None
        assert move is not None, label
        result = check_move(rules, table, hand, move.new_table, first_lay_done=first_lay_done,
                            singles=singles)
        assert result.ok, (label, result.reason)
        return move, result

    for objective in ("any", "hint", "max_cards", "max_points"):
        move, result = solve(bool(moves), objective, objective=objective)
        if move is None:
            continue
        check_identity(move, table, hand)
        assert sorted(c.face for c in move.placed) == sorted(c.face for c in result.placed)
        assert set(move.changed) == set(result.changed)
        assert move.needs_rearranging == result.needs_rearranging
        if objective != "any":
            best = max(key(objective, rules, r) for r in moves)
            assert key(objective, rules, result) == best, objective
        if objective == "hint":
            assert move.hint_card in move.placed
    # Auto-place: a few selections, legal or not.
    faces = {tuple(sorted(c.face for c in r.placed)) for r in moves}
    rng = random.Random(len(hand))
    for _ in range(3):
        chosen = rng.sample(hand, rng.randint(1, len(hand)))
        want = tuple(sorted(c.face for c in chosen))
        move, result = solve(want in faces, want, select=chosen)
        if move is None:
            continue
        assert sorted(c.face for c in result.placed) == list(want)
        best = max(-len(r.changed) for r in moves if tuple(sorted(c.face for c in r.placed))
                   == want)
        assert -len(result.changed) == best
    # Auto-place's advice: the best hint that lays a chosen card (and any others).
    real = [c for c in hand if not c.is_joker]
    for card in rng.sample(real, min(2, len(real))):
        holding = [r for r in moves if card.face in {c.face for c in r.placed}]
        move, result = solve(bool(holding), card, objective="hint", require=[card])
        if move is None:
            continue
        assert card.face in {c.face for c in result.placed}
        assert key("hint", rules, result) == max(key("hint", rules, r) for r in holding)


@pytest.mark.parametrize("name", ["manipulation", "machiavelli", "shanghai", "guadeloupe"])
@SETTINGS
@given(seed=st.integers(0, 10**9))
def test_no_joker_rulebooks_match_the_oracle(name, seed):
    solver_vs_oracle(*make_position(random.Random(seed), name))


@pytest.mark.parametrize("name", sampled(["carousel", "vatican", "tahiti"], keep={"carousel"}))
@settings(SETTINGS, max_examples=15)
@given(seed=st.integers(0, 10**9))
def test_joker_rulebooks_match_the_oracle(name, seed):
    solver_vs_oracle(*make_position(random.Random(seed), name))
