"""Computer players. They decide only from their own `PlayerView`: their hand, the table, the
counts of the other hands and the size of the stock — hidden cards stay hidden.

Levels, chosen per seat:

- `easy`   lays only what is obvious: new melds from its hand, cards added to runs and sets;
           it never rearranges the table (engine/rummy/ai/easy.py).
- `medium` lays the solver's biggest lay every turn (most penalty points where cards have
           values, else most cards), and knocks in Carousel whenever it may.
- `hard`   plans (engine/rummy/ai/hard.py): it holds cards back to avoid drawing, keeps the cards
           that stay easy to lay, goes out or knocks when it pays, and plays each rulebook's
           scoring.

Every level is a pure, deterministic function of the view, so a game replays from its seed.
"""

from __future__ import annotations

from ..actions import Action, NextRound
from ..game import PlayerView
from .hard import choose_hard
from .turn import Turn, biggest_lay, fallback, no_lay

LEVELS = ("easy", "medium", "hard")


def choose_action(view: PlayerView, level: str = "medium") -> Action:
    """The computer's next action for `view.seat`."""
    if level not in LEVELS:
        raise ValueError(f"Unknown level {level!r}: use one of {', '.join(LEVELS)}")
    if view.phase == "round_over":
        return NextRound(view.seat)
    if not view.my_turn:
        raise ValueError("It is not this seat's turn")
    turn = Turn(view)
    if turn.must_draw_first:
        return no_lay(turn)
    if level == "easy":
        return _easy(turn)
    if level == "medium":
        return _medium(turn)
    return choose_hard(turn)


def _easy(turn: Turn) -> Action:
    return fallback(turn)  # the obvious lay, else draw (or pass)


def _medium(turn: Turn) -> Action:
    return biggest_lay(turn)
