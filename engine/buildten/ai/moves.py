"""What a seat can do, read from its view: its playable cards, where each fits, chains of
known cards that bring a build pile to a wanted number, and the discard piles' order."""

from __future__ import annotations

from dataclasses import dataclass

from ..actions import NEW_PILE, Discard, Joker, Pass, Play
from ..cards import SHIFT, fits, is_joker, is_wild, joker_kind, number
from ..state import free_place
from ..view import BuildView

WILD_COST = 3  # a wild card spent on a chain: they are few and fit anywhere later
HAND_COST = 1
DISCARD_COST = 0  # a discard pile's card played is space won


def needs(view: BuildView) -> dict[int, int]:
    """The open build piles' places and the number each needs next."""
    return {i: len(p) + 1 for i, p in enumerate(view.builds) if p}


def can_open(view: BuildView) -> bool:
    """Is a build-pile place empty (a new pile may open)?"""
    return free_place(view.builds) is not None


def pile_for(view: BuildView, card: str, prefer: list[int] | None = None) -> int | None:
    """A build pile `card` fits (NEW_PILE for a new one), the first of `prefer` that fits."""
    options = [i for i, n in needs(view).items() if fits(card, n)]
    if can_open(view) and fits(card, 1):
        options.append(NEW_PILE)
    for p in prefer or []:
        if p in options:
            return p
    return options[0] if options else None


def sources(view: BuildView) -> list[str]:
    """My hand, then my discard tops (the face-up stock card is handled apart)."""
    return list(view.hand) + tops(view)


def tops(view: BuildView) -> list[str]:
    """My discard piles' top cards."""
    return [p[-1] for p in view.discards[view.seat] if p]


@dataclass(frozen=True)
class Chain:
    """Plays of known cards onto pile `pile` (NEW_PILE: a new one) that leave it needing
    `goal`; `cost` counts the wild cards and hand cards spent."""

    pile: int
    cards: tuple[str, ...]
    cost: int


def chain_to(view: BuildView, goal: int, *, max_len: int = 9) -> Chain | None:
    """The cheapest chain of hand and discard-top cards that makes some build pile need
    `goal` (a discard pile's next card becomes playable once its top is played)."""
    best: Chain | None = None
    start = [(i, n) for i, n in needs(view).items() if n <= goal]
    if can_open(view):
        start.append((NEW_PILE, 1))
    piles = [list(p) for p in view.discards[view.seat]]
    for pile, need in start:
        if goal - need > max_len:
            continue
        found = _search(need, goal, list(view.hand), piles, ())
        if found is not None:
            cards, cost = found
            if best is None or cost < best.cost:
                best = Chain(pile, cards, cost)
    return best


def _search(need: int, goal: int, hand: list[str], piles: list[list[str]],
            done: tuple[str, ...]) -> tuple[tuple[str, ...], int] | None:
    if need == goal:
        return done, 0
    best: tuple[tuple[str, ...], int] | None = None
    tried: set[tuple[str, int]] = set()
    options: list[tuple[str, int, int]] = []  # (card, discard pile or -1, cost)
    for card in hand:
        if not is_joker(card) and fits(card, need):
            options.append((card, -1, WILD_COST if is_wild(card) else HAND_COST))
    for i, pile in enumerate(piles):
        if pile and fits(pile[-1], need):
            options.append((pile[-1], i, WILD_COST if is_wild(pile[-1]) else DISCARD_COST))
    for card, where, cost in sorted(options, key=lambda o: o[2]):
        kind = ("W" if is_wild(card) else str(number(card)), where if where >= 0 else -1)
        if kind in tried:  # the same number from the same place: one try is enough
            continue
        tried.add(kind)
        if where < 0:
            rest_hand, rest_piles = [c for c in hand if c != card], piles
        else:
            rest_hand = hand
            rest_piles = [p[:-1] if j == where else p for j, p in enumerate(piles)]
        found = _search(need + 1, goal, rest_hand, rest_piles, (*done, card))
        if found is not None and (best is None or found[1] + cost < best[1]):
            best = (found[0], found[1] + cost)
            if best[1] == 0:
                break
    return best


def stock_number(view: BuildView, seat: int) -> int | None:
    card = view.face_up[seat]
    return number(card) if card else None


def stock_fits(view: BuildView) -> int | None:
    """The pile my face-up stock card fits now, if any."""
    card = view.face_up[view.seat]
    return pile_for(view, card) if card else None


def jokers(view: BuildView, kind: str) -> list[str]:
    return [c for c in view.hand if joker_kind(c) == kind]


def shift_self(view: BuildView) -> Joker | None:
    """Turn my stuck face-up card under (a shift on myself), when that can change it and
    can't loop: the joker would be my last hand card with nothing to draw."""
    shifts = jokers(view, SHIFT)
    if not shifts or view.stock_counts[view.seat] < 2:
        return None
    if len(view.hand) == 1 and view.general_count == 0:
        return None
    return Joker(view.seat, shifts[0], view.seat)


def discard_options(view: BuildView) -> list[int]:
    """My discard piles' places, and NEW_PILE while one is empty."""
    piles = view.discards[view.seat]
    out = [i for i, p in enumerate(piles) if p]
    return out + ([NEW_PILE] if free_place(piles) is not None else [])


def throwaways(view: BuildView) -> list[str]:
    """The hand cards a computer may discard: its plain cards; with none, its jokers; a wild
    card only when the hand holds nothing else (a wild fits every pile: it is never thrown
    away while another card could go)."""
    plain = [c for c in view.hand if not is_joker(c) and not is_wild(c)]
    return plain or [c for c in view.hand if is_joker(c)] or list(view.hand)


def end_turn(view: BuildView, card: str | None, pile: int) -> Discard | Pass:
    return Pass(view.seat) if card is None else Discard(view.seat, card, pile)


def play(view: BuildView, card: str, pile: int) -> Play:
    return Play(view.seat, card, pile)
