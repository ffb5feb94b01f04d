"""The shuffle is an input: the deck order of a round, and games started from a given deck or a
given position (OpenSpiel's chance outcome, supplied by the caller).

`deck_order(rules, players, seed, round)` is the only place the engine shuffles a real game:
`make_deck` in its fixed order, shuffled by `random.Random(f"rummy:{seed}:{round}")`. The end of
the list is the top of the deck. `new_game` and every next round deal from it, so a game replays
from (rulebook, seats, seed, actions).

    deck = deck_order(get_rulebook("manipulation"), 2, seed=7)
    state = start_game(get_rulebook("manipulation"), 2, seed=7, deck=deck)  # = new_game(...)
"""

from __future__ import annotations

import random
from collections.abc import Sequence

from engine.cards import Card

from .rulebooks import Rulebook
from .state import GameState


def deck_order(rulebook: Rulebook, players: int, seed: int, round: int = 1) -> list[Card]:
    """The deck round `round` is dealt from (top card last), as `new_game` shuffles it."""
    decks, jokers = rulebook.deck_for(players)
    deck = rulebook.make_deck(decks, jokers)
    random.Random(f"rummy:{seed}:{round}").shuffle(deck)
    return deck


def starting_draw(rulebook: Rulebook, players: int, seed: int) -> tuple[int, list[list[str]]]:
    """Rummikub's starting draw (RULES.md §5, decision 4): each seat draws a tile, the highest
    number starts; a seat that draws a joker draws again, and seats tied for the highest draw
    again among themselves. The tiles then go back (the deal shuffles its own). Returns the
    starter and the draws, one list of faces (`11B`, `*`) per seat — faces, not tokens: the
    tiles went back, so which copy was drawn says nothing (and must not look like a place)."""
    decks, jokers = rulebook.deck_for(players)
    pool = rulebook.make_deck(decks, jokers)
    random.Random(f"rummy:{seed}:starting-draw").shuffle(pool)
    drawn: list[list[str]] = [[] for _ in range(players)]
    contenders = list(range(players))
    while True:
        numbers = {}
        for seat in contenders:
            tile = pool.pop()
            drawn[seat].append(tile.face)
            while tile.is_joker:  # a joker is no number: draw again
                tile = pool.pop()
                drawn[seat].append(tile.face)
            numbers[seat] = tile.rank
        top = max(numbers.values())
        contenders = [seat for seat in contenders if numbers[seat] == top]
        if len(contenders) == 1:
            return contenders[0], drawn


def start_turn(state: GameState) -> None:
    """Clear what belongs to one turn: the draft, cards drawn, the reminder, the armed Give up
    and the hint (in place)."""
    state.draft = None
    state.draws = 0
    state.reminded = False
    state.give_up_armed = False
    state.hint = None


def deal_round(state: GameState, deck: Sequence[Card]) -> None:
    """Deal round `state.round` from `deck` (top card last), in place: the seat after the last
    round's starter starts; hands in the rulebook's batches, one seat after the other from the
    starter; then Tahiti's singles; the rest is the stock. `deck` itself is not changed."""
    rules = state.rules
    n = state.players
    deck = list(deck)
    first, draws = (starting_draw(rules, n, state.seed) if rules.starting_draw else (0, None))
    starter = (first + state.round - 1) % n
    hands: list[list[Card]] = [[] for _ in range(n)]
    for batch in rules.batches:
        for k in range(n):
            seat = (starter + k) % n
            for _ in range(batch):
                hands[seat].append(deck.pop())
    state.singles = [deck.pop() for _ in range(rules.singles)]
    state.hands = hands
    state.stock = deck
    state.table = []
    state.turn = starter
    state.phase = "play"
    state.first_lay_done = [not rules.needs_first_lay] * n
    state.final_turns = None
    state.last_drawer = None
    state.passes = 0
    state.last = None
    if draws is not None and state.round == 1:  # shown on the first table: who starts, why
        state.last = {"seat": starter, "kind": "starting_draw", "groups": [], "draws": draws}
    start_turn(state)


def start_game(
    rulebook: Rulebook, players: int, seed: int, deck: Sequence[Card] | None = None
) -> GameState:
    """Round 1 dealt from `deck` (default: `deck_order(rulebook, players, seed)`, which is what
    `new_game` does). Later rounds are dealt from `deck_order` of the seed, so a game started
    from another deck replays only from the same deck."""
    state = GameState(
        rulebook=rulebook.name,
        options=dict(rulebook.options),
        players=players,
        seed=int(seed),
        scores=[0] * players,
        round_wins=[0] * players,
    )
    deal_round(state, deck_order(rulebook, players, state.seed) if deck is None else deck)
    return state


def start_position(
    rulebook: Rulebook,
    hands: Sequence[Sequence[Card]],
    *,
    table: Sequence[Sequence[Card]] = (),
    singles: Sequence[Card] = (),
    stock: Sequence[Card] = (),
    turn: int = 0,
    seed: int = 0,
    first_lay_done: bool | None = None,
) -> GameState:
    """Round 1 in a given position: these hands, table groups, singles and stock (top card
    last), `turn` to play. `first_lay_done` None: as the rulebook deals (False only where a
    first lay is required). The caller keeps the cards conserved (engine/rummy/scenario.py does)."""
    players = len(hands)
    state = GameState(
        rulebook=rulebook.name,
        options=dict(rulebook.options),
        players=players,
        seed=seed,
        scores=[0] * players,
        round_wins=[0] * players,
    )
    state.hands = [list(h) for h in hands]
    state.table = [list(g) for g in table]
    state.singles = list(singles)
    state.stock = list(stock)
    state.turn = turn
    done = (not rulebook.needs_first_lay) if first_lay_done is None else first_lay_done
    state.first_lay_done = [done] * players
    start_turn(state)
    return state
