"""Conformance: every rulebook, 2/3/5 seats and both values of every option, through seeded
random playouts to the end. After every action: cards conserved and every group on the table
valid, and no seat sees hidden information (its `player_view` at every step, the bot's private
and table screens at a sample of steps); at the end: the record replays to the identical state
and JSON round-trips exactly."""

from __future__ import annotations

import random
import re
from collections import Counter
from collections.abc import Iterator
from dataclasses import fields, is_dataclass

import pytest
from random_player import decide

from bot.core.record import Record, SeatInfo
from bot.games.rummy.screens import private_picture, private_screen, table_screen
from engine.rummy import (
    Card,
    Commit,
    Draw,
    Finish,
    GameState,
    IllegalAction,
    Knock,
    NextRound,
    Pass,
    PlayerView,
    apply,
    conservation_errors,
    get_rulebook,
    new_game,
    player_view,
    replay,
)
from engine.rummy.playout import table_errors
from engine.rummy.tiles import piece_from_token

CASES = [
    ("manipulation", 2, {"must_lay": "remind", "play_to": 200}),
    ("manipulation", 3, {"must_lay": "trust", "play_to": 300}),
    ("manipulation", 5, {"must_lay": "remind", "play_to": 300}),
    ("machiavelli", 2, {"unfinished_move": "reset"}),
    ("machiavelli", 3, {"unfinished_move": "give_back_draw_3"}),
    ("machiavelli", 5, {"unfinished_move": "give_back_draw_3"}),
    ("shanghai", 2, {"must_lay": "trust"}),
    ("shanghai", 3, {"must_lay": "remind"}),
    ("shanghai", 5, {"must_lay": "remind"}),
    ("guadeloupe", 2, {"unfinished_move": "give_back_draw_3"}),
    ("guadeloupe", 3, {"unfinished_move": "reset"}),
    ("guadeloupe", 5, {"unfinished_move": "reset"}),
    ("carousel", 2, {}),
    ("carousel", 3, {}),
    ("carousel", 5, {}),
    ("vatican", 2, {}),
    ("vatican", 3, {}),
    ("vatican", 5, {}),
    ("tahiti", 2, {"unfinished_move": "reset"}),
    ("tahiti", 3, {"unfinished_move": "give_back_draw_3"}),
    ("tahiti", 5, {"unfinished_move": "give_back_draw_3"}),
    # Rummikub: 2, 3 and 4 seats, every value of every option
    ("rummikub", 2, {"initial_meld": 30, "initial_turn": "own_only", "failed_move": "draw_3",
                     "turn_timer": "off", "wrap": "off", "rounds": 1}),
    ("rummikub", 3, {"initial_meld": 20, "initial_turn": "may_add", "failed_move": "draw_1",
                     "turn_timer": 60, "wrap": "on", "rounds": 3}),
    ("rummikub", 4, {"initial_meld": 30, "initial_turn": "may_add", "failed_move": "reset",
                     "turn_timer": 60, "wrap": "off", "rounds": 5}),
    ("rummikub", 2, {"initial_meld": 20, "initial_turn": "own_only", "failed_move": "reset",
                     "turn_timer": "off", "wrap": "on", "rounds": 1}),
]
MAX_ACTIONS = 6000
SCREEN_EVERY = 7  # the bot's screens are checked at every 7th step (the views at every step)

# -- hidden information ---------------------------------------------------------------------

# Every PlayerView field, by what a seat may see there. A new field must be put in one of these
# (test_every_view_field_is_classified) and, if it can hold cards, checked in view_errors.
PUBLIC_FIELDS = frozenset({
    "seat", "rulebook", "options", "round", "phase", "turn", "table", "singles", "scores",
    "legal", "first_lay_done", "final_turns", "last", "rounds", "result", "version",
})
OWN_FIELDS = frozenset({"hand", "draft_hand"})  # this seat's own cards
COUNT_FIELDS = frozenset({"stock", "hand_counts"})  # others' cards and the stock: counts only
ON_TURN_FIELDS = {  # the seat on turn's alone; every other seat gets the empty value
    "draft": None, "changed": frozenset(), "hint": None, "draws": 0, "reminded": False,
    "give_up_armed": False,
}
# Card.token: 7H#1, *#0=7H; Tile.token: 7R#1, *T#0=7R
_TOKEN = re.compile(r"^(?:(?:\*|10|[2-9AJQK])[SHDC]?|(?:\*T?|1[0-3]|[1-9])[KRBO]?)#\d+(?:=.+)?$")
_CARD_PRETTY = r"(?:10|[2-9AJQK])[♠♥♦♣]"
_TILE_PRETTY = r"(?<!\w)(?:1[0-3]|[1-9])[KRBO](?!\w)"  # tile notation, a word of its own
_PRETTY = re.compile(  # Card.pretty and Tile.pretty: Q♥, 🃏7♥, 7R, 🃏7R
    rf"🃏(?:{_CARD_PRETTY}|{_TILE_PRETTY})?|{_CARD_PRETTY}|{_TILE_PRETTY}")
_SUIT_LETTER = {"♠": "S", "♥": "H", "♦": "D", "♣": "C", "K": "K", "R": "R", "B": "B", "O": "O"}
_ATOMS = (int, float, type(None))  # hold no card (bool is an int)


def _cards_in(obj: object) -> Iterator[Card]:
    """Every card anywhere in `obj`: Card objects and card tokens, in dataclasses and
    containers (a draft, the hint's "card", the last move's "placed"...)."""
    if isinstance(obj, str):
        if _TOKEN.match(obj):
            yield piece_from_token(obj)
        return
    if isinstance(obj, dict):
        obj = [*obj.keys(), *obj.values()]
    elif is_dataclass(obj) and not isinstance(obj, (type, Card)):
        obj = [getattr(obj, f.name) for f in fields(obj)]
    elif isinstance(obj, Card):
        obj = [obj]
    if isinstance(obj, (list, tuple, set, frozenset)):
        for item in obj:
            if isinstance(item, Card):
                yield item
            elif not isinstance(item, _ATOMS):
                yield from _cards_in(item)


def _owners(state: GameState) -> dict[tuple, int]:
    """Each hidden physical card's owner: its seat, or -1 for the stock."""
    owner = {c.ident: seat for seat, hand in enumerate(state.hands) for c in hand}
    owner.update((c.ident, -1) for c in state.stock)
    return owner


def _leaked(cards, owner: dict[tuple, int], seat: int) -> list[tuple]:
    """The cards among `cards` that `seat` must not see (another hand's or the stock's)."""
    return sorted({c.ident for c in cards if owner.get(c.ident, seat) != seat})


def _idents(cards) -> Counter:
    return Counter(c.ident for c in cards)


# Fields walked card by card for hidden ones; the rest are compared with the state exactly.
# `rounds` only grows (its entries are replaced, never changed): its newest entry is walked.
WALKED_FIELDS = ("draft", "hint", "last", "result", "options", "legal")


def view_errors(state: GameState) -> list[str]:
    """What any seat's player_view shows that it must not."""
    errors = []
    owner = _owners(state)
    counts = tuple(len(h) for h in state.hands)
    table = tuple(tuple(g) for g in state.table)
    for seat in range(state.players):
        view = player_view(state, seat)
        say = f"seat {seat} (turn {state.turn}, {state.phase}):"
        walked = [*(getattr(view, f) for f in WALKED_FIELDS), view.rounds[-1:]]
        leaked = _leaked(_cards_in(walked), owner, seat)
        if leaked:
            errors.append(f"{say} its view holds other hands' or stock cards {leaked}")
        if view.seat != seat or view.hand != tuple(state.hands[seat]):
            errors.append(f"{say} its hand is not its own")
        if _idents(view.draft_hand) - _idents(state.hands[seat]):
            errors.append(f"{say} draft_hand holds cards not in its hand")
        if type(view.stock) is not int or view.stock != len(state.stock):
            errors.append(f"{say} stock is {view.stock!r}, not the count {len(state.stock)}")
        if view.hand_counts != counts or not all(type(n) is int for n in view.hand_counts):
            errors.append(f"{say} hand_counts is {view.hand_counts!r}, not the counts")
        if view.table != table or view.singles != tuple(state.singles):
            errors.append(f"{say} the table is not the public table")
        if seat != state.turn:
            for name, empty in ON_TURN_FIELDS.items():
                if getattr(view, name) != empty:
                    errors.append(f"{say} sees the turn's {name}: {getattr(view, name)!r}")
        elif view.hint is not None and view.hint.get("seat", seat) != seat:
            errors.append(f"{say} sees another seat's hint {view.hint!r}")
    return errors


def _faces(text: str) -> Counter:
    """Cards named in a screen's text (Card.pretty), by face: two decks make copies equal."""
    return Counter(
        "*" if m.startswith("🃏") else m[:-1] + _SUIT_LETTER[m[-1]] for m in _PRETTY.findall(text)
    )


def _face_counts(cards) -> Counter:
    return Counter(c.face for c in cards)


def _screen_parts(screen) -> dict[str, str]:
    """Each text line, and the button labels together, checked alone: one line may name a card
    that another names again (the hint repeats a hand card; the buttons repeat the hand)."""
    parts = {f"line {i + 1}": line for i, line in enumerate(screen.text.split("\n"))}
    parts["buttons"] = "\n".join(b.label for row in screen.buttons for b in row)
    # what a text client shows instead of the picture: the detail, every card button
    parts |= {f"detail line {i + 1}": x for i, x in enumerate(screen.detail.split("\n"))}
    parts["cards"] = "\n".join(b.label for b in screen.cards)
    return parts


def screen_errors(state: GameState, record: Record) -> list[str]:
    """What the bot's screens show that they must not: a private screen only cards its seat can
    see (its hand, the table, its own draft), by face and counting copies; the table screen
    only the table; no card token of a hidden card in any button."""
    errors = []
    owner = _owners(state)
    public = _face_counts([*(c for g in state.table for c in g), *state.singles])
    for seat in range(state.players):
        screen = private_screen(0, record, state, seat)
        visible = public + _face_counts(state.hands[seat])
        if seat == state.turn and state.draft is not None:
            visible += _face_counts(state.draft.cards())
        for part, words in _screen_parts(screen).items():
            extra = _faces(words) - visible
            if extra:
                errors.append(
                    f"seat {seat}: its private screen's {part} shows {dict(extra)} it cannot"
                    f" see: {words!r}"
                )
        actions = [b.action for row in screen.buttons for b in row]
        actions += [b.action for b in screen.cards]
        tokens = [t for a in actions for t in re.split(r"[:,]", a)]
        picture = private_picture(player_view(state, seat), "")
        leaked = _leaked(_cards_in([tokens, picture]), owner, seat)
        if leaked:
            errors.append(f"seat {seat}: its private buttons or picture hold {leaked}")
    table = table_screen(0, record, state)
    for part, words in _screen_parts(table).items():
        extra = _faces(words) - public
        if extra:
            errors.append(f"the table screen's {part} shows {dict(extra)} off the table: {words!r}")
    return errors


def _playout(name: str, seats: int, options: dict, seed: int) -> GameState:
    rules = get_rulebook(name, **options)
    rng = random.Random(seed)
    state = new_game(rules, seats, seed)
    people = [SeatInfo(f"P{i}", str(i)) for i in range(seats)]
    record = Record(rulebook=name, options=dict(options), seats=people)
    assert not view_errors(state) + screen_errors(state, record)
    steps = 0
    while state.phase != "game_over":
        assert steps < MAX_ACTIONS, "the game did not end"
        if state.phase == "round_over":
            batch = [Finish(0) if rules.length == "open" and state.round >= 2 else NextRound(0)]
        else:
            batch = decide(state, rng)
        turn = state.turn
        for action in batch:
            if state.phase != "play" and not isinstance(action, (NextRound, Finish)):
                break
            if state.phase == "play" and state.turn != turn:
                break  # the first Draw ended the turn
            try:
                after, _ = apply(state, action)
            except IllegalAction:
                if isinstance(action, (Commit, Knock, Draw, Pass, NextRound, Finish)):
                    raise
                continue  # a random edit may be refused; that is fine
            problems = conservation_errors(after) + table_errors(after) + view_errors(after)
            if steps % SCREEN_EVERY == 0:
                problems += screen_errors(after, record)
            assert not problems, f"after {action}: {problems}"
            state = after
            steps += 1
        if steps % 50 == 0:
            assert GameState.from_json(state.to_json()).to_json() == state.to_json()
    return state


def test_every_view_field_is_classified():
    named = PUBLIC_FIELDS | OWN_FIELDS | COUNT_FIELDS | set(ON_TURN_FIELDS)
    assert {f.name for f in fields(PlayerView)} == named


# Every rulebook's two-seat games in the quick loop; the longer games of more seats are the
# seeded-games tier (games: `make test` plays them).
PLAYOUTS = [pytest.param(n, s, o, marks=[pytest.mark.games] if s > 2 else [],
                         id=f"{n}-{s}-{'-'.join(map(str, o.values())) or 'default'}")
            for n, s, o in CASES]


@pytest.mark.parametrize(("name", "seats", "options"), PLAYOUTS)
def test_random_playout_to_the_end(name, seats, options):
    state = _playout(name, seats, options, seed=1000 + seats)
    assert state.result is not None and state.result["winners"]
    again = replay(name, seats, state.seed, state.actions, **options)
    assert again.to_json() == state.to_json()
    assert GameState.from_json(state.to_json()).to_json() == state.to_json()
