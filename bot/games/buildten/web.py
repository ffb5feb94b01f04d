"""Build-to-Ten's part of the web table (bot/web): a seat's view as JSON (its hand; every
face-up card, discard pile and build pile; counts of the rest) and a page's move made into the
engine action the two taps of the chat buttons make (Play, Discard, Joker, Pass)."""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING, Any, Protocol

from bot.core.buttons import Press
from bot.core.hosting import Refusal, Table
from bot.core.record import Record
from bot.core.views import Outcome
from bot.i18n import N_, _, current, t, tn
from bot.i18n.cards import card_name as spoken
from bot.web import protocol
from bot.web import words as page_words
from engine.buildten import Discard, Joker, Play, player_view
from engine.buildten.actions import NEW_PILE
from engine.buildten.cards import SHIFT, SUIT_SIGNS, face, is_joker

from .narrate import and_names
from .records import state_of as _state
from .screens import seat_label

if TYPE_CHECKING:
    from bot.web.protocol import Edit


LOG_LINES = 40
# the page's vocabulary (bot/web/protocol.py): 💡 Hint and Pass (the buttons' verbs); a card
# onto a build pile (to: null, a new one), a hand card onto a discard pile (null: a new one),
# a joker aimed at seat `to`
protocol.register({"hint", "pass"},
                  {"play": ("cards", "to"), "discard": ("cards", "to"), "joker": ("cards", "to")},
                  new_to=("play", "discard"))
# the page's words of this game (bot/web/words.py `register`: the page reads "buildten:<key>")
page_words.register("buildten", {"hint": "💡 Hint", "pass": "Pass", "builds": "Build piles",
                                 "stock": N_("Stock: {n}")})


class _Host(Protocol):
    """What the page's edits use of the game's host and its turn flow (bot/core/turns.py;
    passed in: the host imports this module)."""

    def press(self, table: Table, seat: int | None, user: str, press: Press) -> Outcome: ...

    def load(self, record: Record) -> Any: ...

    def check_version(self, state: Any, version: int, fresh: Callable[[], Outcome]) -> None: ...

    def check_turn(self, state: Any, seat: int) -> None: ...

    def mine(self, table: Table, state: Any, seat: int, user: str) -> Outcome: ...

    def move(self, table: Table, state: Any, seat: int, action: Any, user: str) -> Outcome: ...


def card_json(card: str) -> dict[str, str]:
    """`id` the engine's token (`7H#0`), `face` the notation (`7H`; a joker `*`), `text` as
    the buttons show it (`7♥`; the jokers 🃏🌈 and 🃏⚫)."""
    shown = face(card)
    if is_joker(card):
        return {"id": card, "face": "*", "text": "🃏🌈" if shown == SHIFT else "🃏⚫",
                "name": _("colour joker (shift)") if shown == SHIFT
                else _("black joker (swap)")}
    return {"id": card, "face": shown, "text": shown[:-1] + SUIT_SIGNS[shown[-1]],
            "name": spoken(shown)}


def _status(record: Record, view: Any, mine: bool) -> str:
    if view.over:
        return _("Game over")
    if mine:
        return _("Your turn — build up to 10, then discard from your hand")
    return t("Waiting for {name}…", name=seat_label(record, view.turn))


def _result(record: Record, view: Any) -> dict[str, Any] | None:
    """The game's end for the page's panel: who won, each seat's stock cards left."""
    if not view.over:
        return None
    won = [seat_label(record, w) for w in view.winners]
    return {"final": True, "winners": list(view.winners),
            "lines": [tn("Game over · {won} wins", "Game over · {won} win", len(won),
                         won=and_names(won))],
            "columns": [_("Player"), _("Stock cards left")],
            "rows": [[seat_label(record, i), n] for i, n in enumerate(view.stock_counts)],
            "target": ""}


def web_view(record: Record, seat: int | None) -> dict[str, Any]:
    """What the page of `seat` (None: a spectator) shows: the engine's player view, which
    holds no other hand and no stock order; a spectator's has no hand at all."""
    state = _state(record)
    view = player_view(state, seat if seat is not None else 0)
    mine = seat is not None and not state.over and state.turn == seat \
        and not record.seats[seat].is_computer
    return {
        "game": "buildten", "version": state.version, "seat": seat, "turn": state.turn,
        "phase": "game_over" if state.over else "play", "mine": mine,
        "stock": view.general_count, "log": record.log_for(current())[-LOG_LINES:],
        "seats": [{"name": s.name, "cards": view.hand_counts[i], "stock": view.stock_counts[i],
                   "face_up": card_json(view.face_up[i]) if view.face_up[i] else None,
                   "discards": [[card_json(c) for c in pile] for pile in view.discards[i]],
                   "computer": s.is_computer} for i, s in enumerate(record.seats)],
        "builds": [[card_json(c) for c in pile] for pile in view.builds],
        "hand": [card_json(c) for c in view.hand] if seat is not None else None,
        "actions": (["hint", "pass"] if not view.hand else ["hint"]) if mine else [],
        "notice": record.seat_ui(seat).notice if seat is not None else "",
        "winners": list(view.winners),
        "status": _status(record, view, mine), "result": _result(record, view),
        # the places, named: what each build pile needs next, each stock and discard pile
        "labels": {
            "builds": [t("pile {n} needs {needed}", n=i + 1, needed=len(b) + 1)
                       for i, b in enumerate(view.builds)],
            "new": _("New build pile"), "needs": _("needs"),
            "stocks": [t("stock {n}", n=n) for n in view.stock_counts],
            "discards": _("discards"),
            "general": t("Stock: {n}", n=view.general_count),
        },
    }


def web_edit(game: _Host, table: Table, seat: int, user: str, edit: Edit) -> Outcome:
    """A page's move: the engine action the buttons' two taps make, played by the turn flow
    after the same checks (the language: the seat's, set by the platform's guard)."""
    record = table.record
    if edit.op == "act":
        verb = {"hint": "hint", "pass": "bpass"}.get(edit.name)
        if verb is None:
            raise Refusal(_("Unknown button."))
        return game.press(table, seat, user, Press(table.game_id, edit.version, verb))
    state = game.load(record)
    game.check_version(state, edit.version, lambda: game.mine(table, state, seat, user))
    game.check_turn(state, seat)
    if len(edit.cards) != 1:
        raise Refusal(_("Unknown button."))
    card = edit.cards[0]
    target = NEW_PILE if edit.target is None else edit.target
    if edit.op == "play":
        act: Any = Play(seat, card, target)
    elif edit.op == "discard":
        act = Discard(seat, card, target)
    elif edit.op == "joker" and edit.target is not None:
        act = Joker(seat, card, edit.target)
    else:
        raise Refusal(_("Unknown button."))
    record.seat_ui(seat).notice = ""
    return game.move(table, state, seat, act, user)
