"""Render benchmark: how long a picture takes, and how big it is.

    .venv/bin/python bench/render.py            # a readable table
    .venv/bin/python bench/render.py --json     # ... and, as the last line, one JSON object

Targets: a 100-card table under 40 ms (median), a 20-card hand with its draft under 15 ms, the
largest table under 200 KB. Times are for the whole call (layout, drawing, palette, PNG) with
warm sprite caches, which is the steady state of a running bot.
"""

from __future__ import annotations

import argparse
import json
import statistics
import sys
import time
from collections.abc import Callable
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from render.buildten import render_buildten, sample_picture
from render.lobby import render_lobby
from render.rummy import (
    render_private,
    render_scores,
    render_table,
    samples,
)

TARGETS = {
    "table_100": (40.0, 200_000),
    "private_20": (15.0, None),
    "buildten_table_4": (40.0, 200_000),  # Build-to-Ten: the group's picture, 4 seats
    "buildten_private_4": (40.0, 200_000),  # … and a seat's, with its hand
}


def cases() -> dict[str, Callable[[], bytes]]:
    table_small = samples.demo_table()
    table_100 = samples.big_table(100)
    table_104 = samples.big_table(104)
    private_20 = samples.big_private(20)
    private_demo = samples.demo_private()
    scores = samples.final_scores()
    lobby = samples.demo_lobby()
    buildten_table = sample_picture(4, private=False)
    buildten_private = sample_picture(4)
    buildten_two = sample_picture(2)
    return {
        "table_small": lambda: render_table(table_small),
        "table_100": lambda: render_table(table_100),
        "table_104": lambda: render_table(table_104),
        "private_demo": lambda: render_private(private_demo),
        "private_20": lambda: render_private(private_20),
        "scores_final": lambda: render_scores(scores),
        "lobby": lambda: render_lobby(lobby),
        "buildten_table_4": lambda: render_buildten(buildten_table),
        "buildten_private_4": lambda: render_buildten(buildten_private),
        "buildten_private_2": lambda: render_buildten(buildten_two),
    }


def measure(fn: Callable[[], bytes], runs: int) -> tuple[float, float, int]:
    """(median ms, p95 ms, bytes) over `runs` calls after a warm-up."""
    for _ in range(3):
        data = fn()
    times = []
    for _ in range(runs):
        t0 = time.perf_counter()
        data = fn()
        times.append((time.perf_counter() - t0) * 1000)
    times.sort()
    p95 = times[min(len(times) - 1, round(0.95 * (len(times) - 1)))]
    return statistics.median(times), p95, len(data)


def main() -> None:
    parser = argparse.ArgumentParser(description="render benchmark")
    parser.add_argument("--runs", type=int, default=60)
    parser.add_argument("--json", action="store_true", help="end with one JSON line of medians")
    args = parser.parse_args()

    results: dict[str, tuple[float, float, int]] = {}
    print(f"{'case':<20} {'median ms':>10} {'p95 ms':>8} {'KB':>7}   target")
    for name, fn in cases().items():
        median, p95, size = results[name] = measure(fn, args.runs)
        target = ""
        if name in TARGETS:
            ms, max_bytes = TARGETS[name]
            ok = median < ms and (max_bytes is None or size < max_bytes)
            target = f"< {ms:.0f} ms" + (f", < {max_bytes // 1000} KB" if max_bytes else "")
            target += "  ok" if ok else "  MISSED"
        print(f"{name:<20} {median:>10.1f} {p95:>8.1f} {size / 1024:>7.1f}   {target}")
    if args.json:
        print(
            json.dumps(
                {
                    "table_100_ms": round(results["table_100"][0], 2),
                    "private_20_ms": round(results["private_20"][0], 2),
                    "table_100_bytes": results["table_100"][2],
                }
            )
        )


if __name__ == "__main__":
    main()
