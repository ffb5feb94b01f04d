"""The rummy family's part of the web table (bot/web): a seat's view as JSON, and a page's
edit made into the very engine action the chat buttons make (Place, Take, Move; the one-word
actions go through the buttons' own `press`). The page holds no rule: the engine checks every
edit, and the view says which groups don't hold and whether Done would be taken."""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING, Any, Protocol

from bot.core.buttons import Press
from bot.core.hosting import Refusal, Table
from bot.core.record import Record
from bot.core.views import Outcome
from bot.i18n import N_, _, and_list, current, fill, t, tn
from bot.i18n.cards import card_name as playing_card_name
from bot.web import protocol
from bot.web import words as page_words
from engine.cards import Card
from engine.rummy import (
    Commit,
    GameState,
    IllegalAction,
    JokerChoiceNeeded,
    Move,
    Place,
    Take,
    apply,
    player_view,
)
from engine.rummy.actions import Action
from engine.rummy.moves import group_label

from . import screens
from .records import rules_of
from .refusals import SENTENCES, TILE_SENTENCES, refusal

if TYPE_CHECKING:
    from bot.web.protocol import Edit


LOG_LINES = 40  # the table's last log lines the page keeps (its log unfolds to them)


class _Host(Protocol):
    """What the page's edits use of the game's host and its turn flow (bot/core/turns.py;
    passed in: the host imports this module)."""

    def press(self, table: Table, seat: int | None, user: str, press: Press) -> Outcome: ...

    def load(self, record: Record) -> Any: ...

    def check_version(self, state: Any, version: int, fresh: Callable[[], Outcome]) -> None: ...

    def check_turn(self, state: Any, seat: int) -> None: ...

    def mine(self, table: Table, state: Any, seat: int, user: str) -> Outcome: ...

    def move(self, table: Table, state: Any, seat: int, action: Any, user: str) -> Outcome: ...
# legal action kind (engine) -> the page's word (its data-action)
WORDS = {"commit": "done", "reset": "reset", "draw": "draw", "pass": "pass", "knock": "knock",
         "give_up": "giveup", "hint": "hint"}
ROUND_END = {"next": "next_round", "finish": "finish"}  # the page's word -> the engine's kind

# the page's vocabulary (bot/web/protocol.py): its one-word actions (the buttons' verbs) and the
# draft edits: place (hand or loose -> a group, null: a new one), move (group -> group), take
# (a group's card -> loose)
protocol.register(
    {*WORDS.values(), "sort", "show", *ROUND_END},
    {"place": ("cards", "to"), "move": ("cards", "from", "to"), "take": ("cards", "from")},
    new_to=("place", "move"),
)


# the page's words of this game (bot/web/words.py `register`: the page reads "rummy:<key>"); the
# action words are the chat buttons' own. Its board module says which: a tile game draws a
# tile, into its rack (static/board-rummy.js `word`).
page_words.register("rummy", {
    "done": "✔ Done", "reset": "↺ Reset", "hint": "💡 Hint", "draw": "Draw",
    "draw_tile": "Draw a tile", "pass": "Pass", "knock": "✊ Knock", "show": "💡 Show me",
    "giveup": "Give up (+3)", "giveup1": "Give up (+1)", "next": "▶ Next round",
    "finish": "■ Finish", "new": "New group", "rack": N_("Your rack"),
    "stock": N_("Stock: {n}"), "loose": N_("Loose (place before Done)"),
})
# a Rummikub tile's name by its colour letter (engine/rummy/tiles.py)
COLOURS = {"R": N_("red {n}"), "K": N_("black {n}"), "B": N_("blue {n}"), "O": N_("orange {n}")}


def card_name(face: str) -> str:
    """A playing card's or a tile's name in the current language, from its face (`7H`: "7 of
    hearts", `10R`: "red 10"); a face it can't read: the face itself."""
    rank, mark = face[:-1], face[-1:]
    if mark in COLOURS and rank.isdigit():
        return fill(_(COLOURS[mark]), n=rank)
    return playing_card_name(face)


def joker_name(stands_for: str = "") -> str:
    """A joker, and what it stands for on the table."""
    if not stands_for:
        return _("joker")
    return t("joker as {card}", card=card_name(stands_for))


def card_json(card: Card) -> dict[str, str]:
    """A card as the page draws it: `id` the engine's token (what an edit names), `face` the
    notation (`7H`, `10R`, `*`: the page's data-card), `text` as a person reads it."""
    if card.is_tile:  # the number; the page colours it and marks its colour by a shape
        text = "🃏" if card.is_joker else card.face[:-1]
    else:
        text = card.pretty()
    if card.is_joker:
        name = joker_name(card.play_face if card.designated else "")
    else:
        name = card_name(card.face)
    return {"id": card.token, "face": "*" if card.is_joker else card.face, "text": text,
            "name": name}


# the status line's sentences: what the page's own seat may do now (a card game's, a tile game's)
YOUR_TURN = {"draw": (N_("Your turn — lay cards or draw"), N_("Your turn — lay tiles or draw")),
             "pass": (N_("Your turn — lay cards or pass"), N_("Your turn — lay tiles or pass"))}
HOW = {"out": N_("went out"), "knock": N_("knock"), "blocked": N_("blocked"),
       "stock": N_("stock ran out")}


def status(record: Record, state: GameState, seat: int | None, actions: list[str]) -> str:
    """Whose turn, in the page's language: the page's own seat is told what it may do."""
    if state.phase == "round_over":
        return _("Round over")
    if state.phase == "game_over":
        return _("Game over")
    if seat == state.turn and actions:
        tiles = rules_of(record).tiles
        for verb, sentences in YOUR_TURN.items():
            if verb in actions:
                return _(sentences[tiles])
        return _("Your turn")
    return t("Waiting for {name}…", name=screens.seat_label(record, state.turn))


def result(record: Record, state: GameState) -> dict[str, Any] | None:
    """The round's or the game's result for the page's panel: who won and how, each seat's
    round points and running total, the target; the chats' own sentences (score_screen)."""
    if state.phase not in ("round_over", "game_over") or not state.rounds:
        return None
    rules = rules_of(record)
    names = [screens.seat_label(record, i) for i in range(state.players)]
    last = state.rounds[-1]
    final = state.phase == "game_over"
    done = state.result or {}
    totals = done.get("totals", state.scores) if final else state.scores
    lines = [t("Round {n} over ({how}) — won by {winners}", n=state.round,
               how=_(HOW[last["how"]]) if last["how"] in HOW else last["how"],
               winners=and_list([names[w] for w in last["winners"]]))]
    if final and done.get("draw"):
        lines.append(t("🏁 Game over — a draw between {names}",
                       names=and_list([names[w] for w in done.get("winners", [])])))
    elif final:
        won = [names[w] for w in done.get("winners", [])]
        lines.append(tn("🏁 Game over — {names} won!", "🏁 Game over — {names} won!",
                        len(won), names=and_list(won)))
    return {
        "final": final, "lines": lines,
        "winners": list(done.get("winners", last["winners"]) if final else last["winners"]),
        "columns": [_("Player"), _("This round"), _("Total")],
        "rows": [[names[i], last["points"][i], totals[i]] for i in range(state.players)],
        "target": t("Playing to {n} points", n=rules.play_to) if rules.play_to else "",
    }


def why_not(record: Record, state: GameState, seat: int) -> str:
    """The engine's verdict on the seat's working copy, in the chats' words: why Done would
    be refused now ("" when it would be taken; a joker's reading still to choose counts as
    taken: Done asks it)."""
    try:
        apply(state, Commit(seat))
    except JokerChoiceNeeded:
        return ""
    except IllegalAction as error:
        return refusal(error, rules_of(record).tiles)
    return ""


# The last saved state parsed: a save's pages (every seat and watcher) share one parse (the
# engine never changes a state it is given; `apply` copies). Keyed by the dict's identity.
_parsed: list[Any] = [None, None]


def _state(record: Record) -> GameState:
    if _parsed[0] is not record.state:
        _parsed[:] = [record.state, GameState.from_dict(record.state)]  # type: ignore[arg-type]
    return _parsed[1]


def web_view(record: Record, seat: int | None) -> dict[str, Any]:
    """What the page of `seat` (None: a spectator) shows: never another seat's hand, never
    the stock's order, never another seat's working copy."""
    state = _state(record)
    rules = rules_of(record)
    rounds = screens._rounds(rules)
    out: dict[str, Any] = {
        "game": "rummy", "tiles": rules.tiles, "version": state.version, "seat": seat,
        "round": state.round, "phase": state.phase, "turn": state.turn,
        "stock": len(state.stock), "log": record.log_for(current())[-LOG_LINES:],
        "seats": [{"name": s.name, "cards": len(state.hands[i]),
                   "score": state.scores[i] if rounds else None,
                   "computer": s.is_computer} for i, s in enumerate(record.seats)],
        "give_up_draw": rules.give_up_draw, "result": result(record, state),
        "title": t("Round {n}", n=state.round) if rounds else "",
    }
    view = player_view(state, seat) if seat is not None else None
    draft = view.draft if view is not None else None
    groups = draft.groups if draft is not None else state.table
    changed = set(view.changed) if view is not None and draft is not None else set()
    looks = screens.shown(rules, screens.read_afresh(rules, groups, state.table)
                          if draft is not None else groups)
    out["groups"] = [
        {"label": group_label(i), "cards": [card_json(c) for c in shown_group],
         "changed": i in changed,
         "bad": i in changed and not screens.valid_so_far(rules, group, state.table)}
        for i, (group, shown_group) in enumerate(zip(groups, looks, strict=True))
    ]
    out["singles"] = [card_json(c) for c in (draft.singles if draft is not None
                                               else state.singles)]
    out["loose"] = [card_json(c) for c in (draft.loose if draft is not None else ())]
    # the others' last move, outlined until the page's own seat changes the table
    last = state.last or {}
    out["last"] = ({"seat": last.get("seat"), "groups": list(last.get("groups", [])),
                    "cards": list(last.get("placed", []))}
                   if last.get("seat") not in (None, seat) and not changed
                   and not (draft is not None and draft.loose) else None)
    if view is None:
        out.update(hand=None, actions=[], can_done=False, mine=False, notice="", hint=None,
                   why="", status=status(record, state, None, []))
        return out
    ui = record.seat_ui(seat)  # type: ignore[arg-type]
    person = not record.seats[seat].is_computer  # type: ignore[index]
    mine = view.my_turn and person
    out["mine"] = mine
    out["hand"] = [card_json(c) for c in view.draft_hand]  # the page keeps its own order
    actions = [WORDS[k] for k in view.legal if k in WORDS] if mine else []
    hint = view.hint or {}
    if mine and "done" in actions and hint.get("lay"):
        actions.append("show")
    if person and state.phase == "round_over":  # ▶ Next round (■ Finish) from the page too
        actions = [a for a in ("next", "finish") if ROUND_END[a] in view.legal]
    out["actions"] = [*actions, "sort"] if state.phase == "play" else actions
    verdict = why_not(record, state, seat) if mine and "done" in actions else "-"  # type: ignore
    out["can_done"] = verdict == ""
    out["why"] = verdict if verdict != "-" and (changed or (draft and draft.loose)) else ""
    if "giveup" in actions:  # the Reset -> Give up flip, in the engine's words
        out["why"] = " ".join(x for x in (out["why"], _((TILE_SENTENCES if rules.tiles
                                                           else SENTENCES)["reset_is_give_up"]))
                              if x)
    out["status"] = status(record, state, seat, actions)
    out["notice"] = ui.notice
    out["hint"] = ({"cards": hint.get("placed") or hint.get("card", "").split(),
                    "groups": list(hint.get("groups", []))} if hint else None)
    return out


def _cards(edit: Edit, pool: list[Card]) -> tuple[Card, ...]:
    """The edit's cards, each one the seat can move now (else a refusal: never a traceback)."""
    by_token = {c.token: c for c in pool}
    try:
        return tuple(by_token.get(token) or Card.from_token(token) for token in edit.cards)
    except (ValueError, KeyError, IndexError):
        raise Refusal(_("That card is no longer in your hand.")) from None


def web_edit(game: _Host, table: Table, seat: int, user: str, edit: Edit) -> Outcome:
    """A page's edit as the seat's buttons would make it: the one-word actions are the
    buttons' own presses; place, take and move the engine's draft edits, played by the turn
    flow after the same version and turn checks a button passes (the language: the seat's,
    set by the platform's guard)."""
    record = table.record
    if edit.op == "act":
        return game.press(table, seat, user, Press(table.game_id, edit.version, edit.name))
    state = game.load(record)
    game.check_version(state, edit.version, lambda: game.mine(table, state, seat, user))
    game.check_turn(state, seat)
    view = player_view(state, seat)
    draft = view.draft
    pool = list(view.draft_hand) + [c for g in (draft.groups if draft else ()) for c in g]
    pool += list(draft.loose) + list(draft.singles) if draft else list(view.singles)
    cards = _cards(edit, pool)
    ui = record.seat_ui(seat)
    ui.notice = ""
    ui.mode = "main"
    act: Action
    if edit.op == "place":
        act = Place(seat, cards, edit.target)
    elif edit.op == "take" and len(cards) == 1:
        act = Take(seat, edit.source or 0, cards[0])
    elif edit.op == "move":
        act = Move(seat, cards, edit.source or 0, edit.target)
    else:
        raise Refusal(_("Unknown button."))
    return game.move(table, state, seat, act, user)
