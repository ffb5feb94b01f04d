"""Experiments behind docs/strength.md "Manipulation and Shanghai": can any `hard` plan beat
the biggest lay where a turn is draw-until-lay and you must lay if you can?

    .venv/bin/python scripts/must_lay_experiments.py freedom shanghai --games 20
    .venv/bin/python scripts/must_lay_experiments.py lookahead shanghai --games 50 --worlds 8
    .venv/bin/python scripts/must_lay_experiments.py hold-back shanghai --cap 12 --games 300

- freedom: in `medium` v `medium` games, how often a lay leaves out a card that could have been
  laid on its own (the only choice the rule leaves, besides laying less).
- lookahead: `hard` v `medium` where, at each lay with a choice (the biggest lay, or the biggest
  without one of its cards), `hard` plays every candidate out to the end of the round in
  `--worlds` deals of the cards it cannot see (its own view only: counts of the other hands and
  the stock), with `medium` play for everyone, and keeps the best average round result.
- hold-back: `hard` breaks the rule: it draws although it could lay until its hand holds `--cap`
  cards (or it can go out, or another hand is down to two cards), then lays the most.

Slow on purpose (the lookahead plays whole rounds through the real engine): minutes per game.
Not a benchmark of the product; prints a line per match and, with --json, one JSON object last.
"""

from __future__ import annotations

import argparse
import json
import random
import time
from collections import Counter

from engine.rummy import Finish, GameState, NextRound, apply, get_rulebook, new_game, player_view
from engine.rummy.actions import Action
from engine.rummy.ai import choose_action
from engine.rummy.ai import hard as ai_hard
from engine.rummy.ai.turn import Turn, biggest_move, lay
from engine.rummy.playout import SHANGHAI_ROUNDS


def freedom(rulebook: str, games: int) -> dict:
    rules = get_rulebook(rulebook)
    seen: Counter[str] = Counter()
    for seed in range(1, games + 1):
        state = new_game(rules, 2, seed)
        while state.phase != "game_over":
            if state.phase == "round_over":
                state, _ = apply(state, _between_rounds(state))
                continue
            view = player_view(state, state.turn)
            turn = Turn(view)
            best = biggest_move(turn)
            if best is not None:
                seen["lays"] += 1
                placed = {c.ident for c in best.placed}
                left = [c for c in turn.hand if c.ident not in placed]
                if any(turn.solve("any", select=[c], effort=200_000) for c in left):
                    seen["with a choice"] += 1
            state, _ = apply(state, choose_action(view, "medium"))
    share = seen["with a choice"] / max(1, seen["lays"])
    print(f"{rulebook}: {seen['lays']} lays in {games} games, {seen['with a choice']} left out "
          f"a card that could be laid on its own ({share:.1%})")
    return {"rulebook": rulebook, "games": games, "lays": seen["lays"],
            "with_choice": seen["with a choice"], "share": round(share, 4)}


def _between_rounds(state: GameState) -> Action:
    if state.rules.game_end.finish_by_choice and state.round >= SHANGHAI_ROUNDS:
        return Finish(0)
    return NextRound(0)


def _deal_unseen(state: GameState, seat: int, rng: random.Random) -> GameState:
    """The same position with the cards `seat` cannot see dealt afresh (hand sizes kept)."""
    world = state.copy()
    others = [i for i in range(world.players) if i != seat]
    pool = list(world.stock) + [c for i in others for c in world.hands[i]]
    rng.shuffle(pool)
    at = 0
    for i in others:
        n = len(world.hands[i])
        world.hands[i] = pool[at : at + n]
        at += n
    world.stock = pool[at:]
    return world


def _round_result(state: GameState, seat: int) -> float:
    """Play the round out with `medium` everywhere: seat's points minus the others' average."""
    start = list(state.scores)
    while state.phase == "play":
        state, _ = apply(state, choose_action(player_view(state, state.turn), "medium"))
    got = [a - b for a, b in zip(state.scores, start, strict=True)]
    others = [got[i] for i in range(len(got)) if i != seat]
    return got[seat] - sum(others) / len(others)


def _lookahead_action(state: GameState, seat: int, worlds: int, rng: random.Random,
                      seen: Counter[str]) -> Action:
    view = player_view(state, seat)
    turn = Turn(view)
    best = biggest_move(turn)
    if best is None:
        return choose_action(view, "medium")
    objective = "max_cards" if turn.rules.values == "count" else "max_points"
    candidates = {frozenset(c.ident for c in best.placed): best}
    for card in best.placed:
        hand = [c for c in turn.hand if c.ident != card.ident]
        move = turn.solve(objective, hand=hand, effort=500_000)
        if move is not None:
            candidates.setdefault(frozenset(c.ident for c in move.placed), move)
    if len(candidates) == 1:
        return choose_action(view, "medium")
    # Only the seat's own view decides: the unseen cards are dealt at random for each world.
    deals = [_deal_unseen(state, seat, rng) for _ in range(worlds)]
    scored = []
    for move in candidates.values():
        action = lay(turn, move.new_table, move.placed)
        if action is not None:
            mean = sum(_round_result(apply(w, action)[0], seat) for w in deals) / worlds
            scored.append((mean, -len(move.placed), action))
    scored.sort(key=lambda t: (t[0], t[1]))
    seen["choices"] += 1
    seen["not the biggest"] += scored[0][1] != min(t[1] for t in scored)
    return scored[0][2]


def lookahead(rulebook: str, games: int, worlds: int) -> dict:
    rules = get_rulebook(rulebook)
    wins, seen, started = 0.0, Counter(), time.perf_counter()
    for g in range(games):
        seed, hard = g + 1, g % 2  # who starts rotates
        state = new_game(rules, 2, seed)
        rng = random.Random(seed * 7919)
        while state.phase != "game_over":
            if state.phase == "round_over":
                action = _between_rounds(state)
            elif state.turn == hard:
                action = _lookahead_action(state, hard, worlds, rng, seen)
            else:
                action = choose_action(player_view(state, state.turn), "medium")
            state, _ = apply(state, action)
        winners = state.result["winners"] if state.result else []
        wins += 1.0 if winners == [hard] else 0.5 if hard in winners else 0.0
        print(f"  game {g + 1}: lookahead {wins:g} of {g + 1}", flush=True)
    rate = wins / max(1, games)
    print(f"{rulebook}: lookahead v medium {rate:.3f} over {games} games ({worlds} worlds; "
          f"{seen['choices']} choices, {seen['not the biggest']} not the biggest lay; "
          f"{time.perf_counter() - started:.0f} s)")
    return {"rulebook": rulebook, "games": games, "worlds": worlds, "win_rate": round(rate, 4),
            "choices": seen["choices"], "not_biggest": seen["not the biggest"]}


def hold_back(rulebook: str, games: int, cap: int) -> dict:
    from bot.simulate import simulate

    ai_hard.PLANS[rulebook] = ai_hard.Plan(stall=cap, dump_opp=2, must_lay=False)
    summary = simulate(rulebook, ["hard", "medium"], games, 1, {}, jobs=1, check=False)
    rate = summary.as_dict()["win_rate"][0]
    print(f"{rulebook}: hold back to {cap} cards v medium {rate:.3f} over {games} games "
          f"({summary.turns / max(1, games):.0f} turns a game)")
    return {"rulebook": rulebook, "games": games, "cap": cap, "win_rate": rate}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("experiment", choices=("freedom", "lookahead", "hold-back"))
    parser.add_argument("rulebook", choices=("manipulation", "shanghai"))
    parser.add_argument("--games", type=int, default=20)
    parser.add_argument("--worlds", type=int, default=8)
    parser.add_argument("--cap", type=int, default=12)
    parser.add_argument("--json", action="store_true")
    args = parser.parse_args()
    if args.experiment == "freedom":
        out = freedom(args.rulebook, args.games)
    elif args.experiment == "lookahead":
        out = lookahead(args.rulebook, args.games, args.worlds)
    else:
        out = hold_back(args.rulebook, args.games, args.cap)
    if args.json:
        print(json.dumps(out))


if __name__ == "__main__":
    main()
