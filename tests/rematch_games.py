"""A game one computer move from its end, for the rematch tests (issue 41 item 1): the people
only ever draw, the last seat is the computer (`medium`), and its next move ends the game."""

from __future__ import annotations

from bot.core.record import Record, SeatInfo
from engine.rummy import GameState, apply, new_game, player_view
from engine.rummy.actions import Draw, Pass
from engine.rummy.ai import choose_action

RULEBOOK = "machiavelli"  # one round: the round's end is the game's
SEEDS = {1: 7, 2: 3}  # people -> a seed whose round the computer ends


def near_end(people: int) -> GameState:
    """The state just before the computer's move that ends the game."""
    seats = people + 1
    state = new_game(RULEBOOK, seats, SEEDS[people])
    while True:
        if state.turn < people:
            move = Draw(state.turn) if state.stock else Pass(state.turn)
        else:
            move = choose_action(player_view(state, state.turn), "medium")
        after, _ = apply(state, move)
        if after.phase != "play":
            assert state.turn == people, "the computer ends the game"
            return state
        state = after


def record_near_end(people: list[tuple[str, str, int | None]], lang: str = "en",
                    turn_seconds: int = 180) -> Record:
    """`people` (user id, name, player id) and a medium computer, one move from the end."""
    return Record(
        rulebook=RULEBOOK,
        host=people[0][0],
        seats=[*(SeatInfo(name, user, pid, lang=lang) for user, name, pid in people),
               SeatInfo("Computer 1", None, None, "medium")],
        state=near_end(len(people)).to_dict(),
        seed=SEEDS[len(people)],
        lang=lang,
        turn_seconds=turn_seconds,
    )
