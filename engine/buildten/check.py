"""The invariants every state keeps: each of the 100 cards in exactly one place, and the piles
as the rules build them. Run after every action by the tests and `rummy simulate`."""

from __future__ import annotations

from collections import Counter

from .cards import DECK, TOP, fits, is_joker
from .state import HAND_SIZE, MAX_BUILD_PILES, MAX_DISCARD_PILES, BuildState


def places(state: BuildState) -> list[tuple[str, str]]:
    """(card, where) for every card of the state."""
    out = []
    for seat in range(state.players):
        out += [(c, f"stock {seat}") for c in state.stocks[seat]]
        out += [(c, f"hand {seat}") for c in state.hands[seat]]
        for i, pile in enumerate(state.discards[seat]):
            out += [(c, f"discard {seat}.{i}") for c in pile]
    for i, pile in enumerate(state.builds):
        out += [(c, f"build {i}") for c in pile]
    out += [(c, "general") for c in state.general] + [(c, "aside") for c in state.aside]
    return out


def conservation_errors(state: BuildState) -> list[str]:
    """Cards missing, doubled or foreign: [] when all 100 are each in exactly one place."""
    seen = Counter(c for c, _ in places(state))
    errors = [f"{c} is missing" for c in DECK if seen[c] == 0]
    errors += [f"{c} is in {n} places" for c, n in seen.items() if n > 1]
    errors += [f"{c} is no card of the game" for c in seen if c not in set(DECK)]
    return errors


def state_errors(state: BuildState) -> list[str]:
    """Everything wrong with a state: conservation, then the shape the rules give it."""
    errors = conservation_errors(state)
    if len(state.builds) != MAX_BUILD_PILES:
        errors.append(f"{len(state.builds)} build-pile places")
    for i, pile in enumerate(state.builds):
        if not 0 <= len(pile) < TOP:
            errors.append(f"build pile {i} holds {len(pile)} cards")
        for n, card in enumerate(pile, 1):
            if not fits(card, n):
                errors.append(f"build pile {i}: {card} can't stand for {n}")
    for seat in range(state.players):
        if any(is_joker(c) for c in state.stocks[seat]):
            errors.append(f"a joker in personal stock {seat}")
        if len(state.hands[seat]) > HAND_SIZE:
            errors.append(f"hand {seat} holds {len(state.hands[seat])} cards")
        piles = state.discards[seat]
        if len(piles) != MAX_DISCARD_PILES:
            errors.append(f"seat {seat}'s discard piles: {[len(p) for p in piles]}")
    if state.over != bool(state.winners):
        errors.append("a game over without winners (or winners in a running game)")
    if not state.over and not 0 <= state.turn < state.players:
        errors.append(f"turn {state.turn}")
    return errors
