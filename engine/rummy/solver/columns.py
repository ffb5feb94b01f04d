"""One suit in one column: the moves of its runs, the sets a column can split into, and the
per-suit bound. Shared between searches and calls (the tables are bounded: trim_caches).

A suit's state is a sorted tuple of run codes plus how many of its aces went into low runs
(aces are split between the low and the high end of the columns under "either" and "ends").
A run code: length class 1, 2 or 3 (3 or more) | LOW (it began on the low ace, policy
"either": it may not reach the high ace) | start << 3 when an old run of its suit began at the
same value (a "tag": if it also ends where that old run ends, that group stays unchanged).
States are interned as small ints; a search state packs four of them (SHIFT bits each) and
its counters above.
"""

from __future__ import annotations

from collections import Counter
from functools import cache, lru_cache
from itertools import product

from .model import Template, templates

BIG = 1 << 10  # a laid card outweighs any number of kept groups (and the other way for hints)
SHIFT = 16  # bits per suit state in a search state
MASK = (1 << SHIFT) - 1
NEG = -(1 << 60)
SC = 12  # heuristic scale: a kept old set's bonus is shared among its 3 or 4 suits


_SUIT_IDS: dict[tuple, int] = {((), 0): 0}
SUIT_STATES: list[tuple] = [((), 0)]
EMPTY = 0  # the suit state with no open run
WORK = [0]  # tables a search asked for the first time: what a budget charges besides the
# states expanded. Counted per search, not per miss of the caches shared between calls, so a
# cut-short answer depends only on the position (same view, same move: games replay).
SUITS_MASK = (1 << 4 * 16) - 1  # the four suit states of a search state


def _intern(runs: tuple[int, ...], ace_low: int) -> int:
    key = (runs, ace_low)
    sid = _SUIT_IDS.get(key)
    if sid is None:
        sid = len(SUIT_STATES)
        _SUIT_IDS[key] = sid
        SUIT_STATES.append(key)
    return sid


@cache
def template_index(ace: str) -> dict[tuple[int, ...], Template]:
    return {t.key: t for t in templates(ace)}


LOW = 4  # run code flag, see the module doc


@lru_cache(maxsize=10_000)
def run_moves(runs: tuple[int, ...], j: int, v: int, vmax: int, either: bool,
              ends: tuple[tuple[int, int], ...], tag: bool, alive: tuple[int, ...]) -> tuple:
    """Ways `j` cards of one suit in column v continue or start runs, given the open `runs`.

    Returns (new runs, old runs matched by the runs that end here, continuing codes, started
    codes) tuples, deduplicated. `ends`: (start, count) of this suit's old runs that end just
    before v; `tag`: an old run of this suit starts at v; `alive`: the starts of old runs that
    reach v (a run tagged with another start can no longer match: it loses its tag).
    """
    forced: list[tuple[int, int]] = []  # (code, next code): runs that must continue
    optional: list[int] = []  # runs that may end or continue
    for c in runs:
        if c & 3 < 3:
            nxt = c + 1
            if nxt >> 3 and nxt >> 3 not in alive:
                nxt &= 7
            forced.append((c, nxt))
        elif not (either and c & LOW and v == 14):
            optional.append(c)
    if len(forced) > j or (forced and v > vmax):
        return ()
    out = {}
    new_code = 1 | (v << 3 if tag else 0) | (LOW if either and v == 1 else 0)
    can_start = v + 2 <= vmax
    optional.sort()
    for n_opt in range(len(optional) + 1):
        # Which optional runs continue: all choices of n_opt codes (as a multiset).
        for cont in _sub_multisets(tuple(optional), n_opt):
            n_new = j - len(forced) - n_opt
            if n_new < 0 or (n_new and not can_start):
                continue
            ended = list(optional)
            for c in cont:
                ended.remove(c)
            bonus = end_bonus(tuple(ended), ends) if ended and ends else 0
            new_codes = (new_code,) * n_new
            cont_codes = tuple(sorted([c for c, _ in forced] + list(cont)))
            kept = [c if not c >> 3 or c >> 3 in alive else c & 7 for c in cont]
            new_runs = tuple(sorted([n for _, n in forced] + kept + list(new_codes)))
            key = (new_runs, bonus)
            if key not in out:
                out[key] = (new_runs, bonus, cont_codes, new_codes)
    return tuple(out.values())


def end_bonus(ended: tuple[int, ...], ends: tuple[tuple[int, int], ...]) -> int:
    """Old runs matched by the tagged runs in `ended`, which all end where the old runs
    `ends` (start, count) end."""
    if not ends:
        return 0
    starts = Counter(c >> 3 for c in ended if c >> 3)
    return sum(min(starts[start], count) for start, count in ends if start in starts)


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
def column_sets(avail: tuple[int, ...], old: tuple[int, ...], mw: int) -> tuple:
    """For a set column with `avail` cards per suit and the `old` sets of its rank: the most
    set cards each suit can give, each suit's share of the kept old sets' bonus (scaled; by
    number of set cards) and every valid split (k0, k1, k2, k3, bonus)."""
    unit = SC * mw
    kmax = []
    share = []
    for s in range(4):
        shares = sorted((unit // bin(m).count("1") for m in old if m >> s & 1), reverse=True)
        share.append(tuple(sum(shares[:k]) for k in range(6)))
        # A set needs two more suits: a suit can't give more set cards than that allows.
        others = [avail[t] for t in range(4) if t != s]
        if sum(1 for a in others if a) < 2:
            kmax.append(0)
        else:
            kmax.append(min(avail[s], sum(others) // 2))
    kvecs = tuple((*k, bonus * mw) for *k, bonus in _splits(tuple(kmax), old))
    return kmax, tuple(share), kvecs


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


_RAW: dict[tuple, tuple] = {}


_RAW_LIMIT = 4_000  # entries kept between calls (a few MB)


def suit_options(key: tuple, sid: int) -> tuple:
    """Options of one suit in one column (see _Search.raw), shared between searches."""
    got = _RAW.get((key, sid))
    if got is not None:
        return got
    (v, vmax, either, ace_low_col, ace_high_col, mand, ho, sg, hg, mw, wild_total, ends, tag,
     alive, kmax, wg) = key
    runs, ace_low = SUIT_STATES[sid]
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
                for new_runs, kept, cont, new in run_moves(runs, u - k, v, vmax, either, ends,
                                                           tag, alive):
                    nid = _intern(new_runs, keep_low)
                    by_k[k].append((nid, gain + kept * mw + w * wg, w, placed,
                                     (n, w, k, cont, new)))
    if len(_RAW) >= _RAW_LIMIT:
        _RAW.clear()
    _RAW[(key, sid)] = by_k
    return by_k


_SUFFIXES: list[tuple] = []


_SUFFIX_IDS: dict[tuple, int] = {}

_BOUND: dict[tuple[int, int, int], int] = {}


_BOUND_LIMIT = 30_000


def suffix_id(nxt: tuple) -> int:
    """An id for what a suit meets after a column: (column key, shares, next id) or the end."""
    key = _SUFFIX_IDS.get(nxt)
    if key is None:
        key = _SUFFIX_IDS[nxt] = len(_SUFFIXES)
        _SUFFIXES.append(nxt)
    return key


def suit_bound(suffix: int, sid: int, wilds: int) -> int:
    """See _Search.bound: the per-suit bound after a column, for the columns `suffix` names,
    using at most `wilds` jokers."""
    got = _BOUND.get((suffix, sid, wilds))
    if got is not None:
        return got
    nxt = _SUFFIXES[suffix]
    if nxt[0] == "end":
        _, ends, mw = nxt
        runs = SUIT_STATES[sid][0]
        best = end_bonus(runs, ends) * mw * SC if endable(runs) else NEG
    else:
        ckey, share, after = nxt
        best = NEG
        for k, lst in enumerate(suit_options(ckey, sid)):
            for o in lst:
                if o[2] > wilds:
                    continue
                h = suit_bound(after, o[0], wilds - o[2])
                if h == NEG:
                    continue
                val = o[1] * SC + share[k] + h
                if val > best:
                    best = val
    if len(_BOUND) >= _BOUND_LIMIT:
        _BOUND.clear()
    _BOUND[(suffix, sid, wilds)] = best
    return best


_UPGRADES: dict[tuple[int, tuple[int, ...]], tuple[int, ...]] = {}


def upgrades(sid: int, alive: tuple[int, ...]) -> tuple[int, ...]:
    """Suit states that can do all that sid can, with the same gains: some of its short runs
    longer, free of the low-ace mark, or tagged with an old run's start that is still `alive`;
    or with one more run that may end at once."""
    got = _UPGRADES.get((sid, alive))
    if got is None:
        runs, ace_low = SUIT_STATES[sid]
        choices = []
        for c in runs:
            bases = {c & ~3} | {(c & ~3) & ~LOW}
            if not c >> 3:
                bases |= {b | st << 3 for b in set(bases) for st in alive}
            choices.append([b | k for b in bases for k in range(c & 3, 4)])
        seen = {tuple(sorted(combo)) for combo in product(*choices)} if len(runs) <= 3 else set()
        if len(runs) < 3:  # one more run that may end at once: it only adds ways on
            seen |= {tuple(sorted((*r, 3))) for r in seen}
        seen.discard(runs)
        got = _UPGRADES[(sid, alive)] = tuple(_intern(r, ace_low) for r in sorted(seen))
    return got


def endable(runs: tuple[int, ...]) -> bool:
    return all(c & 3 == 3 for c in runs)


def trim_caches() -> None:
    """Start afresh when the tables kept between calls have grown too big (call it between
    searches, never during one: the tables refer to each other by number)."""
    if len(SUIT_STATES) > 30_000 or len(_SUFFIXES) > 30_000 or len(_UPGRADES) > 30_000:
        _SUIT_IDS.clear()
        SUIT_STATES.clear()
        _SUIT_IDS[((), 0)] = EMPTY
        SUIT_STATES.append(((), 0))
        _SUFFIXES.clear()
        _SUFFIX_IDS.clear()
        _RAW.clear()
        _BOUND.clear()
        _UPGRADES.clear()
        run_moves.cache_clear()
    if set_split.cache_info().currsize > 20_000:
        set_split.cache_clear()
        _splits.cache_clear()
        column_sets.cache_clear()
