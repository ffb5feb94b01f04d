"""The move solver: a legal lay, the hint, the biggest lay, or "place these selected cards".

`find_move` is exact: it returns None only when no legal lay exists. It works on a face-level
model of the position (engine/rummy/solver/model.py: the joker cases become separate problems),
solves
each problem (engine/rummy/solver/fast.py, with engine/rummy/solver/simple.py as the reference
search), and
rebuilds the winning partition from the physical cards of the table and the hand.
"""

from __future__ import annotations

import gc
import threading
from collections import Counter, OrderedDict
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, replace
from typing import Any

from engine.cards import Card

from ..melds import Reading, arrange
from ..rulebooks import Rulebook
from .columns import WORK
from .fast import solve_fast, trim_caches
from .initial import best_meld
from .model import (
    NF,
    SUIT_INDEX,
    Position,
    Problem,
    build_problems,
    card_face,
    face_rank,
    face_suit,
    homed_cases,
)
from .quick import quick_lay
from .simple import Solution, group_fits, score_key, solve_simple

OBJECTIVES = ("any", "hint", "max_cards", "max_points")
SIMPLE_LIMIT = 20  # cards in play up to which the reference search stands in for the fast one
JOKER_BUDGET = 4000  # states expanded + tables built by a search with jokers, per call
HOMES_PER_SEARCH = 96  # Rummikub: freed jokers' homes tried in one call (model.homed_cases)
_LOCK = threading.Lock()  # the fast search shares caches between calls
STATS: Counter[str] = Counter()  # "calls", "cut": answers a joker budget cut short
# Positions proved to have no lay at all, most recent last. A turn without a lay asks the same
# question several times — the computer's biggest lay, then any lay; the game's must-lay check
# on Draw, hint then any — and every answer after the first is this lookup. Only proofs go in
# (never a search cut short by `effort`), so answers don't depend on earlier calls.
NO_LAY_MEMO = 1024  # positions kept (a few MB); 0 turns it off (tests comparing two searches)
_NO_LAY: OrderedDict[tuple, None] = OrderedDict()
_NO_LAY_LOCK = threading.Lock()  # the bot searches in worker threads


@dataclass(frozen=True)
class Move:
    new_table: tuple[tuple[Card, ...], ...]  # groups in canonical order, every joker designated
    placed: tuple[Card, ...]  # the hand cards laid: the very Card objects of `hand`
    changed: tuple[int, ...]  # indices of the old groups it touched (not left exactly as they were)
    needs_rearranging: bool  # False when the lay only adds new groups or extends groups
    hint_card: Card | None = None  # objective "hint": the one hand card to show


def find_move(
    rulebook: Rulebook,
    table: Sequence[Sequence[Card]],
    hand: Sequence[Card],
    *,
    objective: str = "any",
    first_lay_done: bool = True,
    singles: Sequence[Card] = (),
    select: Sequence[Card] | None = None,
    require: Sequence[Card] = (),
    reference: bool = False,
    effort: int | None = None,
) -> Move | None:
    """A legal lay from `hand` onto `table` under `rulebook`, or None when there is none.

    objective: "any" (some lay, fastest), "hint" (fewest changed groups, then fewest cards),
    "max_cards" / "max_points" (most cards / penalty points laid, then fewest changed groups).
    `select`: lay exactly these hand cards (Auto-place), changing as few groups as possible.
    `require`: lay at least these hand cards (no jokers), with any others `objective` picks.
    Tahiti's unused `singles` are 1-card groups of `table` too (as for check_move).
    `reference`: answer with the slow exhaustive search instead (benchmarks, tests).
    `effort`: stop after this many work units (states expanded, tables built; the same for
    the same position, so answers stay deterministic) — then None means "none found within
    the effort", not a proof. For a computer player's what-ifs, never for the rules.
    """
    if objective not in OBJECTIVES:
        raise ValueError(f"Unknown objective {objective!r}: use one of {', '.join(OBJECTIVES)}")
    table = [list(g) for g in table]
    hand = list(hand)
    if select is not None:
        select = _selected(hand, select)
        if not select:
            return None
        objective = "select"
    if require:
        if select is not None or any(c.is_joker for c in require):
            raise ValueError("require names hand cards other than jokers, without select")
        require = _selected(hand, require)
    if rulebook.first_lay_points and not first_lay_done:  # Rummikub's initial meld
        return _initial_meld(rulebook, table, hand, objective, select, require)
    if rulebook.joker_rule == "rack-frees" or rulebook.ace == "wrap":
        return _tile_move(rulebook, table, hand, objective=objective, singles=singles,
                          select=select, require=require, reference=reference, effort=effort)
    return _find_move(rulebook, table, hand, objective=objective, first_lay_done=first_lay_done,
                      singles=singles, select=select, require=require, reference=reference,
                      effort=effort)


def _find_move(rulebook: Rulebook, table: list[list[Card]], hand: list[Card], *, objective: str,
               first_lay_done: bool, singles: Sequence[Card], select: list[Card] | None,
               require: Sequence[Card], reference: bool, effort: int | None,
               freeing: bool = True) -> Move | None:
    """find_move after its arguments are checked (`freeing`: see model.build_problems)."""
    memo = NO_LAY_MEMO and not reference and freeing
    key = _position_key(rulebook, table, hand, first_lay_done, singles) if memo else None
    if key is not None and _known_no_lay(key):
        return None
    pos = Position(table, hand, _single_groups(table, singles), select, require)
    if objective in ("any", "hint") and not reference and not require:
        quick = quick_lay(rulebook, table, hand, objective=objective,
                          first_lay_done=first_lay_done, singles=singles)
        if quick is False:
            _proved_no_lay(key)
            return None
        if quick is not None:
            new_table, placed, check = quick
            hint = placed[0] if objective == "hint" else None
            return Move(tuple(tuple(g) for g in new_table), placed, check.changed,
                        check.needs_rearranging, hint)
    card_value, joker_value = _values(rulebook)
    problems = build_problems(rulebook, pos, objective, first_lay_done, freeing=freeing)
    if reference:  # the exhaustive search alone: the benchmark's and the tests' yardstick
        best = None
        for problem in problems:
            sol = solve_simple(problem, objective, card_value, joker_value)
            best = _better(best, problem, sol, objective)
        return None if best is None else _rebuild(rulebook, pos, best[1], best[2], objective)
    jokers = any(p.wild_m or p.wild_o or p.fixed for p in problems)
    if effort is not None:
        budget = [effort, WORK[0]]
    else:
        budget = [JOKER_BUDGET, WORK[0]] if jokers else None
    STATS["calls"] += 1
    # The search makes many small tuples and no cycles; the collector would only rescan the
    # caches kept between calls, so it pauses meanwhile.
    collecting = gc.isenabled()
    gc.disable()
    try:
        with _LOCK:
            trim_caches()
            best = _search_all(rulebook, pos, problems, objective, first_lay_done, card_value,
                               joker_value, budget, effort is not None)
    finally:
        if collecting:
            gc.enable()
    if best is None:
        if objective != "select" and not require and not _spent(budget):
            _proved_no_lay(key)  # an answer within the effort (or none asked): a proof
        return None
    if not best[2].exact:
        STATS["cut"] += 1
    return _rebuild(rulebook, pos, best[1], best[2], objective)


def _initial_meld(rulebook: Rulebook, table: list[list[Card]], hand: list[Card], objective: str,
                  select: list[Card] | None, require: Sequence[Card]) -> Move | None:
    """Rummikub's initial meld (engine/rummy/solver/initial.py): the table stays as it is and new
    groups from the rack reach `first_lay_points`; None is a proof there is none."""
    groups = best_meld(rulebook.ace, hand, need=rulebook.first_lay_points, objective=objective,
                       select=select, require=require)
    if groups is None:
        return None
    pool: dict[int, list[Card]] = {}
    jokers: list[Card] = []
    for card in (select if select is not None else hand):
        if card.is_joker:
            jokers.append(card)
        else:
            pool.setdefault(card_face(card), []).append(card)
    for card in reversed(list(require)):  # required tiles go first
        faces = pool.get(card_face(card), [])
        if card in faces:
            faces.remove(card)
            faces.insert(0, card)
    new_groups = []
    placed: list[Card] = []
    for t, joker_slots in groups:
        cards = []
        for face, joker in zip(t.faces, joker_slots, strict=True):
            if joker:
                physical = jokers.pop(0)
                placed.append(physical)
                cards.append(_designate(physical, face))
            else:
                physical = pool[face].pop(0)
                placed.append(physical)
                cards.append(physical)
        new_groups.append(tuple(_arrange(cards, t)))
    ids = {id(c) for c in placed}
    laid = tuple(c for c in hand if id(c) in ids)
    new_table = tuple(tuple(g) for g in table) + tuple(new_groups)
    hint = laid[0] if objective == "hint" else None
    return Move(new_table, laid, (), False, hint)


def _tile_move(rulebook: Rulebook, table: list[list[Card]], hand: list[Card], **options
               ) -> Move | None:
    """Rummikub after the initial meld (`wrap=on`: `_wrap_move`)."""
    if rulebook.ace == "wrap":
        return _wrap_move(rulebook, table, hand, **options)
    return _rack_frees_move(rulebook, rulebook, table, hand, **options)


def _rack_frees_move(rulebook: Rulebook, judge: Rulebook, table: list[list[Card]],
                     hand: list[Card], **options) -> Move | None:
    """The search models a freed joker as one more joker to lay; the rule that it must go
    into a new combination with two tiles from the rack is checked on the answer (by `judge`),
    and an answer that breaks it gives way to the best lay that frees no joker."""
    from ..moves import check_move

    def legal(move: Move | None) -> bool:
        return move is not None and check_move(
            judge, table, hand, [list(g) for g in move.new_table]).ok

    move = _find_move(rulebook, table, hand, first_lay_done=True, **options)
    if move is None or legal(move):
        return move
    move = _find_move(rulebook, table, hand, first_lay_done=True, freeing=False, **options)
    return move if legal(move) else None


def _wrap_move(rulebook: Rulebook, table: list[list[Card]], hand: list[Card], **options
               ) -> Move | None:
    """`wrap=on`: runs may go on from 13 to 1. The column search knows no wrap, so it runs
    once per place to cut the circle of numbers (13 rotations: numbers r+1..13, 1..r read as
    1..13), and the best legal answer over the cuts wins. Exact for every table whose best
    lay leaves some number boundary uncrossed in all four colours — not for all: a lay whose
    runs cross every boundary is not found, so with `wrap=on` None is no proof (STATS
    "wrap_unproven" counts those answers)."""
    from ..moves import check_move

    objective = options["objective"]
    low = replace(rulebook, ace="low", name=f"{rulebook.name}/cut")
    best: Move | None = None
    best_key: tuple | None = None
    for cut in range(13):
        r_table, r_hand, back = _rotated(table, hand, cut)
        found = _rack_frees_move(low, low, r_table, r_hand, **options)
        if found is None:
            continue
        move = _unrotated(found, back, cut)
        if not check_move(rulebook, table, hand, [list(g) for g in move.new_table]).ok:
            continue
        key = _move_key(rulebook, move, objective)
        if best_key is None or key > best_key:
            best, best_key = move, key
        if objective == "any":
            break
    if best is None:
        STATS["wrap_unproven"] += 1
    return best


def _move_key(rulebook: Rulebook, move: Move, objective: str) -> tuple:
    count = len(move.placed)
    if objective == "max_cards":
        return (count, -len(move.changed))
    if objective == "max_points":
        return (sum(rulebook.card_value(c) for c in move.placed), -len(move.changed))
    return (-len(move.changed), -count)


def _rotate_rank(rank: int, cut: int) -> int:
    return (rank - cut - 1) % 13 + 1


def _rotated(table: list[list[Card]], hand: list[Card], cut: int):
    """The position with every number n read as n - cut (mod 13), and the way back: new
    card object id -> the original card."""
    if cut == 0:
        return table, hand, {}
    back: dict[int, Card] = {}

    def turn(card: Card) -> Card:
        if card.is_joker:
            if not card.designated:
                return card
            new = card.free().designate(_rotate_rank(card.as_rank, cut), card.as_suit)
        else:
            new = type(card)(_rotate_rank(card.rank, cut), card.suit, card.copy)
        back[id(new)] = card
        return new

    return [[turn(c) for c in g] for g in table], [turn(c) for c in hand], back


def _unrotated(move: Move, back: dict[int, Card], cut: int) -> Move:
    if cut == 0:
        return move

    def home(card: Card) -> Card:
        if id(card) in back:
            return back[id(card)]
        if card.is_joker and card.designated:  # a joker fixed by the search
            return card.free().designate(_rotate_rank(card.as_rank, -cut), card.as_suit)
        return card

    new_table = tuple(tuple(home(c) for c in g) for g in move.new_table)
    placed = tuple(home(c) for c in move.placed)
    hint = None if move.hint_card is None else home(move.hint_card)
    return Move(new_table, placed, move.changed, move.needs_rearranging, hint)


def no_lay_proved(
    rulebook: Rulebook,
    table: Sequence[Sequence[Card]],
    hand: Sequence[Card],
    *,
    first_lay_done: bool = True,
    singles: Sequence[Card] = (),
) -> bool:
    """Has a search already proved that this position has no lay (as find_move takes it)?"""
    return _known_no_lay(_position_key(rulebook, table, hand, first_lay_done, singles))


def _position_key(rulebook, table, hand, first_lay_done, singles) -> tuple:
    return (
        rulebook.name,
        tuple(sorted(rulebook.options.items())),
        first_lay_done,
        tuple(map(tuple, table)),
        tuple(hand),  # as given: the game and its computers pass hands in the same order
        tuple(singles),
    )


def _known_no_lay(key: tuple) -> bool:
    with _NO_LAY_LOCK:
        if key not in _NO_LAY:
            return False
        _NO_LAY.move_to_end(key)
        return True


def _proved_no_lay(key: tuple | None) -> None:
    if key is None:
        return
    with _NO_LAY_LOCK:
        _NO_LAY[key] = None
        while len(_NO_LAY) > NO_LAY_MEMO:
            _NO_LAY.popitem(last=False)


def _spent(budget) -> bool:
    return budget is not None and budget[0] - (WORK[0] - budget[1]) < 0


def _values(rulebook: Rulebook) -> tuple[list[int], int]:
    """Card values per face, and a joker's (cached per value table)."""
    got = _VALUES.get(rulebook.values)
    if got is None:
        faces = [rulebook.card_value(Card(face_rank(f), face_suit(f))) for f in range(NF)]
        got = _VALUES[rulebook.values] = (faces, rulebook.card_value(Card(0, "")))
    return got


_VALUES: dict[str, tuple[list[int], int]] = {}


def _search_all(rulebook, pos, problems, objective, first_lay_done, card_value, joker_value,
                budget, give_up=False):
    """The best (key, problem, solution) over the joker cases, or None."""
    best = None
    narrow = False
    for problem in problems:
        spent = _spent(budget)
        if spent and give_up and best is None:
            return None  # find_move's `effort` is spent: nothing found, nothing proven
        if spent and best is not None:
            best = (best[0], best[1], replace(best[2], exact=False))
            break  # out of time: the other joker cases go unexamined
        beat = None
        if best is not None and objective in ("max_cards", "max_points"):
            beat = best[0][0]  # a case that can't lay as much is not worth a search
        sol = _solve(problem, objective, card_value, joker_value, budget, beat, give_up)
        if sol is _NARROW:
            narrow = True
            sol = _solve_tahiti_narrowed(problem, objective, card_value, joker_value, budget,
                                         give_up)
        best = _better(best, problem, sol, objective)
        if best is not None and objective == "any":
            break
    if narrow and rulebook.joker_rule in ("immobile", "rack-frees") and (
            best is None or objective != "any"):
        # Vatican: the jokers that must stay beside a neighbour lock their groups instead;
        # Rummikub: those that must stay with a tile of their combination — and a freed
        # joker's home is found with the rest of the move (issue 45).
        homes = [HOMES_PER_SEARCH]  # homes left to search in this call, over all its cases

        for lock in _lock_choices(rulebook, pos):
            for problem in build_problems(rulebook, pos, objective, first_lay_done,
                                          lock_immobile=True, lock_only=lock):
                sol = solve_fast(problem, objective, card_value, joker_value, budget,
                                 give_up=give_up)
                if sol is not None and all(group_fits(problem, t, f) for t, f in sol.groups):
                    best = _better(best, problem, sol, objective)
                best = _homed(problem, objective, card_value, joker_value, budget, best,
                              give_up, homes)
    return best


def _lock_choices(rulebook: Rulebook, pos: Position) -> list[frozenset[int] | None]:
    """Which table jokers' groups the narrowed search locks: all (Vatican); for Rummikub each
    joker alone (the other free to move), then all."""
    if rulebook.joker_rule != "rack-frees":
        return [None]
    ids = [id(c) for g in pos.table for c in g if c.is_joker and c.designated]
    return [frozenset([j]) for j in ids] + [None] if len(ids) > 1 else [None]


def _homed(problem: Problem, objective: str, card_value, joker_value, budget, best, give_up,
           homes: list[int]):
    """Rummikub: the best answer with a freed joker's home taken from the rack first."""
    if homes[0] <= 0 or not problem.freed_home_hand:
        return best
    for homed in homed_cases(problem):
        if (objective == "any" and best is not None) or homes[0] <= 0:
            break
        homes[0] -= 1
        beat = best[0][0] if best is not None and objective in ("max_cards", "max_points") \
            else None
        sol = solve_fast(homed, objective, card_value, joker_value, budget, beat,
                         give_up=give_up)
        if sol is not None and all(group_fits(homed, t, f) for t, f in sol.groups):
            best = _better(best, homed, sol, objective)
    return best


def _better(best, problem: Problem, sol, objective: str):
    if sol is None or sol is _NARROW:
        return best
    key = score_key(objective, sol.count, sol.value, sol.matched, problem.n_old)
    if best is None or key > best[0]:
        return (key, problem, sol)
    return best


_NARROW = object()  # _solve's answer when the fast search broke a joker rule it can't express


def _solve(p: Problem, objective: str, card_value: list[int], joker_value: int, budget,
           beat=None, give_up=False):
    """The best solution of one case. The fast search ignores Tahiti's one joker per group and
    Vatican's "stay beside a neighbour"; when its optimum breaks one of them, the reference
    search answers small cases exactly, else _NARROW asks for a narrowed case."""
    sol = solve_fast(p, objective, card_value, joker_value, budget, beat, give_up)
    if sol is None or all(group_fits(p, t, fills) for t, fills in sol.groups):
        return sol
    if _cards_in_play(p) <= SIMPLE_LIMIT:
        return solve_simple(p, objective, card_value, joker_value)
    return _NARROW


def _solve_tahiti_narrowed(p: Problem, objective: str, card_value, joker_value, budget,
                           give_up=False):
    """At most one joker laid in all (so never two in a group), or nothing for this case."""
    if p.max_jokers != 1 or p.wild_m > 1:
        return None
    narrowed = Problem(**{k: getattr(p, k) for k in p.__dataclass_fields__})
    narrowed.wild_o = min(p.wild_o, 1 - p.wild_m)
    sol = solve_fast(narrowed, objective, card_value, joker_value, budget, give_up=give_up)
    if sol is None or not all(group_fits(p, t, f) for t, f in sol.groups):
        return None
    return sol


def _cards_in_play(p: Problem) -> int:
    return (sum(p.table) + sum(p.hand_m) + sum(p.hand_o) + sum(p.single) + len(p.fixed)
            + p.wild_m + p.wild_o)


def _selected(hand: list[Card], select: Sequence[Card]) -> list[Card]:
    """The hand's own Card objects for `select` (by identity, else by equality)."""
    left = list(hand)
    out = []
    for card in select:
        for i, h in enumerate(left):
            if h is card:
                out.append(left.pop(i))
                break
        else:
            for i, h in enumerate(left):
                if h == card:
                    out.append(left.pop(i))
                    break
            else:
                raise ValueError(f"{card} is not in the hand")
    return out


def _single_groups(table: list[list[Card]], singles: Sequence[Card]) -> list[int]:
    """Indices of the 1-card table groups that are Tahiti singles."""
    want = Counter(c.face for c in singles)
    out = []
    for i, group in enumerate(table):
        if len(group) == 1 and want[group[0].face] > 0:
            want[group[0].face] -= 1
            out.append(i)
    return out


# -- rebuilding a move from physical cards --------------------------------------------------


def _rebuild(rulebook: Rulebook, pos: Position, p: Problem, sol: Solution, objective: str) -> Move:
    singles = set(pos.singles_idx)
    locked = {lc.group: lc for lc in p.locked}
    fixed_ids = {id(fj.card) for fj in p.fixed}
    freed_ids = {id(c) for c in p.freed_tables}
    table_pool, single_pool = _table_pools(pos, singles, locked)
    hand_cards = pos.select if pos.select is not None else pos.hand
    hand_pool: dict[int, list[Card]] = {}
    hand_jokers: list[Card] = []
    for card in hand_cards:
        if not card.rank:  # a joker
            hand_jokers.append(card)
        else:
            hand_pool.setdefault(card_face(card), []).append(card)
    hand_joker_ids = {id(c) for c in hand_jokers}
    wild_m = list(p.freed_tables) + (hand_jokers if p.wild_m_hand else [])
    wild_o = [] if p.wild_m_hand else list(hand_jokers)
    placed_ids: set[int] = set()

    def take_hand(f: int) -> Card:
        card = hand_pool[f].pop(0)
        placed_ids.add(id(card))
        return card

    successors: dict[int, list[Card]] = {}
    extra: list[list[Card]] = []
    for gi, lc in locked.items():
        added = [take_hand(f) for f in lc.added]
        if gi < 0:  # a freed joker's new group (model.homed_cases)
            taken = [table_pool[f].pop() for f in lc.taken]
            joker = _designate(wild_m.pop(0), lc.joker)
            extra.append(_arrange([*added, *taken, joker], lc.template))
            continue
        successors[gi] = _arrange(list(pos.table[gi]) + added, lc.template)

    # Groups left unchanged take their own cards, so the table visibly stays the same.
    old_by_key: dict[tuple[int, ...], list[int]] = {}
    keys = p.group_keys or [tuple(sorted(card_face(c) for c in group if c.rank or c.as_rank))
                            for group in pos.table]
    for gi, key in enumerate(keys):
        if gi not in singles and gi not in locked:
            old_by_key.setdefault(key, []).append(gi)
    pending = []
    for t, fills in sol.groups:
        gi = _claim_own(pos, t, fills, old_by_key, table_pool, fixed_ids, freed_ids, p, wild_m)
        if gi is not None:
            successors[gi] = _arrange(list(pos.table[gi]), t)
        else:
            pending.append((t, fills))
    # A group that grew from an old one takes that one's cards and place.
    grown: list[int | None] = [_claim_grown(pos, t, fills, old_by_key, table_pool)
                               for t, fills in pending]
    for (t, fills), gi in zip(pending, grown, strict=True):
        own = {} if gi is None else _by_face(pos.table[gi])
        cards: list[Card] = []
        for (kind, x), f in zip(fills, t.faces, strict=True):
            if kind == "T" and own.get(x):
                cards.append(own[x].pop(0))
            elif kind == "T":
                cards.append(table_pool[x].pop(0))
            elif kind in "MO":
                cards.append(take_hand(x))
            elif kind == "S":
                cards.append(single_pool[x].pop(0))
            elif kind == "J":  # a Rummikub floater may stand for its other colour here
                cards.append(_designate(p.fixed[x].card, f))
            else:
                joker = wild_m.pop(0) if kind == "W" else wild_o.pop(0)
                if id(joker) in hand_joker_ids:
                    placed_ids.add(id(joker))
                cards.append(_designate(joker, f))
        if gi is None:
            extra.append(_arrange(cards, t))
        else:
            successors[gi] = _arrange(cards, t)
    return _move(pos, successors, extra, single_pool, locked,
                 tuple(c for c in pos.hand if id(c) in placed_ids), objective)


def _table_pools(pos: Position, singles: set[int], locked: Mapping[int, Any]
                 ) -> tuple[dict[int, list[Card]], dict[int, list[Card]]]:
    """The table's physical cards per face, in table order: the groups', the singles'."""
    table_pool: dict[int, list[Card]] = {}
    single_pool: dict[int, list[Card]] = {}
    for gi, group in enumerate(pos.table):
        if gi in locked:
            continue
        pool = single_pool if gi in singles else table_pool
        for card in group:
            if not card.rank:  # a joker
                continue
            pool.setdefault(card_face(card), []).append(card)
    return table_pool, single_pool


def _move(pos: Position, successors: dict[int, list[Card]], extra: list[list[Card]],
          single_pool: dict[int, list[Card]], locked: Mapping[int, Any],
          placed: tuple[Card, ...], objective: str) -> Move:
    """The new table in the old groups' order (new ones after), and what the lay changed."""
    for gi in pos.singles_idx:  # unused singles stay alone
        card = pos.table[gi][0]
        if card.is_joker:  # a joker dealt as a single stays alone unless a group took it
            used = {c.ident for g in [*successors.values(), *extra] for c in g}
            if card.ident not in used:
                successors[gi] = [card]
        elif card in single_pool.get(card_face(card), []):
            successors[gi] = [card]
    order = [gi for gi in range(len(pos.table)) if gi in successors]
    locked = {gi: lc for gi, lc in locked.items() if gi >= 0}
    if locked and not _greedy_finds_locked(pos.table, order, successors, locked):
        # check_move matches each locked group to the first new group holding its cards:
        # put the locked groups first so that it finds their own.
        order = sorted(order, key=lambda gi: gi not in locked)
    new_table = [tuple(successors[gi]) for gi in order]
    new_table += [tuple(g) for g in extra]
    changed = _changed(pos.table, new_table)
    if changed:
        placed_faces = Counter(_face_id(c) for c in placed)
        new_faces = [Counter(_face_id(c) for c in g) for g in new_table]
        rearr = not all(_is_extended(pos.table[i], new_faces, placed_faces) for i in changed)
    else:
        rearr = False
    hint = placed[0] if objective == "hint" and placed else None
    return Move(tuple(new_table), placed, tuple(changed), rearr, hint)


def _by_face(group: Sequence[Card]) -> dict[int, list[Card]]:
    out: dict[int, list[Card]] = {}
    for c in group:
        if c.rank:
            out.setdefault(card_face(c), []).append(c)
    return out


def _claim_grown(pos, t, fills, old_by_key, table_pool) -> int | None:
    """An old group of real cards only, all of whose faces this new group holds in table
    slots, whose cards are all still free: claimed (taken out of the pool)."""
    slots = Counter(x for kind, x in fills if kind == "T")
    if not slots:
        return None  # every old group holds a table card
    size = len(t.faces)
    for key, indices in old_by_key.items():
        if not indices or len(key) >= size or not key or key[0] not in slots:
            continue
        if any(slots[f] < key.count(f) for f in key):
            continue
        for gi in indices:
            group = pos.table[gi]
            if any(not c.rank for c in group):
                continue
            if not all(any(c is d for d in table_pool.get(card_face(c), [])) for c in group):
                continue
            for c in group:
                pool = table_pool[card_face(c)]
                pool.pop(next(i for i, d in enumerate(pool) if d is c))
            indices.remove(gi)
            return gi
    return None


def _claim_own(pos, t, fills, old_by_key, table_pool, fixed_ids, freed_ids, p, wild_m):
    """An unchanged old group with this template whose own cards can fill it, claimed."""
    for gi in old_by_key.get(t.key, []):
        group = pos.table[gi]
        ok = True
        own_faces = {card_face(c) for c in group if c.rank}
        for (kind, x), f in zip(fills, t.faces, strict=True):
            if kind == "T":
                ok = f in own_faces
            elif kind == "J":
                ok = any(c is p.fixed[x].card for c in group)
            elif kind == "W":
                ok = any(not c.rank and id(c) in freed_ids and card_face(c) == f for c in group)
            else:
                ok = False
            if not ok:
                break
        if not ok:
            continue
        if any(not c.rank and id(c) not in fixed_ids and id(c) not in freed_ids for c in group):
            continue
        reals = [c for c in group if c.rank]
        if not all(any(c is d for d in table_pool.get(card_face(c), [])) for c in reals):
            continue
        for c in reals:
            pool = table_pool[card_face(c)]
            pool.pop(next(i for i, d in enumerate(pool) if d is c))
        for c in group:
            if not c.rank and id(c) in freed_ids:
                wild_m.pop(next(i for i, d in enumerate(wild_m) if d is c))
        old_by_key[t.key].remove(gi)
        return gi
    return None


def _greedy_finds_locked(table, order: list[int], successors, locked) -> bool:
    """Does check_move's first-fit matching pair every locked group with its own successor?"""
    used: set[int] = set()
    for gi in sorted(locked):
        old = Counter(_key(table[gi]))
        for ni, owner in enumerate(order):
            if ni in used:
                continue
            faces = Counter(_key(successors[owner]))
            if all(faces[f] >= n for f, n in old.items()):
                if owner != gi:
                    return False
                used.add(ni)
                break
    return True


def _designate(joker: Card, f: int) -> Card:
    rank, suit = face_rank(f), face_suit(f)
    if joker.as_rank == rank and joker.as_suit == suit:
        return joker
    return joker.designate(rank, suit)


def _arrange(cards: list[Card], t) -> list[Card]:
    """melds.arrange's order (tests/test_solver_arrange.py compares them), its keys read from
    the fields: the properties cost a quarter of the move's rebuild."""
    if t.kind == "set":
        return sorted(cards, key=_set_order)
    if t.wrap:
        return arrange(cards, Reading(t.kind, (), t.start, wrap=True))
    if t.start > 1:
        return sorted(cards, key=_run_order_high_ace)
    if len(cards) == 14:  # A..K..A: arrange places the second ace last
        return arrange(cards, Reading(t.kind, (), t.start))
    return sorted(cards, key=_run_order)


def _set_order(c: Card) -> tuple[int, bool, int]:
    # a free joker's suit "" sorts first, as "SHDC".index("") does in arrange
    return (SUIT_INDEX[c.suit] if c.rank else SUIT_INDEX.get(c.as_suit, 0)), not c.rank, c.copy


def _run_order(c: Card) -> tuple[int, bool, int]:
    return (c.rank or c.as_rank), not c.rank, c.copy


def _run_order_high_ace(c: Card) -> tuple[int, bool, int]:
    """A run that starts above the ace: an ace in it is the high one (14)."""
    v = c.rank or c.as_rank
    return (14 if v == 1 else v), not c.rank, c.copy


_KEY_SUIT = {"S": 0, "H": 1, "D": 2, "C": 3, "": 4}


def _key(group: Sequence[Card]) -> tuple[int, ...]:
    """A group's play faces as check_move compares them, as sorted ints (rank * 8 + suit; a
    free joker 4): the same equalities as its text faces, without the properties' cost."""
    return tuple(sorted((c.rank or c.as_rank) * 8 + _KEY_SUIT[c.suit or c.as_suit]
                        for c in group))


def _changed(table: Sequence[Sequence[Card]], new_table: Sequence[Sequence[Card]]) -> list[int]:
    """Old groups not standing unchanged (as play faces) in the new table, as check_move says."""
    remaining = Counter(_key(g) for g in new_table)
    out = []
    for i, group in enumerate(table):
        k = _key(group)
        if remaining[k] > 0:
            remaining[k] -= 1
        else:
            out.append(i)
    return out


def _face_id(c: Card) -> int:
    """Card.face as an int (a joker, designated or not: -1)."""
    return (c.rank - 1) * 4 + SUIT_INDEX[c.suit] if c.rank else -1


def _is_extended(old: Sequence[Card], new_faces: list[Counter[int]],
                 placed_faces: Counter[int]) -> bool:
    """Does some new group (`new_faces`: its faces) hold all of `old` plus only hand cards
    (`placed_faces`)? (check_move's test)"""
    old_faces = Counter(_face_id(c) for c in old)
    for faces in new_faces:
        if all(faces[f] >= n for f, n in old_faces.items()):
            extra = faces - old_faces
            if all(placed_faces[f] >= n for f, n in extra.items()):
                return True
    return False
