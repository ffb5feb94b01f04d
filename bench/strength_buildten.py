"""How strong and how quick Build-to-Ten's computer players are: seeded matches, as a table.

    .venv/bin/python bench/strength_buildten.py --games 1000 > docs/buildten-strength.md

A match is `rummy simulate --game build-to-ten` with those seats (who sits where rotates game by
game). The table gives the first seat's win rate (a shared win counts its share) with its
Wilson 95% interval against the target, and the decision times of every level (median, p95,
max, ms, on the process's CPU clock). Prints Markdown (docs/buildten-strength.md).
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from bot.simulate import timing
from bot.simulate_buildten import simulate

MATCHES = ("hard:medium", "medium:easy", "hard:medium:medium:medium", "hard:easy")
TARGETS = {"hard:medium": 0.60, "medium:easy": 0.60, "hard:medium:medium:medium": 0.35}


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--games", type=int, default=200, help="games per match")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--matches", default=",".join(MATCHES))
    parser.add_argument("--jobs", type=int, default=1)
    parser.add_argument("--clock", default="cpu", choices=("wall", "cpu"))
    args = parser.parse_args(argv)
    command = " ".join(["bench/strength_buildten.py", *(argv or sys.argv[1:])])
    print("# How strong Build-to-Ten's computer players are\n")
    print(f"Made with `.venv/bin/python {command}` (seeds {args.seed}, {args.seed + 1}, …; "
          f"decision times on the {args.clock} clock, a 2-core machine shared with other "
          "work). Every action of every game was checked (100 cards conserved, valid piles).\n")
    print("| match (first seat v the rest) | games | first seat wins (95% interval) | target "
          "| avg stock cards left | turns a game | decision ms, median / p95 / max |")
    print("|---|---|---|---|---|---|---|")
    violations = 0
    every: dict[str, list[float]] = {}
    for match in args.matches.split(","):
        seats = match.split(":")
        s = simulate(seats, args.games, args.seed, jobs=args.jobs, clock=args.clock)
        d = s.as_dict()
        violations += d["violations"]
        for level, times in s.decisions.items():
            every.setdefault(level, []).extend(times)
        lo, hi = d["win_ci95"][0]
        target = TARGETS.get(match)
        goal = "—" if target is None else (
            f"≥ {target:.2f} {'✓' if d['win_rate'][0] >= target else '✗'}")
        times = " · ".join(f"{lvl} {t['median']:.1f} / {t['p95']:.1f} / {t['max']:.0f}"
                           for lvl, t in d["decision_ms_by_level"].items())
        name = f"{seats[0]} v {len(seats) - 1} × {seats[1]}" if len(seats) > 2 else \
            f"{seats[0]} v {seats[1]}"
        points = " / ".join(f"{p:.1f}" for p in d["avg_points"])
        print(f"| {name} | {d['games']} | {d['win_rate'][0]:.3f} ({lo:.2f}–{hi:.2f}) | {goal} "
              f"| {points} | {d['avg_turns']} | {times} |", flush=True)
    print("\nDecisions over all matches (ms, median / p95 / max, count):\n")
    for level, times in sorted(every.items()):
        t = timing(times)
        print(f"- {level}: {t['median']} / {t['p95']} / {t['max']} ({t['count']} decisions)")
    print(f"\nViolations: {violations}.")
    return 1 if violations else 0


if __name__ == "__main__":
    sys.exit(main())
