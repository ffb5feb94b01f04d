"""`rummy simulate --game build-to-ten`: whole Build-to-Ten games between computer seats, the
invariants checked after every action (engine/buildten/playout.py), summed up like the rummy
family's (bot/simulate.py: the same Summary, win rates with Wilson intervals, decision times).

    rummy simulate --game build-to-ten --seats hard,medium --games 200 --seed 1 [--json]

Points are the cards left in a seat's personal stock at the end (fewer is better).
"""

from __future__ import annotations

import time
from collections.abc import Sequence
from concurrent.futures import ProcessPoolExecutor

from engine.buildten.ai import LEVELS, choose_action
from engine.buildten.playout import play_game

from .simulate import CLOCKS, GameResult, Summary, seated

GAME = "build-to-ten"


def play_one(seats: Sequence[str], g: int, seed: int, clock: str = "wall") -> GameResult:
    """Game `g`: the seats shifted by g (who sits where rotates), timed decision by decision."""
    n = len(seats)
    shift, levels, timed, decisions = seated(seats, g, clock, choose_action)
    game = play_game(levels, seed, choose=timed)
    state = game.state
    wins, points = [0.0] * n, [0] * n
    for k in range(n):
        original = (k + shift) % n
        if k in state.winners:
            wins[original] += 1 / len(state.winners)
        points[original] += len(state.stocks[k])
    return GameResult(wins, points, 1, game.turns, len(game.actions), decisions,
                      game.violations)


def _job(job: tuple) -> GameResult:
    return play_one(*job)


def simulate(seats: list[str], games: int, seed: int, *, jobs: int = 1,
             clock: str = "wall") -> Summary:
    for level in seats:
        if level not in LEVELS:
            raise ValueError(f"Unknown level {level!r}: use {', '.join(LEVELS)}")
    if not 2 <= len(seats) <= 4:
        raise ValueError("Build-to-Ten is for 2 to 4 players")
    if clock not in CLOCKS:
        raise ValueError(f"Unknown clock {clock!r}: use {' or '.join(CLOCKS)}")
    n = len(seats)
    summary = Summary(GAME, list(seats), clock, wins=[0.0] * n, points=[0] * n)
    started = time.perf_counter()
    work = [(list(seats), g, seed + g, clock) for g in range(games)]
    if jobs > 1 and games > 1:
        with ProcessPoolExecutor(jobs) as pool:
            results = list(pool.map(_job, work, chunksize=4))
    else:
        results = [_job(job) for job in work]
    for g, result in enumerate(results):
        summary.add(g, seed + g, result)
    summary.seconds = time.perf_counter() - started
    return summary
