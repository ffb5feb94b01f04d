"""Rummikub's initial meld (RULES.md §5): new combinations from the rack alone, worth at least
the rulebook's `first_lay_points`, a joker counting as the tile it stands for.

The table plays no part, so this is a partition of the rack: exact, by covering the lowest
tile still on the rack first (with some combination that holds it, or leaving every copy of
it on the rack), memoised on what is left. Each state answers with its Pareto front — for
each number of tiles laid, the most points — so "the most tiles among melds that reach the
threshold" is exact as well as "the most points". A joker is scored by the slot it fills,
which the column search (its jokers weigh the same everywhere) can't express.

A joker stands only for a tile the rack lacks (once it holds none of that face): one standing
for a tile the rack still holds swaps with that tile — laid in a later group, or left on the
rack — for the same tiles and points, so each combination has one filling and far fewer states
are searched (issue 44: a round's review of a rack that never melds, 3× faster;
tests/test_rummikub_solver.py checks it against trying every set of groups).
"""

from __future__ import annotations

from collections.abc import Sequence
from functools import lru_cache

from engine.cards import Card

from ..melds import AcePolicy
from .model import NF, Template, card_face, face_rank, templates_by_face

Front = dict[int, tuple[int, tuple]]  # tiles laid -> (points, groups: (template, jokers mask))


def best_meld(
    ace: AcePolicy,
    hand: Sequence[Card],
    *,
    need: int,
    objective: str,
    select: Sequence[Card] | None = None,
    require: Sequence[Card] = (),
) -> list[tuple[Template, tuple[bool, ...]]] | None:
    """The groups of the best initial meld (each a template and, per slot, "a joker fills
    it"), or None when no meld reaches `need` (a proof). `objective` "max_cards": the most
    tiles, then points; otherwise the most points, then the fewest tiles. `select`: lay
    exactly these tiles; `require`: lay at least these."""
    cards = list(select) if select is not None else list(hand)
    must = [0] * NF
    may = [0] * NF
    jokers_must = jokers_may = 0
    required = [card_face(c) for c in require if not c.is_joker]
    for card in cards:
        if card.is_joker:
            if select is not None:
                jokers_must += 1
            else:
                jokers_may += 1
            continue
        f = card_face(card)
        if select is not None:
            must[f] += 1
        elif f in required:
            required.remove(f)
            must[f] += 1
        else:
            may[f] += 1
    front = _front(ace, tuple(must), tuple(may), jokers_must, jokers_may)
    fits = [(n, pts, groups) for n, (pts, groups) in front.items() if pts >= need and n > 0]
    if not fits:
        return None
    if objective == "max_cards":
        _, _, groups = max(fits, key=lambda x: (x[0], x[1]))
    else:
        _, _, groups = max(fits, key=lambda x: (x[1], -x[0]))
    return list(groups)


@lru_cache(maxsize=8)
def _masked(ace: AcePolicy) -> tuple[tuple[tuple[Template, int, int], ...], ...]:
    """Per face, the templates that hold it: (template, its faces as bits, its points)."""
    return tuple(tuple((t, sum(1 << g for g in t.faces), sum(face_rank(g) for g in t.faces))
                       for t in ts) for ts in templates_by_face(ace))


@lru_cache(maxsize=64)
def _front(ace: AcePolicy, must: tuple, may: tuple, jm: int, jo: int) -> Front:
    by_face = _masked(ace)
    memo: dict[tuple, Front] = {}

    def search(must: tuple, may: tuple, held: int, jm: int, jo: int) -> Front:
        # `held`: the faces the rack still holds, as bits (what must and may say, kept along)
        key = (must, may, jm, jo)
        got = memo.get(key)
        if got is not None:
            return got
        front: Front = {}
        if not held:
            if jm == 0:
                front[0] = (0, ())
            memo[key] = front
            return front
        f = (held & -held).bit_length() - 1
        if not must[f]:  # leave every copy of f on the rack
            rest = (*may[:f], 0, *may[f + 1:])
            front = dict(search(must, rest, held & ~(1 << f), jm, jo))
        jokers_left = jm + jo
        for t, mask, gain in by_face[f]:
            # A joker stands only for a tile the rack lacks: one standing for a tile the rack
            # holds could swap with it (laid later in another group, or left on the rack) for
            # the same tiles and points, so each template has one filling
            missing = mask & ~held
            jokers = missing.bit_count()
            if jokers > jokers_left:
                continue
            m2, y2 = list(must), list(may)
            left = held
            for face in t.faces:
                if missing >> face & 1:
                    continue
                if m2[face]:
                    m2[face] -= 1
                else:
                    y2[face] -= 1
                if not (m2[face] or y2[face]):
                    left &= ~(1 << face)
            take_m = min(jokers, jm)
            sub = search(tuple(m2), tuple(y2), left, jm - take_m, jo - (jokers - take_m))
            size = len(t.faces)
            used = None
            for n, (pts, groups) in sub.items():
                total = n + size
                value = pts + gain
                if total not in front or front[total][0] < value:
                    if used is None:
                        used = tuple(bool(missing >> g & 1) for g in t.faces)
                    front[total] = (value, ((t, used), *groups))
        memo[key] = front
        return front

    held = sum(1 << g for g in range(NF) if must[g] or may[g])
    return search(must, may, held, jm, jo)
