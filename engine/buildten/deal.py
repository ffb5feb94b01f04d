"""A new game from a seed (the deal and the start, decision 2), and scripted deals for tests
and lessons."""

from __future__ import annotations

import random
from collections.abc import Sequence

from .cards import DECK, JOKERS, NUMBER_CARDS, face, number
from .check import conservation_errors
from .flow import begin_turn
from .state import STOCK_SIZES, BuildState

MAX_RESHUFFLES = 1000  # a start that never settles is practically impossible; this bounds it


def choose_first(stocks: list[list[str]], rng: random.Random) -> int:
    """Decision 2: every player showing Q or K, and every player tied for the highest,
    reshuffles and turns again, until one player is highest. Changes `stocks`."""
    for _ in range(MAX_RESHUFFLES):
        shown = [number(s[0]) for s in stocks]
        again = [i for i, n in enumerate(shown) if n is None]
        if not again:
            top = max(n for n in shown if n is not None)
            again = [i for i, n in enumerate(shown) if n == top]
            if len(again) == 1:
                return again[0]
        for i in again:
            rng.shuffle(stocks[i])
    return max(range(len(stocks)), key=lambda i: number(stocks[i][0]) or 0)


def new_game(players: int, seed: int) -> BuildState:
    """Deal: personal stocks of 20 / 15 / 10 from the 96 number cards, the start, then the
    jokers shuffled into the rest (the general stock); the first player takes 5."""
    if players not in STOCK_SIZES:
        raise ValueError(f"Build-to-Ten is for 2 to 4 players, not {players}")
    rng = random.Random(seed)
    cards = list(NUMBER_CARDS)
    rng.shuffle(cards)
    size = STOCK_SIZES[players]
    stocks = [cards[i * size:(i + 1) * size] for i in range(players)]
    first = choose_first(stocks, rng)
    general = cards[players * size:] + list(JOKERS)
    rng.shuffle(general)
    state = BuildState(players, seed, stocks, [[] for _ in range(players)],
                       [[] for _ in range(players)], general=general, first=first)
    begin_turn(state, first)
    return state


def _tokens(faces: Sequence[str], free: list[str]) -> list[str]:
    out = []
    for f in faces:
        token = next((t for t in free if face(t) == f), None)
        if token is None:
            raise ValueError(f"no {f} left for the scripted deal")
        free.remove(token)
        out.append(token)
    return out


def scripted(
    stocks: Sequence[Sequence[str]],
    hands: Sequence[Sequence[str]],
    *,
    builds: Sequence[Sequence[str]] = (),
    discards: Sequence[Sequence[Sequence[str]]] = (),
    general_top: Sequence[str] = (),
    aside: Sequence[str] = (),
    turn: int = 0,
    seed: int = 0,
) -> BuildState:
    """A state laid out by faces (`2H`, `KC`, `SHIFT`; the first free copy of each), mid-turn
    of `turn` (no refill). Every card not named goes to the general stock, under `general_top`
    (its first face drawn first)."""
    players = len(stocks)
    free = list(DECK)
    state = BuildState(
        players, seed,
        [_tokens(s, free) for s in stocks],
        [_tokens(h, free) for h in hands],
        [[_tokens(p, free) for p in (discards[i] if i < len(discards) else ())]
         for i in range(players)],
        [_tokens(b, free) for b in builds],
        turn=turn, first=turn,
    )
    state.aside = _tokens(aside, free)
    top = _tokens(general_top, free)
    random.Random(seed).shuffle(free)
    state.general = free + top[::-1]
    errors = conservation_errors(state)
    if errors:
        raise ValueError(f"scripted deal: {errors}")
    return state
