"""The fast exact search: dynamic programming over run values, one column (value) at a time.

Columns go from the low ace (1) to the high ace (14) as the ace policy allows. The state after a
column holds, per suit, the runs still open (their length class 1, 2, 3+, or "kept": the new
run is exactly an old run, which leaves that group unchanged) and a few global counters (jokers
used, "a hand card was laid", Vatican's first-lay run seen). In each column every suit decides
how many of its cards it uses, how many go into sets and which open runs continue; the sets of
the column's rank must then split into valid sets (the split is scored by the old sets it keeps).

Scores are integers: laid cards/points weigh `BIG` times a kept group in "max_*" objectives,
and the other way round for "hint". An upper bound on what the remaining columns can still add
prunes states that can't beat the best complete solution found so far (a quick greedy pass first
gives one).

Not modelled here (the caller checks the result and falls back): Tahiti's one joker per group
and Vatican's "a joker stays beside a neighbour". Everything else in a Problem is exact.
"""

from __future__ import annotations

from collections import Counter
from functools import cache

from .solver_model import NF, Problem, Template, templates, value_face
from .solver_simple import Fill, Solution

BIG = 1 << 10
KEPT = 1000  # run code of a kept run: KEPT + start * 20 + end
LOW = 10  # run code offset of a run that started on the low ace (policy "either")
SHIFT = 16
MASK = (1 << SHIFT) - 1

_suit_states: dict[tuple, int] = {((), 0): 0}
_suit_state_list: list[tuple] = [((), 0)]
_EMPTY = 0  # the suit state with no open run


def _intern(runs: tuple[int, ...], ace_low: int) -> int:
    key = (runs, ace_low)
    sid = _suit_states.get(key)
    if sid is None:
        sid = len(_suit_state_list)
        _suit_states[key] = sid
        _suit_state_list.append(key)
    return sid


@cache
def template_index(ace: str) -> dict[tuple[int, ...], Template]:
    return {t.key: t for t in templates(ace)}


@cache
def run_moves(runs: tuple[int, ...], j: int, v: int, vmax: int, either: bool,
              starts: tuple[tuple[int, int], ...]) -> tuple:
    """Ways `j` cards of one suit at value v continue or start runs, given the open `runs`.

    Returns (new runs, kept runs started, continuing codes, started codes) tuples, deduplicated.
    `starts`: (end, count) of the old runs of this suit that start at v (they may be kept).
    """
    forced: list[tuple[int, int]] = []  # (old code, new code) runs that must continue
    optional: list[int] = []  # runs that may end or continue
    for c in runs:
        if c >= KEPT:
            end = (c - KEPT) % 20
            if v <= end:
                forced.append((c, c))
            # else: it ends exactly now
        elif c % LOW < 3:
            forced.append((c, c + 1))
        elif not (either and c == LOW + 3 and v == 14):
            optional.append(c)
    if len(forced) > j or (forced and v > vmax):
        return ()
    out = {}
    free_new = LOW + 1 if either and v == 1 else 1
    can_start = v + 2 <= vmax
    for n_opt in range(len(optional) + 1):
        # Which optional runs continue: all choices of n_opt codes (as a multiset).
        for cont in _sub_multisets(tuple(sorted(optional)), n_opt):
            n_new = j - len(forced) - n_opt
            if n_new < 0:
                continue
            if n_new and not can_start:
                continue
            for kept in _kept_choices(starts, n_new):
                new_codes = tuple(sorted([free_new] * (n_new - len(kept)) +
                                         [KEPT + v * 20 + b for b in kept]))
                cont_codes = tuple(sorted([c for c, _ in forced] + list(cont)))
                new_runs = tuple(sorted([n for _, n in forced] + list(cont) + list(new_codes)))
                key = (new_runs, len(kept))
                if key not in out:
                    out[key] = (new_runs, len(kept), cont_codes, new_codes)
    return tuple(out.values())


def _sub_multisets(items: tuple[int, ...], n: int) -> list[tuple[int, ...]]:
    if n == 0:
        return [()]
    seen = set()
    out = []
    for i in range(len(items)):
        for rest in _sub_multisets(items[i + 1:], n - 1):
            t = (items[i], *rest)
            if t not in seen:
                seen.add(t)
                out.append(t)
    return out


def _kept_choices(starts: tuple[tuple[int, int], ...], n: int) -> list[tuple[int, ...]]:
    """Multisets of old-run ends to keep among n new runs (each end at most its count)."""
    out: list[tuple[int, ...]] = [()]
    for end, count in starts:
        out = [k + (end,) * c for k in out for c in range(count + 1) if len(k) + c <= n]
    return out


@cache
def set_split(kvec: tuple[int, ...], old: tuple[int, ...]) -> tuple[int, tuple[int, ...]] | None:
    """Split kvec[s] cards of each suit into sets (3-4 different suits): (old sets kept, sets as
    suit masks), the split keeping most of the `old` sets (masks); None if impossible."""
    if not any(kvec):
        return (0, ())
    first = next(s for s in range(4) if kvec[s])
    others = [s for s in range(4) if kvec[s] and s != first]
    best = None
    for size in (2, 3):
        for combo in _combos(others, size):
            mask = 1 << first
            for s in combo:
                mask |= 1 << s
            rest = list(kvec)
            for s in range(4):
                if mask >> s & 1:
                    rest[s] -= 1
            sub = set_split(tuple(rest), old)
            if sub is None:
                continue
            kept = sub[0]
            left = list(old)
            for m in sub[1]:
                if m in left:
                    left.remove(m)
            if mask in left:
                kept += 1
            cand = (kept, (*sub[1], mask))
            if best is None or cand[0] > best[0]:
                best = cand
    return best


@cache
def _splits(kmax: tuple[int, ...], old: tuple[int, ...]) -> tuple[tuple[int, ...], ...]:
    """(k0, k1, k2, k3, old sets kept) for every valid split with k_s <= kmax[s]."""
    out = []
    for k0 in range(kmax[0] + 1):
        for k1 in range(kmax[1] + 1):
            for k2 in range(kmax[2] + 1):
                for k3 in range(kmax[3] + 1):
                    got = set_split((k0, k1, k2, k3), old)
                    if got is not None:
                        out.append((k0, k1, k2, k3, got[0]))
    return tuple(out)


def _combos(items: list[int], n: int) -> list[tuple[int, ...]]:
    if n == 0:
        return [()]
    return [(items[i], *rest) for i in range(len(items)) for rest in _combos(items[i + 1:], n - 1)]


NEG = -(1 << 60)
SC = 12  # heuristic scale: a kept old set's bonus is shared among its 3 or 4 suits


class _Search:
    """One Problem's column DP: per-suit options, the per-suit bound, and the layered search."""

    def __init__(self, p: Problem, objective: str, card_value: list[int], joker_value: int,
                 *, groups: bool = True):
        """`groups=False`: score only the hand cards laid (no kept-group labels: smaller)."""
        self.p = p
        ace = p.ace
        low_ok = ace in ("low", "either", "ends")
        high_ok = ace in ("high", "either", "ends")
        self.vmin, self.vmax = (1 if low_ok else 2), (14 if high_ok else 13)
        self.split = low_ok and high_ok
        self.either = ace == "either"
        # Must the search itself lay a hand card? (Else one is laid whatever it does.)
        self.need_placed = objective in ("hint", "any") and not (
            any(p.hand_m) or p.wild_m_hand or any(lc.added for lc in p.locked))
        fixed_at = Counter(fj.face for fj in p.fixed)
        self.mand = [p.table[f] + p.hand_m[f] + fixed_at[f] for f in range(NF)]
        self.ho, self.sg = p.hand_o, p.single
        self.wild_total = p.wild_m + p.wild_o
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
        self.starts: dict[tuple[int, int], tuple[tuple[int, int], ...]] = {}
        sets_old: dict[int, list[int]] = {}
        for key, count in (p.old_keys.items() if groups else ()):
            t = tindex.get(key)
            if t is None or count <= 0:
                continue
            if t.kind == "run":
                end = t.start + len(t.faces) - 1
                self.starts[(t.suit, t.start)] = (*self.starts.get((t.suit, t.start), ()),
                                                  (end, count))
            else:
                mask = sum(1 << (f % 4) for f in t.faces)
                sets_old.setdefault(t.rank, []).extend([mask] * count)
        self.sets_old = sets_old
        self.raw_cache: list[list[dict]] = [[{} for _ in range(4)] for _ in range(16)]
        self.ckeys: list[list] = [[None] * 4 for _ in range(16)]
        self.skeys: list[list] = [[None] * 4 for _ in range(16)]
        self.opt_cache: list[list[dict]] = [[{} for _ in range(4)] for _ in range(16)]
        self.h_cache: list[list[dict]] = [[{} for _ in range(4)] for _ in range(16)]
        # Per column: the set shares (bound) and the valid splits of set cards.
        self.share = [[[0] * 6 for _ in range(4)] for _ in range(16)]
        self.kmax = [[0] * 4 for _ in range(16)]  # most set cards a suit can give per column
        self.kvecs: list[list[tuple]] = [[] for _ in range(16)]
        for v in range(self.vmin, self.vmax + 1):
            self._prepare_column(v)

    def _is_set_column(self, v: int) -> bool:
        return not (v == 1 and self.split)

    def _prepare_column(self, v: int) -> None:
        rank = 1 if v in (1, 14) else v
        if not self._is_set_column(v):
            self.kvecs[v] = [(0, 0, 0, 0, 0)]
            return
        old = tuple(sorted(self.sets_old.get(rank, ())))
        unit = SC * self.mw
        avail = [min(4, self.mand[f] + self.ho[f] + self.sg[f] + self.wild_total)
                 for f in range((rank - 1) * 4, rank * 4)]
        kmax = self.kmax[v]
        for s in range(4):
            shares = sorted((unit // bin(m).count("1") for m in old if m >> s & 1), reverse=True)
            row = self.share[v][s]
            for k in range(1, 6):
                row[k] = sum(shares[:k])
            # A set needs two more suits: a suit can't give more set cards than that allows.
            others = [avail[t] for t in range(4) if t != s]
            if sum(1 for a in others if a) < 2:
                kmax[s] = 0
            else:
                kmax[s] = min(avail[s], sum(others) // 2)
        self.kvecs[v] = [(*k, bonus * self.mw) for *k, bonus in _splits(tuple(kmax), old)]

    def raw(self, v: int, s: int, sid: int) -> tuple:
        """Options of suit s in column v from suit state sid, by set cards k:
        tuple of 5 lists of (new suit state, gain, wilds, placed, detail)."""
        cache = self.raw_cache[v][s]
        got = cache.get(sid)
        if got is None:
            got = cache[sid] = _raw(self.column_key(v, s), sid)
        return got

    def column_key(self, v: int, s: int) -> tuple:
        """Everything raw() reads about suit s in column v (positions share these)."""
        key = self.ckeys[v][s]
        if key is None:
            f = value_face(v, s)
            key = self.ckeys[v][s] = (
                v, self.vmax, self.either, self.split and v == 1, self.split and v == 14,
                self.mand[f], self.ho[f], self.sg[f], self.hg[f], self.mw, self.wild_total,
                self.starts.get((s, v), ()), self.kmax[v][s])
        return key

    def bound(self, v: int, s: int, sid: int) -> int:
        """Most that suit s can still add (scaled by SC) after column v from state sid, with the
        suits uncoupled (a kept old set's bonus shared among its suits); NEG if it can't end."""
        cache = self.h_cache[v][s]
        got = cache.get(sid)
        if got is None:
            got = cache[sid] = _bound(self.suffix_key(v, s), sid)
        return got

    def suffix_key(self, v: int, s: int) -> int:
        """An id for what suit s meets after column v (positions share these)."""
        key = self.skeys[v][s]
        if key is None:
            if v == self.vmax:
                nxt = ("end", v)
            else:
                nxt = (self.column_key(v + 1, s), tuple(self.share[v + 1][s]),
                       self.suffix_key(v + 1, s))
            key = _SUFFIX_IDS.get(nxt)
            if key is None:
                key = _SUFFIX_IDS[nxt] = len(_SUFFIXES)
                _SUFFIXES.append(nxt)
            self.skeys[v][s] = key
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

    def successors(self, v: int, st: int, score: int, thr: int) -> list[tuple]:
        """States after column v from `st` whose bound reaches `thr` (scaled), best first:
        (bound, new state, new score, per-suit options)."""
        opt = self.options
        l0 = opt(v, 0, st & MASK)
        l1 = opt(v, 1, st >> SHIFT & MASK)
        l2 = opt(v, 2, st >> 2 * SHIFT & MASK)
        l3 = opt(v, 3, st >> 3 * SHIFT & MASK)
        top = 4 * SHIFT
        extra = st >> top
        triple = self.p.triple
        tri_col = triple is not None and v == triple[1] + 2
        slow = self.wild_total or tri_col or self.need_placed or extra
        wused = extra & 7
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
                                w = wused + o0[3] + o1[3] + o2[3] + o3[3]
                                if w > self.wild_total:
                                    continue
                                flag = extra >> 3 & 1 | o0[4] | o1[4] | o2[4] | o3[4]
                                tri = extra >> 4 & 1
                                if tri_col and not tri:
                                    tri = _covers(triple, (o0, o1, o2, o3))
                                nst |= (w | flag << 3 | tri << 4) << top
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
        opt_wild = wused - p.wild_m
        if self.need_placed and not flag and not opt_wild:
            return None
        return score + opt_wild * self.wg

    def best(self, floor: int, stop_at: int | None = None) -> tuple[int, list] | None:
        """Branch and bound, depth first and best bound first: the solution with the highest
        total, if that is at least `floor`, as (total, per-column options); None otherwise (a
        proof). Stops early at a solution reaching `stop_at` (the bound, or "any will do")."""
        wild_sc = max(0, self.wg) * self.p.wild_o * SC
        vmax = self.vmax
        failed: list[dict[int, int]] = [{} for _ in range(16)]
        path: list = []
        inc: list = [floor - 1, None]  # the best total so far, and its path

        def go(v: int, st: int, score: int) -> bool:
            if v > vmax:
                total = self.final_total(st, score)
                if total is not None and total > inc[0]:
                    inc[0], inc[1] = total, list(path)
                    return stop_at is not None and total >= stop_at
                return False
            seen = failed[v].get(st)
            if seen is not None and seen >= score:
                return False
            for f, nst, nscore, opts in self.successors(v, st, score,
                                                        (inc[0] + 1) * SC - wild_sc):
                if f < (inc[0] + 1) * SC - wild_sc:
                    break  # a better solution turned up meanwhile
                path.append(opts)
                if go(v + 1, nst, nscore):
                    return True
                path.pop()
            failed[v][st] = score
            return False

        empty = _EMPTY | _EMPTY << SHIFT | _EMPTY << 2 * SHIFT | _EMPTY << 3 * SHIFT
        go(self.vmin, empty, 0)
        return None if inc[1] is None else (inc[0], inc[1])

    def top(self) -> int | None:
        """The bound of the whole problem (unscaled, rounded down), None if even the relaxed
        problem has no solution."""
        top = sum(self.bound(self.vmin - 1, s, _EMPTY) for s in range(4))
        if top <= NEG // 2:
            return None
        return (top + max(0, self.wg) * self.p.wild_o * SC) // SC


def _first(item: tuple) -> int:
    return item[0]


_RAW: dict[tuple, tuple] = {}
_RAW_LIMIT = 40_000  # entries kept between calls (a few MB)


def _raw(key: tuple, sid: int) -> tuple:
    """Options of one suit in one column (see _Search.raw), shared between searches."""
    got = _RAW.get((key, sid))
    if got is not None:
        return got
    v, vmax, either, ace_low_col, ace_high_col, mand, ho, sg, hg, mw, wild_total, starts, kmax = key
    runs, ace_low = _suit_state_list[sid]
    total_n = mand + ho + sg
    if ace_low_col:
        lo_n, hi_n, base_used = 0, total_n, 0
    elif ace_high_col:
        lo_n, hi_n, base_used = max(0, mand - ace_low), total_n - ace_low, ace_low
    else:
        lo_n, hi_n, base_used = mand, total_n, 0
    by_k: tuple[list, ...] = ([], [], [], [], [])
    for n in range(lo_n, hi_n + 1):
        if ace_low_col:
            gain, placed = 0, 0
        else:
            extra = base_used + n - mand
            hand = min(ho, max(0, extra))
            singles = max(0, extra - hand)
            gain = hand * hg - singles * mw
            placed = int(hand > 0)
        keep_low = n if ace_low_col else 0 if ace_high_col else ace_low
        for w in range(wild_total + 1):
            u = n + w
            max_k = 0 if ace_low_col else min(u, kmax)
            for k in range(max_k + 1):
                for new_runs, kept, cont, new in run_moves(runs, u - k, v, vmax, either, starts):
                    nid = _intern(new_runs, keep_low)
                    by_k[k].append((nid, gain + kept * mw, w, placed, (n, w, k, cont, new)))
    if len(_RAW) >= _RAW_LIMIT:
        _RAW.clear()
    _RAW[(key, sid)] = by_k
    return by_k


_SUFFIXES: list[tuple] = []
_SUFFIX_IDS: dict[tuple, int] = {}
_BOUND: dict[tuple[int, int], int] = {}
_BOUND_LIMIT = 200_000


def _bound(suffix: int, sid: int) -> int:
    """See _Search.bound: the per-suit bound after a column, for the columns `suffix` names."""
    got = _BOUND.get((suffix, sid))
    if got is not None:
        return got
    nxt = _SUFFIXES[suffix]
    if nxt[0] == "end":
        best = 0 if _endable(_suit_state_list[sid][0], nxt[1]) else NEG
    else:
        ckey, share, after = nxt
        best = NEG
        for k, lst in enumerate(_raw(ckey, sid)):
            for o in lst:
                h = _bound(after, o[0])
                if h == NEG:
                    continue
                val = o[1] * SC + share[k] + h
                if val > best:
                    best = val
    if len(_BOUND) >= _BOUND_LIMIT:
        _BOUND.clear()
    _BOUND[(suffix, sid)] = best
    return best


def _endable(runs: tuple[int, ...], v: int) -> bool:
    for c in runs:
        if c >= KEPT:
            if (c - KEPT) % 20 != v:
                return False
        elif c % LOW < 3:
            return False
    return True


def _covers(triple: tuple[int, int], opts) -> int:
    """Does a run of the triple's suit now span its three values (Vatican's first lay)?"""
    runs = _suit_state_list[opts[triple[0]][1]][0]
    return int(any(c % LOW == 3 if c < KEPT else (c - KEPT) // 20 <= triple[1] for c in runs))


def solve_fast(p: Problem, objective: str, card_value: list[int], joker_value: int
               ) -> Solution | None:
    """The best partition of `p` (None if there is none), ignoring the two rules named in the
    module doc.

    Two phases: first the most cards (or points) that can be laid, with a search that ignores
    which groups stay unchanged (far fewer states); then the full objective, whose threshold
    already demands that many cards. Each phase lowers its threshold from the bound of the
    empty table until a solution reaches it: the first pass that finds one is exact.
    """
    n_singles = sum(p.single)
    # Must the search itself lay a hand card? (Else some are laid whatever it does.)
    need = not (any(p.hand_m) or p.wild_m_hand or any(lc.added for lc in p.locked))
    if objective in ("any", "hint"):
        first = _Search(p, "max_cards", card_value, joker_value, groups=False)
        floor = BIG if need else 0
        found = first.best(floor, floor) if first.top() is not None else None
        if found is None:
            return None
        if objective == "any":
            return _solution(first, found, card_value, joker_value)
        value = 0
    elif objective != "select":
        first = _Search(p, objective, card_value, joker_value, groups=False)
        top = first.top()
        found = first.best(1 if need else 0, top) if top is not None else None
        if found is None:
            return None
        value = found[0]
    search = _Search(p, objective, card_value, joker_value)
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
    found = search.best(floor, top)
    if found is None:
        return None
    return _solution(search, found, card_value, joker_value)


def _solution(search: _Search, found, card_value, joker_value) -> Solution | None:
    p = search.p
    return _rebuild_solution(p, found[1], search.vmin, search.vmax, card_value, joker_value,
                             search.sets_old)


# -- rebuilding the groups --------------------------------------------------------------------


def _rebuild_solution(p, chosen, vmin, vmax, card_value, joker_value, sets_old) -> Solution:
    """The groups of the chosen path: first their shape, then which card fills each slot."""
    tindex = template_index(p.ace)
    # 1. Shapes: runs and sets, and the slots (group, position) of each face.
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
            f = value_face(v, s)
            used_at[f] += n
            wilds_at[f] += w
            still = []
            want = list(cont)
            for r in open_runs[s]:
                if r[0] in want:
                    want.remove(r[0])
                    still.append(r)
            for r in still:
                if r[0] < KEPT and r[0] % LOW < 3:
                    r[0] += 1  # one longer after this column
            for code in new:
                groups.append([None, [], code >= KEPT])
                still.append([code, len(groups) - 1])
            for r in still:
                g = groups[r[1]]
                slots[f].append((r[1], len(g[1])))
                g[1].append(f)
            open_runs[s] = still
            ks.append(k)
        if any(ks):
            old = tuple(sorted(sets_old.get(rank, ())))
            _, masks = set_split(tuple(ks), old)
            for mask in masks:
                faces = [(rank - 1) * 4 + s for s in range(4) if mask >> s & 1]
                groups.append([None, faces, mask in old])
                for i, f in enumerate(faces):
                    slots[f].append((len(groups) - 1, i))
    for g in groups:
        g[0] = tindex[tuple(sorted(g[1]))]
    # 2. Cards: per face, jokers first to the groups with fewest jokers (and, for Vatican, beside
    # a neighbour); real cards to Vatican's first-lay run and to unchanged groups first.
    fills: list[list] = [[None] * len(g[1]) for g in groups]
    jokers_in = [0] * len(groups)
    triple_slots = _triple_slots(p.triple, groups)
    wilds_left = p.wild_m
    for f in _faces_in_value_order(vmin, vmax):
        if not slots[f]:
            continue
        units: list[Fill] = [("T", f)] * p.table[f]
        units += [("J", i) for i, fj in enumerate(p.fixed) if fj.face == f]
        units += [("M", f)] * p.hand_m[f] + [("O", f)] * p.hand_o[f] + [("S", f)] * p.single[f]
        units = units[:used_at[f]]
        jokers = [u for u in units if u[0] == "J"]
        reals = [u for u in units if u[0] != "J"]
        for _ in range(wilds_at[f]):
            jokers.append(("W", 0) if wilds_left > 0 else ("V", 0))
            wilds_left -= 1
        free = list(slots[f])
        for u in jokers:
            need = p.fixed[u[1]].neighbours if u[0] == "J" else None
            choice = min(free, key=lambda gs, need=need: (
                gs in triple_slots,
                need is not None and not _beside(groups[gs[0]][0].faces, gs[1], need),
                jokers_in[gs[0]], groups[gs[0]][2]))
            free.remove(choice)
            fills[choice[0]][choice[1]] = u
            jokers_in[choice[0]] += 1
        free.sort(key=lambda gs: (gs not in triple_slots, not groups[gs[0]][2]))
        for gs, u in zip(free, reals, strict=True):
            fills[gs[0]][gs[1]] = u
    finished = [(g[0], fills[i]) for i, g in enumerate(groups)]
    sol = _solution_from_groups(p, finished, card_value, joker_value)
    return sol if sol.count else None


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
    matched += sum(p.single) - sum(used_singles.values())
    for lc in p.locked:
        count += len(lc.added)
        value += sum(card_value[f] for f in lc.added)
        matched += not lc.added
    count += p.wild_m_hand
    value += p.wild_m_hand * joker_value
    return Solution(tuple(out), count, value, matched)
