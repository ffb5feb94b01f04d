"""`rummy simulate`: whole games between computer seats, with a summary and invariant checks."""

from __future__ import annotations

import json
import math
import statistics
import time
from dataclasses import dataclass, field

from engine import get_rulebook
from engine.playout import play_game


@dataclass
class Summary:
    rulebook: str
    seats: list[str]
    games: int = 0
    rounds: int = 0
    turns: int = 0
    actions: int = 0
    wins: list[float] = field(default_factory=list)  # a draw counts half (shared)
    points: list[int] = field(default_factory=list)
    violations: list[str] = field(default_factory=list)
    seconds: float = 0.0

    def as_dict(self) -> dict:
        g = max(self.games, 1)
        return {
            "rulebook": self.rulebook,
            "seats": self.seats,
            "games": self.games,
            "rounds": self.rounds,
            "turns": self.turns,
            "avg_turns": round(self.turns / g, 1),
            "avg_rounds": round(self.rounds / g, 2),
            "win_rate": [round(w / g, 4) for w in self.wins],
            "win_ci95": [
                round(1.96 * math.sqrt(max(w / g * (1 - w / g), 0) / g), 4) for w in self.wins
            ],
            "avg_points": [round(p / g, 2) for p in self.points],
            "violations": len(self.violations),
            "seconds": round(self.seconds, 2),
        }


def simulate(rulebook: str, seats: list[str], games: int, seed: int, options: dict) -> Summary:
    rules = get_rulebook(rulebook, **options)
    n = len(seats)
    summary = Summary(rules.name, seats, wins=[0.0] * n, points=[0] * n)
    started = time.perf_counter()
    for g in range(games):
        # Rotate who sits where so no level always starts.
        shift = g % n
        levels = seats[shift:] + seats[:shift]
        record = play_game(rules, levels, seed + g)
        summary.games += 1
        summary.rounds += record.state.round
        summary.turns += record.turns
        summary.actions += record.actions
        summary.violations += [f"game {g} (seed {seed + g}): {v}" for v in record.violations]
        winners = record.winners
        totals = (record.state.result or {}).get("totals") or record.state.scores
        for k in range(n):
            original = (k + shift) % n
            if k in winners:
                summary.wins[original] += 1 / len(winners)
            summary.points[original] += totals[k]
    summary.seconds = time.perf_counter() - started
    return summary


def print_summary(summary: Summary, as_json: bool) -> None:
    data = summary.as_dict()
    print(
        f"{summary.rulebook}: {data['games']} games, {data['rounds']} rounds, "
        f"{data['turns']} turns ({data['avg_turns']} a game), {data['seconds']} s"
    )
    print(f"{'seat':<6}{'level':<10}{'win rate':>10}{'±95%':>8}{'avg points':>12}")
    for i, level in enumerate(summary.seats):
        print(
            f"{i + 1:<6}{level:<10}{data['win_rate'][i]:>10.3f}{data['win_ci95'][i]:>8.3f}"
            f"{data['avg_points'][i]:>12.1f}"
        )
    print(f"violations: {len(summary.violations)}")
    for v in summary.violations[:10]:
        print("  " + v)
    if as_json:
        print(json.dumps(data))


def median(values: list[float]) -> float:
    return statistics.median(values) if values else 0.0
