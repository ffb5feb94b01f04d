"""`rummy simulate`: whole games between computer seats, with a summary and invariant checks.

    rummy simulate --rulebook carousel --seats hard,medium --games 200 --seed 1 [--jobs 2] [--json]

Seats rotate who starts: game g shifts the seats by g, so every level starts as often. Win rates
count a draw as half a win for each drawn seat (shared), with Wilson 95% intervals. Decisions
are timed here (the engine has no clock): every `choose_action` call, on the wall clock or on
the process's CPU clock (`--clock cpu`: steadier on a busy machine).
"""

from __future__ import annotations

import json
import math
import statistics
import time
from collections.abc import Callable, Sequence
from concurrent.futures import ProcessPoolExecutor
from dataclasses import dataclass, field
from typing import Any

from engine.rummy import get_rulebook
from engine.rummy.ai import LEVELS, choose_action
from engine.rummy.playout import play_game
from engine.rummy.rulebooks import Rulebook

CLOCKS = {"wall": time.perf_counter, "cpu": time.process_time}


@dataclass
class GameResult:
    """One game, seen from the seats as listed (not as rotated)."""

    wins: list[float]
    points: list[int]
    rounds: int
    turns: int
    actions: int
    decisions: dict[str, list[float]]  # level -> seconds per decision
    violations: list[str]


@dataclass
class Summary:
    rulebook: str
    seats: list[str]
    clock: str = "wall"
    games: int = 0
    rounds: int = 0
    turns: int = 0
    actions: int = 0
    wins: list[float] = field(default_factory=list)  # a draw counts half (shared)
    points: list[int] = field(default_factory=list)
    decisions: dict[str, list[float]] = field(default_factory=dict)
    violations: list[str] = field(default_factory=list)
    seconds: float = 0.0

    def add(self, g: int, seed: int, result: GameResult) -> None:
        self.games += 1
        self.rounds += result.rounds
        self.turns += result.turns
        self.actions += result.actions
        for i in range(len(self.seats)):
            self.wins[i] += result.wins[i]
            self.points[i] += result.points[i]
        for level, times in result.decisions.items():
            self.decisions.setdefault(level, []).extend(times)
        self.violations += [f"game {g} (seed {seed}): {v}" for v in result.violations]

    def as_dict(self) -> dict:
        g = max(self.games, 1)
        everything = [t for times in self.decisions.values() for t in times]
        return {
            "rulebook": self.rulebook,
            "seats": self.seats,
            "games": self.games,
            "win_rate": [round(w / g, 4) for w in self.wins],
            "win_ci95": [[round(x, 4) for x in wilson(w, self.games)] for w in self.wins],
            "avg_points": [round(p / g, 2) for p in self.points],
            "avg_turns": round(self.turns / g, 1),
            "avg_rounds": round(self.rounds / g, 2),
            "avg_actions": round(self.actions / g, 1),
            "decision_ms": timing(everything),
            "decision_ms_by_level": {k: timing(v) for k, v in sorted(self.decisions.items())},
            "clock": self.clock,
            "violations": len(self.violations),
            "seconds": round(self.seconds, 2),
        }


def wilson(successes: float, n: int, z: float = 1.96) -> tuple[float, float]:
    """The Wilson score 95% interval of a rate (sound near 0 and 1, unlike p ± 1.96·se)."""
    if n <= 0:
        return (0.0, 1.0)
    p = successes / n
    centre = (p + z * z / (2 * n)) / (1 + z * z / n)
    half = z * math.sqrt(p * (1 - p) / n + z * z / (4 * n * n)) / (1 + z * z / n)
    return (max(0.0, centre - half), min(1.0, centre + half))


def timing(seconds: Sequence[float]) -> dict[str, float]:
    """Median, 95th percentile and max, in milliseconds."""
    if not seconds:
        return {"median": 0.0, "p95": 0.0, "max": 0.0, "count": 0}
    ordered = sorted(seconds)
    p95 = ordered[min(len(ordered) - 1, math.ceil(0.95 * len(ordered)) - 1)]
    return {
        "median": round(statistics.median(ordered) * 1000, 2),
        "p95": round(p95 * 1000, 2),
        "max": round(ordered[-1] * 1000, 2),
        "count": len(ordered),
    }


def seated(
    seats: Sequence[str], g: int, clock: str, choose: Callable[[Any, str], Any]
) -> tuple[int, list[str], Callable[[Any, str], Any], dict[str, list[float]]]:
    """Game `g`'s seating — the seats shifted by g, so who starts rotates — and `choose`
    wrapped to time every decision by level (any game's views and actions)."""
    shift = g % len(seats)
    levels = list(seats[shift:]) + list(seats[:shift])
    now = CLOCKS[clock]
    decisions: dict[str, list[float]] = {}

    def timed(view: Any, level: str) -> Any:
        started = now()
        action = choose(view, level)
        decisions.setdefault(level, []).append(now() - started)
        return action

    return shift, levels, timed, decisions


def play_one(
    rules: Rulebook,
    seats: Sequence[str],
    g: int,
    seed: int,
    clock: str = "wall",
    check: bool = True,
) -> GameResult:
    """Game `g`: the seats shifted by g (who starts rotates), played by engine/rummy/playout.py's
    `play_game` (invariants checked after every action), timed decision by decision."""
    n = len(seats)
    shift, levels, timed, decisions = seated(seats, g, clock, choose_action)
    record = play_game(rules, levels, seed, choose=timed, check=check)
    state = record.state
    winners = list(state.result["winners"]) if state.result else []
    totals = (state.result or {}).get("totals") or state.scores
    wins = [0.0] * n
    points = [0] * n
    for k in range(n):
        original = (k + shift) % n
        if k in winners:
            wins[original] += 1 / len(winners)
        points[original] += totals[k]
    return GameResult(
        wins, points, state.round, record.turns, record.actions, decisions, record.violations
    )


def _play_job(job: tuple) -> GameResult:
    name, options, seats, g, seed, clock, check = job
    return play_one(get_rulebook(name, **options), seats, g, seed, clock, check)


def simulate(
    rulebook: str,
    seats: list[str],
    games: int,
    seed: int,
    options: dict,
    *,
    jobs: int = 1,
    clock: str = "wall",
    check: bool = True,
) -> Summary:
    """Play `games` games (seeds seed, seed+1, …); `jobs` > 1 plays them in that many processes
    (the results are the same, gathered in game order)."""
    for level in seats:
        if level not in LEVELS:
            raise ValueError(f"Unknown level {level!r}: use {', '.join(LEVELS)}")
    if clock not in CLOCKS:
        raise ValueError(f"Unknown clock {clock!r}: use {' or '.join(CLOCKS)}")
    rules = get_rulebook(rulebook, **options)
    n = len(seats)
    summary = Summary(rules.name, list(seats), clock, wins=[0.0] * n, points=[0] * n)
    started = time.perf_counter()
    work = [(rules.name, dict(rules.options), list(seats), g, seed + g, clock, check)
            for g in range(games)]
    if jobs > 1 and games > 1:
        with ProcessPoolExecutor(jobs) as pool:
            results = list(pool.map(_play_job, work, chunksize=1))
    else:
        results = [_play_job(job) for job in work]
    for g, result in enumerate(results):
        summary.add(g, seed + g, result)
    summary.seconds = time.perf_counter() - started
    return summary


def print_summary(summary: Summary, as_json: bool) -> None:
    data = summary.as_dict()
    print(
        f"{summary.rulebook}: {data['games']} games in {data['seconds']} s — "
        f"{data['avg_turns']} turns, {data['avg_rounds']} rounds a game on average"
    )
    print(f"{'seat':<6}{'level':<8}{'win rate':>10}{'95% interval':>18}{'avg points':>12}")
    for i, level in enumerate(summary.seats):
        lo, hi = data["win_ci95"][i]
        print(
            f"{i + 1:<6}{level:<8}{data['win_rate'][i]:>10.3f}"
            f"{f'{lo:.3f}–{hi:.3f}':>18}{data['avg_points'][i]:>12.1f}"
        )
    print(f"time per decision ({summary.clock} clock), ms:")
    rows = [("all", data["decision_ms"]), *data["decision_ms_by_level"].items()]
    for name, t in rows:
        print(
            f"  {name:<8} median {t['median']:>8.2f}  p95 {t['p95']:>8.2f}  max {t['max']:>9.2f}"
            f"  ({t['count']} decisions)"
        )
    print(f"violations: {len(summary.violations)}")
    for v in summary.violations[:10]:
        print("  " + v)
    if as_json:
        print(json.dumps(data))
