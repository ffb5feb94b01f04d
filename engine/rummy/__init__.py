"""Rummy Table's pure rules engine: the public facade (stable; tests and tools use it).

No I/O, no clock; randomness only from the seed given to `new_game`.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Literal

from engine.cards import Card, format_cards

from .actions import (
    Action,
    Commit,
    Draw,
    Finish,
    GiveUp,
    Hint,
    IllegalAction,
    JokerChoiceNeeded,
    Knock,
    Move,
    NextRound,
    Pass,
    Place,
    Reset,
    SetDraft,
    Split,
    Take,
    TimeUp,
    action_from_dict,
)
from .deal import deck_order, start_game, start_position
from .game import Event, PlayerView, apply, legal_actions, new_game, player_view, replay
from .melds import is_meld, meld_fault
from .melds import meld_kind as _meld_kind
from .moves import MoveCheck, check_move, group_index, group_label
from .reasons import REASONS
from .rulebooks import ALL_RULEBOOKS, RULEBOOKS, TILE_RULEBOOKS, Rulebook, get_rulebook
from .scoring import RoundScore, score_round
from .state import GameState, conservation_errors
from .tiles import Tile, parse_cards, parse_tiles


def meld_kind(rulebook: Rulebook, cards: Sequence[Card]) -> Literal["set", "run"] | None:
    """ "set", "run" or None for a group under this rulebook's ace and joker rules."""
    return _meld_kind(cards, rulebook.ace, max_jokers=rulebook.max_jokers_per_group)


def find_move(rulebook: Rulebook, table, hand, **options):
    """A legal lay, or None when there is none: engine/rummy/solver's find_move (its options:
    objective, first_lay_done, singles, select, require, effort), imported when first asked."""
    from .solver import find_move as _find_move

    return _find_move(rulebook, table, hand, **options)


__all__ = [
    "ALL_RULEBOOKS",
    "REASONS",
    "RULEBOOKS",
    "TILE_RULEBOOKS",
    "Action",
    "Card",
    "Commit",
    "Draw",
    "Event",
    "Finish",
    "GameState",
    "GiveUp",
    "Hint",
    "IllegalAction",
    "JokerChoiceNeeded",
    "Knock",
    "Move",
    "MoveCheck",
    "NextRound",
    "Pass",
    "Place",
    "PlayerView",
    "Reset",
    "RoundScore",
    "Rulebook",
    "SetDraft",
    "Split",
    "Take",
    "Tile",
    "TimeUp",
    "action_from_dict",
    "apply",
    "check_move",
    "conservation_errors",
    "deck_order",
    "find_move",
    "format_cards",
    "get_rulebook",
    "group_index",
    "group_label",
    "is_meld",
    "legal_actions",
    "meld_fault",
    "meld_kind",
    "new_game",
    "parse_cards",
    "parse_tiles",
    "player_view",
    "replay",
    "score_round",
    "start_game",
    "start_position",
]
