"""Same seeds, same hosted games: a fingerprint of whole games played through the game hosts
(bot/games/*/host.py and the platform's turn flow, bot/core/turns.py), not the engine alone.

    .venv/bin/python bench/same_hosted_games.py --games 3 --save /tmp/hosted_before.json
    ... change the hosts or the turn flow ...
    .venv/bin/python bench/same_hosted_games.py --games 3 --check /tmp/hosted_before.json [--json]

Each game seats a person (seat 0, whose every turn times out: the computer plays it for them
and, after three, keeps the seat) and two computers (easy, medium) that move one action at a
time; between rounds the person goes on (where the rulebook lets the players end the game
between rounds, it ends after the second). Recorded per game: the log, the final state, every
outcome's reply, the seats' time-outs and levels, and the result — for every rummy rulebook
(Rummikub with its 1-minute rule timer) and Build-to-Ten. `bench/same_games.py` fingerprints
the engine's games; this one the hosts' turn flow around them. Prints a table and, with
--json, one JSON object last.
"""

from __future__ import annotations

import argparse
import hashlib
import json
import sys
from concurrent.futures import ProcessPoolExecutor
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from bot.core.buttons import Press
from bot.core.hosting import Table
from bot.core.record import Record, SeatInfo
from bot.games import default_games

CASES = [("rummy", name, {}) for name in (
    "manipulation", "machiavelli", "shanghai", "guadeloupe", "carousel", "vatican", "tahiti")]
CASES += [("rummy", "rummikub", {"turn_timer": 60}), ("build-to-ten", "buildten", {})]
MAX_STEPS = 5000  # steps per game recorded (a long multi-round game is cut here, alike)


def _game(job: tuple[int, int]) -> list:
    case, seed = job
    game_name, variant, options = CASES[case]
    game = default_games()[game_name]
    record = Record(rulebook=variant, options=dict(options), seed=seed, game_name=game_name,
                    seats=[SeatInfo("P0", user="u0"), SeatInfo("C1", computer="easy"),
                           SeatInfo("C2", computer="medium")])
    table = Table(1, record, lambda: 0.0)
    replies = [game.start(table).reply]
    steps = 0
    for steps in range(MAX_STEPS):  # noqa: B007 (the count is recorded)
        if game.is_over(record.state):
            break
        mover = game.to_move(record.state)
        if mover is None:  # between rounds: the person goes on (an open game: once, then ends)
            version = record.state["version"]
            out = None
            if record.state.get("round", 1) >= 2:  # refused unless the rulebook offers it
                out = game.press(table, 0, "u0", Press(1, version, "finish", ()))
            if out is None or out.alert:
                out = game.press(table, 0, "u0", Press(1, version, "next", ()))
        elif record.seats[mover].is_computer:
            out = game.computer_step(table)
        else:
            out = game.play_for(table, mover)
        replies.append(out.reply if out else None)
    result = game.results(record)
    return [record.log, record.state, replies, [s.timeouts for s in record.seats],
            [s.computer for s in record.seats], steps,
            None if result is None else [list(result.totals), list(result.winners),
                                         result.higher_is_better]]


def main() -> int:
    parser = argparse.ArgumentParser()
    parser.add_argument("--games", type=int, default=3)
    parser.add_argument("--jobs", type=int, default=2)
    parser.add_argument("--save")
    parser.add_argument("--check")
    parser.add_argument("--json", action="store_true")
    args = parser.parse_args()
    work = [(c, g) for c in range(len(CASES)) for g in range(args.games)]
    with ProcessPoolExecutor(args.jobs) as pool:
        games = list(pool.map(_game, work))
    before = json.loads(Path(args.check).read_text()) if args.check else None
    digests: dict[str, list[str]] = {}
    figures: dict[str, dict] = {}
    print(f"{'variant':<14}{'games':>6}{'steps':>8}{'over':>6}{'digest':>14}{'same':>6}")
    for c, (_game_name, variant, _options) in enumerate(CASES):
        rows = [g for (case, _), g in zip(work, games, strict=True) if case == c]
        each = [hashlib.sha256(json.dumps(r, sort_keys=True).encode()).hexdigest()[:12]
                for r in rows]
        digests[variant] = each
        same = None if before is None else sum(
            1 for a, b in zip(each, before.get(variant, []), strict=False) if a == b)
        digest = hashlib.sha256("".join(each).encode()).hexdigest()[:12]
        figures[variant] = {"games": len(rows), "steps": sum(r[5] for r in rows),
                            "over": sum(1 for r in rows if r[6]), "digest": digest,
                            "same": same}
        f = figures[variant]
        print(f"{variant:<14}{f['games']:>6}{f['steps']:>8}{f['over']:>6}{digest:>14}"
              f"{'' if same is None else same:>6}")
    if args.save:
        Path(args.save).write_text(json.dumps(digests))
    different = 0
    if before is not None:
        different = sum(f["games"] - (f["same"] or 0) for f in figures.values())
        print(f"games that differ from {args.check}: {different}")
    if args.json:
        print(json.dumps({"variants": figures, "different": different}))
    return 1 if different else 0


if __name__ == "__main__":
    raise SystemExit(main())
