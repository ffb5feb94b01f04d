"""How strong and how quick the computer players are: seeded matches per rulebook and level pair.

    .venv/bin/python bench/strength.py                          # 200 games a match, every rulebook
    .venv/bin/python bench/strength.py --games 1000 --jobs 2 --json
    .venv/bin/python bench/strength.py --rulebooks carousel,tahiti --matches hard:medium

A match is `rummy simulate` with those seats (who starts rotates game by game). The table gives
the first seat's win rate (a draw counts half) with its Wilson 95% interval, the average points
of both seats (each rulebook's own points: penalty points, lower is better, except Carousel) and
the time per decision of every level in the match (median, p95, max, in ms). Matches:
`hard:medium` and `medium:easy` two-seat, `hard:medium:medium:medium` four-seat.
"""

from __future__ import annotations

import argparse
import json
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from bot.simulate import simulate, timing
from engine.rummy import ALL_RULEBOOKS

MATCHES = ("hard:medium", "medium:easy", "hard:medium:medium:medium")
TARGETS = {2: 0.60, 4: 0.35}  # the first seat's win rate a match should reach


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--games", type=int, default=200, help="games per match")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--rulebooks", default=",".join(ALL_RULEBOOKS))
    parser.add_argument("--matches", default=",".join(MATCHES), help="e.g. hard:medium,medium:easy")
    parser.add_argument("--jobs", type=int, default=1, help="processes to play games in")
    parser.add_argument("--clock", default="cpu", choices=("wall", "cpu"))
    parser.add_argument("--json", action="store_true", help="also print one JSON object, last")
    args = parser.parse_args(argv)

    rows = []
    started = time.perf_counter()
    all_times: dict[str, list[float]] = {}
    violations = 0
    print(
        f"{'rulebook':<13}{'match':<26}{'games':>6}{'1st wins':>9}{'95% interval':>15}"
        f"{'avg points':>16}   decision ms (median/p95/max)"
    )
    for name in args.rulebooks.split(","):
        for match in args.matches.split(","):
            seats = match.split(":")
            s = simulate(name, seats, args.games, args.seed, {}, jobs=args.jobs, clock=args.clock)
            data = s.as_dict()
            violations += data["violations"]
            for level, times in s.decisions.items():
                all_times.setdefault(level, []).extend(times)
            lo, hi = data["win_ci95"][0]
            target = TARGETS.get(len(seats), 0.5)
            mark = "" if data["win_rate"][0] >= target else " (below target)"
            points = f"{data['avg_points'][0]:.1f}/{data['avg_points'][1]:.1f}"
            times = "  ".join(
                f"{lvl} {t['median']:.0f}/{t['p95']:.0f}/{t['max']:.0f}"
                for lvl, t in data["decision_ms_by_level"].items()
            )
            print(
                f"{name:<13}{match:<26}{data['games']:>6}{data['win_rate'][0]:>9.3f}"
                f"{f'{lo:.3f}–{hi:.3f}':>15}{points:>16}   {times}{mark}",
                flush=True,
            )
            rows.append(
                {
                    "rulebook": name,
                    "match": match,
                    "games": data["games"],
                    "win_rate": data["win_rate"][0],
                    "win_ci95": data["win_ci95"][0],
                    "target": target,
                    "avg_points": data["avg_points"],
                    "avg_turns": data["avg_turns"],
                    "decision_ms_by_level": data["decision_ms_by_level"],
                    "seconds": data["seconds"],
                    "violations": data["violations"],
                }
            )
    overall = {level: timing(times) for level, times in sorted(all_times.items())}
    everything = timing([t for times in all_times.values() for t in times])
    print(f"decision ms over all matches ({args.clock} clock), median/p95/max:")
    for level, t in [("all", everything), *overall.items()]:
        print(f"  {level:<8}{t['median']:>8.1f}{t['p95']:>9.1f}{t['max']:>10.1f}  ({t['count']})")
    seconds = time.perf_counter() - started
    print(f"violations: {violations}   {seconds:.0f} s")
    if args.json:
        print(
            json.dumps(
                {
                    "games": args.games,
                    "seed": args.seed,
                    "clock": args.clock,
                    "matches": rows,
                    "decision_ms": everything,
                    "decision_ms_by_level": overall,
                    "violations": violations,
                    "seconds": round(seconds, 1),
                }
            )
        )
    return 1 if violations else 0


if __name__ == "__main__":
    sys.exit(main())
