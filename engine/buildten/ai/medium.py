"""Medium: greedy. Its stock card when it fits, a short chain of plain cards to it, then every
plain card that fits (discard tops first), a shift on itself when its stock card is stuck;
it discards its highest plain card."""

from __future__ import annotations

from ..actions import NEW_PILE, Action
from ..cards import is_joker, is_wild, number
from ..view import BuildView
from .moves import (
    chain_to,
    discard_options,
    end_turn,
    pile_for,
    play,
    shift_self,
    stock_fits,
    stock_number,
    throwaways,
    tops,
)

MAX_CHAIN_COST = 2  # short chains of plain cards only (a wild card costs 3)


def choose_medium(view: BuildView) -> Action:
    stock = view.face_up[view.seat]
    pile = stock_fits(view)
    if stock and pile is not None:
        return play(view, stock, pile)
    goal = stock_number(view, view.seat)
    chain = chain_to(view, goal, max_len=3) if goal else None
    if chain is not None and chain.cost <= MAX_CHAIN_COST:
        return play(view, chain.cards[0], chain.pile)
    for card in tops(view) + list(view.hand):
        if is_joker(card) or is_wild(card):
            continue
        pile = pile_for(view, card)
        if pile is not None:
            return play(view, card, pile)
    shift = shift_self(view)
    if shift is not None:
        return shift
    return medium_discard(view)


def medium_discard(view: BuildView) -> Action:
    if not view.hand:
        return end_turn(view, None, 0)
    card = max(throwaways(view), key=lambda c: number(c) or 0)
    value = number(card) or 0
    piles = view.discards[view.seat]
    options = discard_options(view)
    for i, p in enumerate(piles):
        if p and number(p[-1]) == value + 1:
            return end_turn(view, card, i)
    return end_turn(view, card, NEW_PILE if NEW_PILE in options else 0)
