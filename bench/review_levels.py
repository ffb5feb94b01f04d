"""The computer players' level by the review (engine/review.py): the share of turns in which each
level plays the best move, per rulebook.

    .venv/bin/python bench/review_levels.py --games 12        # table
    .venv/bin/python bench/review_levels.py --games 12 --json # ... and one JSON object last

Three-seat games (easy, medium, hard; the seats rotate from game to game), seeds 1…N, every
round the game plays (at most --max-rounds), each seat's turns reviewed from its own views. A
turn is "best" when the review finds nothing missed in it: no lay left open while drawing or
passing, no lay with fewer cards or fewer points than the most the position allowed, no missed
going out, no missed sure-win knock. "Best" is what the solver can prove, not good strategy:
holding cards back (hard, where drawing ends the turn) counts as a miss here.
"""

from __future__ import annotations

import argparse
import json
import sys
from collections import Counter
from concurrent.futures import ProcessPoolExecutor
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from engine.rummy.game import new_game
from engine.rummy.playout import play_game
from engine.rummy.review import review, seat_rounds
from engine.rummy.rulebooks import ALL_RULEBOOKS, get_rulebook

LEVELS = ("easy", "medium", "hard")


def _game(job: tuple[str, int, int]) -> dict[str, list[int]]:
    """{level: [turns, best turns, turns answered exactly, laid, could]} for one game."""
    name, g, max_rounds = job
    rules = get_rulebook(name)
    levels = LEVELS[g % 3:] + LEVELS[:g % 3]
    final = play_game(rules, levels, seed=g + 1, check=False).state
    out = {level: [0, 0, 0, 0, 0] for level in LEVELS}
    start = new_game(rules, final.players, final.seed)
    for seat, level in enumerate(levels):
        for r, decisions in seat_rounds(start, final.actions, seat).items():
            if r > max_rounds or not decisions:
                continue
            got = review(decisions)
            row = out[level]
            for t in got.turns:
                row[0] += 1
                row[1] += not t.missed
                row[2] += all(s.exact for s in t.steps)
                row[3] += t.laid
                row[4] += t.could
    return out


def main(argv: list[str] | None = None) -> dict:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--games", type=int, default=12, help="games per rulebook (default 12)")
    ap.add_argument("--max-rounds", type=int, default=3)
    ap.add_argument("--jobs", type=int, default=1)
    ap.add_argument("--json", action="store_true")
    args = ap.parse_args(argv)
    sys.stdout.reconfigure(line_buffering=True)
    work = [(name, g, args.max_rounds) for name in ALL_RULEBOOKS for g in range(args.games)]
    with ProcessPoolExecutor(args.jobs) as pool:
        games = list(pool.map(_game, work))
    table: dict[str, dict[str, Counter]] = {n: {lv: Counter() for lv in LEVELS}
                                            for n in ALL_RULEBOOKS}
    for (name, _, _), game in zip(work, games, strict=True):
        for level, (turns, best, exact, laid, could) in game.items():
            table[name][level].update(turns=turns, best=best, exact=exact, laid=laid,
                                      could=could)
    print(f"{'rulebook':<14}" + "".join(f"{lv:>16}" for lv in LEVELS) + f"{'turns':>8}"
          f"{'exact':>8}")
    figures: dict[str, dict] = {}
    for name in ALL_RULEBOOKS:
        row = {lv: dict(table[name][lv]) for lv in LEVELS}
        for lv in LEVELS:
            c = table[name][lv]
            row[lv]["best_share"] = c["best"] / max(1, c["turns"])
        turns = sum(table[name][lv]["turns"] for lv in LEVELS)
        exact = sum(table[name][lv]["exact"] for lv in LEVELS) / max(1, turns)
        figures[name] = {"levels": row, "turns": turns, "exact_share": exact}
        print(f"{name:<14}" + "".join(f"{row[lv]['best_share']:16.2f}" for lv in LEVELS)
              + f"{turns:>8}{exact:8.2f}")
    result = {"games": args.games, "max_rounds": args.max_rounds, "rulebooks": figures}
    if args.json:
        print(json.dumps(result))
    return result


if __name__ == "__main__":
    main()
