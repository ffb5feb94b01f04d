"""Conformance: every rulebook, 2/3/5 seats and both values of every option, through seeded
random playouts to the end. After every action: cards conserved and every group on the table
valid; at the end: the record replays to the identical state and JSON round-trips exactly."""

from __future__ import annotations

import random

import pytest
from random_player import decide

from engine import (
    Commit,
    Draw,
    Finish,
    GameState,
    IllegalAction,
    Knock,
    NextRound,
    Pass,
    apply,
    conservation_errors,
    get_rulebook,
    new_game,
    replay,
)
from engine.playout import table_errors

CASES = [
    ("manipulation", 2, {"must_lay": "remind", "play_to": 200}),
    ("manipulation", 3, {"must_lay": "trust", "play_to": 300}),
    ("manipulation", 5, {"must_lay": "remind", "play_to": 300}),
    ("machiavelli", 2, {"unfinished_move": "reset"}),
    ("machiavelli", 3, {"unfinished_move": "give_back_draw_3"}),
    ("machiavelli", 5, {"unfinished_move": "give_back_draw_3"}),
    ("shanghai", 2, {"must_lay": "trust"}),
    ("shanghai", 3, {"must_lay": "remind"}),
    ("shanghai", 5, {"must_lay": "remind"}),
    ("guadeloupe", 2, {"unfinished_move": "give_back_draw_3"}),
    ("guadeloupe", 3, {"unfinished_move": "reset"}),
    ("guadeloupe", 5, {"unfinished_move": "reset"}),
    ("carousel", 2, {}),
    ("carousel", 3, {}),
    ("carousel", 5, {}),
    ("vatican", 2, {}),
    ("vatican", 3, {}),
    ("vatican", 5, {}),
    ("tahiti", 2, {"unfinished_move": "reset"}),
    ("tahiti", 3, {"unfinished_move": "give_back_draw_3"}),
    ("tahiti", 5, {"unfinished_move": "give_back_draw_3"}),
]
MAX_ACTIONS = 6000


def _playout(name: str, seats: int, options: dict, seed: int) -> GameState:
    rules = get_rulebook(name, **options)
    rng = random.Random(seed)
    state = new_game(rules, seats, seed)
    steps = 0
    while state.phase != "game_over":
        assert steps < MAX_ACTIONS, "the game did not end"
        if state.phase == "round_over":
            batch = [Finish(0) if rules.length == "open" and state.round >= 2 else NextRound(0)]
        else:
            batch = decide(state, rng)
        turn = state.turn
        for action in batch:
            if state.phase != "play" and not isinstance(action, (NextRound, Finish)):
                break
            if state.phase == "play" and state.turn != turn:
                break  # the first Draw ended the turn
            try:
                after, _ = apply(state, action)
            except IllegalAction:
                if isinstance(action, (Commit, Knock, Draw, Pass, NextRound, Finish)):
                    raise
                continue  # a random edit may be refused; that is fine
            problems = conservation_errors(after) + table_errors(after)
            assert not problems, f"after {action}: {problems}"
            state = after
            steps += 1
        if steps % 50 == 0:
            assert GameState.from_json(state.to_json()).to_json() == state.to_json()
    return state


@pytest.mark.parametrize(
    ("name", "seats", "options"),
    CASES,
    ids=[f"{n}-{s}-{'-'.join(map(str, o.values())) or 'default'}" for n, s, o in CASES],
)
def test_random_playout_to_the_end(name, seats, options):
    state = _playout(name, seats, options, seed=1000 + seats)
    assert state.result is not None and state.result["winners"]
    again = replay(name, seats, state.seed, state.actions, **options)
    assert again.to_json() == state.to_json()
    assert GameState.from_json(state.to_json()).to_json() == state.to_json()
