"""Conformance: every rulebook, 2/3/5 seats and both values of every option, through seeded
random playouts to the end. After every action: cards conserved and every group on the table
valid; at the end: the record replays to the identical state and JSON round-trips exactly."""

from __future__ import annotations

import random

import pytest

from engine import (
    Commit,
    Draw,
    Finish,
    GameState,
    GiveUp,
    IllegalAction,
    Knock,
    NextRound,
    Pass,
    Place,
    Reset,
    Split,
    apply,
    conservation_errors,
    find_move,
    get_rulebook,
    legal_actions,
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


def _random_edit(state: GameState, rng: random.Random):
    seat = state.turn
    hand = state.hands[seat]
    groups = state.table
    choice = rng.random()
    if choice < 0.5 and hand:
        target = rng.choice([None, *range(len(groups))])
        return Place(seat, (rng.choice(hand),), target)
    if groups:
        g = rng.randrange(len(groups))
        if len(groups[g]) > 1:
            return Split(seat, g, rng.randrange(1, len(groups[g])))
    return None


def _decide(state: GameState, rng: random.Random) -> list:
    """A random but legal-minded player: sometimes fiddles with its draft, then lays, draws,
    passes or knocks."""
    seat = state.turn
    rules = state.rules
    legal = legal_actions(state, seat)
    actions: list = []
    if rng.random() < 0.15:
        edit = _random_edit(state, rng)
        if edit is not None:
            actions.append(edit)
            actions.append(GiveUp(seat) if rules.give_back else Reset(seat))
            if rules.give_back:
                actions.append(GiveUp(seat))  # the second tap: +3 and the turn ends
                return actions
    if "commit" not in legal and "draw" in legal:
        return [*actions, Draw(seat)]
    objective = rng.choice(["any", "max_cards", "hint"])
    move = None
    if rng.random() < 0.85:
        move = find_move(
            rules,
            state.table + [[c] for c in state.singles],
            state.hands[seat],
            objective=objective,
            first_lay_done=state.first_lay_done[seat],
            singles=state.singles,
        )
    if move is not None:
        arrangement = tuple(tuple(g) for g in move.new_table)
        if "knock" in legal and rng.random() < 0.5:
            return [*actions, Knock(seat, arrangement)]
        return [*actions, Commit(seat, arrangement)]
    if "knock" in legal and rng.random() < 0.5:
        return [*actions, Knock(seat)]
    if "draw" in legal:
        return [*actions, Draw(seat), Draw(seat)]  # a second tap goes past the reminder
    return [*actions, Pass(seat), Pass(seat)]


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
            batch = _decide(state, rng)
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
