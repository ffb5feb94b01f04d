"""Benchmark of the post-round review (engine/review.py): a whole round of one player.

    .venv/bin/python bench/review.py                 # readable table
    .venv/bin/python bench/review.py --json          # ... and one JSON object last
    .venv/bin/python bench/review.py --rounds 9 --clock cpu

Rows:
- "85+21 jokers": rounds of 30 turns, each turn an 85-card table and a 21-card hand with jokers
  (bench/solver.py's random positions: Carousel, Vatican and Tahiti in turn, one rulebook a
  round), the seat's view as the review gets it (Carousel: after its first draw, so knocking is
  reviewed too). Target: a round in ≤ 1 s median (issue 32).
- one row per rulebook: real rounds of computer games (seats medium, hard, easy), the review of
  every seat's round 1 — replaying the record to collect the views, then the analysis.
"""

from __future__ import annotations

import argparse
import gc
import json
import random
import statistics
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from engine.rummy.game import PlayerView
from engine.rummy.playout import play_game
from engine.rummy.review import Decision, game_decisions, review
from engine.rummy.rulebooks import ALL_RULEBOOKS, get_rulebook
from engine.rummy.solver import STATS
from engine.rummy.solver.positions import random_position

JOKERS = ("carousel", "vatican", "tahiti")
TARGET_S = 1.0
CLOCK = time.perf_counter


def view_of(rules, table, hand, singles, *, stock: int = 20) -> PlayerView:
    """Seat 0's view of a position (two seats), as engine.rummy.game.player_view builds one."""
    carousel = rules.turn_style.knock
    return PlayerView(
        seat=0, rulebook=rules.name, options=dict(rules.options), round=1, phase="play",
        turn=0, stock=stock, table=tuple(tuple(g) for g in table), singles=tuple(singles),
        hand=tuple(hand), hand_counts=(len(hand), 10), scores=(0, 0), draft=None,
        draft_hand=tuple(hand), changed=frozenset(), legal=("commit", "draw"),
        draws=1 if carousel else 0, first_lay_done=True, final_turns=None, hint=None,
        last=None, rounds=(), result=None, version=0, reminded=False, give_up_armed=False)


def synthetic_rounds(count: int, turns: int, size: str, seed: int) -> list[list[Decision]]:
    table_size, hand_size = (int(x) for x in size.split("+"))
    rounds = []
    for r in range(count):
        rules = get_rulebook(JOKERS[r % len(JOKERS)])
        rng = random.Random(f"{seed}/review/{size}/{r}")
        decisions = []
        for t in range(turns):
            pos = random_position(rng, table_size, hand_size, ace=rules.ace,
                                  jokers=rules.jokers, singles=rules.singles)
            view = view_of(rules, pos.table, pos.hand, pos.singles)
            decisions.append(Decision(t + 1, view, "drew"))
        rounds.append(decisions)
    return rounds


def timed(call):
    gc.collect()
    t0 = CLOCK()
    got = call()
    return CLOCK() - t0, got


def main(argv: list[str] | None = None) -> dict:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--rounds", type=int, default=9, help="synthetic rounds (default 9)")
    ap.add_argument("--turns", type=int, default=30)
    ap.add_argument("--size", default="85+21")
    ap.add_argument("--games", type=int, default=3, help="real games per rulebook (default 3)")
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--clock", choices=("wall", "cpu"), default="wall")
    ap.add_argument("--json", action="store_true")
    args = ap.parse_args(argv)
    sys.stdout.reconfigure(line_buffering=True)
    global CLOCK
    CLOCK = time.process_time if args.clock == "cpu" else time.perf_counter

    for decisions in synthetic_rounds(1, 4, "40+14", args.seed + 1000):  # warm the tables
        review(decisions)
    STATS.clear()
    rows = []
    print(f"{'row':<24}{'rounds':>7}{'turns':>7}{'median s':>10}{'max s':>8}"
          f"{'ms/turn':>9}{'missed':>8}{'exact':>7}")
    times, turns, missed, exact = [], 0, 0, 0
    for decisions in synthetic_rounds(args.rounds, args.turns, args.size, args.seed):
        dt, r = timed(lambda d=decisions: review(d))
        times.append(dt)
        turns += len(r.turns)
        missed += r.missed
        exact += r.exact
    rows.append(_row(f"{args.size} jokers", times, turns, missed, exact))

    for name in ALL_RULEBOOKS:
        rules = get_rulebook(name)
        seats = ("medium", "hard") if name == "carousel" else ("medium", "hard", "easy")
        times, replay, turns, missed, exact = [], [], 0, 0, 0
        for g in range(args.games):
            final = play_game(rules, seats, seed=args.seed + g, check=False).state
            for seat in range(final.players):
                dt_replay, decisions = timed(lambda f=final, s=seat: game_decisions(f, s, 1))
                if not decisions:
                    continue
                dt, r = timed(lambda d=decisions: review(d))
                times.append(dt + dt_replay)
                replay.append(dt_replay)
                turns += len(r.turns)
                missed += r.missed
                exact += r.exact
        rows.append(_row(name, times, turns, missed, exact, statistics.median(replay)))
    head = rows[0]
    summary = {"target_s": TARGET_S, "round_median_s": head["median_s"],
               "within_target": head["median_s"] <= TARGET_S, "clock": args.clock,
               "joker_answers_cut": STATS["cut"], "calls": STATS["calls"]}
    print()
    print(f"a {args.turns}-turn round at {args.size} with jokers: {head['median_s']:.2f} s median "
          f"(target ≤ {TARGET_S:.0f} s; {args.clock} clock); joker searches cut by the budget: "
          f"{STATS['cut']} of {STATS['calls']}")
    result = {"rows": rows, "summary": summary}
    if args.json:
        print(json.dumps(result))
    return result


def _row(label, times, turns, missed, exact, replay=None) -> dict:
    row = {"row": label, "rounds": len(times), "turns": turns,
           "median_s": statistics.median(times), "max_s": max(times),
           "ms_per_turn": 1000 * sum(times) / max(1, turns), "missed": missed,
           "exact_rounds": exact}
    if replay is not None:
        row["replay_median_s"] = replay
    print(f"{label:<24}{row['rounds']:>7}{turns:>7}{row['median_s']:10.3f}{row['max_s']:8.3f}"
          f"{row['ms_per_turn']:9.1f}{missed:>8}{exact:>7}")
    return row


if __name__ == "__main__":
    main()
