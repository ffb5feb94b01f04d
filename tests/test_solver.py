"""The move solver on concrete positions from RULES.md, and against its reference search."""

from __future__ import annotations

import random

import pytest

from engine.cards import Card, parse_cards
from engine.rummy.melds import arrange, group_reading
from engine.rummy.moves import check_move
from engine.rummy.rulebooks import get_rulebook
from engine.rummy.solver import find_move
from engine.rummy.solver.positions import random_position

OBJECTIVES = ("any", "hint", "max_cards", "max_points")


def P(text: str) -> list[Card]:
    return parse_cards(text)


def solve(name, table, hand, objective="max_cards", **kw):
    """Parse, solve, and check the answer with the referee (and the identity rules)."""
    rules = get_rulebook(name)
    table = [P(g) if isinstance(g, str) else g for g in table]
    hand = P(hand) if isinstance(hand, str) else hand
    move = find_move(rules, table, hand, objective=objective, **kw)
    if move is not None:
        check = check_move(rules, table, hand, move.new_table,
                           first_lay_done=kw.get("first_lay_done", True),
                           singles=kw.get("singles", ()))
        assert check.ok, check.reason
        assert set(move.changed) == set(check.changed)
        assert move.needs_rearranging == check.needs_rearranging
        assert all(any(c is h for h in hand) for c in move.placed)
        for group in move.new_table:
            if len(group) > 1:
                reading = group_reading(group, rules.ace)
                assert list(group) == arrange(group, reading)  # canonical order
                assert all(c.designated for c in group if c.is_joker)
    return move


def faces(cards) -> list[str]:
    return sorted(c.face for c in cards)


def table_text(move) -> list[str]:
    return sorted(" ".join(str(c) for c in g) for g in move.new_table)


# -- Manipulation (ace high, must lay) ----------------------------------------------------------


def test_q_k_a_is_a_run_and_k_a_2_is_not():
    move = solve("manipulation", ["QH KH AH"], "JH 2H")
    assert faces(move.placed) == ["JH"]
    assert table_text(move) == ["JH QH KH AH"]


def test_a_card_that_fits_only_after_splitting_a_run():
    for objective in OBJECTIVES:
        move = solve("manipulation", ["3H 4H 5H 6H 7H", "9S 9H 9D"], "5H 2C", objective)
        assert faces(move.placed) == ["5H"]
        assert move.needs_rearranging and move.changed == (0,)
        assert table_text(move) == ["3H 4H 5H", "5H 6H 7H", "9S 9H 9D"]


def test_take_a_card_off_a_run_to_make_a_set():
    move = solve("manipulation", ["4S 5S 6S 7S"], "7H 7D KC")
    assert faces(move.placed) == ["7D", "7H"]
    assert table_text(move) == ["4S 5S 6S", "7S 7H 7D"]


def test_no_lay_is_a_proof():
    for objective in OBJECTIVES:
        assert solve("manipulation", ["9S 9H 9D", "4C 5C 6C"], "2H 5D JS KC", objective) is None
    # An ace is never low in Manipulation: A-2-3 is no run.
    assert solve("manipulation", [], "AH 2H 3H", "any") is None
    assert solve("shanghai", [], "AH 2H 3H", "any") is not None


def test_hint_prefers_a_new_group_that_changes_nothing():
    move = solve("manipulation", ["9S 9H 9D"], "5H 6H 7H 9C", "hint")
    assert move.changed == () and not move.needs_rearranging
    assert faces(move.placed) == ["5H", "6H", "7H"]
    assert move.hint_card in move.placed


def test_hint_one_card_growing_one_group():
    move = solve("manipulation", ["9S 9H 9D", "4C 5C 6C"], "9C 2H", "hint")
    assert faces(move.placed) == ["9C"] and move.changed == (0,)
    assert not move.needs_rearranging and move.hint_card.face == "9C"


def test_max_cards_lays_everything_it_can_keeping_groups():
    move = solve("manipulation", ["9S 9H 9D", "4C 5C 6C"], "9C 7C 3C 5H 6H 7H 2D")
    assert faces(move.placed) == sorted(["9C", "7C", "3C", "5H", "6H", "7H"])
    assert move.changed == (0, 1)  # both grow: 9S 9H 9D 9C and 3C-7C


def test_max_points_never_lays_fewer_points_than_max_cards():
    rules = get_rulebook("manipulation")
    rng = random.Random(3)
    for _ in range(10):
        pos = random_position(rng, 20, 7, ace=rules.ace)
        by_cards = find_move(rules, pos.table, pos.hand, objective="max_cards")
        by_points = find_move(rules, pos.table, pos.hand, objective="max_points")
        assert (by_cards is None) == (by_points is None)
        if by_cards is not None:
            points = [sum(rules.card_value(c) for c in m.placed) for m in (by_cards, by_points)]
            assert points[1] >= points[0] and len(by_points.placed) <= len(by_cards.placed)


def test_select_places_exactly_the_selected_cards():
    rules = get_rulebook("manipulation")
    table = [P("4S 5S 6S 7S"), P("9S 9H 9D")]
    hand = P("7H 7D 9C KC")
    move = find_move(rules, table, hand, select=hand[:2])
    assert move.placed == tuple(hand[:2])
    assert check_move(rules, table, hand, move.new_table).ok
    assert find_move(rules, table, hand, select=[hand[3]]) is None
    assert find_move(rules, table, hand, select=[]) is None
    # The fewest groups change: 9C grows the set, nothing else moves.
    move = find_move(rules, table, hand, select=[hand[2]])
    assert move.changed == (1,) and not move.needs_rearranging
    with pytest.raises(ValueError):
        find_move(rules, table, hand, select=P("2C"))


def test_the_cards_are_the_very_input_cards():
    rules = get_rulebook("manipulation")
    table = [P("3H 4H 5H 6H 7H")]
    hand = P("5H 8H")
    move = find_move(rules, table, hand, objective="max_cards")
    ids = {id(c) for c in table[0]} | {id(c) for c in hand}
    assert all(id(c) in ids for g in move.new_table for c in g)
    assert len({id(c) for g in move.new_table for c in g}) == 7


# -- Jokers -------------------------------------------------------------------------------------


def test_carousel_joker_freed_by_the_real_card():
    move = solve("carousel", ["5H *6H 7H"], "6H 8H")
    assert faces(move.placed) == ["6H", "8H"]
    jokers = [c for g in move.new_table for c in g if c.is_joker]
    assert len(jokers) == 1 and jokers[0].play_face != "6H"


def test_carousel_joker_keeps_its_card_until_freed():
    move = solve("carousel", ["5H *6H 7H 8H", "4S 5S 6S"], "9H")
    assert [c.play_face for g in move.new_table for c in g if c.is_joker] == ["6H"]


def test_vatican_first_lay_needs_a_run_of_three_from_the_hand():
    for objective in OBJECTIVES:
        move = solve("vatican", ["9S 9H 9D"], "5H 6H 7H 9C", objective, first_lay_done=False)
        assert {"5H", "6H", "7H"} <= set(faces(move.placed))
        assert solve("vatican", ["9S 9H 9D"], "5H 5S 5D 9C", objective,
                     first_lay_done=False) is None
        # A joker is not one of the three.
        assert solve("vatican", [], "5H * 7H", objective, first_lay_done=False) is None


def test_vatican_joker_stays_beside_a_neighbour():
    move = solve("vatican", ["3H 4H 5H *6H 7H 8H 9H"], "7H")
    assert check_move(get_rulebook("vatican"), [P("3H 4H 5H *6H 7H 8H 9H")], P("7H"),
                      move.new_table).ok


def test_tahiti_locked_group_only_grows_from_the_hand():
    move = solve("tahiti", ["5H *6H 7H 8H", "8S 8D 8C"], "9H")
    assert table_text(move) == ["5H *6H 7H 8H 9H", "8S 8D 8C"]
    assert solve("tahiti", ["5H *6H 7H", "8S 8D 8C 8H"], "2C", "any") is None


def test_tahiti_real_card_from_hand_frees_the_joker():
    move = solve("tahiti", ["5H *6H 7H", "9S 9D 9C"], "6H")
    assert faces(move.placed) == ["6H"]
    assert any(c.is_joker for g in move.new_table for c in g)


def test_tahiti_one_joker_per_group_and_singles():
    singles = P("5H KS")
    table = [[c] for c in singles]
    move = solve("tahiti", table, P("6H 7H"), singles=singles)
    assert faces(move.placed) == ["6H", "7H"]
    assert table_text(move) == ["5H 6H 7H", "KS"]
    move = solve("tahiti", [], "5H * * 9C", "max_cards")
    assert move is None or all(sum(c.is_joker for c in g) <= 1 for g in move.new_table)


def test_tahiti_joker_dealt_as_a_single_may_stay_alone():
    singles = P("* 5H")
    table = [[c] for c in singles]
    for objective in OBJECTIVES:
        move = solve("tahiti", table, P("6H 7H 2C"), objective, singles=singles)
        assert faces(move.placed) == ["6H", "7H"]
    move = solve("tahiti", table, P("9S 9D 9C"), "hint", singles=singles)
    assert move.changed == () and faces(move.placed) == ["9C", "9D", "9S"]
    # The joker single may also go into a group.
    move = solve("tahiti", table, P("6H 2C"), "max_cards", singles=singles)
    assert faces(move.placed) == ["6H"] and table_text(move) in (["*4H 5H 6H"], ["5H 6H *7H"])


# -- The fast search against the reference search on bigger positions ---------------------------


@pytest.mark.parametrize("name", ["manipulation", "machiavelli", "shanghai"])
def test_fast_search_matches_the_reference_search(name):
    rules = get_rulebook(name)
    rng = random.Random(name)
    for _ in range(8):
        pos = random_position(rng, 15, 6, ace=rules.ace)
        for objective in ("hint", "max_cards", "max_points"):
            fast = find_move(rules, pos.table, pos.hand, objective=objective)
            slow = find_move(rules, pos.table, pos.hand, objective=objective, reference=True)
            assert (fast is None) == (slow is None)
            if fast is None:
                continue
            assert _key(rules, objective, fast) == _key(rules, objective, slow)
            assert check_move(rules, pos.table, pos.hand, fast.new_table).ok


def _key(rules, objective, move):
    if objective == "max_cards":
        return (len(move.placed), -len(move.changed))
    if objective == "max_points":
        return (sum(rules.card_value(c) for c in move.placed), -len(move.changed))
    return (-len(move.changed), -len(move.placed))


def test_big_positions_answer_and_are_legal():
    rules = get_rulebook("manipulation")
    rng = random.Random(7)
    for size, hand in ((60, 21), (85, 19)):
        pos = random_position(rng, size, hand, ace=rules.ace)
        for objective in OBJECTIVES:
            move = find_move(rules, pos.table, pos.hand, objective=objective)
            assert move is not None
            assert check_move(rules, pos.table, pos.hand, move.new_table).ok


def _clear_shared_caches() -> None:
    from engine.rummy import solver
    from engine.rummy.solver import columns as sc

    solver._NO_LAY.clear()
    for name in dir(sc):
        obj = getattr(sc, name)
        if hasattr(obj, "cache_clear"):
            obj.cache_clear()
        elif name.isupper() and name.startswith("_") and isinstance(obj, dict):
            obj.clear()


def test_answers_do_not_depend_on_earlier_calls():
    """With jokers a work budget may cut the search short; what it returns must depend only on
    the position (a computer's move is replayed from the view), not on what the caches shared
    between calls already hold."""
    rules = get_rulebook("manipulation")
    positions = [random_position(random.Random(seed), 60, 21, ace=rules.ace, jokers=2)
                 for seed in range(5)]  # most are cut short (a cut may change the answer)

    def answers():
        out = []
        for pos in positions:
            move = find_move(rules, pos.table, pos.hand, objective="max_points")
            out.append(None if move is None else [[c.ident for c in g] for g in move.new_table])
        return out

    _clear_shared_caches()
    cold = answers()
    warm = answers()  # every table each search needs is now cached
    assert cold == warm
    _clear_shared_caches()
    assert answers() == cold


def test_effort_bounds_the_work_and_keeps_answers_legal():
    """`effort` (a computer's what-ifs): unbounded it finds what the default finds; bounded it
    may give up (None is then no proof), but what it returns is legal and the same each time."""
    rules = get_rulebook("vatican")
    gave_up = 0
    for seed in range(4):
        pos = random_position(random.Random(seed), 30, 40, ace=rules.ace, jokers=2)
        kw = dict(objective="any", select=pos.hand, first_lay_done=False)
        exact = find_move(rules, pos.table, pos.hand, **kw)
        unbounded = find_move(rules, pos.table, pos.hand, effort=10**9, **kw)
        assert (unbounded is None) == (exact is None)  # (the joker budget may pick another)
        if unbounded is not None:
            assert check_move(rules, pos.table, pos.hand, unbounded.new_table,
                              first_lay_done=False).ok
        for objective in ("max_cards", "any"):
            bounded = find_move(rules, pos.table, pos.hand, objective=objective, effort=2000)
            assert bounded == find_move(rules, pos.table, pos.hand, objective=objective,
                                        effort=2000)
            if bounded is None:
                gave_up += 1
            else:
                assert check_move(rules, pos.table, pos.hand, bounded.new_table).ok
        small = find_move(rules, pos.table, pos.hand, effort=50, **kw)
        gave_up += small is None and exact is not None
    assert gave_up  # some bounded search did stop short


def test_a_proved_no_lay_is_remembered_and_nothing_else():
    """The memo of positions without a lay holds proofs only: not a search cut short by its
    effort, not a position with a lay, not "these selected cards can't go"."""
    from engine.rummy import solver

    rules = get_rulebook("manipulation")
    table, hand = [P("5H 6H 7H"), P("9S 9D 9C")], P("2C KD")
    kw = dict(first_lay_done=True)
    solver._NO_LAY.clear()
    assert not solver.no_lay_proved(rules, table, hand, **kw)
    assert find_move(rules, table, hand, objective="max_points") is None
    assert solver.no_lay_proved(rules, table, hand, **kw)
    assert solver.no_lay_proved(rules, [list(g) for g in table], list(hand), **kw)  # by value
    assert not solver.no_lay_proved(rules, table, hand, first_lay_done=False)
    assert not solver.no_lay_proved(get_rulebook("shanghai"), table, hand, **kw)
    for objective in OBJECTIVES:
        assert find_move(rules, table, hand, objective=objective) is None
    layable = P("2C 8H")
    assert find_move(rules, table, layable, select=layable[:1]) is None  # 2C can't go...
    assert not solver.no_lay_proved(rules, table, layable, **kw)  # ...but 8H can
    assert find_move(rules, table, layable) is not None
    assert not solver.no_lay_proved(rules, table, layable, **kw)

    # A search that gives up within its effort proves nothing.
    vatican = get_rulebook("vatican")
    cut = 0
    for seed in range(6):
        pos = random_position(random.Random(seed), 30, 40, ace=vatican.ace, jokers=2)
        solver._NO_LAY.clear()
        bounded = find_move(vatican, pos.table, pos.hand, objective="max_cards", effort=50)
        exact = find_move(vatican, pos.table, pos.hand, objective="any")
        if bounded is None and exact is not None:
            cut += 1
            assert not solver.no_lay_proved(vatican, pos.table, pos.hand)
    assert cut
