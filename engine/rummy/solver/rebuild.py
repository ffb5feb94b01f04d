"""From the chosen path of the column search to groups: their shapes, then which card (table,
hand, single, joker) fills each slot."""

from __future__ import annotations

from collections import Counter
from functools import cache

from .columns import set_split, template_index
from .model import NF, Problem, value_face
from .simple import Fill, Solution


def rebuild_solution(p, chosen, vmin, vmax, card_value, joker_value, sets_old, olds
                      ) -> Solution:
    """The groups of the chosen path: first their shape, then which card fills each slot."""
    groups, slots, wilds_at, used_at = _shapes(p, chosen, vmin, vmax, sets_old, olds)
    fills = _cards(p, groups, slots, wilds_at, used_at, vmin, vmax)
    finished = [(g[0], fills[i]) for i, g in enumerate(groups)]
    sol = _solution_from_groups(p, finished, card_value, joker_value)
    return sol if sol.count else None


def _shapes(p, chosen, vmin, vmax, sets_old, olds):
    """1. Shapes: runs and sets, and the slots (group, position) of each face; which groups
    are unchanged old ones. (groups: [template, faces, unchanged?]; per face its slots, its
    jokers and its cards used.)"""
    tindex = template_index(p.ace)
    groups: list[list] = []  # [template, faces, unchanged old group?]
    slots: list[list[tuple[int, int]]] = [[] for _ in range(NF)]
    wilds_at = [0] * NF
    used_at = [0] * NF
    open_runs: list[list[list]] = [[] for _ in range(4)]  # per suit: [code, group index]
    for v, opts in zip(range(vmin, vmax + 1), chosen, strict=True):
        rank = 1 if v in (1, 14) else v
        ks = []
        for s in range(4):
            n, w, k, cont, new = opts[s][5]
            f = (rank - 1) * 4 + s  # value_face(v, s)
            if n:
                used_at[f] += n
            if w:
                wilds_at[f] += w
            ks.append(k)
            runs = open_runs[s]
            if not runs and not new:
                continue  # nothing in runs here: all this suit's cards went into sets
            still = []
            if runs:
                want = list(cont)
                for r in runs:
                    if r[0] in want:
                        want.remove(r[0])
                        still.append(r)
            if still:
                alive = {st for st, en, _ in olds[s] if st < v <= en}
                for r in still:  # the code each run has after this column (as run_moves gives)
                    if r[0] & 3 < 3:
                        r[0] += 1
                    if r[0] >> 3 and r[0] >> 3 not in alive:
                        r[0] &= 7
            for code in new:
                groups.append([None, [], False])
                still.append([code, len(groups) - 1])
            for r in still:
                g = groups[r[1]]
                slots[f].append((r[1], len(g[1])))
                g[1].append(f)
            open_runs[s] = still
        if any(ks):
            old = tuple(sorted(sets_old.get(rank, ())))
            _, masks = set_split(tuple(ks), old)
            for mask in masks:
                faces = [(rank - 1) * 4 + s for s in range(4) if mask >> s & 1]
                groups.append([None, faces, False])
                for i, f in enumerate(faces):
                    slots[f].append((len(groups) - 1, i))
    avail = Counter(p.old_keys)
    for g in groups:
        g[0] = tindex[tuple(sorted(g[1]))]
        if avail[g[0].key] > 0:  # an unchanged old group: it takes real table cards first
            avail[g[0].key] -= 1
            g[2] = True
    return groups, slots, wilds_at, used_at


def _cards(p, groups, slots, wilds_at, used_at, vmin, vmax) -> list[list]:
    """2. Cards: per face, jokers first to the groups with fewest jokers (and, for Vatican,
    beside a neighbour); real cards to Vatican's first-lay run and to unchanged groups first."""
    fills: list[list] = [[None] * len(g[1]) for g in groups]
    jokers_in = [0] * len(groups)
    triple_slots = _triple_slots(p.triple, groups)
    wilds_left = p.wild_m
    plain = not p.fixed and not triple_slots
    for f in _faces_in_value_order(vmin, vmax):
        if not slots[f]:
            continue
        if plain and not wilds_at[f]:  # the path below without jokers, in fewer steps
            order = slots[f]
            n = len(order)
            if n > 1:
                order = sorted(order, key=lambda gs: not groups[gs[0]][2])
            units = [("T", f)] * p.table[f]
            if len(units) >= used_at[f]:
                units = units[:used_at[f]]
            else:
                units = (units + [("M", f)] * p.hand_m[f] + [("O", f)] * p.hand_o[f]
                         + [("S", f)] * p.single[f])[:used_at[f]]
            for gs, u in zip(order, units, strict=True):
                fills[gs[0]][gs[1]] = u
            continue
        units: list[Fill] = [("T", f)] * p.table[f]
        if p.fixed:
            units += [("J", i) for i, fj in enumerate(p.fixed) if fj.face == f]
        units += [("M", f)] * p.hand_m[f] + [("O", f)] * p.hand_o[f] + [("S", f)] * p.single[f]
        units = units[:used_at[f]]
        jokers = [u for u in units if u[0] == "J"] if p.fixed else []
        reals = [u for u in units if u[0] != "J"] if p.fixed else units
        for _ in range(wilds_at[f]):
            jokers.append(("W", 0) if wilds_left > 0 else ("V", 0))
            wilds_left -= 1
        if not jokers and not triple_slots:
            order = sorted(slots[f], key=lambda gs: not groups[gs[0]][2])
            for gs, u in zip(order, reals, strict=True):
                fills[gs[0]][gs[1]] = u
            continue
        free = list(slots[f])
        for u in jokers:
            need = p.fixed[u[1]].neighbours if u[0] == "J" else None
            kin = p.fixed[u[1]].companions if u[0] == "J" else None
            choice = min(free, key=lambda gs, need=need, kin=kin: (
                gs in triple_slots,
                need is not None and not _beside(groups[gs[0]][0].faces, gs[1], need),
                kin is not None and not _with(groups[gs[0]][1], gs[1], kin),
                jokers_in[gs[0]], groups[gs[0]][2]))
            free.remove(choice)
            fills[choice[0]][choice[1]] = u
            jokers_in[choice[0]] += 1
        free.sort(key=lambda gs: (gs not in triple_slots, not groups[gs[0]][2]))
        for gs, u in zip(free, reals, strict=True):
            fills[gs[0]][gs[1]] = u
    return fills


@cache
def _faces_in_value_order(vmin: int, vmax: int) -> list[int]:
    out: list[int] = []
    for v in range(vmin, vmax + 1):
        for s in range(4):
            f = value_face(v, s)
            if f not in out:
                out.append(f)
    return out


def _beside(faces: tuple[int, ...], i: int, need: frozenset[int]) -> bool:
    return bool(set(faces[max(0, i - 1): i] + faces[i + 1: i + 2]) & need)


def _with(faces: list[int], i: int, kin: frozenset[int]) -> bool:
    """Rummikub: does the group hold, beside slot i, a face of the joker's old combination?"""
    return any(f in kin for k, f in enumerate(faces) if k != i)


def _triple_slots(triple, groups) -> set[tuple[int, int]]:
    """Vatican's first lay: the slots of one run spanning the triple (they need real cards)."""
    if triple is None:
        return set()
    s, v = triple
    for gi, g in enumerate(groups):
        t = g[0]
        if t.kind == "run" and t.suit == s and t.start <= v and v + 2 < t.start + len(t.faces):
            return {(gi, v + i - t.start) for i in range(3)}
    return set()


def _solution_from_groups(p: Problem, groups, card_value, joker_value) -> Solution:
    count = value = matched = 0
    avail = Counter(p.old_keys)
    out = []
    for t, fills in groups:
        for kind, f in fills:
            if kind in "MO":
                count += 1
                value += card_value[f]
            elif kind == "V":
                count += 1
                value += joker_value
        if avail[t.key] > 0:
            avail[t.key] -= 1
            matched += 1
        out.append((t, tuple(fills)))
    used_singles = Counter(f for _, fills in groups for kind, f in fills if kind == "S")
    matched += sum(p.single) - sum(used_singles.values()) + p.idle_singles
    for lc in p.locked:
        count += len(lc.added)
        value += sum(card_value[f] for f in lc.added)
        matched += not lc.added
    count += p.wild_m_hand
    value += p.wild_m_hand * joker_value
    return Solution(tuple(out), count, value, matched)
