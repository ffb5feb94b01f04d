"""Issue 45's before/after: what the exact solver finds open at every decision of seeded
Rummikub games, under one engine or another, and which differences the joker rule explains.

  record:  play seeded computer games with this tree's engine, save their records (JSON lines)
  review:  replay those records with the engine on PYTHONPATH (this tree or an older one) and
           write, per decision, the most cards and points the review's searches find and the
           lay behind them (tile tokens)
  compare: read two review files (before, after) with this tree's engine: a difference is
           explained when the lay it had before is one the rule now refuses (a joker freed by a
           table tile, or left its combination); anything else is a regression

  python bench/joker_rule.py record --games 40 > games.jsonl
  PYTHONPATH=<old tree> python bench/joker_rule.py review games.jsonl > before.jsonl
  python bench/joker_rule.py review games.jsonl > after.jsonl
  python bench/joker_rule.py compare before.jsonl after.jsonl [--json]
"""

from __future__ import annotations

import argparse
import json
import sys
from collections import Counter
from pathlib import Path

from engine.rummy import check_move, find_move, get_rulebook
from engine.rummy.playout import play_game
from engine.rummy.review import game_decisions
from engine.rummy.state import GameState
from engine.rummy.tiles import piece_from_token

OPTIONS = [{}, {"initial_meld": "20"}, {"initial_turn": "may_add"}, {"failed_move": "draw_1"},
           {"rounds": "3"}]
LEVELS = [["hard", "medium"], ["medium", "easy", "hard"], ["easy", "hard", "medium", "easy"]]


def record(games: int, seed: int) -> None:
    for n in range(games):
        options = OPTIONS[n % len(OPTIONS)]
        played = play_game(get_rulebook("rummikub", **options), LEVELS[n % len(LEVELS)], seed + n)
        print(played.state.to_json())


def review(path: str) -> None:
    for line in Path(path).read_text().splitlines():
        state = GameState.from_json(line)
        for seat in range(state.players):
            for rnd in range(1, state.round + 1):
                for d in game_decisions(state, seat, rnd):
                    view = d.view
                    if not view.first_lay_done:
                        continue  # the initial meld touches no table joker
                    table = [list(g) for g in view.table]
                    hand = list(view.hand)
                    if not any(c.is_joker for g in table for c in g):
                        continue
                    out = {"game": state.seed, "seat": seat, "round": rnd, "turn": d.turn,
                           "table": [[c.token for c in g] for g in table],
                           "hand": [c.token for c in hand]}
                    for objective in ("max_cards", "max_points"):
                        move = find_move(view.rules, table, hand, objective=objective)
                        out[objective] = None if move is None else {
                            "cards": len(move.placed),
                            "points": sum(view.rules.card_value(c) for c in move.placed),
                            "lay": [[c.token for c in g] for g in move.new_table]}
                    out["options"] = state.options
                    print(json.dumps(out))


def compare(before_path: str, after_path: str, as_json: bool) -> None:
    after = {(d["game"], d["seat"], d["round"], d["turn"]): d
             for d in map(json.loads, Path(after_path).read_text().splitlines())}
    counts: Counter[str] = Counter()
    for old in map(json.loads, Path(before_path).read_text().splitlines()):
        new = after[(old["game"], old["seat"], old["round"], old["turn"])]
        rules = get_rulebook("rummikub", **old["options"])
        table = [[piece_from_token(t) for t in g] for g in old["table"]]
        hand = [piece_from_token(t) for t in old["hand"]]
        for objective in ("max_cards", "max_points"):
            counts["decisions"] += 1
            a, b = old[objective], new[objective]
            key = "cards" if objective == "max_cards" else "points"
            if (a or {}).get(key, 0) == (b or {}).get(key, 0):
                counts["same"] += 1
                continue
            legal = a is not None and check_move(rules, table, hand, [
                [piece_from_token(t) for t in g] for g in a["lay"]]).ok
            if not legal and (b or {}).get(key, 0) < (a or {}).get(key, 0):
                counts["fewer: the old lay breaks the joker rule"] += 1
            elif (b or {}).get(key, 0) > (a or {}).get(key, 0):
                counts["more: found now"] += 1
            else:
                counts["fewer: regression"] += 1
                print("regression", old["game"], objective, old["table"], old["hand"],
                      file=sys.stderr)
    print(f"{'decisions with a table joker (x2 searches)':<48}{counts['decisions']:>8}")
    for name in ("same", "fewer: the old lay breaks the joker rule", "more: found now",
                 "fewer: regression"):
        print(f"{name:<48}{counts[name]:>8}")
    if as_json:
        print(json.dumps(dict(counts)))


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    sub = ap.add_subparsers(dest="cmd", required=True)
    r = sub.add_parser("record")
    r.add_argument("--games", type=int, default=40)
    r.add_argument("--seed", type=int, default=4500)
    v = sub.add_parser("review")
    v.add_argument("games")
    c = sub.add_parser("compare")
    c.add_argument("before")
    c.add_argument("after")
    c.add_argument("--json", action="store_true")
    args = ap.parse_args()
    if args.cmd == "record":
        record(args.games, args.seed)
    elif args.cmd == "review":
        review(args.games)
    else:
        compare(args.before, args.after, args.json)


if __name__ == "__main__":
    main()
