"""Issue 45: the solver under Rummikub's joker rule against a brute-force oracle.

Small positions around a table joker (a few numbers, every colour, so that the table's tiles,
the joker and the rack really interact): the oracle tries every partition of the table's tiles
and each subset of the rack into combinations, every reading of every joker, and keeps what
`check_move` accepts. `find_move` must answer exactly as much (None only when the oracle finds
nothing) and only with moves `check_move` accepts — so no computer, hint, Auto-place or review
proposes a joker freed by a table tile, and none misses a lay the rule allows."""

from __future__ import annotations

import random
from itertools import combinations, product

import pytest

from engine.rummy import check_move, find_move, get_rulebook
from engine.rummy.melds import designate, readings
from engine.rummy.tiles import Tile

RK = get_rulebook("rummikub")
COLOURS = "SHDC"  # the suits underneath black, red, blue, orange (engine/rummy/tiles.py)


def _position(rng: random.Random):
    """Two table combinations over the numbers low..low+3, one holding a designated joker, and
    a rack of four tiles from what is left of those numbers."""
    low = rng.randint(1, 10)
    pool = [Tile(r, s, c) for r in range(low, low + 4) for s in COLOURS for c in (0, 1)]
    rng.shuffle(pool)

    def take(rank: int, suit: str) -> Tile | None:
        for i, tile in enumerate(pool):
            if tile.rank == rank and tile.suit == suit:
                return pool.pop(i)
        return None

    table = []
    joker = Tile(0, "", 0)
    for n in range(2):
        for _ in range(20):
            if rng.random() < 0.5:
                suit, start = rng.choice(COLOURS), rng.randint(low, low + 1)
                faces = [(v, suit) for v in range(start, start + 3)]
            else:
                rank = rng.randint(low, low + 3)
                faces = [(rank, s) for s in rng.sample(COLOURS, rng.choice((3, 3, 4)))]
            slot = rng.randrange(len(faces)) if n == 0 else -1
            tiles = [None if i == slot else take(*f) for i, f in enumerate(faces)]
            if all(t is not None for i, t in enumerate(tiles) if i != slot):
                group = [joker.designate(*faces[i]) if i == slot else t
                         for i, t in enumerate(tiles)]
                table.append(group)
                break
            pool.extend(t for t in tiles if t is not None)
    hand = pool[:4]
    if rng.random() < 0.3 and not any(c.is_joker for c in table[-1]):  # the other joker too
        k = rng.randrange(len(table[-1]))
        tile = table[-1][k]
        table[-1][k] = Tile(0, "", 1).designate(tile.rank, tile.suit)
    elif rng.random() < 0.3:  # or in the rack
        hand[-1] = Tile(0, "", 1)
    return table, hand


def _blocks(items: list) -> list[list[list]]:
    """Every partition of `items` into blocks of three or more."""
    if not items:
        return [[]]
    first, rest = items[0], items[1:]
    out = []
    for size in range(2, min(len(rest), 12) + 1):
        for others in combinations(range(len(rest)), size):
            block = [first] + [rest[i] for i in others]
            if not readings([c.free() for c in block], RK.ace):
                continue
            left = [c for i, c in enumerate(rest) if i not in others]
            out += [[block, *tail] for tail in _blocks(left)]
    return out


def _versions(block: list) -> list[list]:
    """The block with its jokers as they are, or freed and read every way it is valid."""
    out = []
    jokers = [i for i, c in enumerate(block) if c.is_joker]
    for free in product((False, True), repeat=len(jokers)):
        cards = [c.free() if c.is_joker and (not c.designated or free[jokers.index(i)]) else c
                 for i, c in enumerate(block)]
        for reading in readings(cards, RK.ace):
            out.append(designate(cards, reading))
    return out


def _oracle_most(table, hand) -> int:
    """The most rack tiles a legal move lays (0: none)."""
    reals = [c for g in table for c in g]
    best = 0
    seen = set()
    for size in range(len(hand), 0, -1):
        if size <= best:
            break
        for chosen in combinations(hand, size):
            key = tuple(sorted(c.face for c in chosen))
            if key in seen:
                continue
            seen.add(key)
            for partition in _blocks(reals + list(chosen)):
                if any(check_move(RK, table, hand, list(new)).ok
                       for new in product(*(_versions(b) for b in partition))):
                    best = size
                    break
            if best == size:
                break
    return best


@pytest.mark.parametrize("seed", range(80))
def test_the_solver_lays_as_much_as_the_rule_allows_and_nothing_it_refuses(seed):
    rng = random.Random(4500 + seed)
    table, hand = _position(rng)
    most = _oracle_most(table, hand)
    for objective in ("max_cards", "any", "hint"):
        move = find_move(RK, table, hand, objective=objective)
        assert (move is None) == (most == 0), (objective, table, hand, most)
        if move is not None:
            check = check_move(RK, table, hand, [list(g) for g in move.new_table])
            assert check.ok, (check.reason, table, hand, move.new_table)
            if objective == "max_cards":
                assert len(move.placed) == most, (table, hand, move.new_table)
