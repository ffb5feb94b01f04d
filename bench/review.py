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
- "rummikub, never melds": real Rummikub games where seat 0 only draws (computers at the other
  two seats), seat 0's round reviewed: some 30 turns of a rack that grows to 40-odd tiles with
  the initial meld's exact search at every turn (issue 44: 1.27 s before its canonical jokers;
  target ≤ 1 s).
- "Build-to-Ten": real games of computers (seats easy, medium, hard), every seat's review as
  the chat gets it: the replay of the actions (engine/buildten/review.py's seat_decisions), the
  analysis, and the picture (bot/games/buildten/review.py's review_view, then
  render/buildten/review.py's PNG); the JSON row splits the three.
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

from bot.games.buildten.review import review_view as bt_review_view
from engine.buildten import new_game as bt_new_game
from engine.buildten.playout import play_game as bt_play_game
from engine.buildten.review import review as bt_review
from engine.buildten.review import seat_decisions as bt_decisions
from engine.rummy.actions import Draw, Pass
from engine.rummy.ai import choose_action
from engine.rummy.game import PlayerView
from engine.rummy.playout import play_game
from engine.rummy.review import Decision, game_decisions, review
from engine.rummy.rulebooks import ALL_RULEBOOKS, get_rulebook
from engine.rummy.solver import STATS
from engine.rummy.solver.positions import random_position
from render.buildten.review import render_review as bt_render_review

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
    ap.add_argument("--bt-games", type=int, default=6,
                    help="Build-to-Ten computer games (default 6; 3 seats each)")
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
    rows.append(never_melds_row(args.games * 3, args.seed))
    bt = buildten_row(args.bt_games, args.seed)
    rows.append(bt)
    head = rows[0]
    summary = {"target_s": TARGET_S, "round_median_s": head["median_s"],
               "within_target": head["median_s"] <= TARGET_S, "clock": args.clock,
               "joker_answers_cut": STATS["cut"], "calls": STATS["calls"],
               "buildten_review_median_s": bt["median_s"],
               "buildten_picture_median_s": bt["picture_median_s"]}
    print()
    print(f"a {args.turns}-turn round at {args.size} with jokers: {head['median_s']:.2f} s median "
          f"(target ≤ {TARGET_S:.0f} s; {args.clock} clock); joker searches cut by the budget: "
          f"{STATS['cut']} of {STATS['calls']}")
    print(f"Build-to-Ten: a seat's whole game reviewed (replay + analysis + picture): "
          f"{bt['median_s']:.3f} s median — replay {bt['replay_median_s']:.3f}, analysis "
          f"{bt['analysis_median_s']:.3f}, picture {bt['picture_median_s']:.3f} "
          f"({bt['pictures']} pictures drawn)")
    result = {"rows": rows, "summary": summary}
    if args.json:
        print(json.dumps(result))
    return result


def _draws_only(view: PlayerView, level: str):
    """Seat 0 never lays (its rack grows all round); the others play at `level`."""
    if view.seat == 0:
        return Draw(0) if "draw" in view.legal else Pass(0)
    return choose_action(view, level)


def never_melds_row(games: int, seed: int) -> dict:
    rules = get_rulebook("rummikub")
    times, replay, turns, missed, exact = [], [], 0, 0, 0
    for g in range(games):
        final = play_game(rules, ("medium",) * 3, seed=seed + g, choose=_draws_only,
                          check=False).state
        dt_replay, decisions = timed(lambda f=final: game_decisions(f, 0, 1))
        dt, r = timed(lambda d=decisions: review(d))
        times.append(dt + dt_replay)
        replay.append(dt_replay)
        turns += len(r.turns)
        missed += r.missed
        exact += r.exact
    return _row("rummikub, never melds", times, turns, missed, exact, statistics.median(replay))


def buildten_row(games: int, seed: int) -> dict:
    """Build-to-Ten's review of every seat of `games` computer games: replay, analysis, picture
    (only a round with a missed turn has strips; a perfect one still draws its summary)."""
    times, replay, analysis, picture, turns, missed, drawn = [], [], [], [], 0, 0, 0
    for g in range(games):
        game = bt_play_game(("easy", "medium", "hard"), seed + g)
        for seat in range(3):
            dt_replay, decisions = timed(
                lambda s=seat, gm=game, g=g: bt_decisions(bt_new_game(3, seed + g), gm.actions, s))
            if not decisions:
                continue
            dt_analysis, r = timed(lambda d=decisions: bt_review(d))
            dt_picture, png = timed(lambda r=r, d=decisions: bt_render_review(bt_review_view(r, d)))
            assert png.startswith(b"\x89PNG")
            times.append(dt_replay + dt_analysis + dt_picture)
            replay.append(dt_replay)
            analysis.append(dt_analysis)
            picture.append(dt_picture)
            turns += len(r.turns)
            missed += r.missed
            drawn += 1
    row = _row("Build-to-Ten", times, turns, missed, len(times), statistics.median(replay))
    row["analysis_median_s"] = statistics.median(analysis)
    row["picture_median_s"] = statistics.median(picture)
    row["pictures"] = drawn
    return row


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
