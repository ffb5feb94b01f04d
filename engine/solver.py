"""The move solver: a legal lay, the hint, the biggest lay, or "place these selected cards".

`find_move` is exact: it returns None only when no legal lay exists. It works on a face-level
model of the position (engine/solver_model.py: the joker cases become separate problems), solves
each problem (engine/solver_fast.py, with engine/solver_simple.py as the reference search), and
rebuilds the winning partition from the physical cards of the table and the hand.
"""

from __future__ import annotations

import threading
from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass

from .cards import Card
from .melds import Reading, arrange
from .rulebooks import Rulebook
from .solver_fast import solve_fast
from .solver_model import (
    NF,
    Position,
    Problem,
    build_problems,
    card_face,
    face_rank,
    face_suit,
)
from .solver_simple import Solution, group_fits, score_key, solve_simple

OBJECTIVES = ("any", "hint", "max_cards", "max_points")
SIMPLE_LIMIT = 20  # cards in play up to which the reference search stands in for the fast one
_LOCK = threading.Lock()  # the fast search shares caches between calls


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
    reference: bool = False,
) -> Move | None:
    """A legal lay from `hand` onto `table` under `rulebook`, or None when there is none.

    objective: "any" (some lay, fastest), "hint" (fewest changed groups, then fewest cards),
    "max_cards" / "max_points" (most cards / penalty points laid, then fewest changed groups).
    `select`: lay exactly these hand cards (Auto-place), changing as few groups as possible.
    Tahiti's unused `singles` are 1-card groups of `table` too (as for check_move).
    `reference`: answer with the slow exhaustive search instead (benchmarks, tests).
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
    pos = Position(table, hand, _single_groups(table, singles), select)
    card_value = [rulebook.card_value(Card(face_rank(f), face_suit(f))) for f in range(NF)]
    joker_value = rulebook.card_value(Card(0, ""))
    problems = build_problems(rulebook, pos, objective, first_lay_done)
    best: tuple[tuple, Problem, Solution] | None = None
    narrow = False
    if reference:  # the exhaustive search alone: the benchmark's and the tests' yardstick
        for problem in problems:
            sol = solve_simple(problem, objective, card_value, joker_value)
            best = _better(best, problem, sol, objective)
        return None if best is None else _rebuild(rulebook, pos, best[1], best[2], objective)
    with _LOCK:
        for problem in problems:
            sol = _solve(problem, objective, card_value, joker_value)
            if sol is _NARROW:
                narrow = True
                sol = _solve_tahiti_narrowed(problem, objective, card_value, joker_value)
            best = _better(best, problem, sol, objective)
            if best is not None and objective == "any":
                break
        if narrow and rulebook.joker_rule == "immobile" and (best is None or objective != "any"):
            # Vatican: the jokers that must stay beside a neighbour lock their groups instead.
            for problem in build_problems(rulebook, pos, objective, first_lay_done,
                                          lock_immobile=True):
                sol = solve_fast(problem, objective, card_value, joker_value)
                if sol is not None and all(group_fits(problem, t, f) for t, f in sol.groups):
                    best = _better(best, problem, sol, objective)
    if best is None:
        return None
    return _rebuild(rulebook, pos, best[1], best[2], objective)


def _better(best, problem: Problem, sol, objective: str):
    if sol is None or sol is _NARROW:
        return best
    key = score_key(objective, sol.count, sol.value, sol.matched, problem.n_old)
    if best is None or key > best[0]:
        return (key, problem, sol)
    return best


_NARROW = object()  # _solve's answer when the fast search broke a joker rule it can't express


def _solve(p: Problem, objective: str, card_value: list[int], joker_value: int):
    """The best solution of one case. The fast search ignores Tahiti's one joker per group and
    Vatican's "stay beside a neighbour"; when its optimum breaks one of them, the reference
    search answers small cases exactly, else _NARROW asks for a narrowed case."""
    sol = solve_fast(p, objective, card_value, joker_value)
    if sol is None or all(group_fits(p, t, fills) for t, fills in sol.groups):
        return sol
    if _cards_in_play(p) <= SIMPLE_LIMIT:
        return solve_simple(p, objective, card_value, joker_value)
    return _NARROW


def _solve_tahiti_narrowed(p: Problem, objective: str, card_value, joker_value):
    """At most one joker laid in all (so never two in a group), or nothing for this case."""
    if p.max_jokers != 1 or p.wild_m > 1:
        return None
    narrowed = Problem(**{k: getattr(p, k) for k in p.__dataclass_fields__})
    narrowed.wild_o = min(p.wild_o, 1 - p.wild_m)
    sol = solve_fast(narrowed, objective, card_value, joker_value)
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
    # Pools of physical cards per face, in table / hand order.
    table_pool: dict[int, list[Card]] = {}
    single_pool: dict[int, list[Card]] = {}
    for gi, group in enumerate(pos.table):
        if gi in locked:
            continue
        for card in group:
            if card.is_joker:
                continue
            pool = single_pool if gi in singles else table_pool
            pool.setdefault(card_face(card), []).append(card)
    hand_cards = pos.select if pos.select is not None else pos.hand
    hand_pool: dict[int, list[Card]] = {}
    hand_jokers: list[Card] = []
    for card in hand_cards:
        if card.is_joker:
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
        successors[gi] = _arrange(list(pos.table[gi]) + added, lc.template)

    # Groups left unchanged take their own cards, so the table visibly stays the same.
    old_by_key: dict[tuple[int, ...], list[int]] = {}
    for gi, group in enumerate(pos.table):
        if gi not in singles and gi not in locked:
            key = tuple(sorted(card_face(c) for c in group if c.play_rank))
            old_by_key.setdefault(key, []).append(gi)
    pending = []
    for t, fills in sol.groups:
        gi = _claim_own(pos, t, fills, old_by_key, table_pool, fixed_ids, freed_ids, p, wild_m)
        if gi is not None:
            successors[gi] = _arrange(list(pos.table[gi]), t)
        else:
            pending.append((t, fills))
    for t, fills in pending:
        cards: list[Card] = []
        for (kind, x), f in zip(fills, t.faces, strict=True):
            if kind == "T":
                cards.append(table_pool[x].pop(0))
            elif kind in "MO":
                cards.append(take_hand(x))
            elif kind == "S":
                cards.append(single_pool[x].pop(0))
            elif kind == "J":
                cards.append(p.fixed[x].card)
            else:
                joker = wild_m.pop(0) if kind == "W" else wild_o.pop(0)
                if id(joker) in hand_joker_ids:
                    placed_ids.add(id(joker))
                cards.append(_designate(joker, f))
        extra.append(_arrange(cards, t))
    for gi in pos.singles_idx:  # unused singles stay alone
        card = pos.table[gi][0]
        if card.is_joker:  # a joker dealt as a single stays alone unless a group took it
            used = {c.ident for g in [*successors.values(), *extra] for c in g}
            if card.ident not in used:
                successors[gi] = [card]
        elif card in single_pool.get(card_face(card), []):
            successors[gi] = [card]
    order = [gi for gi in range(len(pos.table)) if gi in successors]
    if locked and not _greedy_finds_locked(pos.table, order, successors, locked):
        # check_move matches each locked group to the first new group holding its cards:
        # put the locked groups first so that it finds their own.
        order = sorted(order, key=lambda gi: gi not in locked)
    new_table = [tuple(successors[gi]) for gi in order]
    new_table += [tuple(g) for g in extra]
    placed = tuple(c for c in pos.hand if id(c) in placed_ids)
    changed = _changed(pos.table, new_table)
    rearr = not all(_is_extended(pos.table[i], new_table, placed) for i in changed)
    hint = placed[0] if objective == "hint" and placed else None
    return Move(tuple(new_table), placed, tuple(changed), rearr, hint)


def _claim_own(pos, t, fills, old_by_key, table_pool, fixed_ids, freed_ids, p, wild_m):
    """An unchanged old group with this template whose own cards can fill it, claimed."""
    for gi in old_by_key.get(t.key, []):
        group = pos.table[gi]
        ok = True
        for (kind, x), f in zip(fills, t.faces, strict=True):
            if kind == "T":
                ok = sum(1 for c in group if not c.is_joker and card_face(c) == f) > 0
            elif kind == "J":
                ok = any(c is p.fixed[x].card for c in group)
            elif kind == "W":
                ok = any(c.is_joker and id(c) in freed_ids and card_face(c) == f for c in group)
            else:
                ok = False
            if not ok:
                break
        if not ok:
            continue
        if any(c.is_joker and id(c) not in fixed_ids and id(c) not in freed_ids for c in group):
            continue
        reals = [c for c in group if not c.is_joker]
        if not all(any(c is d for d in table_pool.get(card_face(c), [])) for c in reals):
            continue
        for c in reals:
            pool = table_pool[card_face(c)]
            pool.pop(next(i for i, d in enumerate(pool) if d is c))
        for c in group:
            if c.is_joker and id(c) in freed_ids:
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
    return arrange(cards, Reading(t.kind, (), t.start))


def _key(group: Sequence[Card]) -> tuple[str, ...]:
    return tuple(sorted(c.play_face if c.is_joker else c.face for c in group))


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


def _is_extended(old: Sequence[Card], new_table, placed: Sequence[Card]) -> bool:
    """Does some new group hold all of `old` plus only hand cards? (check_move's test)"""
    placed_faces = Counter(c.face for c in placed)
    old_faces = Counter(c.face for c in old)
    for group in new_table:
        faces = Counter(c.face for c in group)
        if all(faces[f] >= n for f, n in old_faces.items()):
            extra = faces - old_faces
            if all(placed_faces[f] >= n for f, n in extra.items()):
                return True
    return False
