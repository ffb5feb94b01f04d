"""Issue 27, "a hint is a move you can make": over many seeded positions of every rulebook (the
seven card rulebooks and Rummikub), following the hint's Show me (its whole lay into the working
copy) and pressing Done is always accepted, and leaves a valid table with every card in place."""

from __future__ import annotations

import pytest
from tiers import sampled

from engine.rummy import (
    ALL_RULEBOOKS,
    Commit,
    Draw,
    GameState,
    Hint,
    SetDraft,
    apply,
    conservation_errors,
    get_rulebook,
)
from engine.rummy.playout import play_game, table_errors
from engine.rummy.tiles import piece_from_token

# the first two seeds in every tier, the other six in the seeded-games tier
SEEDS = ((1, 2), (3, 4, 5, 6, 7, 8))
EVERY = 3  # every third turn's opening position of a seeded game is tried
POSITIONS = 12  # per seed: the first so many of those


def _turn_starts(rulebook: str, seed: int) -> list[GameState]:
    """The positions at the start of turns of a seeded game between computer seats."""
    starts: list[GameState] = []

    def seen(before: GameState, action, after: GameState) -> None:
        if after.phase == "play" and (after.turn != before.turn or after.round != before.round):
            starts.append(after)

    play_game(get_rulebook(rulebook), ["easy", "medium", "easy"], seed, on_action=seen,
              max_actions=EVERY * POSITIONS * 6)
    return starts[::EVERY][:POSITIONS]


def _follow_hint(state: GameState) -> GameState | None:
    """Hint, Show me, Done from `state` (Carousel's opening draw first); None without a hint."""
    seat = state.turn
    if state.rules.turn_style.draw_first and state.draws == 0 and state.stock:
        state, _ = apply(state, Draw(seat))
        if state.turn != seat:
            return None
    hinted, _ = apply(state, Hint(seat))
    hint = hinted.hint
    if hint is None:
        return None
    lay = tuple(tuple(piece_from_token(t) for t in g) for g in hint["lay"])
    shown, _ = apply(hinted, SetDraft(seat, lay))
    done, events = apply(shown, Commit(seat, None, {}))  # raises IllegalAction if refused
    def idents(tokens: list[str]) -> list[tuple]:
        return sorted(piece_from_token(t).ident for t in tokens)

    assert events[0].kind == "laid" and idents(events[0].data["placed"]) == idents(hint["placed"])
    return done


@pytest.mark.parametrize("seeds", sampled(SEEDS, keep={SEEDS[0]}))
@pytest.mark.parametrize("rulebook", sorted(ALL_RULEBOOKS))
def test_following_show_me_then_done_is_always_accepted(rulebook, seeds):
    followed = 0
    for seed in seeds:
        for state in _turn_starts(rulebook, seed):
            done = _follow_hint(state)
            if done is None:
                continue
            followed += 1
            assert conservation_errors(done) == [] and table_errors(done) == []
    assert followed >= 3, f"only {followed} hints followed in {rulebook}"
