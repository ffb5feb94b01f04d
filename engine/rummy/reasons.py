"""Why an action is refused: every `IllegalAction.code` the engine raises, with its meaning.

`str(error)` is the sentence a player reads; `error.code` (one of these) is for programs — the
lessons sort mistakes by it — and `error.params` holds the values the sentence was built from.
A test (tests/test_engine_reasons.py) checks that every `IllegalAction(...)` and every failed
`MoveCheck` in engine/rummy/ names a code listed here.
"""

from __future__ import annotations

from engine.errors import SHARED_REASONS

REASONS: dict[str, str] = {
    **SHARED_REASONS,  # whose turn, game over, unknown action, illegal
    # -- whose turn, which phase
    "round_over": "the round is over: only Next round (or Finish) is open",
    "round_in_play": "Next round was sent while the round is still being played",
    "finish_not_by_choice": "Finish was sent in a game that ends by its own rules",
    "finish_before_round_over": "Finish is open only once a round is over",
    # -- drawing and passing
    "stock_empty": "Draw was sent with the stock empty",
    "final_turns_no_draw": "Draw was sent in the final turns after the stock ran out",
    "draw_first": "the turn opens with a draw (Carousel): lay or pass only after it",
    "pass_needs_empty_stock": "Pass was sent while the stock still has cards",
    "give_up_first": "a changed copy must be played (Done) or given up before drawing",
    # -- reset and give up
    "reset_is_give_up": "with Give back, draw 3, a changed copy can only be given up",
    "no_give_up": "Give up (+3) was sent in a game without the Give back option",
    "nothing_to_give_up": "Give up (+3) was sent while the copy equals the table",
    # -- knocking
    "no_knocking": "Knock was sent in a rulebook without knocking",
    "knock_in_final_turns": "Knock was sent in the final turns after the stock ran out",
    "knock_after_draw": "a knock is open only after the first or second draw",
    "knock_limit": "the hand left would be worth more than the knock limit",
    # -- the private copy (draft edits)
    "no_such_group": "the named group is not on the copy",
    "no_such_card": "the named card is not where the action says",
    "card_not_available": "the named card is in none of the places the seat may take it from",
    "nothing_selected": "Place was sent without cards",
    "take_needs_card": "Take was sent without naming a card",
    "move_needs_cards": "Move was sent without cards",
    "split_out_of_range": "a split point outside the group",
    "loose_cards": "Done was sent while cards taken out of groups are not placed again",
    # -- the lay (check_move and Done)
    "table_card_to_hand": "the new table lacks a card of the table: it can't go into a hand",
    "card_not_in_hand": "the new table holds a card the hand has not got (or not that often)",
    "nothing_added": "the lay adds no card from the hand",
    "group_too_small": "a group of fewer than 3 cards",
    "group_two_jokers": "a group with two jokers where a group may hold only one (Tahiti)",
    "group_invalid": "a group that is neither a set nor a run",
    "group_invalid_with_ace": "a group holding an ace that is neither a set nor a run "
    "(the sentence adds the rulebook's ace rule)",
    "joker_keeps_card": "a table joker's card changed before its real card is on the table",
    "joker_immobile": "a table joker left the cards beside it (Vatican)",
    "group_locked": "a group holding a joker was broken up (Tahiti)",
    "locked_group_took_table_card": "a group holding a joker gained a table card (Tahiti)",
    "first_lay_run3": "the first lay has no run of three cards of one suit from the hand",
    "initial_meld_table_touched": "Rummikub: the initial meld changed or added to a table "
    "combination (without the may_add option)",
    "initial_meld_too_low": "Rummikub: the new combinations from the rack are worth less than "
    "the initial meld needs (params value, need)",
    "joker_needs_rack_tile": "Rummikub: a table joker left its tile although no tile from the "
    "rack freed it (param face)",
    "joker_left_group": "Rummikub: a table joker left its combination (no tile that was with it "
    "is with it now) although no tile from the rack freed it (params face, frees)",
    "freed_joker_needs_new_group": "Rummikub: a freed joker is not in a new combination with at "
    "least two tiles from the rack",
    "no_turn_timer": "TimeUp was sent in a game without a turn timer",
    "joker_choice_needed": "a joker could stand for more than one card: the player chooses",
}
