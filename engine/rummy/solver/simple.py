"""The reference search: exhaustive over groups, memoised on the remaining cards.

Simple and exact for every rule the model expresses; exponential, so it serves small positions
and as the yardstick for the fast search (engine/rummy/solver/fast.py).

The search always covers the lowest card that must still be placed (a table card, a card that
must be laid, a table joker) with some group; once only optional cards remain, the lowest is
either left in the hand or covered. A slot of face f takes a table card first, then a card that
must be laid, and only then an optional card or a single: any solution can be rearranged so.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterator
from dataclasses import dataclass

from .model import NF, Problem, Template, templates, templates_by_face

Fill = tuple[str, int]  # ("T"|"M"|"O"|"S", face) real card, ("J", i) fixed joker, ("W"|"V", 0)


@dataclass(frozen=True)
class Solution:
    """A partition of one Problem: new groups (template + how each slot is filled)."""

    groups: tuple[tuple[Template, tuple[Fill, ...]], ...]
    count: int  # hand cards laid (locked-group extensions included)
    value: int  # their values (rulebook.card_value)
    matched: int  # old groups left unchanged (singles and locked groups included)
    exact: bool = True  # False: a time budget cut the search short (jokers only)


def score_key(objective: str, count: int, value: int, matched: int, n_old: int) -> tuple:
    """Bigger is better."""
    if objective == "max_cards":
        return (count, matched)
    if objective == "max_points":
        return (value, matched)
    if objective == "select":
        return (matched,)
    return (matched, -count)  # "hint" and "any": fewest changed groups, then fewest cards


def solve_simple(p: Problem, objective: str, card_value: list[int], joker_value: int
                 ) -> Solution | None:
    """The best partition of `p` under `objective`; None if nothing can be laid."""
    # Long on purpose (issue 43 item 6): a measured hot loop. `search` and `fills` are closures
    # over the problem's constants (memo, fixed, max_j, by_face) so that each of the search's
    # millions of calls reads them as cells, not arguments; bench/solver.py's `reference`
    # column times this function (the exhaustive search, and the exact answer for small cases
    # the fast search can't express). Split it only with that column measured before and after.
    keys = sorted(p.old_keys)
    key_index = {k: i for i, k in enumerate(keys)}
    need_flag = objective in ("hint", "any")
    by_face = templates_by_face(p.ace)
    all_templates = templates(p.ace)
    max_j = p.max_jokers
    fixed = p.fixed
    memo: dict[tuple, tuple | None] = {}

    def key_of(count: int, value: int, matched: int) -> tuple:
        return score_key(objective, count, value, matched, p.n_old)

    def fills(t: Template, table, hm, ho, single, fmask, wm, wo) -> Iterator[tuple]:
        """Every way to fill template t: (fills, table, hm, ho, single, fmask, wm, wo)."""
        faces = t.faces
        n = len(faces)
        out: list[Fill] = []

        def rec(i, table, hm, ho, single, fmask, wm, wo, nj):
            if i == n:
                yield tuple(out), table, hm, ho, single, fmask, wm, wo
                return
            g = faces[i]
            if table[g]:
                out.append(("T", g))
                yield from rec(i + 1, _dec(table, g), hm, ho, single, fmask, wm, wo, nj)
                out.pop()
            elif hm[g]:
                out.append(("M", g))
                yield from rec(i + 1, table, _dec(hm, g), ho, single, fmask, wm, wo, nj)
                out.pop()
            else:
                if ho[g]:
                    out.append(("O", g))
                    yield from rec(i + 1, table, hm, _dec(ho, g), single, fmask, wm, wo, nj)
                    out.pop()
                if single[g]:
                    out.append(("S", g))
                    yield from rec(i + 1, table, hm, ho, _dec(single, g), fmask, wm, wo, nj)
                    out.pop()
            if nj < max_j:
                for j, fj in enumerate(fixed):
                    if fmask >> j & 1 and fj.face == g:
                        out.append(("J", j))
                        yield from rec(i + 1, table, hm, ho, single, fmask & ~(1 << j), wm, wo,
                                       nj + 1)
                        out.pop()
                if wm:
                    out.append(("W", 0))
                    yield from rec(i + 1, table, hm, ho, single, fmask, wm - 1, wo, nj + 1)
                    out.pop()
                elif wo:
                    out.append(("V", 0))
                    yield from rec(i + 1, table, hm, ho, single, fmask, wm, wo - 1, nj + 1)
                    out.pop()

        yield from rec(0, table, hm, ho, single, fmask, wm, wo, 0)

    def group_ok(t: Template, f: tuple[Fill, ...]) -> bool:
        return group_fits(p, t, f)

    def gain(f: tuple[Fill, ...]) -> tuple[int, int]:
        count = value = 0
        for kind, g in f:
            if kind in "MO":
                count += 1
                value += card_value[g]
            elif kind == "V":
                count += 1
                value += joker_value
        return count, value

    def search(table, hm, ho, single, fmask, wm, wo, avail, flag):
        state = (table, hm, ho, single, fmask, wm, wo, avail, flag)
        if state in memo:
            return memo[state]
        result = None
        # The lowest unit that must be placed.
        must = None
        for f in range(NF):
            if table[f] or hm[f]:
                must = ("face", f)
                break
            if any(fmask >> j & 1 and fj.face == f for j, fj in enumerate(fixed)):
                must = ("joker", f)
                break
        optional = None
        if must is None and wm:
            must = ("wild", 0)
        if must is None:
            for f in range(NF):
                if ho[f] or single[f]:
                    optional = ("face", f)
                    break
            if optional is None and wo:
                optional = ("wild", 0)
            if optional is None:  # nothing left: a leaf
                if flag or not need_flag:
                    left_singles = sum(single)
                    result = (key_of(0, 0, left_singles), (0, 0, left_singles), ())
                memo[state] = result
                return result
            # Leave every remaining copy of the optional unit where it is.
            if optional[0] == "face":
                f = optional[1]
                result = search(table, hm, _zero(ho, f), _zero(single, f), fmask, wm, wo,
                                avail, flag)
                if result is not None and single[f]:  # the singles stay: unchanged groups
                    c, v, m = result[1]
                    result = (key_of(c, v, m + single[f]), (c, v, m + single[f]), result[2])
            else:
                result = search(table, hm, ho, single, fmask, wm, 0, avail, flag)
        unit = must or optional
        cands = all_templates if unit[0] == "wild" else by_face[unit[1]]
        for t in cands:
            for f, t2, hm2, ho2, s2, fm2, wm2, wo2 in fills(t, table, hm, ho, single, fmask, wm,
                                                            wo):
                if not _consumed(unit, table, hm, ho, single, fmask, wm, wo,
                                 t2, hm2, ho2, s2, fm2, wm2, wo2, fixed):
                    continue
                if not group_ok(t, f):
                    continue
                count, value = gain(f)
                matched = 0
                av = avail
                ki = key_index.get(t.key)
                if ki is not None and avail[ki]:
                    matched = 1
                    av = (*avail[:ki], avail[ki] - 1, *avail[ki + 1:])
                sub = search(t2, hm2, ho2, s2, fm2, wm2, wo2, av, flag or count > 0)
                if sub is None:
                    continue
                c, v, m = sub[1]
                tot = (c + count, v + value, m + matched)
                k = key_of(*tot)
                if result is None or k > result[0]:
                    result = (k, tot, ((t, f), *sub[2]))
        memo[state] = result
        return result

    base_count = base_value = base_matched = 0
    for lc in p.locked:
        base_count += len(lc.added)
        base_value += sum(card_value[f] for f in lc.added)
        base_matched += not lc.added
    base_matched += p.idle_singles
    base_count += p.wild_m_hand
    base_value += p.wild_m_hand * joker_value
    avail0 = tuple(p.old_keys[k] for k in keys)
    start_flag = base_count > 0
    state0 = (tuple(p.table), tuple(p.hand_m), tuple(p.hand_o), tuple(p.single),
              (1 << len(fixed)) - 1, p.wild_m, p.wild_o)
    best = None
    if p.triple is None:
        best = search(*state0, avail0, start_flag)
        best = _add(best, (), key_of, 0)
    else:
        # Vatican's first lay: some run holds the three faces of the triple as real cards.
        s, v = p.triple
        for t in all_templates:
            if t.kind != "run" or t.suit != s or not t.start <= v <= t.start + len(t.faces) - 3:
                continue
            lo = v - t.start
            for f, *rest in fills(t, *state0):
                if any(kind not in "TMO" for kind, _ in f[lo: lo + 3]) or not group_ok(t, f):
                    continue
                count, value = gain(f)
                ki = key_index.get(t.key)
                matched = 1 if ki is not None and avail0[ki] else 0
                av = avail0 if not matched else (
                    (*avail0[:ki], avail0[ki] - 1, *avail0[ki + 1:]))
                sub = search(*rest, av, start_flag or count > 0)
                sub = _add(sub, ((t, f),), key_of, 0, (count, value, matched))
                if sub is not None and (best is None or sub[0] > best[0]):
                    best = sub
    if best is None:
        return None
    c, v, m = best[1]
    c, v, m = c + base_count, v + base_value, m + base_matched
    if c == 0:
        return None
    return Solution(best[2], c, v, m)


def group_fits(p: Problem, t: Template, fills) -> bool:
    """The joker rules one group must meet: at most `max_jokers` jokers, a Vatican joker beside
    one of its old neighbours, a Rummikub table joker with a tile of its old combination (or,
    freed, in a combination with two hand cards), and not jokers only."""
    jokers = sum(1 for kind, _ in fills if kind in "WVJ")
    if jokers > p.max_jokers or jokers == len(fills):
        return False
    for i, (kind, j) in enumerate(fills):
        if kind == "J" and p.fixed[j].neighbours is not None:
            near = set(t.faces[max(0, i - 1): i] + t.faces[i + 1: i + 2])
            if not near & p.fixed[j].neighbours:
                return False
        if kind == "J" and p.fixed[j].companions is not None:
            reals = {f for k, f in fills if k in "TMOS"}
            kin = p.fixed[j].companions
            if not (kin <= reals if p.fixed[j].whole else kin & reals):
                return False
    if p.freed_home_hand and any(kind == "W" for kind, _ in fills):
        # a freed joker's new combination (with a selected hand joker's too: narrower, legal);
        # the tile that freed it took its place: of a face that frees one, only the copies
        # beyond those count (check_move judges the whole move)
        hand = Counter(f for kind, f in fills if kind in "MO")
        if sum(min(n, p.hand_m[f] + p.hand_o[f] - p.freeing[f]) if p.freeing[f] else n
               for f, n in hand.items()) < p.freed_home_hand:
            return False
    return True


def _add(res, groups, key_of, _unused, extra=(0, 0, 0)):
    if res is None:
        return None
    c, v, m = (a + b for a, b in zip(res[1], extra, strict=True))
    return (key_of(c, v, m), (c, v, m), groups + res[2])


def _dec(t: tuple[int, ...], i: int) -> tuple[int, ...]:
    return (*t[:i], t[i] - 1, *t[i + 1:])


def _zero(t: tuple[int, ...], i: int) -> tuple[int, ...]:
    return (*t[:i], 0, *t[i + 1:])


def _consumed(unit, table, hm, ho, single, fmask, wm, wo, t2, hm2, ho2, s2, fm2, wm2, wo2,
              fixed) -> bool:
    """Did the group take the unit the search is covering (so the search makes progress)?"""
    kind, f = unit
    if kind == "wild":
        return wm2 < wm if wm else wo2 < wo
    if table[f] or hm[f]:
        return t2[f] < table[f] or hm2[f] < hm[f]
    if kind == "joker":
        return any(fmask >> j & 1 and not fm2 >> j & 1 and fj.face == f
                   for j, fj in enumerate(fixed))
    return ho2[f] < ho[f] or s2[f] < single[f]
