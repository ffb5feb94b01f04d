"""What a person feels, measured the same way on every platform: press -> their own screen."""

from __future__ import annotations

import statistics

SLOW = 1.5  # a press whose screen hasn't changed by now counts as this slow


def pace(waits: list[float]) -> dict[str, float]:
    """Median and p95 (nearest rank) of press -> own screen, and how many there were."""
    ordered = sorted(waits)
    if not ordered:
        return {"n": 0, "median": 0.0, "p95": 0.0}
    p95 = ordered[min(len(ordered) - 1, round(0.95 * (len(ordered) - 1)))]
    return {"n": len(ordered), "median": round(statistics.median(ordered), 3),
            "p95": round(p95, 3)}
