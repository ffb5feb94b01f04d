"""Easy: a beginner. It often (not always) sees that its face-up stock card fits, plays other
cards by chance and discards anything anywhere."""

from __future__ import annotations

import random

from ..actions import Action
from ..view import BuildView
from .moves import discard_options, end_turn, pile_for, play, sources, stock_fits, throwaways

SEES_STOCK = 0.6  # how often it notices that its face-up card fits


def choose_easy(view: BuildView, rng: random.Random) -> Action:
    pile = stock_fits(view)
    stock = view.face_up[view.seat]
    if pile is not None and stock and rng.random() < SEES_STOCK:
        return play(view, stock, pile)
    fitting = [(c, p) for c in sources(view) if (p := pile_for(view, c)) is not None]
    if fitting and rng.random() < 0.5:
        return play(view, *rng.choice(fitting))
    if not view.hand:
        return end_turn(view, None, 0)
    return end_turn(view, rng.choice(throwaways(view)), rng.choice(discard_options(view)))
