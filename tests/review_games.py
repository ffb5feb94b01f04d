"""Hosted games for the review's chat tests (issue 32): a scripted round with known misses —
seat 0 only ever draws, seat 1 plays the computer's `medium` (the solver's biggest lay, so its
turns are the best moves) — as a platform record, stopped where the test needs it."""

from __future__ import annotations

from bot.core.record import Record, SeatInfo
from engine.rummy import GameState, apply, new_game, player_view
from engine.rummy.actions import Draw, Pass
from engine.rummy.ai import choose_action

RULEBOOK = "machiavelli"  # a draw ends the turn; one round
SEED = 7


def _move(state: GameState):
    if state.turn == 0:
        return Draw(0) if state.stock else Pass(0)
    return choose_action(player_view(state, state.turn), "medium")


def drawing_round(*, stop_before_end: bool = False) -> GameState:
    """The round played out; `stop_before_end`: the state just before the move that ends it
    (the computer's: the scheduler plays it, and the scores come with a 🔎 Review button)."""
    state = new_game(RULEBOOK, 2, SEED)
    while state.phase == "play":
        after, _ = apply(state, _move(state))
        if stop_before_end and after.phase != "play":
            assert state.turn == 1, "the computer ends the round"
            return state
        state = after
    return state


def record_of(state: GameState, user: str = "11", name: str = "Alice", player_id: int | None = 1,
              lang: str = "en") -> Record:
    return Record(
        rulebook=RULEBOOK,
        host=user,
        seats=[SeatInfo(name, user, player_id, lang=lang),
               SeatInfo("Computer 1", None, None, "medium")],
        state=state.to_dict(),
        seed=SEED,
        lang=lang,
    )
