"""Why a Build-to-Ten action is refused: every `IllegalAction.code` engine/buildten raises, with
its meaning (the shared turn codes are engine/errors.py's). A test (tests/test_engine_reasons.py)
checks that every `IllegalAction(...)` in engine/buildten/ names a code listed here.
"""

from __future__ import annotations

from engine.errors import SHARED_REASONS

REASONS: dict[str, str] = {
    **SHARED_REASONS,  # whose turn, game over, unknown action, illegal
    "card_not_available": "the named card is not the seat's to play: its face-up stock card, "
    "its hand and its discard tops are",
    "card_not_in_hand": "a joker or a discard named a card the hand has not got",
    "bt_not_on_top": "a discard pile's card under its top was named: only tops are played",
    "bt_joker_on_pile": "a joker was sent onto a build pile: jokers are played on a player",
    "bt_no_free_pile": "a new build pile was asked for while 4 stand",
    "bt_no_such_pile": "a build or discard pile that isn't there",
    "bt_wrong_number": "the card is not the number the build pile needs (nor a wild card)",
    "bt_not_a_joker": "a joker play named a card that is no joker in the hand",
    "bt_no_face_up": "the joker's target shows no stock card (their stock is empty)",
    "bt_swap_needs_other": "a swap joker aimed at oneself (it needs another player's card)",
    "bt_discard_piles_full": "a fifth discard pile was asked for",
    "bt_must_discard": "the turn was ended without a discard while the hand holds cards",
}
