"""The rules: `apply(state, action)` -> (new state, events), and every legal action.

An illegal action raises engine.errors.IllegalAction with a code from this module (the
`bt_` ones are this game's) and the values its sentence names; the state given is never
changed.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass, field
from typing import Any

from engine.errors import IllegalAction

from .actions import NEW_PILE, Action, Discard, Joker, Pass, Play
from .cards import SHIFT, SWAP, TOP, card_label, fits, is_joker, joker_kind
from .deal import new_game
from .flow import EventData, begin_turn, can_refill, refill
from .state import MAX_BUILD_PILES, BuildState, free_place


@dataclass(frozen=True)
class Event:
    """Something that happened, for the narration and the screens: `kind` is one of played,
    revealed, completed, joker, discarded, passed, drew, rebuilt, turn, won, stuck."""

    kind: str
    seat: int | None = None
    data: dict[str, Any] = field(default_factory=dict)


def source_of(state: BuildState, seat: int, card: str) -> tuple[str, int]:
    """Where `seat` may take `card` from: ("stock", 0), ("hand", i) or ("discard", pile)."""
    if state.face_up(seat) == card:
        return "stock", 0
    if card in state.hands[seat]:
        return "hand", state.hands[seat].index(card)
    for i, pile in enumerate(state.discards[seat]):
        if pile and pile[-1] == card:
            return "discard", i
        if card in pile:
            raise IllegalAction(
                f"The {card_label(card)} is under other cards: only a discard pile's top card "
                "can be played.", code="bt_not_on_top", card=card, pile=i,
            )
    raise IllegalAction(
        f"The {card_label(card)} is not yours to play: your face-up stock card, your hand and "
        "your discard tops are.", code="card_not_available", card=card,
    )


def _check_turn(state: BuildState, seat: int) -> None:
    if state.over:
        raise IllegalAction("The game is over.", code="game_over")
    if not 0 <= seat < state.players:
        raise IllegalAction(f"There is no seat {seat}.", code="seat_not_in_game", seat=seat)
    if seat != state.turn:
        raise IllegalAction("It's not your turn.", code="not_your_turn", seat=seat,
                            turn=state.turn)


def _target_pile(state: BuildState, card: str, pile: int) -> tuple[int, int]:
    """The place `card` goes to (NEW_PILE: the first empty one; an empty place opens a pile)
    and the number it stands for there; raises if it can't go there."""
    if is_joker(card):
        raise IllegalAction("A joker is played on a player, not onto a build pile.",
                            code="bt_joker_on_pile", card=card)
    if pile == NEW_PILE:
        free = free_place(state.builds)
        if free is None:
            raise IllegalAction("There are 4 build piles already: wait for one to reach 10.",
                                code="bt_no_free_pile")
        pile = free
    elif not 0 <= pile < MAX_BUILD_PILES:
        raise IllegalAction(f"There is no build pile {pile + 1}.", code="bt_no_such_pile",
                            pile=pile)
    needed = state.needed(pile)
    if not fits(card, needed):
        label = "an A or a wild card" if needed == 1 else f"a {needed} or a wild card"
        raise IllegalAction(
            f"The {card_label(card)} doesn't fit: that pile needs {label}.",
            code="bt_wrong_number", card=card, needed=needed,
        )
    return pile, needed


def _play(state: BuildState, act: Play) -> list[EventData]:
    seat, card = act.seat, act.card
    where, index = source_of(state, seat, card)
    pile_no, needed = _target_pile(state, card, act.pile)
    if where == "stock":
        state.stocks[seat].pop(0)
    elif where == "hand":
        state.hands[seat].pop(index)
    else:
        state.discards[seat][index].pop()  # played empty: its place stays, empty
    state.builds[pile_no].append(card)
    state.built_this_turn = True
    events: list[EventData] = [
        ("played", seat, {"card": card, "pile": pile_no, "number": needed, "source": where})
    ]
    if needed == TOP:
        state.aside += state.builds[pile_no]
        state.builds[pile_no] = []  # its place frees up; no other pile moves (decision 11)
        events.append(("completed", seat, {"pile": pile_no}))
    if where == "stock":
        if not state.stocks[seat]:
            state.over, state.winners = True, [seat]
            return [*events, ("won", seat, {})]
        events.append(("revealed", seat, {"card": state.stocks[seat][0]}))
    if where == "hand" and not state.hands[seat]:
        events += refill(state, seat)  # all hand cards played: 5 more (decision 6)
    return events


def _joker(state: BuildState, act: Joker) -> list[EventData]:
    seat, card, target = act.seat, act.card, act.target
    kind = joker_kind(card)
    if kind is None or card not in state.hands[seat]:
        raise IllegalAction("Only a joker from your hand is played on a player.",
                            code="bt_not_a_joker", card=card)
    if not 0 <= target < state.players:
        raise IllegalAction(f"There is no seat {target}.", code="seat_not_in_game",
                            seat=target)
    if not state.stocks[target]:
        raise IllegalAction("That player shows no stock card.", code="bt_no_face_up",
                            target=target)
    if kind == SWAP and (target == seat or not state.stocks[seat]):
        raise IllegalAction("A black joker (swap) swaps your face-up card with another player's.",
                            code="bt_swap_needs_other", target=target)
    state.hands[seat].remove(card)
    state.aside.append(card)
    stock = state.stocks[target]
    old = stock[0]
    if kind == SHIFT:
        stock.append(stock.pop(0))
    else:
        mine = state.stocks[seat]
        mine[0], stock[0] = stock[0], mine[0]
    events: list[EventData] = [
        ("joker", seat, {"card": card, "kind": kind, "target": target, "old": old,
                         "new": stock[0]})
    ]
    if not state.hands[seat]:
        events += refill(state, seat)
    return events


def _end_turn(state: BuildState, seat: int) -> list[EventData]:
    """Decision 8: turns without a build play while nothing can refill the general stock are
    counted; a full round of them ends the game (the fewest stock cards left win)."""
    if state.built_this_turn or can_refill(state):
        state.idle_turns = 0
    else:
        state.idle_turns += 1
    if state.idle_turns >= state.players:
        fewest = min(len(s) for s in state.stocks)
        state.over, state.stuck = True, True
        state.winners = [i for i, s in enumerate(state.stocks) if len(s) == fewest]
        return [("stuck", None, {"winners": list(state.winners)})]
    return begin_turn(state, (seat + 1) % state.players)


def _discard(state: BuildState, act: Discard) -> list[EventData]:
    seat, card = act.seat, act.card
    if card not in state.hands[seat]:
        raise IllegalAction(f"The {card_label(card)} is not in your hand.",
                            code="card_not_in_hand", card=card)
    piles = state.discards[seat]
    if act.pile == NEW_PILE:
        free = free_place(piles)
        if free is None:
            raise IllegalAction("You have 4 discard piles: put it onto one of them.",
                                code="bt_discard_piles_full")
        pile = free
    elif 0 <= act.pile < len(piles):
        pile = act.pile  # an empty place opens a new pile there
    else:
        raise IllegalAction(f"You have no discard pile {act.pile + 1}.",
                            code="bt_no_such_pile", pile=act.pile)
    state.hands[seat].remove(card)
    piles[pile].append(card)
    return [("discarded", seat, {"card": card, "pile": pile}), *_end_turn(state, seat)]


def _pass(state: BuildState, act: Pass) -> list[EventData]:
    if state.hands[act.seat]:
        raise IllegalAction("End your turn with a discard from your hand.",
                            code="bt_must_discard")
    return [("passed", act.seat, {}), *_end_turn(state, act.seat)]


_RULES = {Play: _play, Joker: _joker, Discard: _discard, Pass: _pass}


def apply(state: BuildState, action: Action) -> tuple[BuildState, list[Event]]:
    """The state after `action` (a new one) and what happened."""
    _check_turn(state, action.seat)
    rule = _RULES.get(type(action))
    if rule is None:
        raise IllegalAction("That is not a move of Build-to-Ten.", code="unknown_action")
    new = state.copy()
    events = rule(new, action)
    new.version += 1
    return new, [Event(kind, seat, data) for kind, seat, data in events]


def playable(state: BuildState, seat: int) -> list[str]:
    """The cards `seat` may play onto build piles: face-up stock card, hand, discard tops."""
    cards = [c for c in (state.face_up(seat),) if c] + list(state.hands[seat])
    return cards + [p[-1] for p in state.discards[seat] if p]


def targets(state: BuildState, card: str) -> list[int]:
    """The build piles `card` fits (NEW_PILE for a new one)."""
    if is_joker(card):
        return []
    out = [i for i, b in enumerate(state.builds) if b and fits(card, state.needed(i))]
    if free_place(state.builds) is not None and fits(card, 1):
        out.append(NEW_PILE)
    return out


def joker_targets(state: BuildState, seat: int, card: str) -> list[int]:
    kind = joker_kind(card)
    return [
        t for t in range(state.players)
        if state.stocks[t] and (kind == SHIFT or (t != seat and state.stocks[seat]))
    ]


def discard_piles(state: BuildState, seat: int) -> list[int]:
    piles = state.discards[seat]
    out = [i for i, p in enumerate(piles) if p]
    return out + ([NEW_PILE] if free_place(piles) is not None else [])


def legal_actions(state: BuildState) -> list[Action]:
    """Every action the seat on turn may take (none once the game is over)."""
    if state.over:
        return []
    seat = state.turn
    out: list[Action] = []
    for card in playable(state, seat):
        out += [Play(seat, card, p) for p in targets(state, card)]
    for card in state.hands[seat]:
        if is_joker(card):
            out += [Joker(seat, card, t) for t in joker_targets(state, seat, card)]
    for card in state.hands[seat]:
        out += [Discard(seat, card, p) for p in discard_piles(state, seat)]
    if not state.hands[seat]:
        out.append(Pass(seat))
    return out


def replay(players: int, seed: int, actions: Iterable[Action]) -> BuildState:
    state = new_game(players, seed)
    for act in actions:
        state, _ = apply(state, act)
    return state


def standings(state: BuildState) -> list[int]:
    """Decision 9: the seats best first — the winners, then by cards left in the personal
    stock (fewer is better; the seat order breaks ties)."""
    return sorted(range(state.players),
                  key=lambda i: (i not in state.winners, len(state.stocks[i]), i))
