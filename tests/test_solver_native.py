"""The column search in C (engine/rummy/solver/_c.c) against the same search in Python: identical
answers, identical work-budget accounting (so a cut-short joker answer is the same too)."""

from __future__ import annotations

import random

import pytest

import engine.rummy.solver as solver
import engine.rummy.solver.fast as fast
from engine.rummy.rulebooks import RULEBOOKS, get_rulebook
from engine.rummy.solver import JOKER_BUDGET, _values, find_move
from engine.rummy.solver.columns import WORK
from engine.rummy.solver.model import Position, build_problems
from engine.rummy.solver.positions import random_position

pytestmark = pytest.mark.skipif(not fast.native_available(),
                                reason="the C extension is not built (pip install -e .)")

OBJECTIVES = ("any", "hint", "max_cards", "max_points")


@pytest.fixture
def both():
    """Run a call with the C search, then with the Python one (each one searching: no answer
    from the memo of positions without a lay)."""

    def run(fn, *args, **kw):
        saved = fast.USE_NATIVE, solver.NO_LAY_MEMO
        try:
            solver.NO_LAY_MEMO = 0
            fast.USE_NATIVE = True
            a = fn(*args, **kw)
            fast.USE_NATIVE = False
            b = fn(*args, **kw)
        finally:
            fast.USE_NATIVE, solver.NO_LAY_MEMO = saved
        return a, b

    return run


def _signature(move):
    if move is None:
        return None
    return (tuple(tuple(c.ident for c in g) for g in move.new_table),
            tuple(c.ident for c in move.placed), move.changed, move.needs_rearranging,
            None if move.hint_card is None else move.hint_card.ident)


def _positions(seed: int, count: int, sizes):
    rng = random.Random(seed)
    for i in range(count):
        name = RULEBOOKS[i % len(RULEBOOKS)]
        rules = get_rulebook(name)
        table_size, hand_size = rng.choice(sizes)
        jokers = i % 2 == 1
        pos = random_position(rng, table_size, hand_size, ace=rules.ace,
                              jokers=rules.jokers if jokers else 0,
                              singles=rules.singles if jokers else 0)
        yield rng, rules, pos


@pytest.mark.parametrize("seed", range(4))
def test_find_move_is_the_same_in_c_and_python(seed, both):
    sizes = [(6, 4), (12, 7), (20, 7), (30, 10), (40, 14)]
    for rng, rules, pos in _positions(seed, 28, sizes):
        for objective in OBJECTIVES:
            for first_lay_done in (True, False):
                a, b = both(find_move, rules, pos.table, pos.hand, objective=objective,
                            singles=pos.singles, first_lay_done=first_lay_done)
                assert _signature(a) == _signature(b), (rules.name, objective, first_lay_done)
        if pos.hand:
            select = rng.sample(pos.hand, min(len(pos.hand), rng.randint(1, 4)))
            a, b = both(find_move, rules, pos.table, pos.hand, select=select,
                        singles=pos.singles)
            assert _signature(a) == _signature(b), (rules.name, "select")


def _solve_budgeted(problem, objective, card_value, joker_value):
    budget = [JOKER_BUDGET // 4, WORK[0]]
    start = WORK[0]
    sol = fast.solve_fast(problem, objective, card_value, joker_value, budget)
    return sol, budget[0], budget[1] - start, WORK[0] - start


def test_budget_accounting_is_the_same_in_c_and_python(both):
    """Per joker case: the same solution, the same exactness, the same budget left over."""
    checked = cut = 0
    for _, rules, pos in _positions(7, 24, [(40, 14), (60, 21)]):
        card_value, joker_value = _values(rules)
        for objective in ("hint", "max_cards", "max_points"):
            position = Position(pos.table, pos.hand,
                                [i for i, g in enumerate(pos.table)
                                 if len(g) == 1 and g[0] in pos.singles], None)
            for problem in build_problems(rules, position, objective, True):
                a, b = both(_solve_budgeted, problem, objective, card_value, joker_value)
                assert a == b, (rules.name, objective)
                checked += 1
                cut += a[0] is not None and not a[0].exact
    assert checked > 20 and cut > 0  # some searches really were cut short


def test_the_c_search_is_the_one_used():
    rules = get_rulebook("carousel")
    pos = random_position(random.Random(3), 40, 14, ace=rules.ace, jokers=rules.jokers)
    position = Position(pos.table, pos.hand, [], None)
    card_value, joker_value = _values(rules)
    for problem in build_problems(rules, position, "max_cards", True):
        search = fast._Search(problem, "max_cards", card_value, joker_value, native=True)
        assert search.native is not None


def test_too_many_suit_states_goes_on_in_python(both, monkeypatch):
    """Past its table of suit states the C search hands over to the Python one: without a
    budget the answer is the very same; with one (jokers) it is still deterministic."""
    monkeypatch.setattr(fast, "NATIVE_MAX_STATES", 30)
    dropped = []
    drop = fast._Search._drop_native
    monkeypatch.setattr(fast._Search, "_drop_native",
                        lambda self: dropped.append(1) or drop(self))
    for _, rules, pos in _positions(11, 14, [(40, 14), (60, 21)]):
        a, b = both(find_move, rules, pos.table, pos.hand, objective="max_cards",
                    singles=pos.singles)
        jokers = any(c.is_joker for g in [*pos.table, pos.hand] for c in g)
        if not jokers:
            assert _signature(a) == _signature(b), rules.name
        fast.USE_NATIVE = True
        again = find_move(rules, pos.table, pos.hand, objective="max_cards", singles=pos.singles)
        assert _signature(again) == _signature(a), rules.name
    assert dropped
