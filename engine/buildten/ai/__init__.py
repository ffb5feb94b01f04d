"""Build-to-Ten's computer players: easy, medium and hard, each deciding one action at a time
from its seat's view only (decision 10) — a face-down stock card is unknown to them too."""

from __future__ import annotations

import random

from ..actions import Action
from ..view import BuildView
from .easy import choose_easy
from .hard import choose_hard
from .medium import choose_medium

LEVELS = ("easy", "medium", "hard")
_CHOOSERS = {"easy": choose_easy, "medium": choose_medium, "hard": choose_hard}


def choose_action(view: BuildView, level: str) -> Action:
    """The action the computer at `level` takes in this view (its seat is on turn). Easy's
    randomness comes from the view itself, so a game replays the same."""
    if level not in _CHOOSERS:
        raise ValueError(f"no computer level {level!r}; levels: {', '.join(LEVELS)}")
    if level == "easy":
        return choose_easy(view, random.Random(view.version * 7919 + view.seat))
    return _CHOOSERS[level](view)
