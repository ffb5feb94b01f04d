"""Times the ILP package rummikub-solver (GLPK backend) on the racks bench/solver.py wrote, so
the two solvers are measured on the same positions. It imports nothing of this project; run it
in a throwaway venv that has the package (its code is not part of this repository):

    python3 -m venv /tmp/rkvenv && /tmp/rkvenv/bin/pip install rummikub-solver cvxopt
    .venv/bin/python bench/solver.py --rummikub-only --rummikub-export /tmp/racks.json
    /tmp/rkvenv/bin/python bench/rummikub_ilp.py /tmp/racks.json [--backend GLPK_MI]

Rows: the initial meld ("initial" mode: rack only, at least 30) on 14- and 24-tile racks, and
regular turns (most tiles, "tiles" mode) with both jokers on the rack, 40 + 14 and 85 + 21.
"""

from __future__ import annotations

import argparse
import json
import statistics
import time

from rummikub_solver import GameState, MILPSolver, RuleSet, SolverMode


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("racks")
    ap.add_argument("--backend", default="GLPK_MI")
    args = ap.parse_args()
    with open(args.racks) as f:
        data = json.load(f)
    rules = RuleSet(solver_backend=MILPSolver(args.backend))
    tiles = rules.tiles  # numbers per colour, then the joker last

    def tile(pair: list[int]):
        colour, number = pair
        return tiles[-1] if colour < 0 else tiles[colour * 13 + number - 1]

    def timed(state: GameState, mode: SolverMode) -> tuple[float, object]:
        t0 = time.perf_counter()
        got = rules.solve(state, mode)
        return (time.perf_counter() - t0) * 1000, got

    def state(table=(), rack=(), initial=True) -> GameState:
        game = rules.new_game()
        if table:
            game.add_table(*table)
        game.add_rack(*rack)
        game.initial = initial
        return game

    timed(state(rack=[tile(p) for p in data["initial/14"][0]]), SolverMode.INITIAL)
    for key, mode in (("initial/14", SolverMode.INITIAL), ("initial/24", SolverMode.INITIAL)):
        times, found = [], 0
        for rack in data[key]:
            ms, got = timed(state(rack=[tile(p) for p in rack]), mode)
            times.append(ms)
            found += got is not None
        _print(f"ILP {args.backend} {key}", times, found)
    for key, label in (("turns", "40+14"), ("turns/85+21", "85+21")):
        if key not in data:
            continue
        times, found = [], 0
        for turn in data[key]:
            game = state([tile(p) for p in turn["table"]], [tile(p) for p in turn["rack"]],
                         False)
            ms, got = timed(game, SolverMode.TILE_COUNT)
            times.append(ms)
            found += got is not None
        _print(f"ILP {args.backend} turns {label}", times, found)


def _print(label: str, times: list[float], found: int) -> None:
    ordered = sorted(times)
    p95 = ordered[min(len(ordered) - 1, int(0.95 * len(ordered)))]
    print(f"{label:<32} median {statistics.median(times):8.2f}  p95 {p95:8.2f}  "
          f"max {max(times):8.2f} ms  found {found}/{len(times)}")


if __name__ == "__main__":
    main()
