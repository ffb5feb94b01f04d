"""Build-to-Ten's log lines, one-line notices and refusals, from the engine's events and codes.
Every msgid is English; bot.i18n gives it in the reader's language (the log: the group's, a
notice: its seat's)."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from bot.i18n import N_, _, and_list, fill, t, tn
from engine.buildten import Event, card_label
from engine.buildten.cards import joker_kind
from engine.errors import IllegalAction


def card_name(card: str) -> str:
    """A card as the player reads it: `7♥`, `Q♣`, a joker by its name in the reader's words."""
    kind = joker_kind(card)
    if kind == "SHIFT":
        return _("colour joker (shift)")  # decision 12: two different cards to the player
    if kind == "SWAP":
        return _("black joker (swap)")
    return card_label(card)


def joker_short(card: str) -> str:
    """A joker's button word: 🌈 shift (the colour joker), ⚫ swap (the black one)."""
    return _("🌈 shift") if joker_kind(card) == "SHIFT" else _("⚫ swap")


def pile_name(pile: int) -> str:
    return t("pile {n}", n=pile + 1)


def and_names(names: Sequence[str]) -> str:
    """"A", "A and B", "A, B and C" in the current language (in seat order)."""
    return and_list(names)


def log_lines(events: Sequence[Event], names: Mapping[int, str]) -> list[str]:
    """What the group reads happened, one line per event worth telling."""
    lines = []
    for e in events:
        who = names.get(e.seat, "") if e.seat is not None else ""
        d = e.data
        if e.kind == "played":
            card, pile, number = card_name(d["card"]), pile_name(d["pile"]), d["number"]
            if d["source"] == "stock":
                lines.append(t("{who} plays {card} from the stock onto {pile} (now {number})",
                               who=who, card=card, pile=pile, number=number))
            elif d["source"] == "hand":
                lines.append(t("{who} plays {card} from the hand onto {pile} (now {number})",
                               who=who, card=card, pile=pile, number=number))
            else:
                lines.append(t("{who} plays {card} from a discard pile onto {pile} (now "
                               "{number})", who=who, card=card, pile=pile, number=number))
        elif e.kind == "completed":
            lines.append(t("{pile} reached 10 and is set aside", pile=pile_name(d["pile"])))
        elif e.kind == "joker":
            target = names.get(d["target"], "?")
            if d["kind"] == "SHIFT":
                if d["target"] == e.seat:
                    lines.append(t("{who} shifts their own {old} under the stock: {new} turns "
                                   "up", who=who, old=card_name(d["old"]),
                                   new=card_name(d["new"])))
                else:
                    lines.append(t("{who} shifts {target}'s {old} under the stock: {new} turns "
                                   "up", who=who, target=target, old=card_name(d["old"]),
                                   new=card_name(d["new"])))
            else:
                lines.append(t("{who} swaps face-up cards with {target}: {target} gets {new}",
                               who=who, target=target, new=card_name(d["new"])))
        elif e.kind == "discarded":
            lines.append(t("{who} discards {card}", who=who, card=card_name(d["card"])))
        elif e.kind == "passed":
            lines.append(t("{who} ends the turn with an empty hand", who=who))
        elif e.kind == "rebuilt":
            lines.append(tn("the general stock is rebuilt ({n} card)",
                            "the general stock is rebuilt ({n} cards)", d["cards"]))
        elif e.kind == "won":
            lines.append(t("{who} empties the stock and wins!", who=who))
        elif e.kind == "stuck":
            won = [names.get(w, "?") for w in d["winners"]]
            lines.append(tn("nobody can build any more: {won} with the fewest stock cards wins",
                            "nobody can build any more: {won} with the fewest stock cards win",
                            len(won), won=and_names(won)))
    return lines


def notice(event: Event) -> str | None:
    """A line for the mover's own screen."""
    if event.kind == "drew":
        return tn("You drew {n} card.", "You drew {n} cards.", event.data["cards"])
    if event.kind == "revealed":
        return t("Your stock turns up {card}.", card=card_name(event.data["card"]))
    return None


# -- the engine's refusals ------------------------------------------------------------------

# code -> msgid (engine/buildten/reasons.py); the shared turn codes read as the rummy games' do
# (the same msgids, so the same translations)
SENTENCES: dict[str, str] = {
    "seat_not_in_game": N_("That seat is not in this game"),
    "game_over": N_("The game is over"),
    "not_your_turn": N_("It's not your turn"),
    "bt_not_on_top": N_(
        "The {card} is under other cards: only a discard pile's top card can be played."
    ),
    "bt_joker_on_pile": N_("A joker is played on a player, not onto a build pile."),
    "bt_no_free_pile": N_("There are 4 build piles already: wait for one to reach 10."),
    "bt_no_such_pile": N_("There is no pile {n}."),
    "bt_wrong_number": N_("The {card} doesn't fit: that pile needs {needs}."),
    "bt_not_a_joker": N_("Only a joker from your hand is played on a player."),
    "bt_no_face_up": N_("That player shows no stock card."),
    "bt_swap_needs_other": N_(
        "A black joker (swap) swaps your face-up card with another player's."),
    "bt_discard_piles_full": N_("You have 4 discard piles: put it onto one of them."),
    "bt_must_discard": N_("End your turn with a discard from your hand."),
    "illegal": N_("That is not a legal move"),
}


def _needs(needed: int) -> str:
    if needed == 1:
        return _("an A or a wild card")
    return t("a {n} or a wild card", n=needed)


def refusal(error: IllegalAction) -> str:
    """What a player reads for a refused Build-to-Ten action, in the current language — English
    too — from the catalog's sentence for the code (SENTENCES above): the engine's own English
    is for logs and tests. A refusal raised outside the engine (code "illegal") was made in the
    reader's language where it was raised."""
    if error.code == "illegal":
        return str(error)
    p: dict[str, Any] = error.params
    card = card_name(p["card"]) if isinstance(p.get("card"), str) else ""
    code = error.code
    if code == "card_not_available":
        return t("The {card} is not yours to play: your face-up stock card, your hand and "
                 "your discard tops are.", card=card)
    if code == "card_not_in_hand":
        return t("The {card} is not in your hand.", card=card)
    if code == "unknown_action":
        return _("That is not a move of Build-to-Ten.")
    if code in SENTENCES:
        values = {"card": card, "n": int(p.get("pile", 0)) + 1,
                  "needs": _needs(int(p.get("needed", 1)))}
        return fill(_(SENTENCES[code]), **values)
    return _(SENTENCES["illegal"])  # a code this table lacks (tests/test_i18n.py keeps it whole)
