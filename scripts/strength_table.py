"""The Markdown table of docs/strength.md from `bench/strength.py --json` outputs.

    .venv/bin/python bench/strength.py --games 1000 --jobs 2 --json > races.log
    .venv/bin/python scripts/strength_table.py races.log [more.log ...]

Each file's last line is the benchmark's JSON object.
"""

from __future__ import annotations

import json
import sys


def rows(paths: list[str]) -> list[dict]:
    out = []
    for path in paths:
        with open(path, encoding="utf-8") as f:
            out += json.loads(f.read().strip().splitlines()[-1])["matches"]
    return out


def table(matches: list[dict]) -> str:
    lines = [
        "| rulebook | match (first seat v the rest) | games | first seat wins (95% interval) "
        "| target | decision ms, median / p95 / max |",
        "|---|---|---|---|---|---|",
    ]
    for m in matches:
        lo, hi = m["win_ci95"]
        mark = "✓" if m["win_rate"] >= m["target"] else "✗"
        times = " · ".join(
            f"{level} {t['median']:.1f} / {t['p95']:.0f} / {t['max']:.0f}"
            for level, t in m["decision_ms_by_level"].items()
        )
        match = m["match"].split(":")
        who = match[0] + " v " + (
            f"3 × {match[1]}" if len(match) == 4 and len(set(match[1:])) == 1 else match[1]
        )
        lines.append(
            f"| {m['rulebook'].capitalize()} | {who} | {m['games']} | {m['win_rate']:.3f} "
            f"({lo:.2f}–{hi:.2f}) | ≥ {m['target']:.2f} {mark} | {times} |"
        )
    return "\n".join(lines)


if __name__ == "__main__":
    print(table(rows(sys.argv[1:])))
