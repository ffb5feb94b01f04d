"""A random but legal-minded player for playouts: it sometimes fiddles with its draft, then
lays (by naming the new table, or as a person does: Auto-place's table into the draft, then
Done), draws, passes or knocks (the conformance and serialisation tests share it)."""

from __future__ import annotations

import random

from engine.rummy import (
    Commit,
    Draw,
    GameState,
    GiveUp,
    Knock,
    Pass,
    Place,
    Reset,
    SetDraft,
    Split,
    TimeUp,
    find_move,
    legal_actions,
)


def random_edit(state: GameState, rng: random.Random):
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


def decide(state: GameState, rng: random.Random) -> list:
    """A random but legal-minded player: sometimes fiddles with its draft, then lays, draws,
    passes or knocks."""
    seat = state.turn
    rules = state.rules
    legal = legal_actions(state, seat)
    actions: list = []
    if rng.random() < 0.15:
        edit = random_edit(state, rng)
        if edit is not None:
            actions.append(edit)
            if rules.turn_seconds and rng.random() < 0.5:
                return [*actions, TimeUp(seat)]  # the timer ran out on a changed copy
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
        if rng.random() < 0.3:  # a person's way: Auto-place fills the draft, then Done
            done = Knock(seat) if "knock" in legal and rng.random() < 0.5 else Commit(seat)
            return [*actions, SetDraft(seat, arrangement), done]
        if "knock" in legal and rng.random() < 0.5:
            return [*actions, Knock(seat, arrangement)]
        return [*actions, Commit(seat, arrangement)]
    if "knock" in legal and rng.random() < 0.5:
        return [*actions, Knock(seat)]
    if "draw" in legal:
        return [*actions, Draw(seat), Draw(seat)]  # a second tap goes past the reminder
    return [*actions, Pass(seat), Pass(seat)]
