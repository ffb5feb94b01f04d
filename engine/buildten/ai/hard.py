"""Hard: plans. It plays chains of hand and discard cards that bring a build pile to its
stock card's number, swaps a stuck stock card for a playable one, shifts a stuck card away
(its own, or the next player's when that one fits), empties its hand for 5 more, and keeps
back the plays that would open a pile for another player's stock card. It discards so that
each discard pile runs downwards (the top the lowest, playable first)."""

from __future__ import annotations

from ..actions import NEW_PILE, Action, Joker
from ..cards import SHIFT, SWAP, fits, is_joker, is_wild, number
from ..view import BuildView
from .moves import (
    Chain,
    chain_to,
    discard_options,
    end_turn,
    jokers,
    needs,
    pile_for,
    play,
    shift_self,
    sources,
    stock_number,
    throwaways,
    tops,
)

MAX_CHAIN_COST = 7  # a chain may spend up to two wild cards (and a hand card)


def _others(view: BuildView) -> list[int]:
    """The other seats with a face-up card, the next player first."""
    order = [(view.seat + k) % view.players for k in range(1, view.players)]
    return [s for s in order if view.face_up[s]]


def _helps(view: BuildView, pile: int, card: str) -> bool:
    """Would this play leave a pile needing a number another player shows (not yet playable
    for them)?"""
    after = (needs(view)[pile] if pile != NEW_PILE else 1) + 1
    shown = {stock_number(view, s) for s in _others(view)}
    now = set(needs(view).values())
    return after in shown and after not in now


def _stock_pile(view: BuildView, card: str) -> int | None:
    """Where my face-up card goes: for a wild card the pile nearest 10 that helps nobody."""
    options = [i for i, n in needs(view).items() if fits(card, n)]
    if not is_wild(card):
        return pile_for(view, card, options)
    if not options:
        return pile_for(view, card)
    safe = [i for i in options if not _helps(view, i, card)] or options
    return max(safe, key=lambda i: needs(view)[i])


def _my_chain(view: BuildView) -> Chain | None:
    goal = stock_number(view, view.seat)
    if goal is None:
        return None
    chain = chain_to(view, goal)
    return chain if chain is not None and chain.cost <= MAX_CHAIN_COST else None


def _swap(view: BuildView) -> Joker | None:
    """Swap my stuck face-up card for another's that I can play now or by a chain."""
    swaps = jokers(view, SWAP)
    if not swaps or view.face_up[view.seat] is None:
        return None
    for target in _others(view):
        card = view.face_up[target]
        assert card is not None
        if pile_for(view, card) is not None:
            return Joker(view.seat, swaps[0], target)
        n = number(card)
        if n is not None:
            chain = chain_to(view, n)
            if chain is not None and chain.cost <= MAX_CHAIN_COST:
                return Joker(view.seat, swaps[0], target)
    return None


def _shift_next(view: BuildView) -> Joker | None:
    """The next player's face-up card fits now: turn it under before they play it."""
    shifts = jokers(view, SHIFT)
    others = _others(view)
    if not shifts or not others or len(view.hand) == 1:
        return None
    nxt = others[0]
    card = view.face_up[nxt]
    if (nxt == (view.seat + 1) % view.players and card and not is_wild(card)
            and pile_for(view, card) is not None and view.stock_counts[nxt] > 1):
        return Joker(view.seat, shifts[0], nxt)
    return None


def _empties_hand(view: BuildView) -> tuple[str, int] | None:
    """The first play of a run that empties my hand (5 more cards), if there is one."""
    hand = list(view.hand)
    if not hand or any(is_joker(c) for c in hand):
        return None
    piles = needs(view)
    free = [i for i, b in enumerate(view.builds) if not b]  # the places new piles open at
    first: tuple[str, int] | None = None
    while hand:
        placed = False
        for card in sorted(hand, key=is_wild):  # plain cards first, wild ones at the end
            options = [i for i, n in piles.items() if fits(card, n)]
            if not options and free and fits(card, 1):
                piles[free[0]] = 1
                options = [free.pop(0)]
            if options:
                pile = options[0]
                if first is None:
                    first = (card, pile if view.builds[pile] else NEW_PILE)
                piles[pile] += 1
                hand.remove(card)
                placed = True
                break
        if not placed:
            return None
    return first


def _safe_play(view: BuildView) -> tuple[str, int] | None:
    """A plain discard top or hand card that fits and opens nothing for another player."""
    for card in tops(view) + list(view.hand):
        if is_joker(card) or is_wild(card):
            continue
        pile = pile_for(view, card)
        if pile is not None and not _helps(view, pile, card):
            return card, pile
    return None


def choose_hard(view: BuildView) -> Action:
    stock = view.face_up[view.seat]
    if stock:
        pile = _stock_pile(view, stock)
        if pile is not None:
            return play(view, stock, pile)
        chain = _my_chain(view)
        if chain is not None:
            return play(view, chain.cards[0], chain.pile)
        swap = _swap(view)
        if swap is not None:
            return swap
        shift = shift_self(view)
        if shift is not None:
            return shift
    shift = _shift_next(view)
    if shift is not None:
        return shift
    run = _empties_hand(view)
    if run is not None:
        return play(view, *run)
    safe = _safe_play(view)
    if safe is not None:
        return play(view, *safe)
    return hard_discard(view)


def _keep(view: BuildView, card: str) -> int:
    """How much I want to keep a hand card: wilds and jokers most, then cards between a
    pile's need and my stock card's number (a chain's parts), then cards that fit soon."""
    if is_joker(card) or is_wild(card):
        return 100
    n = number(card) or 0
    goal = stock_number(view, view.seat) or 11
    score = 0
    for need in [*needs(view).values(), 1]:
        if need <= n < goal:
            score = max(score, 20 - (n - need))
        elif need <= n:
            score = max(score, 5 - (n - need))
    return score


def hard_discard(view: BuildView) -> Action:
    """The hand card least worth keeping, onto the pile where it keeps the piles running
    downwards: onto a top one higher, else a new pile, else the nearest higher top."""
    if not view.hand:
        return end_turn(view, None, 0)
    piles = view.discards[view.seat]
    options = discard_options(view)

    def placement(card: str) -> tuple[int, int]:
        n = number(card)
        if n is None:
            return -50, options[0]
        scored = []
        for i in options:
            if i == NEW_PILE:
                scored.append((6, i))
                continue
            top = number(piles[i][-1])
            if top is None:
                scored.append((-20, i))
            elif top == n:
                scored.append((9, i))
            elif top == n + 1:
                scored.append((10, i))
            elif top > n:
                scored.append((8 - (top - n), i))
            else:
                scored.append((-(n - top) - 5, i))
        return max(scored)

    def worth(card: str) -> int:
        return placement(card)[0] - 2 * _keep(view, card)

    card = max(throwaways(view), key=worth)
    return end_turn(view, card, placement(card)[1])


__all__ = ["choose_hard", "hard_discard", "sources"]
