"""Moving cards between the shared places: drawing, rebuilding the general stock, starting a
turn. Each helper changes the state it is given and returns the events."""

from __future__ import annotations

import random
from typing import Any

from .state import HAND_SIZE, BuildState

EventData = tuple[str, int | None, dict[str, Any]]  # (kind, seat, data): rules.Event's fields


def rebuild(state: BuildState) -> list[EventData]:
    """Decision 7: the completed piles and used jokers, shuffled, become the general stock
    (the shuffle from the game's seed and the number of earlier rebuilds)."""
    if state.general or not state.aside:
        return []
    cards = sorted(state.aside)  # a fixed order before the seeded shuffle
    random.Random(f"{state.seed}:rebuild:{state.rebuilds}").shuffle(cards)
    state.general, state.aside = cards, []
    state.rebuilds += 1
    return [("rebuilt", None, {"cards": len(cards)})]


def refill(state: BuildState, seat: int) -> list[EventData]:
    """Draw `seat`'s hand up to 5, rebuilding the general stock when it runs out; short if even
    that is empty (decision 7)."""
    events: list[EventData] = []
    drawn = 0
    hand = state.hands[seat]
    while len(hand) < HAND_SIZE:
        if not state.general:
            events += rebuild(state)
            if not state.general:
                break
        hand.append(state.general.pop())
        drawn += 1
    if drawn:
        events.insert(0, ("drew", seat, {"cards": drawn}))
    return events


def can_refill(state: BuildState) -> bool:
    return bool(state.general or state.aside)


def begin_turn(state: BuildState, seat: int) -> list[EventData]:
    state.turn = seat
    state.built_this_turn = False
    return [("turn", seat, {}), *refill(state, seat)]
