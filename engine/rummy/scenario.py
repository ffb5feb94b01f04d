"""Scripted deals: a game in a chosen position, with every other card in the stock.

Used by tests and by lessons, which need reproducible positions. Cards are conserved: the named
cards are taken out of a full deck and the rest, shuffled by `Random(f"scenario:{seed}")`, is
the stock under the `stock_top` cards; engine/rummy/deal.py's `start_position` sets the game up.
"""

from __future__ import annotations

import random
from collections.abc import Sequence

from engine.cards import Card

from .deal import start_position
from .rulebooks import Rulebook, get_rulebook
from .state import GameState
from .tiles import parse_cards


def deal_scenario(
    rulebook: Rulebook | str,
    hands: Sequence[str],
    *,
    table: Sequence[str] = (),
    singles: str = "",
    stock_top: str = "",
    turn: int = 0,
    seed: int = 0,
    first_lay_done: bool | None = None,
) -> GameState:
    """`deal_scenario("manipulation", ["5H 6H", "KS KD"], table=["9S 9H 9D"], stock_top="7H")`:
    `stock_top` cards are drawn first, in the order given."""
    rules = rulebook if isinstance(rulebook, Rulebook) else get_rulebook(rulebook)
    players = len(hands)
    decks, jokers = rules.deck_for(players)
    deck = rules.make_deck(decks, jokers)

    def take(text: str) -> list[Card]:
        out = []
        for wanted in parse_cards(text, rules):
            for i, card in enumerate(deck):
                if card.face == wanted.face:
                    card = deck.pop(i)
                    if wanted.is_joker and wanted.designated:
                        card = card.designate(wanted.as_rank, wanted.as_suit)
                    out.append(card)
                    break
            else:
                raise ValueError(f"No {wanted} left in the deck for this scenario")
        return out

    dealt = [take(h) for h in hands]
    groups = [take(g) for g in table]
    laid_singles = take(singles)
    top = take(stock_top)
    random.Random(f"scenario:{seed}").shuffle(deck)
    return start_position(
        rules,
        dealt,
        table=groups,
        singles=laid_singles,
        stock=deck + list(reversed(top)),  # the end of the list is the top
        turn=turn,
        seed=seed,
        first_lay_done=first_lay_done,
    )
