"""The solver under Rummikub's rules: the initial meld (exact against a brute-force oracle),
regular turns with jokers, wrap=on; every answer is a legal lay by check_move."""

from __future__ import annotations

import random
from itertools import combinations

import pytest

from engine.rummy import check_move, find_move, get_rulebook, is_meld, parse_cards
from engine.rummy.melds import readings
from engine.rummy.tile_rules import meld_value
from engine.rummy.tiles import make_tiles

RK = get_rulebook("rummikub")


def T(text: str):
    return parse_cards(text, RK)


def _groups(rules, hand) -> list[tuple[frozenset, int]]:
    """Every combination `hand` holds, as (its tiles' indexes, its value), one per reading."""
    groups = []
    for size in range(3, len(hand) + 1):
        for combo in combinations(range(len(hand)), size):
            cards = [hand[i] for i in combo]
            for reading in readings(cards, rules.ace) if is_meld(rules, cards) else ():
                value = sum(c.rank for c in cards if not c.is_joker)
                value += sum(r for r, _ in reading.joker_faces)
                groups.append((frozenset(combo), value))
    return groups


def _oracle_best(rules, hand) -> int:
    """The most an initial meld from `hand` is worth, by trying every set of groups."""
    groups = _groups(rules, hand)
    best = 0

    def search(start: int, used: frozenset, total: int) -> None:
        nonlocal best
        best = max(best, total)
        for i in range(start, len(groups)):
            tiles, value = groups[i]
            if not tiles & used:
                search(i + 1, used | tiles, total + value)

    search(0, frozenset(), 0)
    return best


def _value(rules, move) -> int:
    laid = {id(c) for c in move.placed}
    return sum(meld_value(rules, g) for g in move.new_table if any(
        id(c) in laid or c.is_joker for c in g))


@pytest.mark.parametrize("seed", range(40))
def test_initial_meld_is_the_most_valuable_and_none_is_a_proof(seed):
    rng = random.Random(seed)
    tiles = make_tiles(2, 2)
    rng.shuffle(tiles)
    hand = tiles[:9]
    rules = get_rulebook("rummikub", initial_meld=rng.choice([30, 20]))
    best = _oracle_best(rules, hand)
    move = find_move(rules, [], hand, objective="max_points", first_lay_done=False)
    if best < rules.first_lay_points:
        assert move is None
        return
    assert move is not None
    assert check_move(rules, [], hand, move.new_table, first_lay_done=False).ok
    assert _value(rules, move) == best
    anyone = find_move(rules, [], hand, objective="any", first_lay_done=False)
    assert anyone is not None and _value(rules, anyone) >= rules.first_lay_points


def _oracle_most_tiles(rules, hand) -> tuple[int, int]:
    """The most tiles an initial meld from `hand` lays that reaches the threshold, then the
    most points among those: (tiles, points), (0, 0) for none; every set of groups tried."""
    groups = _groups(rules, hand)
    best = (0, 0)

    def search(start: int, used: frozenset, total: int) -> None:
        nonlocal best
        if total >= rules.first_lay_points:
            best = max(best, (len(used), total))
        for i in range(start, len(groups)):
            tiles, value = groups[i]
            if not tiles & used:
                search(i + 1, used | tiles, total + value)

    search(0, frozenset(), 0)
    return best


@pytest.mark.parametrize("seed", range(30))
def test_initial_meld_with_jokers_in_the_rack_is_exact(seed):
    """A rack with one or two jokers (the search lets a joker stand only for a tile the rack
    lacks, a swap that keeps tiles and points): the most points, and the most tiles, exact."""
    rng = random.Random(f"jokers/{seed}")
    tiles = make_tiles(2, 2)
    real = [t for t in tiles if not t.is_joker]
    # tiles near each other in a colour or a rank, so groups and runs can be made
    colour = rng.choice("SHDC")
    near = [t for t in real if t.suit == colour and 3 <= t.rank <= 9]
    near += [t for t in real if t.rank in (7, 8) and t.suit != colour]
    hand = rng.sample(near, 8) + [t for t in tiles if t.is_joker][: 1 + seed % 2]
    rules = get_rulebook("rummikub")
    best = _oracle_best(rules, hand)
    move = find_move(rules, [], hand, objective="max_points", first_lay_done=False)
    if best < rules.first_lay_points:
        assert move is None
    else:
        assert move is not None and _value(rules, move) == best
        assert check_move(rules, [], hand, move.new_table, first_lay_done=False).ok
    most = _oracle_most_tiles(rules, hand)
    move = find_move(rules, [], hand, objective="max_cards", first_lay_done=False)
    if most == (0, 0):
        assert move is None
        return
    assert move is not None
    assert check_move(rules, [], hand, move.new_table, first_lay_done=False).ok
    assert (len(move.placed), _value(rules, move)) == most


def test_initial_meld_seed_examples_and_jokers_valued_as_their_tile():
    move = find_move(RK, [], T("10R 11R 12R 2B 7O"), objective="max_points",
                     first_lay_done=False)
    assert [str(c) for c in move.new_table[0]] == ["10R", "11R", "12R"]
    assert find_move(RK, [], T("2R 2B 2O 3R 3B 3O 9K"), first_lay_done=False) is None
    jokers = find_move(RK, [], T("12K 13K * * 4B"), objective="max_points",
                       first_lay_done=False)
    # 10-11-12-13 black with the jokers as 10 and 11 (46), not 12-13 and a group
    assert _value(RK, jokers) == 46


def test_initial_meld_leaves_the_table_alone():
    table = [T("5B 6B 7B")]
    hand = T("8B 10R 11R 12R")
    move = find_move(RK, table, hand, objective="max_cards", first_lay_done=False)
    assert [str(c) for c in move.new_table[0]] == ["5B", "6B", "7B"]  # 8B not added
    assert [c.face for c in move.placed] == ["10R", "11R", "12R"]


def test_initial_meld_select_and_require():
    hand = T("10R 11R 12R 10B 10K 5O")
    chosen = find_move(RK, [], hand, select=hand[:3], first_lay_done=False)
    assert chosen is not None and set(chosen.placed) == set(hand[:3])
    assert find_move(RK, [], hand, select=hand[3:5], first_lay_done=False) is None
    req = find_move(RK, [], hand, require=[hand[3]], objective="max_points",
                    first_lay_done=False)
    assert hand[3] in req.placed


def _tile_position(rng: random.Random, table_size: int, hand_size: int, jokers_in_hand: int):
    from engine.rummy.solver.positions import random_position
    from engine.rummy.tiles import Tile

    pos = random_position(rng, table_size, hand_size + 4, ace="low", jokers=2, joker_groups=0.6)

    def tile(c):
        return Tile(c.rank, c.suit, c.copy, c.as_rank, c.as_suit)

    table = [[tile(c) for c in g] for g in pos.table]
    on_table = sum(c.is_joker for g in table for c in g)
    hand = [tile(c) for c in pos.hand if not c.is_joker][:hand_size - jokers_in_hand]
    hand += [Tile(0, "", 1 - j) for j in range(min(jokers_in_hand, 2 - on_table))]
    return table, hand


@pytest.mark.parametrize("seed", range(25))
def test_regular_turn_answers_are_legal_and_as_big_as_the_reference(seed):
    rng = random.Random(1000 + seed)
    table, hand = _tile_position(rng, 12, 6, 2)
    for objective in ("any", "max_cards"):
        move = find_move(RK, table, hand, objective=objective)
        ref = find_move(RK, table, hand, objective=objective, reference=True)
        assert (move is None) == (ref is None)
        if move is not None:
            assert check_move(RK, table, hand, move.new_table).ok
            if objective == "max_cards":
                assert len(move.placed) == len(ref.placed)


def test_regular_turn_frees_a_joker_only_into_a_new_group_with_rack_tiles():
    table = [T("5R 6R *7R"), T("9K 10K 11K")]
    # 7R would free the joker, which has no new group with two rack tiles to go to: no lay
    # (the column search's answer, the joker onto 9-10-11 black, is refused)
    assert find_move(RK, table, T("7R 2B"), objective="max_cards") is None
    kept = find_move(RK, table, T("7R 8R 12K"), objective="max_cards")
    assert kept is not None and check_move(RK, table, T("7R 8R 12K"), kept.new_table).ok
    freed = find_move(RK, table, T("7R 3O 4O"), objective="max_cards")
    assert len(freed.placed) == 3  # 3O 4O with the freed joker, 7R in its place


def test_wrap_on_finds_runs_past_13():
    wrap = get_rulebook("rummikub", wrap="on")
    meld = find_move(wrap, [], T("12K 13K 1K 5B"), objective="max_points",
                     first_lay_done=False)
    assert meld is None  # 26 < 30
    meld = find_move(wrap, [], T("11K 12K 13K 1K"), objective="max_points",
                     first_lay_done=False)
    assert meld is not None and _value(wrap, meld) == 37
    assert find_move(RK, [], T("11K 12K 13K 1K"), objective="max_points",
                     first_lay_done=False).placed == tuple(T("11K 12K 13K 1K")[:3])
    table = [T("11B 12B 13B")]
    move = find_move(wrap, table, T("1B 2B 7O"), objective="max_cards")
    assert move is not None and len(move.placed) == 2
    assert check_move(wrap, table, T("1B 2B 7O"), move.new_table).ok
    assert find_move(RK, table, T("1B 2B 7O"), objective="max_cards") is None


def test_a_3_tile_group_joker_is_freed_by_the_other_missing_colour_too():
    table = [T("7R 7B *7K")]
    move = find_move(RK, table, T("7O 2O 3O"), objective="max_cards")
    assert move is not None and len(move.placed) == 3
    assert check_move(RK, table, T("7O 2O 3O"), move.new_table).ok
