"""Times the ILP package rummikub-solver (GLPK backend) on the racks bench/solver.py wrote, so
the two solvers are measured on the same positions. It imports nothing of this project; run it
in a throwaway venv that has the package (its code is not part of this repository):

    python3 -m venv /tmp/rkvenv && /tmp/rkvenv/bin/pip install rummikub-solver cvxopt
    .venv/bin/python bench/solver.py --rummikub-only --rummikub-export /tmp/racks.json
    /tmp/rkvenv/bin/python bench/rummikub_ilp.py /tmp/racks.json --clock cpu --out /tmp/ilp.json
    .venv/bin/python bench/solver.py --rummikub-only --clock cpu --ilp /tmp/ilp.json

Rows: the initial meld ("initial" mode: rack only, at least 30, the most valuable) on 14- and
24-tile racks; regular Rummikub turns (most tiles, "tiles" mode) with both jokers on the rack,
40 + 14 and 85 + 21; and bench/solver.py's jokerless card positions at 40 + 14 and 85 + 21
(ace low: a card is a tile, suit for colour), the rows its ILP anchor names.
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
    ap.add_argument("--clock", choices=("wall", "cpu"), default="wall",
                    help="wall time (default) or this process's CPU time (a busy machine)")
    ap.add_argument("--out", help="write every position's time and tiles laid as JSON, for "
                    "bench/solver.py --ilp FILE")
    args = ap.parse_args()
    clock = time.process_time if args.clock == "cpu" else time.perf_counter
    with open(args.racks) as f:
        data = json.load(f)
    rules = RuleSet(solver_backend=MILPSolver(args.backend))
    tiles = rules.tiles  # numbers per colour, then the joker last

    def tile(pair: list[int]):
        colour, number = pair
        return tiles[-1] if colour < 0 else tiles[colour * 13 + number - 1]

    def timed(state: GameState, mode: SolverMode) -> tuple[float, object]:
        t0 = clock()
        got = rules.solve(state, mode)
        return (clock() - t0) * 1000, got

    def state(table=(), rack=(), initial=True) -> GameState:
        game = rules.new_game()
        if table:
            game.add_table(*table)
        game.add_rack(*rack)
        game.initial = initial
        return game

    timed(state(rack=[tile(p) for p in data["initial/14"][0]]), SolverMode.INITIAL)
    out: dict[str, dict] = {}
    for key in data:
        initial = key.startswith("initial/")
        # the initial meld: most valuable meld from the rack; a turn: most tiles laid
        mode = SolverMode.INITIAL if initial else SolverMode.TILE_COUNT
        times, laid = [], []
        for item in data[key]:
            if initial:
                game = state(rack=[tile(p) for p in item])
            else:
                game = state([tile(p) for p in item["table"]], [tile(p) for p in item["rack"]],
                             False)
            ms, got = timed(game, mode)
            times.append(ms)
            laid.append(0 if got is None else len(got.tiles))
        _print(f"ILP {args.backend} {key}", times, sum(n > 0 for n in laid))
        out[key] = {"times": times, "laid": laid}
    if args.out:
        with open(args.out, "w") as f:
            json.dump({"backend": args.backend, "clock": args.clock, "rows": out}, f)


def _print(label: str, times: list[float], found: int) -> None:
    ordered = sorted(times)
    p95 = ordered[min(len(ordered) - 1, int(0.95 * len(ordered)))]
    print(f"{label:<32} median {statistics.median(times):8.2f}  p95 {p95:8.2f}  "
          f"max {max(times):8.2f} ms  found {found}/{len(times)}")


if __name__ == "__main__":
    main()
