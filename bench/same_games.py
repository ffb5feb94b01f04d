"""Same seeds, same games: a fingerprint of whole computer games for every rulebook.

    .venv/bin/python bench/same_games.py --games 50 --save /tmp/before.json
    ... change the house ...
    .venv/bin/python bench/same_games.py --games 50 --check /tmp/before.json [--json]

Every game (seats easy, medium, hard; seeds 1…N) is recorded as (rounds, turns, actions,
winners, points per seat); a refactor that claims "same behaviour" must reproduce every game
exactly. Prints a table per rulebook and, with --json, one JSON object last.
"""

from __future__ import annotations

import argparse
import hashlib
import json
import sys
from concurrent.futures import ProcessPoolExecutor
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from bot.simulate import play_one
from engine.rummy import get_rulebook
from engine.rummy.rulebooks import RULEBOOKS

SEATS = ("easy", "medium", "hard")


def _game(job: tuple[str, int]) -> list:
    name, g = job
    r = play_one(get_rulebook(name), SEATS, g, 1 + g, check=True)
    winners = [i for i, w in enumerate(r.wins) if w]
    return [r.rounds, r.turns, r.actions, winners, r.points, len(r.violations)]


def main() -> int:
    parser = argparse.ArgumentParser()
    parser.add_argument("--games", type=int, default=50)
    parser.add_argument("--jobs", type=int, default=2)
    parser.add_argument("--save")
    parser.add_argument("--check")
    parser.add_argument("--json", action="store_true")
    args = parser.parse_args()
    names = sorted(RULEBOOKS)
    work = [(name, g) for name in names for g in range(args.games)]
    with ProcessPoolExecutor(args.jobs) as pool:
        games = list(pool.map(_game, work, chunksize=2))
    record: dict[str, list] = {name: [] for name in names}
    for (name, _), game in zip(work, games, strict=True):
        record[name].append(game)
    before = json.loads(Path(args.check).read_text()) if args.check else None
    figures: dict[str, dict] = {}
    print(f"{'rulebook':<14}{'games':>6}{'turns':>8}{'rounds':>8}{'violations':>11}"
          f"{'digest':>14}{'same':>6}")
    for name in names:
        rows = record[name]
        digest = hashlib.sha256(json.dumps(rows).encode()).hexdigest()[:12]
        same = None if before is None else sum(
            1 for a, b in zip(rows, before.get(name, []), strict=False) if a == b)
        figures[name] = {"games": len(rows), "turns": sum(r[1] for r in rows),
                         "rounds": sum(r[0] for r in rows),
                         "violations": sum(r[5] for r in rows), "digest": digest,
                         "same": same}
        f = figures[name]
        print(f"{name:<14}{f['games']:>6}{f['turns']:>8}{f['rounds']:>8}{f['violations']:>11}"
              f"{digest:>14}{'' if same is None else same:>6}")
    if args.save:
        Path(args.save).write_text(json.dumps(record))
    different = 0
    if before is not None:
        different = sum(f["games"] - (f["same"] or 0) for f in figures.values())
        print(f"games that differ from {args.check}: {different}")
    if args.json:
        print(json.dumps({"rulebooks": figures, "different": different}))
    return 1 if different or any(f["violations"] for f in figures.values()) else 0


if __name__ == "__main__":
    raise SystemExit(main())
