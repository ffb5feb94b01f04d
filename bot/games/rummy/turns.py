"""A rummy turn's buttons: a press on the private screen of the seat on move, made into the
engine action it stands for (or a change of the screen alone: selection, mode)."""

from __future__ import annotations

from bot.core.buttons import Press
from bot.core.hosting import Refusal
from bot.core.record import SeatUI
from bot.i18n import N_, _
from engine.cards import Card
from engine.rummy import (
    Commit,
    GameState,
    IllegalAction,
    Place,
    SetDraft,
    Take,
    find_move,
    player_view,
)
from engine.rummy.actions import WORD_ACTIONS, Action
from engine.rummy.game import HINT_EFFORT
from engine.rummy.tiles import piece_from_token

from . import screens
from .records import SeatAsk
from .typed import cannot_place

# The buttons that are one engine action of the seat, with no argument: the typed words'.
SIMPLE = WORD_ACTIONS
NEEDS_SELECTION = {
    "addm": N_("Select the cards to add first."),
    "new": N_("Select cards first (tap them)."),
    "add": N_("Select cards first (tap them)."),
    "auto": N_("Select the cards to place, then tap Auto-place."),
}


def turn_action(state: GameState, seat: int, ui: SeatUI, press: Press) -> Action | None:
    """The engine action of a turn button, or None when the press only changes the screen
    (`ui` is changed in place: selection, mode, notice). IllegalAction for an Auto-place that
    finds nothing (with which other cards would let the selection go)."""
    ui.notice = ""
    view = player_view(state, seat)
    tokens = {c.token: c for c in screens.placeable(view, ui.sort)}
    selected = [tokens[t] for t in ui.selected if t in tokens]
    verb = press.verb
    if verb in ("s1", "s0"):
        token = press.str()
        if token not in tokens:
            raise Refusal(_("That card is no longer in your hand."), alert=False)
        ui.selected = [t for t in ui.selected if t in tokens and t != token]
        if verb == "s1":
            ui.selected.append(token)
        return None
    if verb == "cancel":
        ui.mode = "main"
        return None
    if verb in NEEDS_SELECTION and not selected:
        ui.notice = _(NEEDS_SELECTION[verb])
        return None
    if verb in ("addm", "takem"):
        ui.mode = "add" if verb == "addm" else "take"
        return None
    if verb == "take":  # Take from ▸ this group: its cards to choose from
        ui.mode = "card"
        SeatAsk(take=press.int()).keep(ui)
        return None
    ui.mode = "main"
    if verb in ("new", "add"):
        return Place(seat, tuple(selected), None if verb == "new" else press.int())
    if verb == "tc":
        return Take(seat, press.int(0), piece_from_token(press.str(1)))
    if verb == "auto":
        mine = {c.token for c in view.draft_hand}
        selected = [c for c in selected if c.token in mine]  # it places hand cards
        if not selected:
            ui.notice = _(NEEDS_SELECTION["auto"])
            return None
        return auto_place(state, seat, selected, ui.sort)
    if verb == "show":  # the hint's whole lay into the working copy: Done then plays it
        lay = (view.hint or {}).get("lay")
        if not lay:
            raise Refusal(_("Unknown button."))
        return SetDraft(seat, tuple(tuple(piece_from_token(t) for t in g) for g in lay))
    if verb == "jk":
        return Commit(seat, None, {press.int(0): tuple(press.str(1).split(","))})
    if verb in SIMPLE:
        return SIMPLE[verb](seat)
    raise Refusal(_("Unknown button."))


def auto_place(state: GameState, seat: int, selected: list[Card], sort: str) -> Action:
    """Auto-place: the selected hand cards into the working copy, as the solver finds a way;
    when there is none, IllegalAction naming the other hand cards that would let them go."""
    position = dict(
        rulebook=state.rules,
        table=state.table + [[c] for c in state.singles],
        hand=state.hands[seat],
        first_lay_done=state.first_lay_done[seat],
        singles=state.singles,
    )
    move = find_move(**position, select=selected)
    if move is not None:
        return SetDraft(seat, tuple(tuple(g) for g in move.new_table))
    partners: list[Card] = []
    if not any(c.is_joker for c in selected):  # which hand cards would let them go
        bigger = find_move(**position, objective="hint", require=selected, effort=HINT_EFFORT)
        left = list(selected)
        for card in bigger.placed if bigger else ():
            same = next((c for c in left if c.face == card.face), None)
            if same is None:
                partners.append(card)
            else:
                left.remove(same)
    raise IllegalAction(cannot_place(selected, screens.sorted_hand(partners, sort)))
