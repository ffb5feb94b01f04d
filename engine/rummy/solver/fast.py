"""The fast exact search: branch and bound over the columns (run values), one at a time.

Columns go from the low ace (1) to the high ace (14) as the ace policy allows. The state after a
column holds, per suit, the runs still open (engine/rummy/solver/columns.py) and a few counters
(jokers
used, "a hand card was laid", Vatican's first-lay run seen). In each column every suit decides
how many of its cards it uses, how many go into sets and which open runs continue; the set cards
of the column's rank must split into valid sets, scored by the old sets they keep.

Scores are integers: laid cards/points weigh `BIG` times a kept group in "max_*" objectives,
and the other way round for "hint". The bound of a state is the sum of what each suit could
still add alone (an exact per-suit search where sets cost no partners; an old set's bonus is
shared among its suits), so a state that can't beat the best solution so far is dropped.
Depth first, best bound first, with a memo of the states that failed (and of the states they
dominate: same runs but shorter).

Two phases: first the most cards/points (no kept-group tags: fewer states), then the full
objective from that many cards, seeded by the first phase's solution.

Not modelled here (the caller checks the result and falls back): Tahiti's one joker per group
and Vatican's "a joker stays beside a neighbour". Everything else in a Problem is exact.

`_Search.top` and `_Search.best` run in C when engine/rummy/solver/_c.c is built: a line-by-line
port
with the same answers and the same budget accounting (tests/test_solver_native.py), 5-25 times
faster. Without it they run here.
"""

from __future__ import annotations

from collections import Counter
from dataclasses import replace
from functools import cache
from itertools import product

from .columns import (
    BIG,
    EMPTY,
    MASK,
    NEG,
    SC,
    SHIFT,
    SUIT_STATES,
    SUITS_MASK,
    WORK,
    column_sets,
    end_bonus,
    suffix_id,
    suit_bound,
    suit_options,
    template_index,
    trim_caches,
    upgrades,
)
from .model import NF, Problem, value_face
from .rebuild import rebuild_solution
from .simple import Solution

try:  # the same search in C (engine/rummy/solver/_c.c, built by `pip install -e .`)
    from . import _c as _C
except ImportError:  # not built: the Python search alone (same answers, slower)
    _C = None

__all__ = ["BIG", "native_available", "solve_fast", "trim_caches"]

USE_NATIVE = True  # tests switch the C search off to compare it with the Python one
NATIVE_MAX_STATES = 0  # tests: fewer suit states than the C search's own limit (0: its own)


def native_available() -> bool:
    return _C is not None



class _Search:
    """One Problem's column DP: per-suit options, the per-suit bound, and the layered search."""

    def __init__(self, p: Problem, objective: str, card_value: list[int], joker_value: int,
                 *, groups: bool = True, native: bool = False):
        """`groups=False`: score only the hand cards laid (no kept-group labels: smaller).
        `native`: may run in C (engine/rummy/solver/_c.c: the same search, the same answers)."""
        self.p = p
        self.cut = False  # a budget stopped the search: its answer may not be the best
        ace = p.ace
        low_ok = ace in ("low", "either", "ends")
        high_ok = ace in ("high", "either", "ends")
        self.vmin, self.vmax = (1 if low_ok else 2), (14 if high_ok else 13)
        self.split = low_ok and high_ok
        self.either = ace == "either"
        # Must the search itself lay a hand card? (Else one is laid whatever it does.)
        self.need_placed = objective in ("hint", "any") and not (
            any(p.hand_m) or p.wild_m_hand or any(lc.added for lc in p.locked))
        if p.fixed:
            fixed_at = Counter(fj.face for fj in p.fixed)
            self.mand = [p.table[f] + p.hand_m[f] + fixed_at[f] for f in range(NF)]
        else:
            self.mand = [t + h for t, h in zip(p.table, p.hand_m, strict=True)]
        self.ho, self.sg = p.hand_o, p.single
        self.wild_total = p.wild_m + p.wild_o
        # cards of each face that any group may hold (its own, and every joker)
        self.cards_at = [m + h + s for m, h, s in zip(self.mand, self.ho, self.sg, strict=True)]
        if objective == "max_cards":
            hg, wg, mw = [BIG] * NF, BIG, 1
        elif objective == "max_points":
            hg, wg, mw = [BIG * card_value[f] for f in range(NF)], BIG * joker_value, 1
        elif objective == "select":
            hg, wg, mw = [0] * NF, 0, 1
        else:  # hint / any: fewest changed groups, then fewest cards
            hg, wg, mw = [-1] * NF, -1, BIG
        if not groups:
            mw = 0
        self.hg, self.wg, self.mw = hg, wg, mw
        # Old groups that a new group may leave unchanged.
        tindex = template_index(ace)
        olds: list[list[tuple[int, int, int]]] = [[] for _ in range(4)]
        sets_old: dict[int, list[int]] = {}
        for key, count in (p.old_keys.items() if groups else ()):
            t = tindex.get(key)
            if t is None or count <= 0:
                continue
            if t.kind == "run":
                olds[t.suit].append((t.start, t.start + len(t.faces) - 1, count))
            else:
                mask = sum(1 << (f % 4) for f in t.faces)
                sets_old.setdefault(t.rank, []).extend([mask] * count)
        self.sets_old = sets_old
        self.olds = tuple(tuple(sorted(o)) for o in olds)  # per suit: (start, end, count)
        # Per column: the set shares (bound) and the valid splits of set cards.
        zero = (0,) * 6
        self.share: list = [(zero,) * 4] * 16  # per column and suit: kept-set bonus shares
        self.kmax: list = [[0] * 4] * 16  # most set cards a suit can give per column
        self.kvecs: list = [()] * 16
        wt = self.wild_total
        caps = [min(4, n + wt) for n in self.cards_at]
        for v in range(self.vmin, self.vmax + 1):
            self._prepare_column(v, caps)
        self.native = None
        self._work = 0  # units the C search has charged to WORK
        if native and USE_NATIVE and _C is not None:
            self.native = self._native_search()
        if self.native is None:
            self._python_tables()

    def _python_tables(self) -> None:
        """The Python search's tables, filled as it goes."""
        self.raw_cache: list[list[dict]] = [[{} for _ in range(4)] for _ in range(16)]
        self.ckeys: list[list] = [[None] * 4 for _ in range(16)]
        self.skeys: list[list] = [[None] * 4 for _ in range(16)]
        self.alive_keys: list[list] = [[None] * 4 for _ in range(17)]
        self.opt_cache: list[list[dict]] = [[{} for _ in range(4)] for _ in range(16)]
        self.h_cache: list[list[dict]] = [[{} for _ in range(4)] for _ in range(16)]
        self.wopt_cache: list[list[dict]] = [[{} for _ in range(4)] for _ in range(16)]
        self.jb_cache: dict[tuple[int, int, int], int] = {}

    def _native_search(self):
        """The C twin of this search (None if a face holds more cards than it packs)."""
        if max(self.cards_at) + self.wild_total > 7 or self.wild_total > 4:
            return None
        cols = (self.mand, self.ho, self.sg, self.hg, self.olds, self.kmax, self.share)
        spec = (self.vmin, self.vmax, self.either, self.split, self.mw, self.need_placed,
                self.p.triple, cols, self.kvecs, self.wild_total, self.p.wild_m, self.wg,
                NATIVE_MAX_STATES)
        return _C.new(spec)

    def _drop_native(self) -> None:
        """The C search ran out of suit-state numbers (never seen in practice): go on in
        Python. What it charged to a budget stays charged, so answers stay deterministic."""
        self._charge()
        self.native = None
        self._python_tables()

    def _charge(self) -> None:
        """Add what the C search charged since the last call to WORK (as the Python one does)."""
        work = _C.work(self.native)
        WORK[0] += work - self._work
        self._work = work

    def _is_set_column(self, v: int) -> bool:
        return not (v == 1 and self.split)

    def _prepare_column(self, v: int, caps: list[int]) -> None:
        """`caps`: per face, the most cards a set may take from it (at most 4)."""
        rank = 1 if v in (1, 14) else v
        if not self._is_set_column(v):
            self.kvecs[v] = ((0, 0, 0, 0, 0),)
            return
        old = tuple(sorted(self.sets_old.get(rank, ()))) if self.sets_old else ()
        f0 = (rank - 1) * 4
        avail = tuple(caps[f0:f0 + 4])
        self.kmax[v], self.share[v], self.kvecs[v] = column_sets(avail, old, self.mw)

    def raw(self, v: int, s: int, sid: int) -> tuple:
        """Options of suit s in column v from suit state sid, by set cards k:
        tuple of 5 lists of (new suit state, gain, wilds, placed, detail)."""
        cache = self.raw_cache[v][s]
        got = cache.get(sid)
        if got is None:
            WORK[0] += 1
            got = cache[sid] = suit_options(self.column_key(v, s), sid)
        return got

    def alive(self, v: int, s: int) -> tuple[int, ...]:
        """Starts of suit s's old runs that reach column v from before it."""
        key = self.alive_keys[v][s]
        if key is None:
            key = self.alive_keys[v][s] = tuple(sorted(
                {st for st, en, _ in self.olds[s] if st < v <= en}))
        return key

    def ends_before(self, v: int, s: int) -> tuple[tuple[int, int], ...]:
        """(start, count) of suit s's old runs that end at v - 1."""
        return tuple((st, n) for st, en, n in self.olds[s] if en == v - 1)

    def column_key(self, v: int, s: int) -> tuple:
        """Everything raw() reads about suit s in column v (positions share these)."""
        key = self.ckeys[v][s]
        if key is None:
            f = value_face(v, s)
            key = self.ckeys[v][s] = (
                v, self.vmax, self.either, self.split and v == 1, self.split and v == 14,
                self.mand[f], self.ho[f], self.sg[f], self.hg[f], self.mw, self.wild_total,
                self.ends_before(v, s), any(st == v for st, _, _ in self.olds[s]),
                self.alive(v, s),
                self.kmax[v][s], self.wg)
        return key

    def bound(self, v: int, s: int, sid: int, wilds: int | None = None) -> int:
        """Most that suit s can still add (scaled by SC) after column v from state sid, with the
        suits uncoupled (a kept old set's bonus shared among its suits) and at most `wilds`
        jokers (default: all); NEG if it can't end."""
        if wilds is None or wilds >= self.wild_total:
            cache = self.h_cache[v][s]
            got = cache.get(sid)
            if got is None:
                WORK[0] += 1
                got = cache[sid] = suit_bound(self.suffix_key(v, s), sid, self.wild_total)
            return got
        return suit_bound(self.suffix_key(v, s), sid, wilds)

    def joint_bound(self, v: int, st: int, wilds: int) -> int:
        """Sum of the suits' bounds after column v, sharing `wilds` jokers among them."""
        key = (v, st & SUITS_MASK, wilds)
        got = self.jb_cache.get(key)
        if got is None:
            got = self.jb_cache[key] = self._joint_bound(v, st, wilds)
        return got

    def _joint_bound(self, v: int, st: int, wilds: int) -> int:
        best = [0] + [NEG] * wilds  # best[w]: the suits so far with w jokers between them
        for s in range(4):
            sid = st >> s * SHIFT & MASK
            row = [self.bound(v, s, sid, w) for w in range(wilds + 1)]
            best = [max((best[a] + row[w - a] for a in range(w + 1)
                         if best[a] > NEG and row[w - a] > NEG), default=NEG)
                    for w in range(wilds + 1)]
        return max(best)

    def suffix_key(self, v: int, s: int) -> int:
        """An id for what suit s meets after column v (positions share these)."""
        key = self.skeys[v][s]
        if key is None:
            if v == self.vmax:
                nxt = ("end", self.ends_before(v + 1, s), self.mw)
            else:
                nxt = (self.column_key(v + 1, s), self.share[v + 1][s],
                       self.suffix_key(v + 1, s))
            key = self.skeys[v][s] = suffix_id(nxt)
        return key

    def options(self, v: int, s: int, sid: int) -> tuple:
        """raw() without dead ends, each with its bound, best first:
        (k, nid, gain, wilds, placed, detail, nid << shift, gain*SC + bound, bound)."""
        cache = self.opt_cache[v][s]
        got = cache.get(sid)
        if got is not None:
            return got
        shift = s * SHIFT
        out = []
        for k, lst in enumerate(self.raw(v, s, sid)):
            row = []
            for nid, gain, w, placed, detail in lst:
                h = self.bound(v, s, nid)
                if h != NEG:
                    row.append((k, nid, gain, w, placed, detail, nid << shift, gain * SC + h, h))
            row.sort(key=lambda o: -o[7])
            out.append(row)
        got = tuple(out)
        cache[sid] = got
        return got

    def wild_options(self, v: int, s: int, sid: int, w: int, left: int) -> tuple:
        """Like options(), only those laying `w` jokers in this column, each bounded with
        `left` jokers for the columns after."""
        cache = self.wopt_cache[v][s]
        key = (sid, w, left)
        got = cache.get(key)
        if got is not None:
            return got
        shift = s * SHIFT
        out = []
        for k, lst in enumerate(self.raw(v, s, sid)):
            row = []
            for nid, gain, ow, placed, detail in lst:
                if ow != w:
                    continue
                h = self.bound(v, s, nid, left)
                if h != NEG:
                    row.append((k, nid, gain, ow, placed, detail, nid << shift, gain * SC + h, h))
            row.sort(key=lambda o: -o[7])
            out.append(row)
        got = cache[key] = tuple(out)
        return got

    def wild_successors(self, v: int, st: int, score: int, thr: int) -> list[tuple]:
        """successors() with jokers: one pass per split of this column's jokers among the
        suits, so that each suit's bound knows how many jokers are left after it."""
        top = 4 * SHIFT
        extra = st >> top
        wused = extra & 7
        flag0, tri0 = extra >> 3 & 1, extra >> 4 & 1
        triple = self.p.triple
        tri_col = triple is not None and v == triple[1] + 2
        sids = [st >> s * SHIFT & MASK for s in range(4)]
        base = score * SC
        out = []
        spare = self.wild_total - wused
        for wvec in _joker_splits(spare):
            left = spare - sum(wvec)
            lists = [self.wild_options(v, s, sids[s], wvec[s], left) for s in range(4)]
            w = wused + sum(wvec)
            for k0, k1, k2, k3, bonus in self.kvecs[v]:
                a0, a1, a2, a3 = lists[0][k0], lists[1][k1], lists[2][k2], lists[3][k3]
                if not (a0 and a1 and a2 and a3):
                    continue
                for opts in _bounded_product(a0, a1, a2, a3, base + bonus * SC, thr):
                    nscore = score + bonus + sum(o[2] for o in opts)
                    nst = opts[0][6] | opts[1][6] | opts[2][6] | opts[3][6]
                    f = nscore * SC + self.joint_bound(v, nst, left)
                    if f < thr:
                        continue
                    flag = flag0 | opts[0][4] | opts[1][4] | opts[2][4] | opts[3][4]
                    tri = tri0
                    if tri_col and not tri:
                        tri = _covers(triple, opts)
                    nst |= (w | flag << 3 | tri << 4) << top
                    out.append((f, nst, nscore, opts))
        out.sort(key=_first, reverse=True)
        return out

    def successors(self, v: int, st: int, score: int, thr: int) -> list[tuple]:
        """States after column v from `st` whose bound reaches `thr` (scaled), best first:
        (bound, new state, new score, per-suit options)."""
        if self.wild_total:
            return self.wild_successors(v, st, score, thr)
        opt = self.options
        l0 = opt(v, 0, st & MASK)
        l1 = opt(v, 1, st >> SHIFT & MASK)
        l2 = opt(v, 2, st >> 2 * SHIFT & MASK)
        l3 = opt(v, 3, st >> 3 * SHIFT & MASK)
        top = 4 * SHIFT
        extra = st >> top
        triple = self.p.triple
        tri_col = triple is not None and v == triple[1] + 2
        slow = tri_col or self.need_placed or extra
        base = score * SC
        out = []
        for k0, k1, k2, k3, bonus in self.kvecs[v]:
            a0, a1, a2, a3 = l0[k0], l1[k1], l2[k2], l3[k3]
            if not (a0 and a1 and a2 and a3):
                continue
            b = base + bonus * SC
            m1, m2, m3 = a1[0][7], a2[0][7], a3[0][7]
            m23 = m2 + m3
            if b + a0[0][7] + m1 + m23 < thr:
                continue
            for o0 in a0:
                b0 = b + o0[7]
                if b0 + m1 + m23 < thr:
                    break
                for o1 in a1:
                    b1 = b0 + o1[7]
                    if b1 + m23 < thr:
                        break
                    for o2 in a2:
                        b2 = b1 + o2[7]
                        if b2 + m3 < thr:
                            break
                        for o3 in a3:
                            f = b2 + o3[7]
                            if f < thr:
                                break
                            nst = o0[6] | o1[6] | o2[6] | o3[6]
                            if slow:
                                flag = extra >> 3 & 1 | o0[4] | o1[4] | o2[4] | o3[4]
                                tri = extra >> 4 & 1
                                if tri_col and not tri:
                                    tri = _covers(triple, (o0, o1, o2, o3))
                                nst |= (flag << 3 | tri << 4) << top
                            nscore = score + bonus + o0[2] + o1[2] + o2[2] + o3[2]
                            out.append((f, nst, nscore, (o0, o1, o2, o3)))
        out.sort(key=_first, reverse=True)
        return out

    def final_total(self, st: int, score: int) -> int | None:
        """The total of a complete solution ending in `st`, or None if it breaks a rule."""
        p = self.p
        extra = st >> 4 * SHIFT
        wused, flag, tri = extra & 7, extra >> 3 & 1, extra >> 4 & 1
        if wused < p.wild_m or (p.triple is not None and not tri):
            return None
        if self.need_placed and not flag and wused == p.wild_m:
            return None
        for s in range(4):  # old runs that the last column's runs end like
            runs = SUIT_STATES[st >> s * SHIFT & MASK][0]
            if runs:
                score += end_bonus(runs, self.ends_before(self.vmax + 1, s)) * self.mw
        return score - p.wild_m * self.wg  # the jokers that had to be laid add nothing

    def best(self, floor: int, stop_at: int | None = None, budget: list[int] | None = None,
             seeded: bool = False) -> tuple[int, list] | None:
        """Branch and bound, depth first and best bound first: the solution with the highest
        total, if that is at least `floor`, as (total, per-column options); None otherwise (a
        proof). Stops early at a solution reaching `stop_at` (the bound, or "any will do").
        `budget`: states it may still expand, shared between calls; once spent, and once some
        solution is known (`seeded`: the caller has one), it stops and sets `self.cut`."""
        if self.native is not None:
            left = None if budget is None else budget[0]
            pending = 0 if budget is None else WORK[0] - budget[1]
            try:
                found, left, unsynced, cut = _C.best(self.native, floor, stop_at, left, pending,
                                                     seeded)
            except OverflowError:
                self._drop_native()
                return self.best(floor, stop_at, budget, seeded)
            self._charge()
            if budget is not None:
                budget[0], budget[1] = left, WORK[0] - unsynced
                self.cut = self.cut or bool(cut)
            return found
        wild_sc = -self.p.wild_m * self.wg * SC  # see final_total
        vmax = self.vmax
        failed: list[dict[int, int]] = [{} for _ in range(16)]
        path: list = []
        inc: list = [floor - 1, None]  # the best total so far, and its path

        def go(v: int, st: int, score: int) -> bool:
            if budget is not None:  # a state, and the tables computed since the last one
                budget[0] -= 1 + WORK[0] - budget[1]
                budget[1] = WORK[0]
                if budget[0] < 0 and (seeded or inc[1] is not None):
                    self.cut = True
                    return True
            if v > vmax:
                total = self.final_total(st, score)
                if total is not None and total > inc[0]:
                    inc[0], inc[1] = total, list(path)
                    return stop_at is not None and total >= stop_at
                return False
            memo = failed[v]
            seen = memo.get(st)
            if seen is not None and seen >= score:
                return False
            if memo and self._dominated(memo, v, st, score):
                return False
            nexts = self.successors(v, st, score, (inc[0] + 1) * SC - wild_sc)
            if budget is not None and self.wild_total:
                budget[0] -= len(nexts) // 4  # a joker column weighs more
            for f, nst, nscore, opts in nexts:
                if f < (inc[0] + 1) * SC - wild_sc:
                    break  # a better solution turned up meanwhile
                path.append(opts)
                if go(v + 1, nst, nscore):
                    return True
                path.pop()
            failed[v][st] = score
            return False

        empty = EMPTY | EMPTY << SHIFT | EMPTY << 2 * SHIFT | EMPTY << 3 * SHIFT
        go(self.vmin, empty, 0)
        return None if inc[1] is None else (inc[0], inc[1])

    def _dominated(self, memo: dict[int, int], v: int, st: int, score: int) -> bool:
        """Has a state better in one suit (see upgrades: every way on open to this one) failed
        with at least this score? (`memo` holds the states after column v - 1.)"""
        for s in range(4):
            shift = s * SHIFT
            sid = st >> shift & MASK
            ups = upgrades(sid, self.alive(v, s))
            if not ups:
                continue
            rest = st & ~(MASK << shift)
            for up in ups:
                seen = memo.get(rest | up << shift)
                if seen is not None and seen >= score:
                    return True
        return False

    def total_of(self, sol: Solution) -> int:
        """What `sol` (a solution of this problem) scores in this search."""
        p = self.p
        avail = Counter(p.old_keys)
        total = 0
        wilds = 0
        for t, fills in sol.groups:
            if avail[t.key] > 0:
                avail[t.key] -= 1
                total += self.mw
            for kind, f in fills:
                if kind == "O":
                    total += self.hg[f]
                elif kind == "S":
                    total -= self.mw
                elif kind in "WV":
                    wilds += 1
        return total + (wilds - p.wild_m) * self.wg

    def top(self) -> int | None:
        """The bound of the whole problem (unscaled, rounded down), None if even the relaxed
        problem has no solution."""
        if self.native is not None:
            try:
                got = _C.top(self.native)
            except OverflowError:
                self._drop_native()
                return self.top()
            self._charge()
            return got
        empty = EMPTY | EMPTY << SHIFT | EMPTY << 2 * SHIFT | EMPTY << 3 * SHIFT
        top = self.joint_bound(self.vmin - 1, empty, self.wild_total)
        if top <= NEG // 2:
            return None
        return (top - self.p.wild_m * self.wg * SC) // SC


def _first(item: tuple) -> int:
    return item[0]


@cache
def _joker_splits(n: int) -> tuple[tuple[int, int, int, int], ...]:
    """Every way to give at most n jokers to the four suits."""
    return tuple(w for w in product(range(n + 1), repeat=4) if sum(w) <= n)


def _bounded_product(a0, a1, a2, a3, base: int, thr: int):
    """Combinations of one option per suit whose summed bounds (o[7]) reach thr; the lists
    are sorted best first, so each loop stops at the first that can't."""
    m1, m2, m3 = a1[0][7], a2[0][7], a3[0][7]
    m23 = m2 + m3
    for o0 in a0:
        b0 = base + o0[7]
        if b0 + m1 + m23 < thr:
            return
        for o1 in a1:
            b1 = b0 + o1[7]
            if b1 + m23 < thr:
                break
            for o2 in a2:
                b2 = b1 + o2[7]
                if b2 + m3 < thr:
                    break
                for o3 in a3:
                    if b2 + o3[7] < thr:
                        break
                    yield (o0, o1, o2, o3)


def _covers(triple: tuple[int, int], opts) -> int:
    """Does a run of the triple's suit now span its three values (Vatican's first lay)?"""
    runs = SUIT_STATES[opts[triple[0]][1]][0]
    return int(any(c & 3 == 3 for c in runs))


def solve_fast(p: Problem, objective: str, card_value: list[int], joker_value: int,
               budget: list[int] | None = None, beat: int | None = None,
               give_up: bool = False) -> Solution | None:
    """The best partition of `p` (None if there is none), ignoring the two rules named in the
    module doc.

    Two phases: first the most cards (or points) that can be laid, with a search that ignores
    which groups stay unchanged (far fewer states); then the full objective, whose threshold
    already demands that many cards. Each phase lowers its threshold from the bound of the
    empty table until a solution reaches it: the first pass that finds one is exact.

    `budget` ([units left, WORK seen]: states expanded and tables computed, shared between
    calls) bounds the time; when it runs out the answer is the best found so far, marked
    `exact=False`. Existence is always proven.
    `beat` ("max_*" only): skip (None) unless this case may lay more than this many cards or
    points (the other joker cases' best so far).
    `give_up`: when the budget runs out before any solution, answer None — then not a proof
    (find_move's `effort`).
    """
    n_singles = sum(p.single)
    # Must the search itself lay a hand card? (Else some are laid whatever it does.)
    need = not (any(p.hand_m) or p.wild_m_hand or any(lc.added for lc in p.locked))
    seed = None  # a solution of the first phase: a floor for the second
    if objective in ("any", "hint"):
        first = _Search(p, "max_cards", card_value, joker_value, groups=False, native=True)
        floor = BIG if need else 0
        found = first.best(floor, floor, budget, give_up) if first.top() is not None else None
        if found is None:
            return None
        seed = _solution(first, found, card_value, joker_value, first.cut)
        if objective == "any":
            return seed
        value = 0
    elif objective != "select":
        first = _Search(p, objective, card_value, joker_value, groups=False, native=True)
        top = first.top()
        if top is not None and beat is not None and top // BIG + _laid_anyway(
                p, objective, card_value, joker_value) < beat:
            return None
        found = first.best(1 if need else 0, top, budget, give_up) if top is not None else None
        if found is None:
            return None
        value = found[0]
        if budget is None:
            # Without a budget the second phase lowers its threshold from the top until a
            # solution reaches it, so a floor below the first phase's solution finds the same
            # answer: that partition is rebuilt only if the second phase finds none.
            return _second_phase(p, objective, card_value, joker_value, value, n_singles,
                                 lambda: _solution(first, found, card_value, joker_value))
        seed = _solution(first, found, card_value, joker_value, first.cut)
    if budget is not None and seed is not None and budget[0] - (WORK[0] - budget[1]) < 0:
        return replace(seed, exact=False)  # no time left for fewer changed groups
    search = _Search(p, objective, card_value, joker_value, native=True)
    top = search.top()
    if top is None:
        return None
    if objective in ("max_cards", "max_points"):
        floor = value - n_singles
        top = min(top, value + sum(p.old_keys.values()))  # every old group kept, at best
    elif objective == "select":
        floor = -n_singles
    else:  # hint
        floor = -(sum(p.hand_o) + p.wild_o + n_singles * BIG)
    if seed is not None:
        floor = max(floor, search.total_of(seed))
    found = search.best(floor, top, budget, seeded=seed is not None or give_up)
    if found is None:  # nothing beats the first phase's solution (or the budget ran out)
        return seed if seed is None or not search.cut else replace(seed, exact=False)
    return _solution(search, found, card_value, joker_value, search.cut)


def _second_phase(p: Problem, objective: str, card_value, joker_value, value: int,
                  n_singles: int, seed) -> Solution | None:
    """solve_fast's second phase for "max_*" without a budget (`seed()`: the first phase's
    solution, built only when needed)."""
    search = _Search(p, objective, card_value, joker_value, native=True)
    top = search.top()
    if top is None:
        return None
    top = min(top, value + sum(p.old_keys.values()))  # every old group kept, at best
    found = search.best(value - n_singles, top, None, seeded=True)
    if found is None:
        return seed()
    return _solution(search, found, card_value, joker_value, search.cut)


def _laid_anyway(p: Problem, objective: str, card_value, joker_value) -> int:
    """Cards (or points) every solution of `p` lays whatever the search does."""
    if objective == "max_cards":
        return sum(p.hand_m) + sum(len(lc.added) for lc in p.locked) + p.wild_m_hand
    return (sum(card_value[f] * n for f, n in enumerate(p.hand_m))
            + sum(card_value[f] for lc in p.locked for f in lc.added)
            + p.wild_m_hand * joker_value)


def _solution(search: _Search, found, card_value, joker_value, cut: bool = False
              ) -> Solution | None:
    p = search.p
    sol = rebuild_solution(p, found[1], search.vmin, search.vmax, card_value, joker_value,
                            search.sets_old, search.olds)
    return replace(sol, exact=False) if cut and sol is not None else sol


# -- rebuilding the groups --------------------------------------------------------------------
