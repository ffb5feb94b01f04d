"""Benchmark of the move solver (engine/rummy/solver.py) on seeded random positions.

    .venv/bin/python bench/solver.py                # readable table
    .venv/bin/python bench/solver.py --json         # ... and, as the last line, one JSON object
    .venv/bin/python bench/solver.py --positions 20 --sizes 40+14,85+21

Positions: a valid random table (random runs and sets from two decks, some holding a designated
joker in the joker rows) and a random hand from the cards left. Rows without jokers alternate
Manipulation (ace high) and Machiavelli (ace high or low); rows with jokers alternate Carousel,
Vatican and Tahiti (two jokers, or four in Tahiti with its four singles). Without jokers two
decks leave only 19 cards beside an 85-card table, so that hand has 19 cards.

Rummikub rows (`--rummikub N`, default 40 positions): the initial meld ("max_points" with
`first_lay_done=False`: the most valuable meld from the rack alone) on random 14- and 24-tile
racks from the 106 tiles, and regular turns (40-tile table + 14-tile rack holding both jokers,
"any" and "max_cards"). `--rummikub-export FILE` writes the racks for bench/rummikub_ilp.py,
which times the ILP package rummikub-solver (GLPK) on the same racks, in a venv of its own.

Anchor: the ILP package rummikub-solver (GLPK) takes a median 2.3 ms at 40+14 and 5.5 ms at
85+21 (it maximises tiles only; this solver also keeps as many groups unchanged as it can).
The exhaustive reference search runs on the small rows for a ratio.
"""

from __future__ import annotations

import argparse
import gc
import json
import random
import resource
import statistics
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from engine.rummy.moves import check_move
from engine.rummy.rulebooks import get_rulebook
from engine.rummy.solver import STATS, find_move
from engine.rummy.solver.positions import random_position

OBJECTIVES = ("any", "hint", "max_cards", "max_points")
PLAIN = ("manipulation", "machiavelli")
JOKERS = ("carousel", "vatican", "tahiti")
ANCHOR_MS = {"40+14": 2.3, "85+21": 5.5}


def positions(size: str, jokers: bool, count: int, seed: int):
    table_size, hand_size = (int(x) for x in size.split("+"))
    rng = random.Random(f"{seed}/{size}/{jokers}")
    out = []
    for i in range(count):
        name = (JOKERS if jokers else PLAIN)[i % (3 if jokers else 2)]
        rules = get_rulebook(name)
        n_jokers = rules.jokers if jokers else 0
        pos = random_position(rng, table_size, hand_size, ace=rules.ace, jokers=n_jokers,
                              singles=rules.singles if jokers else 0)
        out.append((rules, pos))
    return out


CLOCK = time.perf_counter


def time_call(rules, pos, objective: str, reference: bool = False):
    gc.disable()
    t0 = CLOCK()
    move = find_move(rules, pos.table, pos.hand, objective=objective, singles=pos.singles,
                     reference=reference)
    dt = CLOCK() - t0
    gc.enable()
    if move is not None:
        check = check_move(rules, pos.table, pos.hand, move.new_table, singles=pos.singles)
        if not check.ok:
            raise AssertionError(f"illegal move from the solver: {check.reason}")
    return dt * 1000, move


def pct(values: list[float], q: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(q * len(ordered)))]


def main(argv: list[str] | None = None) -> dict:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--positions", type=int, default=40, help="positions per row (default 40)")
    ap.add_argument("--sizes", default="20+7,40+14,60+21,85+21",
                    help="table+hand sizes (default 20+7,40+14,60+21,85+21)")
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--reference", type=int, default=10,
                    help="positions per small row for the exhaustive search (0: none)")
    ap.add_argument("--json", action="store_true", help="print the figures as JSON last")
    ap.add_argument("--clock", choices=("wall", "cpu"), default="wall",
                    help="wall time (default) or this process's CPU time (a busy machine)")
    ap.add_argument("--rummikub", type=int, default=40,
                    help="positions per Rummikub row (0: none)")
    ap.add_argument("--rummikub-export", default=None, metavar="FILE",
                    help="write the Rummikub racks as JSON for bench/rummikub_ilp.py")
    ap.add_argument("--rummikub-only", action="store_true", help="only the Rummikub rows")
    ap.add_argument("--ilp", default=None, metavar="FILE",
                    help="bench/rummikub_ilp.py --out FILE: compare with the ILP, position by "
                    "position")
    args = ap.parse_args(argv)
    sys.stdout.reconfigure(line_buffering=True)
    global CLOCK
    CLOCK = time.process_time if args.clock == "cpu" else time.perf_counter
    if args.rummikub_only:
        result = {"rummikub": rummikub_rows(args.rummikub, args.seed, args.rummikub_export,
                                              args.ilp)}
        if args.json:
            print(json.dumps(result))
        return result
    # Warm up: a long-lived bot process has the solver's tables built already.
    for jokers in (False, True):
        for rules, pos in positions("40+14", jokers, 6, args.seed + 1000):
            for objective in OBJECTIVES:
                time_call(rules, pos, objective)
    STATS.clear()

    rss0 = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss
    rows = []
    print(f"{'row':<16}{'objective':<12}{'median':>8}{'p95':>8}{'p99':>8}{'max':>9}  (ms)"
          f"{'laid':>7}{'changed':>9}")
    for size in args.sizes.split(","):
        for jokers in (False, True):
            batch = positions(size, jokers, args.positions, args.seed)
            label = f"{size}{' jokers' if jokers else ''}"
            for objective in OBJECTIVES:
                times, laid, changed = [], [], []
                for rules, pos in batch:
                    ms, move = time_call(rules, pos, objective)
                    times.append(ms)
                    if move is not None:
                        laid.append(len(move.placed))
                        changed.append(len(move.changed))
                row = {
                    "size": size, "jokers": jokers, "objective": objective,
                    "median": statistics.median(times), "p95": pct(times, 0.95),
                    "p99": pct(times, 0.99), "max": max(times), "n": len(times),
                    "within_5ms": sum(t <= 5 for t in times) / len(times),
                    "within_50ms": sum(t <= 50 for t in times) / len(times),
                }
                rows.append(row)
                print(f"{label:<16}{objective:<12}{row['median']:8.2f}{row['p95']:8.2f}"
                      f"{row['p99']:8.2f}{row['max']:9.2f}      "
                      f"{statistics.mean(laid) if laid else 0:7.1f}"
                      f"{statistics.mean(changed) if changed else 0:9.1f}")
    rss = (resource.getrusage(resource.RUSAGE_SELF).ru_maxrss - rss0) / 1024

    # Ratio against the exhaustive reference search, where it finishes in reasonable time.
    ratios = []
    if args.reference:
        for size in ("20+7",):
            for jokers in (False, True):
                batch = positions(size, jokers, args.reference, args.seed)
                for objective in ("any", "max_cards"):
                    fast = [time_call(r, p, objective)[0] for r, p in batch]
                    slow = [time_call(r, p, objective, reference=True)[0] for r, p in batch]
                    ratios.append({
                        "size": size, "jokers": jokers, "objective": objective,
                        "solver_median": statistics.median(fast),
                        "reference_median": statistics.median(slow),
                        "ratio": statistics.median(slow) / max(1e-9, statistics.median(fast)),
                    })
        print()
        for r in ratios:
            print(f"reference search {r['size']}{' jokers' if r['jokers'] else ''} "
                  f"{r['objective']}: {r['reference_median']:.2f} ms vs {r['solver_median']:.2f}"
                  f" ms median ({r['ratio']:.1f}x)")

    any_rows = [r for r in rows if r["objective"] == "any"]
    max_rows = [r for r in rows if r["objective"] == "max_cards"]
    summary = {
        "any_within_5ms": statistics.mean(r["within_5ms"] for r in any_rows),
        "max_cards_within_50ms": statistics.mean(r["within_50ms"] for r in max_rows),
        "max_ms": max(r["max"] for r in rows),
        "p99_worst_ms": max(r["p99"] for r in rows),
        "peak_rss_growth_mb": rss,
        "joker_answers_cut_by_budget": STATS["cut"],
        "calls": STATS["calls"],
        "clock": args.clock,
    }
    print()
    print(f"'any' within 5 ms: {summary['any_within_5ms']:.1%}   "
          f"'max_cards' within 50 ms: {summary['max_cards_within_50ms']:.1%}   "
          f"worst p99 {summary['p99_worst_ms']:.1f} ms   max {summary['max_ms']:.1f} ms   "
          f"memory growth {rss:.1f} MB   joker searches cut by the budget: "
          f"{STATS['cut']} of {STATS['calls']} calls")
    for size, anchor in ANCHOR_MS.items():
        got = [r["median"] for r in max_rows if r["size"] == size and not r["jokers"]]
        if got:
            print(f"max_cards median at {size}: {got[0]:.2f} ms (anchor: ILP {anchor} ms)")
    result = {"rows": rows, "reference": ratios, "summary": summary}
    if args.rummikub:
        print()
        result["rummikub"] = rummikub_rows(args.rummikub, args.seed, args.rummikub_export,
                                           args.ilp)
    if args.json:
        print(json.dumps(result))
    return result


def rummikub_racks(size: int, count: int, seed: int):
    """`count` random racks of `size` tiles from the 106."""
    from engine.rummy.tiles import make_tiles

    rng = random.Random(f"{seed}/rummikub/{size}")
    out = []
    for _ in range(count):
        tiles = make_tiles(2, 2)
        rng.shuffle(tiles)
        out.append(tiles[:size])
    return out


def rummikub_turns(count: int, seed: int, size: str = "40+14"):
    """Regular turns: a random table (runs and groups, no joker) and a rack holding both
    jokers — 40 + 14 (12 tiles and the jokers) or 85 + 21 (19 and the jokers)."""
    from engine.rummy.tiles import Tile

    table_size, rack_size = (int(x) for x in size.split("+"))
    label = "" if size == "40+14" else f"/{size}"
    rng = random.Random(f"{seed}/rummikub/turns{label}")
    out = []
    for _ in range(count):
        pos = random_position(rng, table_size, 106 - 2 - table_size, ace="low", jokers=0)
        table = [[Tile(c.rank, c.suit, c.copy) for c in g] for g in pos.table]
        hand = [Tile(c.rank, c.suit, c.copy) for c in pos.hand[:rack_size - 2]]
        out.append((table, [*hand, Tile(0, "", 0), Tile(0, "", 1)]))
    return out


def _ms(call) -> tuple[float, object]:
    gc.disable()
    t0 = CLOCK()
    got = call()
    dt = CLOCK() - t0
    gc.enable()
    return dt * 1000, got


def rummikub_rows(count: int, seed: int, export: str | None, ilp: str | None = None
                  ) -> list[dict]:
    """The initial meld is timed on each rack's first call (its search memoises per rack in an
    lru_cache, emptied before each call: a repeated call would look free), and again on a
    repeated call, for the record. With `ilp` (bench/rummikub_ilp.py --out), each row beside
    the ILP's on the same positions: the ratio of medians, and the same optimum?"""
    from engine.rummy.solver.initial import _front

    rules = get_rulebook("rummikub")
    for table, rack in rummikub_turns(4, seed + 1000):  # warm up the solver's tables
        find_move(rules, [], rack, objective="max_points", first_lay_done=False)
        find_move(rules, table, rack, objective="max_cards")
    rows = []
    exported: dict[str, list] = {}
    print(f"{'rummikub row':<34}{'median':>8}{'p95':>8}{'max':>9}  (ms){'melds':>7}{'value':>7}")
    for size in (14, 24):
        racks = rummikub_racks(size, count, seed)
        times, repeats, values, laid = [], [], [], []
        for rack in racks:
            def call(rack=rack):
                return find_move(rules, [], rack, objective="max_points", first_lay_done=False)
            _front.cache_clear()
            ms, move = _ms(call)
            times.append(ms)
            repeats.append(_ms(call)[0])
            laid.append(0 if move is None else len(move.placed))
            if move is not None:
                check = check_move(rules, [], rack, move.new_table, first_lay_done=False)
                assert check.ok, check.reason
                values.append(sum(c.play_rank for g in move.new_table for c in g))
        key = f"initial/{size}"
        rows.append(_row(f"initial meld {size} tiles first call", times, len(values), values,
                         key=key, laid=laid))
        rows.append(_row(f"initial meld {size} tiles repeated", repeats, len(values), values))
        exported[key] = [[_ilp_tile(t) for t in rack] for rack in racks]
    for size in ("40+14", "85+21"):
        turns = rummikub_turns(count, seed, size)
        for objective in ("any", "max_cards"):
            times, laid = [], []
            for table, rack in turns:
                ms, move = _ms(lambda t=table, r=rack, o=objective: find_move(rules, t, r,
                                                                               objective=o))
                times.append(ms)
                laid.append(0 if move is None else len(move.placed))
                if move is not None:
                    assert check_move(rules, table, rack, move.new_table).ok
            key = ("turns" if size == "40+14" else f"turns/{size}") \
                if objective == "max_cards" else None
            rows.append(_row(f"{size} 2 jokers {objective}", times, sum(n > 0 for n in laid),
                             [n for n in laid if n], key=key, laid=laid))
        exported["turns" if size == "40+14" else f"turns/{size}"] = [
            {"table": [_ilp_tile(t) for g in table for t in g],
             "rack": [_ilp_tile(t) for t in rack]} for table, rack in turns]
    # The card rows the ILP anchor names: jokerless, ace low (Shanghai), so a card is a tile.
    shanghai = get_rulebook("shanghai")
    for size in ("40+14", "85+21"):
        rng = random.Random(f"{seed}/ilp/{size}")
        table_size, hand_size = (int(x) for x in size.split("+"))
        batch = [random_position(rng, table_size, hand_size, ace="low") for _ in range(count)]
        times, laid = [], []
        for pos in batch:
            ms, move = time_call(shanghai, pos, "max_cards")
            times.append(ms)
            laid.append(0 if move is None else len(move.placed))
        key = f"cards/{size}"
        rows.append(_row(f"cards {size} max_cards", times, sum(n > 0 for n in laid),
                         [n for n in laid if n], key=key, laid=laid))
        exported[key] = [{"table": [_ilp_tile(c) for g in pos.table for c in g],
                          "rack": [_ilp_tile(c) for c in pos.hand]} for pos in batch]
    if export:
        Path(export).write_text(json.dumps(exported))
        print(f"racks written to {export}: time the ILP with bench/rummikub_ilp.py {export}")
    if ilp:
        compare_ilp(rows, json.loads(Path(ilp).read_text()))
    return rows


def compare_ilp(rows: list[dict], ilp: dict) -> None:
    """Each keyed row beside the ILP's: medians, their ratio, the same optimum (tiles laid on a
    turn; on an initial meld, found or not — the ILP's value of a joker is its own)."""
    print()
    print(f"{'same positions':<22}{'solver':>9}{'ILP':>9}{'ratio':>8}{'same optimum':>15}"
          f"  (ms medians, ILP {ilp['backend']}, {ilp['clock']} clock)")
    for row in rows:
        theirs = ilp["rows"].get(row.get("key") or "")
        if not theirs:
            continue
        mine, laid = row["median"], row["laid"]
        median = statistics.median(theirs["times"])
        if row["key"].startswith("initial/"):
            same = sum((a > 0) == (b > 0) for a, b in zip(laid, theirs["laid"], strict=True))
        else:
            same = sum(a == b for a, b in zip(laid, theirs["laid"], strict=True))
        row["ilp_median"] = median
        row["ratio"] = mine / median
        row["same_optimum"] = same
        print(f"{row['key']:<22}{mine:9.2f}{median:9.2f}{row['ratio']:8.2f}"
              f"{same:>9}/{len(laid)}")


def _row(label: str, times: list[float], found: int, values: list[int], *,
         key: str | None = None, laid: list[int] | None = None) -> dict:
    row = {"row": label, "median": statistics.median(times), "p95": pct(times, 0.95),
           "max": max(times), "n": len(times), "found": found,
           "mean_value": statistics.mean(values) if values else 0}
    if key:
        row["key"], row["laid"] = key, laid
    print(f"{label:<34}{row['median']:8.2f}{row['p95']:8.2f}{row['max']:9.2f}      "
          f"{found:7d}{row['mean_value']:7.1f}")
    return row


def _ilp_tile(tile) -> list[int]:
    """(colour 0-3, number 1-13), or (-1, 0) for a joker: what bench/rummikub_ilp.py reads."""
    if tile.is_joker:
        return [-1, 0]
    return ["SHDC".index(tile.suit), tile.rank]


if __name__ == "__main__":
    main()
