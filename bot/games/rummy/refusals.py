"""The engine's refusals as sentences in the reader's language.

The engine raises `IllegalAction(code, **params)` (engine/rummy/reasons.py lists the codes) with an
English sentence made from the same values, for logs and tests. Every reader — English too —
gets the catalog's sentence for the code, filled from the params. A refusal made outside the
engine (code "illegal": Auto-place, typed moves) was already made in the reader's language
where it was raised.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from typing import Any

from bot.i18n import LRI, N_, PDI, Laid, _, fill, is_rtl, ngettext, t
from engine.rummy import IllegalAction, group_label
from engine.rummy.tiles import piece_from_token

# code -> msgid; the params a sentence names are filled by `_values`
SENTENCES: dict[str, str] = {
    "seat_not_in_game": N_("That seat is not in this game"),
    "game_over": N_("The game is over"),
    "round_over": N_("The round is over: start the next round"),
    "round_in_play": N_("The round is still being played"),
    "not_your_turn": N_("It's not your turn"),
    "unknown_action": N_("Unknown action {kind}"),
    "finish_not_by_choice": N_("This game ends by its own rules, not by choice"),
    "finish_before_round_over": N_("Finish after the round is over"),
    "stock_empty": N_("The stock is empty: lay cards or pass"),
    "final_turns_no_draw": N_("The stock has run out: lay cards or pass"),
    "draw_first": N_("Draw a card first"),
    "pass_needs_empty_stock": N_("You can pass only when the stock is empty: draw a card instead"),
    "give_up_first": N_("Finish your move with Done, or give up (+3), before drawing"),
    "reset_is_give_up": N_("Once you have changed the table, Reset becomes Give up (+3)"),
    "no_give_up": N_("There is no Give up in this game: use Reset"),
    "nothing_to_give_up": N_("You haven't changed the table: there is nothing to give up"),
    "no_knocking": N_("There is no knocking in this game"),
    "knock_in_final_turns": N_("Nobody may knock once the stock has run out"),
    "knock_after_draw": N_("You can knock only after your first or second draw"),
    "no_such_group": N_("There is no group {group}"),
    "no_such_card": N_("There is no {card} there"),
    "card_not_available": N_("You have no {card}"),
    "nothing_selected": N_("Select the cards to place first"),
    "take_needs_card": N_("Name the card to take"),
    "move_needs_cards": N_("Name the cards to move"),
    "split_out_of_range": N_("Group {group} can't be split after card {at}"),
    "loose_cards": N_("Place the loose cards first: {cards}"),
    "table_card_to_hand": N_(
        "{cards} must stay on the table: a card on the table can never go back into a hand"
    ),
    "nothing_added": N_("You must add at least one card from your hand"),
    "group_too_small": N_("Group {group} has fewer than 3 cards: a set or run needs at least 3"),
    "group_two_jokers": N_("Group {group} holds two jokers: a group may hold only one"),
    "group_invalid": N_("Group {group} is not a set or a run: {cards}"),
    "group_invalid_with_ace": N_("Group {group} is not a set or a run: {cards} ({ace})"),
    "joker_keeps_card": N_(
        "The joker standing for {card} must keep standing for {card} until the real {card} "
        "is on the table"
    ),
    "joker_immobile": N_(
        "The joker standing for {card} can't leave the cards beside it until the real {card} "
        "is on the table"
    ),
    "group_locked": N_(
        "Group {group} holds a joker, so none of its cards can move: you can only add cards "
        "from your hand, or free the joker by laying the real {card} from your hand"
    ),
    "locked_group_took_table_card": N_(
        "A group that holds a joker can only take cards from your hand ({card} came from the "
        "table)"
    ),
    "first_lay_run3": N_(
        "Your first lay must include a run of three cards of one suit from your hand (a joker "
        "doesn't count as one of the three)"
    ),
    "joker_choice_needed": N_("Choose what the joker in group {group} stands for"),
    # Rummikub (engine/rummy/tile_rules.py)
    "initial_meld_table_touched": N_(
        "Your initial meld must be new combinations from your rack only: the table's "
        "combinations can't be changed or added to on that turn"
    ),
    "initial_meld_too_low": N_(
        "Your initial meld must be worth at least {need} from your rack alone (this is {value})"
    ),
    "joker_needs_rack_tile": N_(
        "The joker standing for {card} keeps standing for it: only that tile laid from your "
        "rack frees it"
    ),
    "joker_left_group": N_(
        "The joker standing for {card} can't leave its combination: only {frees} laid from "
        "your rack in its place frees it (a tile already on the table never does)"
    ),
    "freed_joker_needs_new_group": N_(
        "A joker you free must go, this same move, into a new combination with at least two "
        "tiles from your rack"
    ),
    "no_turn_timer": N_("This game has no turn timer"),
    # Build-to-Ten (engine/buildten; bot/games/buildten/narrate.py fills {card} and {needs})
    "illegal": N_("That is not a legal move"),
}


# Where an ace may stand, by the rulebook's ace policy (engine/rummy/melds.py): said when a
# group is refused because of its ace (RULES.md §2; Rummikub's 1: §5).
ACE_RULES: dict[str, str] = {
    "high": N_("the ace is high only: Q-K-A"),
    "low": N_("the ace is low only: A-2-3"),
    "either": N_("an ace is high or low, never both, and never in the middle"),
    "ends": N_("an ace is never in the middle of a run"),
}
TILE_ACE_RULE = N_("1 is always lowest: 12-13-1 is no run")


def card_name(face: str) -> str:
    """A card as the player sees it ("Q♥"; a joker by its name)."""
    if face.startswith("*") and len(face) == 1:
        return _("joker")
    try:
        return piece_from_token(face).marked()  # a tile with its colour mark: 7🟥
    except (ValueError, KeyError, IndexError):
        return face


def _cards(tokens: Iterable[str]) -> str:
    """Cards as a run the screens show (2♠ 2♥ 7♦): in a right-to-left sentence one
    left-to-right isolate (an FSI would let a phone mirror it)."""
    run = " ".join(card_name(x) for x in tokens)
    return Laid(LRI + run + PDI) if is_rtl() and run else run


def _values(params: dict[str, Any], tiles: bool = False) -> dict[str, Any]:
    values: dict[str, Any] = {}
    for key, value in params.items():
        if key == "group" and isinstance(value, int):
            values[key] = group_label(value)
        elif key == "ace" and isinstance(value, str):
            values[key] = _(TILE_ACE_RULE if tiles else ACE_RULES.get(value, ""))
        elif key in ("card", "face") and isinstance(value, str):
            values["card"] = card_name(value)
        elif key == "cards" and isinstance(value, list | tuple):
            values[key] = _cards(value)
        elif key == "frees" and isinstance(value, list | tuple) and 1 <= len(value) <= 2:
            # the tiles that free a joker: one, or a group of three's two missing colours
            names = [card_name(str(x)) for x in value]
            values[key] = names[0] if len(names) == 1 else Laid(
                t("{a} or {b}", a=names[0], b=names[1]))
        elif isinstance(value, str | int | float):
            values[key] = value
    if "face" in params and "cards" not in values:
        values["cards"] = values.get("card", "")
    return values


def _knock_limit(values: dict[str, Any]) -> str:
    limit = values.get("limit", 0)
    return fill(
        ngettext(
            "You can knock only with {limit} point or fewer in hand (you have {left})",
            "You can knock only with {limit} points or fewer in hand (you have {left})",
            limit,
        ),
        limit=limit,
        left=values.get("left", 0),
    )


# A tile game's own words for the codes whose sentence speaks of cards, a hand or the stock
# (RULES.md §5: tiles, a rack, the pool), in every language — English too.
TILE_SENTENCES: dict[str, str] = {
    "stock_empty": N_("The pool is empty: lay tiles or pass"),
    "pass_needs_empty_stock": N_("You can pass only when the pool is empty: draw a tile instead"),
    "give_up_first": N_("Finish your move with Done, or give up, before drawing"),
    "reset_is_give_up": N_("Once you have changed the table, Reset becomes Give up"),
    "nothing_selected": N_("Select the tiles to place first"),
    "take_needs_card": N_("Name the tile to take"),
    "move_needs_cards": N_("Name the tiles to move"),
    "split_out_of_range": N_("Group {group} can't be split after tile {at}"),
    "loose_cards": N_("Place the loose tiles first: {cards}"),
    "table_card_to_hand": N_(
        "{cards} must stay on the table: a tile on the table never goes back to a rack"
    ),
    "nothing_added": N_("You must add at least one tile from your rack"),
    "group_too_small": N_(
        "Group {group} has fewer than 3 tiles: a group or a run needs at least 3"
    ),
    "group_invalid": N_(
        "Group {group} is neither 3–4 tiles of one number in different colours nor a run of "
        "one colour: {cards}"
    ),
}


def _not_in_hand(values: dict[str, Any]) -> str:
    have = values.get("have", 0)
    card = values.get("card", "")
    if not have:
        return t("You have no {card} in your hand", card=card)
    return fill(
        ngettext("You have only {n} {card} in your hand", "You have only {n} {card} in your hand",
                 have),
        n=have,
        card=card,
    )


SPECIAL: dict[str, Callable[[dict[str, Any]], str]] = {
    "knock_limit": _knock_limit,
    "card_not_in_hand": _not_in_hand,
}


def refusal(error: IllegalAction, tiles: bool = False) -> str:
    """What a player reads for a refused action, in the current language (`tiles`: in a tile
    game's words). Every language — English too — gets the catalog's sentence for the code,
    so cards are named as the screens show them (2♠, a tile's 7🟥), never as typed (2S)."""
    values = _values(error.params, tiles)
    if tiles and error.code in TILE_SENTENCES:
        try:
            return fill(_(TILE_SENTENCES[error.code]), **values)
        except (KeyError, IndexError):
            pass  # a param the engine did not send: the card game's sentence below
    if error.code == "illegal":
        return str(error)
    if error.code in SPECIAL:
        return SPECIAL[error.code](values)
    # a code this table lacks (the test on engine/rummy/reasons.py keeps it whole), a param the
    # engine did not send: the catalog's general sentence, never the engine's English
    msgid = SENTENCES.get(error.code, SENTENCES["illegal"])
    try:
        return fill(_(msgid), **values)
    except (KeyError, IndexError):
        return _(SENTENCES["illegal"])
