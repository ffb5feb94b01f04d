"""Computer players. They decide only from their own `PlayerView` (hidden cards stay hidden).

Levels: `easy` lays the first legal lay it finds, `medium` the lay that places the most cards.
"""

from __future__ import annotations

from .actions import Action, Commit, Draw, Knock, NextRound, Pass
from .game import PlayerView
from .solver import find_move

LEVELS = ("easy", "medium", "hard")


def choose_action(view: PlayerView, level: str = "medium") -> Action:
    """The computer's next action for `view.seat`."""
    seat = view.seat
    legal = view.legal
    if view.phase == "round_over":
        return NextRound(seat)
    if not view.my_turn:
        raise ValueError("It is not this seat's turn")
    rules = view.rules
    if "commit" not in legal and "draw" in legal:  # Carousel: draw first
        return Draw(seat)
    objective = (
        "any" if level == "easy" else "max_points" if rules.values != "count" else "max_cards"
    )
    table = [list(g) for g in view.table] + [[c] for c in view.singles]
    move = find_move(
        rules,
        table,
        list(view.hand),
        objective=objective,
        first_lay_done=view.first_lay_done,
        singles=view.singles,
    )
    if move is not None:
        arrangement = tuple(tuple(g) for g in move.new_table)
        if "knock" in legal or (
            rules.turn == "carousel" and 1 <= view.draws <= 2 and view.final_turns is None
        ):
            placed = {c.ident for c in move.placed}
            left = [c for c in view.hand if c.ident not in placed]
            if left and rules.hand_value(left) <= rules.knock_limit:
                return Knock(seat, arrangement)
        return Commit(seat, arrangement)
    if "knock" in legal:
        return Knock(seat)
    if "draw" in legal:
        return Draw(seat)
    return Pass(seat)
