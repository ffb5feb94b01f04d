"""Rummikub's initial meld (RULES.md §5): new combinations from the rack alone, worth at least
the rulebook's `first_lay_points`, a joker counting as the tile it stands for.

The table plays no part, so this is a partition of the rack: exact, by covering the lowest
tile still on the rack first (with some combination that holds it, or leaving every copy of
it on the rack), memoised on what is left. Each state answers with its Pareto front — for
each number of tiles laid, the most points — so "the most tiles among melds that reach the
threshold" is exact as well as "the most points". A joker is scored by the slot it fills,
which the column search (its jokers weigh the same everywhere) can't express.
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


@lru_cache(maxsize=64)
def _front(ace: AcePolicy, must: tuple, may: tuple, jm: int, jo: int) -> Front:
    by_face = templates_by_face(ace)
    memo: dict[tuple, Front] = {}

    def search(must: tuple, may: tuple, jm: int, jo: int) -> Front:
        key = (must, may, jm, jo)
        got = memo.get(key)
        if got is not None:
            return got
        f = next((g for g in range(NF) if must[g] or may[g]), None)
        front: Front = {}
        if f is None:
            if jm == 0:
                front[0] = (0, ())
            memo[key] = front
            return front
        if not must[f]:  # leave every copy of f on the rack
            rest = (*may[:f], 0, *may[f + 1:])
            front = dict(search(must, rest, jm, jo))
        for t in by_face[f]:
            for used in _fillings(t, f, must, may, jm + jo):
                m2, y2 = list(must), list(may)
                jokers = 0
                for slot, face in enumerate(t.faces):
                    if used[slot]:
                        jokers += 1
                    elif m2[face]:
                        m2[face] -= 1
                    else:
                        y2[face] -= 1
                if jokers > jm + jo:
                    continue
                take_m = min(jokers, jm)
                sub = search(tuple(m2), tuple(y2), jm - take_m, jo - (jokers - take_m))
                gain = sum(face_rank(face) for face in t.faces)
                for n, (pts, groups) in sub.items():
                    total = n + len(t.faces)
                    value = pts + gain
                    if total not in front or front[total][0] < value:
                        front[total] = (value, ((t, used), *groups))
        memo[key] = front
        return front

    return search(must, may, jm, jo)


def _fillings(t: Template, f: int, must: tuple, may: tuple, jokers: int):
    """Which slots of `t` jokers fill (a tuple of flags), the slot of face `f` by a tile of
    the rack; a slot whose tile the rack lacks takes a joker, one it has takes either."""
    slots: list[tuple[bool, ...]] = [()]
    for face in t.faces:
        have = must[face] + may[face]
        if face == f:
            options: tuple[bool, ...] = (False,)
        elif have:
            options = (False, True) if jokers else (False,)
        else:
            options = (True,)
        slots = [(*s, o) for s in slots for o in options if sum(s) + o <= jokers]
        if not slots:
            return []
    out = []
    for s in slots:
        # a face used twice in one group can't happen (templates hold distinct faces); the
        # rack must still hold the tiles the real slots take
        if all(must[face] + may[face] >= 1 for face, joker in zip(t.faces, s, strict=True)
               if not joker):
            out.append(s)
    return out
