"""Build-to-Ten (RULES.md §6): a build-pile card game for 2–4, its own pure rules engine.

No I/O, no clock; randomness only from the seed given to `new_game` (and, for the rebuilt
general stock, from that seed and how often it was rebuilt). A state is plain data with a JSON
round trip; `apply(state, action)` returns the new state and its events; `player_view` is what
one seat may see (decision 10) and all a computer player decides from.
"""

from __future__ import annotations

from .actions import Action, Discard, Joker, Pass, Play, action_from_dict
from .cards import DECK, card_label, is_joker, is_wild, joker_kind, number
from .check import conservation_errors, state_errors
from .deal import new_game, scripted
from .rules import Event, apply, legal_actions, replay, standings
from .state import BuildState
from .view import BuildView, player_view

__all__ = [
    "DECK", "Action", "BuildState", "BuildView", "Discard", "Event", "Joker", "Pass", "Play",
    "action_from_dict", "apply", "card_label", "conservation_errors", "is_joker", "is_wild",
    "joker_kind", "legal_actions", "new_game", "number", "player_view", "replay", "scripted",
    "standings", "state_errors",
]
