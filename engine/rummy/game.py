"""One game loop for all seven rulebooks: `new_game`, `apply`, `legal_actions`, `player_view`.

`apply(state, action)` never changes its argument: it returns a new state and the events the
action caused, or raises `IllegalAction` with a sentence the player can read. Randomness comes
only from the seed: round r is dealt from `deal.deck_order(rules, seats, seed, r)`.
"""

from __future__ import annotations

import copy
from collections import Counter
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from typing import Any

from engine.cards import Card, format_cards, parse_face, rank_name

from . import draft as drafts
from .actions import (
    Action,
    Commit,
    Draw,
    Finish,
    GiveUp,
    Hint,
    IllegalAction,
    JokerChoiceNeeded,
    Knock,
    Move,
    NextRound,
    Pass,
    Place,
    Reset,
    SetDraft,
    Split,
    Take,
    TimeUp,
    action_from_dict,
)
from .deal import deal_round, deck_order, start_game, start_turn
from .melds import Reading, designate, readings
from .moves import MoveCheck, canonical, check_move, group_label
from .rulebooks import Rulebook, get_rulebook
from .scoring import carousel_final, score_round
from .state import Draft, GameState
from .tile_rules import freeing_faces, refloat
from .tiles import parse_tile_face, piece_from_token, tile_face_text

MIN_SEATS, MAX_SEATS = 2, 5


@dataclass(frozen=True)
class Event:
    kind: str
    seat: int | None = None
    data: dict[str, Any] = field(default_factory=dict)
    private: dict[str, Any] = field(default_factory=dict)  # only for `seat`'s eyes


def new_game(
    rulebook: Rulebook | str, seats: int | Sequence[Any], seed: int, **options: Any
) -> GameState:
    """A new game, dealt from `deck_order(rules, seats, seed)` (engine/rummy/deal.py). `seats` is
    the
    number of seats (or a list, one item per seat)."""
    rules = rulebook if isinstance(rulebook, Rulebook) else get_rulebook(rulebook, **options)
    n = seats if isinstance(seats, int) else len(seats)
    most = min(MAX_SEATS, rules.max_players)
    if not MIN_SEATS <= n <= most:
        raise ValueError(f"{rules.title} needs {MIN_SEATS} to {most} seats, not {n}")
    return start_game(rules, n, seed)


def replay(
    rulebook: Rulebook | str,
    seats: int,
    seed: int,
    actions: Sequence[dict[str, Any]],
    **options: Any,
) -> GameState:
    """Rebuild a game from its record (settings, seed, action list)."""
    state = new_game(rulebook, seats, seed, **options)
    for data in actions:
        state, _ = apply(state, action_from_dict(data))
    return state


# -- apply --------------------------------------------------------------------------------


def apply(state: GameState, action: Action) -> tuple[GameState, list[Event]]:
    s = state.copy()
    events = _dispatch(s, action)
    s.version += 1
    s.actions.append(action.to_dict())
    return s, events


def _dispatch(s: GameState, action: Action) -> list[Event]:
    if not 0 <= action.seat < s.players:
        raise IllegalAction(
            "That seat is not in this game", code="seat_not_in_game", seat=action.seat
        )
    if isinstance(action, NextRound):
        return _next_round(s)
    if isinstance(action, Finish):
        return _finish(s)
    if s.phase == "game_over":
        raise IllegalAction("The game is over", code="game_over")
    if s.phase == "round_over":
        raise IllegalAction("The round is over: start the next round", code="round_over")
    if action.seat != s.turn:
        raise IllegalAction("It's not your turn", code="not_your_turn", turn=s.turn)
    seat = action.seat
    rules = s.rules
    hinted = _group_idents(s) if s.hint and s.hint.get("groups") else None
    match action:
        case Draw():
            return _draw(s, rules, seat)
        case Pass():
            return _pass(s, rules, seat)
        case Commit(arrangement=arrangement, joker_choices=choices):
            return _commit(s, rules, seat, arrangement, choices, knock=False)
        case Knock(arrangement=arrangement, joker_choices=choices):
            return _knock(s, rules, seat, arrangement, choices)
        case GiveUp():
            return _give_up(s, rules, seat)
        case TimeUp():
            return _time_up(s, rules, seat)
        case Reset():
            if rules.give_back and drafts.gives_up(s):
                raise IllegalAction(
                    "Once you have changed the table, Reset becomes Give up (+3)",
                    code="reset_is_give_up",
                )
            s.draft = None
            return [Event("reset", seat)]
        case Hint():
            return _hint(s, rules, seat)
        case Place(cards=cards, group=group):
            drafts.place(s, seat, cards, group)
        case Take(group=group, card=card):
            if card is None:
                raise IllegalAction("Name the card to take", code="take_needs_card")
            drafts.take(s, seat, group, card)
        case Move(cards=cards, source=source, target=target):
            drafts.move(s, cards, source, target)
        case Split(group=group, at=at):
            drafts.split(s, group, at)
        case SetDraft(arrangement=arrangement):
            drafts.set_draft(s, seat, arrangement)
        case _:
            raise IllegalAction(f"Unknown action {action.kind!r}", code="unknown_action",
                                kind=action.kind)
    s.give_up_armed = False
    if hinted is not None:
        _follow_hint(s, hinted)
    return [Event("draft", seat)]


def _group_idents(s: GameState) -> list[frozenset[int]]:
    """The groups as the seat sees them now (its working copy, else the table), by card."""
    groups = s.draft.groups if s.draft is not None else s.table
    return [frozenset(c.ident for c in g) for g in groups]


def _follow_hint(s: GameState, before: list[frozenset[int]]) -> None:
    """An edit that empties a group renumbers the ones after it: the hint's groups follow
    their cards, so its line and outline name the letters shown now (issue 27)."""
    assert s.hint is not None
    after = _group_idents(s)
    followed = set()
    for g in s.hint.get("groups", []):
        cards = before[g] if 0 <= g < len(before) else frozenset()
        best = max(range(len(after)), key=lambda i: len(after[i] & cards), default=None)
        if best is not None and after[best] & cards:
            followed.add(best)
    s.hint = {**s.hint, "groups": sorted(followed)}


def _draw_cards(s: GameState, seat: int, count: int) -> list[Card]:
    drawn = [s.stock.pop() for _ in range(min(count, len(s.stock)))]
    s.hands[seat].extend(drawn)
    return drawn


def _drew(seat: int, drawn: list[Card]) -> Event:
    return Event("drew", seat, {"count": len(drawn)}, {"cards": [c.token for c in drawn]})


def _reminder(s: GameState, rules: Rulebook, seat: int) -> Event | None:
    """Must-lay, remind with a hint: the first Draw/Pass tap while a move exists shows it."""
    if not (rules.must_lay and rules.remind) or s.reminded:
        return None
    hint = _find_hint(s, rules, seat)
    if hint is None:
        return None
    s.reminded = True
    s.hint = hint
    return Event("reminder", seat, {}, {"hint": hint})


def _draw(s: GameState, rules: Rulebook, seat: int) -> list[Event]:
    style = rules.turn_style
    if style.draw_first:  # Carousel: the opening draw, then up to the limit
        if s.final_turns is not None:
            raise IllegalAction("The stock has run out: lay cards or pass",
                                code="final_turns_no_draw")
        if not s.stock:
            raise IllegalAction("The stock is empty: lay cards or pass", code="stock_empty")
        drawn = _draw_cards(s, seat, style.draw_count)
        s.draws += 1
        if not s.stock:
            s.last_drawer = seat
        events = [_drew(seat, drawn)]
        if s.draws >= style.draw_limit:  # the last card allowed ends the turn without laying
            events += _end_turn(s, rules)
        return events
    if not s.stock:
        raise IllegalAction("The stock is empty: pass instead", code="stock_empty")
    if rules.give_back and drafts.gives_up(s):
        raise IllegalAction("Finish your move with Done, or give up (+3), before drawing",
                            code="give_up_first")
    reminder = _reminder(s, rules, seat)
    if reminder:
        return [reminder]
    s.reminded = False
    s.hint = None
    drawn = _draw_cards(s, seat, style.draw_count)
    if not style.draw_ends_turn:
        s.draws += 1
        return [_drew(seat, drawn)]
    return [_drew(seat, drawn), *_end_turn(s, rules)]


def _pass(s: GameState, rules: Rulebook, seat: int) -> list[Event]:
    style = rules.turn_style
    if style.stock_out == "final_turns":  # passes end turns; they never block the round
        if s.final_turns is None and s.stock:
            raise IllegalAction("You can't pass while the stock has cards: draw or lay",
                                code="pass_needs_empty_stock")
        if style.draw_first and s.final_turns is None and s.draws == 0:
            raise IllegalAction("Draw a card first", code="draw_first")
        return [Event("passed", seat), *_end_turn(s, rules)]
    if s.stock:
        raise IllegalAction("You can pass only when the stock is empty: draw a card instead",
                            code="pass_needs_empty_stock")
    reminder = _reminder(s, rules, seat)
    if reminder:
        return [reminder]
    s.passes += 1
    s.last = {"seat": seat, "kind": "passed", "groups": []}
    if s.passes >= s.players:
        return [Event("passed", seat), *_end_round(s, rules)]
    return [Event("passed", seat), *_end_turn(s, rules)]


def _give_up(s: GameState, rules: Rulebook, seat: int) -> list[Event]:
    if not rules.give_back:
        raise IllegalAction("There is no Give up in this game: use Reset", code="no_give_up")
    if not drafts.draft_differs(s):
        raise IllegalAction("You haven't changed the table: there is nothing to give up",
                            code="nothing_to_give_up")
    if not s.give_up_armed:
        s.give_up_armed = True
        return [Event("give_up_confirm", seat)]
    s.draft = None
    drawn = _draw_cards(s, seat, rules.give_up_draw)
    s.last = {"seat": seat, "kind": "gave_up", "groups": []}
    events = [Event("gave_up", seat, {"count": len(drawn)}, {"cards": [c.token for c in drawn]})]
    if not drawn:  # nothing left to draw: it counts as a pass
        s.passes += 1
        if s.passes >= s.players:
            return events + _end_round(s, rules)
    return events + _end_turn(s, rules)


def _time_up(s: GameState, rules: Rulebook, seat: int) -> list[Event]:
    """The turn timer ran out (the platform keeps the clock): a changed copy is given up as
    by Give up (restored, the `failed_move` penalty drawn); an unchanged one draws a tile as
    a turn without a lay does (a pass once the pool is empty)."""
    if not rules.turn_seconds:
        raise IllegalAction("This game has no turn timer", code="no_turn_timer")
    events = [Event("time_up", seat)]
    if rules.give_back and drafts.gives_up(s):
        s.give_up_armed = True  # no second press: the time is up
        return events + _give_up(s, rules, seat)
    s.draft = None
    if s.stock:
        drawn = _draw_cards(s, seat, rules.turn_style.draw_count)
        return [*events, _drew(seat, drawn), *_end_turn(s, rules)]
    s.passes += 1
    s.last = {"seat": seat, "kind": "passed", "groups": []}
    if s.passes >= s.players:
        return [*events, Event("passed", seat), *_end_round(s, rules)]
    return [*events, Event("passed", seat), *_end_turn(s, rules)]


def _hint(s: GameState, rules: Rulebook, seat: int) -> list[Event]:
    hint = _find_hint(s, rules, seat)
    s.hint = hint
    return [Event("hint", seat, {}, {"hint": hint})]


HINT_EFFORT = 1_000_000  # solver work units, about 0.1–0.25 s here


def _find_hint(s: GameState, rules: Rulebook, seat: int) -> dict[str, Any] | None:
    from .solver import find_move  # the solver imports the engine's modules; import late

    position = dict(
        rulebook=rules,
        table=s.table + [[c] for c in s.singles],
        hand=s.hands[seat],
        first_lay_done=s.first_lay_done[seat],
        singles=s.singles,
    )
    # The fewest changed groups is a nicety; a person waits for the answer. A search past the
    # bound (a Vatican first lay with jokers took 3.8 s) shows any card that can be played.
    move = find_move(**position, objective="hint", effort=HINT_EFFORT)
    if move is None:
        move = find_move(**position, objective="any")  # exact: None is a proof
    if move is None:
        return None
    card = move.hint_card or move.placed[0]
    on_table = len(s.table)  # the search saw Tahiti's singles as 1-card groups after these
    mine = {c.ident for c in move.placed}
    return {
        "seat": seat,
        "card": card.token,
        # the whole lay, as it reads on the table: a hint is a move the player can make
        "placed": [c.token for g in move.new_table for c in g if c.ident in mine],
        "lay": [[c.token for c in g] for g in move.new_table],  # what "Show me" places
        # The old groups not laid again card for card: the search's `changed` compares faces,
        # and a player sees a joker leave a group its real card took over.
        "groups": unmatched_groups(s.table, move.new_table),
        "singles": [s.singles[g - on_table].token for g in move.changed if g >= on_table],
        "rearrange": move.needs_rearranging,
    }


def hint_line(hint: dict[str, Any] | None) -> str:
    """What a hint says to the player (the table picture outlines the same groups)."""
    if not hint:
        return "No card of yours can be played now."
    card = " ".join(piece_from_token(t).pretty() for t in hint.get("placed") or [hint["card"]])
    labels = [group_label(g) for g in hint.get("groups", [])]
    singles = " ".join(piece_from_token(t).pretty() for t in hint.get("singles", []))
    where = []
    if labels:
        where.append(f"it changes group {labels[0]}" if len(labels) == 1 else
                     f"it changes groups {', '.join(labels[:-1])} and {labels[-1]}")
    if singles:
        where.append(f"with the single{'s' * (' ' in singles)} {singles} from the table")
    rearrange = "; you need to rearrange the table" if hint.get("rearrange") else ""
    return f"💡 You can play {card} — {', '.join(where) or 'as a new group'}{rearrange}."


# -- laying -------------------------------------------------------------------------------


def _knock(s: GameState, rules: Rulebook, seat: int, arrangement, choices) -> list[Event]:
    if not (rules.turn_style.knock and rules.knock_limit):
        raise IllegalAction("There is no knocking in this game", code="no_knocking")
    if s.final_turns is not None:
        raise IllegalAction("Nobody may knock once the stock has run out",
                            code="knock_in_final_turns")
    if not 1 <= s.draws <= 2:
        raise IllegalAction("You can knock only after your first or second draw",
                            code="knock_after_draw", draws=s.draws)
    if arrangement is None and not drafts.draft_differs(s):
        left = rules.hand_value(s.hands[seat])
        if left > rules.knock_limit:
            raise IllegalAction(
                f"You can knock only with {rules.knock_limit} points or fewer "
                f"in hand (you have {left})",
                code="knock_limit",
                limit=rules.knock_limit,
                left=left,
            )
        s.last = {"seat": seat, "kind": "knocked", "groups": []}
        return [Event("knocked", seat, {"laid": 0}), *_end_round(s, rules, knocker=seat)]
    return _commit(s, rules, seat, arrangement, choices, knock=True)


def _commit(
    s: GameState, rules: Rulebook, seat: int, arrangement, choices, *, knock: bool
) -> list[Event]:
    """Lay (Done, or a knock that lays). Each step raises before anything changes, in this
    order: the draw, the arrangement, the jokers' meanings and the judge, the knock limit;
    then the table changes, and the turn (or the round) ends."""
    if rules.turn_style.draw_first and s.final_turns is None and s.draws == 0:
        raise IllegalAction("Draw a card first", code="draw_first")
    groups, unused_singles = _arrangement(s, seat, arrangement)
    groups, check = _judged(s, rules, seat, groups, unused_singles, choices)
    hand = s.hands[seat]
    placed_ids = {c.ident for g in groups for c in g} & {c.ident for c in hand}
    remaining = [c for c in hand if c.ident not in placed_ids]
    if knock:
        _check_knock_limit(rules, remaining)
    placed, new_groups = _lay(s, rules, seat, groups, unused_singles, placed_ids, remaining)
    events = [
        Event(
            "laid",
            seat,
            {"placed": list(placed), "groups": new_groups, "rearranged": check.needs_rearranging},
        )
    ]
    return events + _after_lay(s, rules, seat, len(placed), knock)


def _arrangement(
    s: GameState, seat: int, arrangement
) -> tuple[list[list[Card]], list[Card]]:
    """The groups the player lays and the singles left alone: the draft's (Done), or the
    typed arrangement resolved against the table, the singles and the hand."""
    if arrangement is None:
        if s.draft is None or not drafts.draft_differs(s):
            raise IllegalAction("You must add at least one card from your hand",
                                code="nothing_added")
        if s.draft.loose:
            raise IllegalAction(
                f"Place the loose cards first: {format_cards(s.draft.loose, pretty=True)}",
                code="loose_cards",
                cards=[c.token for c in s.draft.loose],
            )
        return [list(g) for g in s.draft.groups], list(s.draft.singles)
    table_pool = [c for g in s.table for c in g]
    singles_pool = list(s.singles)
    hand_pool = list(s.hands[seat])
    groups = drafts.resolve_all(arrangement, table_pool, singles_pool, hand_pool)
    groups, unused_singles = drafts.keep_singles(groups, s.singles, singles_pool)
    if table_pool:
        raise IllegalAction(
            f"{format_cards(table_pool, pretty=True)} must stay on the "
            "table: a card on the table can never go back into a hand",
            code="table_card_to_hand",
            cards=[c.token for c in table_pool],
        )
    return groups, unused_singles


def _judged(
    s: GameState, rules: Rulebook, seat: int, groups: list[list[Card]],
    unused_singles: list[Card], choices
) -> tuple[list[list[Card]], MoveCheck]:
    """The groups with their jokers' meanings (the player's choices, else the one legal
    reading), judged as a move from the table as it is; IllegalAction when it is not one."""
    old = s.table + [[c] for c in s.singles]
    hand = s.hands[seat]

    def judge(groups: list[list[Card]]) -> MoveCheck:
        new = groups + [[c] for c in unused_singles]
        return check_move(
            rules, old, hand, new, first_lay_done=s.first_lay_done[seat], singles=s.singles
        )

    try:
        groups = _designate_jokers(s, rules, groups, choices)
    except JokerChoiceNeeded:
        groups = _legal_reading(s, rules, groups, choices, judge)
    check = judge(groups)
    if not check.ok:
        raise check.error()
    return groups, check


def _check_knock_limit(rules: Rulebook, remaining: list[Card]) -> None:
    """A knock that lays leaves at most the knock limit's points in hand."""
    if remaining and rules.hand_value(remaining) > rules.knock_limit:
        left = rules.hand_value(remaining)
        raise IllegalAction(
            f"You can knock only with {rules.knock_limit} points or fewer left "
            f"in hand (this leaves {left})",
            code="knock_limit",
            limit=rules.knock_limit,
            left=left,
        )


def _lay(
    s: GameState, rules: Rulebook, seat: int, groups: list[list[Card]],
    unused_singles: list[Card], placed_ids: set[tuple[int, str, int]], remaining: list[Card]
) -> tuple[list[str], list[int]]:
    """The judged move made: the table, the singles and the hand change; the laid cards'
    tokens (in table order) and the new groups' indices, as `s.last` tells them."""
    hand = s.hands[seat]
    table_before = s.table
    s.table = groups
    s.singles = unused_singles
    s.hands[seat] = remaining
    s.first_lay_done[seat] = True
    s.passes = 0
    s.draft = None
    s.hint = None
    new_groups = unmatched_groups(groups, table_before)
    # told in the order a group is shown in (8♠ 9♠ 10♠: table order), not the hand's
    where = {
        c.ident: (g, i)
        for g, group in enumerate(groups)
        for i, c in enumerate(canonical(rules, group))
    }
    placed = sorted((c for c in hand if c.ident in placed_ids), key=lambda c: where[c.ident])
    tokens = [c.token for c in placed]
    s.last = {"seat": seat, "kind": "laid", "groups": new_groups, "placed": tokens}
    return tokens, new_groups


def _after_lay(
    s: GameState, rules: Rulebook, seat: int, laid: int, knock: bool
) -> list[Event]:
    """After a lay: out of cards ends the round, a knock too; else the draw after laying
    (where the rules have one) and the next turn."""
    if not s.hands[seat]:
        return _end_round(s, rules, went_out=seat)
    if knock:
        return [Event("knocked", seat, {"laid": laid}), *_end_round(s, rules, knocker=seat)]
    events = []
    if rules.turn_style.draw_after_lay:
        drawn = _draw_cards(s, seat, rules.turn_style.draw_after_lay)
        if drawn:
            events.append(_drew(seat, drawn))
    return events + _end_turn(s, rules)


def unmatched_groups(groups: Sequence[Sequence[Card]],
                     among: Sequence[Sequence[Card]]) -> list[int]:
    """Indices of `groups` that `among` does not hold card for card (each match used once)."""
    remaining = Counter(tuple(sorted(c.ident for c in g)) for g in among)
    out = []
    for i, g in enumerate(groups):
        key = tuple(sorted(c.ident for c in g))
        if remaining[key] > 0:
            remaining[key] -= 1
        else:
            out.append(i)
    return out


def _designate_jokers(
    s: GameState, rules: Rulebook, groups: list[list[Card]], choices: dict[int, tuple[str, ...]]
) -> list[list[Card]]:
    """Fix every free joker: automatically when one card fits, from `choices` otherwise
    (§4.9). A table joker whose real card is now on the table is free to be fixed anew."""
    if not any(c.is_joker for g in groups for c in g):
        return groups
    real_faces = {c.face for g in groups for c in g if not c.is_joker}
    hand_faces = Counter(c.face for c in s.hands[s.turn])
    table_faces = Counter(c.face for g in s.table for c in g) + Counter(c.face for c in s.singles)
    out = []
    for i, group in enumerate(groups):
        found = readings(group, rules.ace, max_jokers=rules.max_jokers_per_group)
        if not found and rules.joker_rule == "rack-frees":
            group = refloat(rules, s.table, group)  # a missing colour added to a floater's
            found = readings(group, rules.ace, max_jokers=rules.max_jokers_per_group)
        if not found and any(c.designated for c in group):

            def freed(c: Card) -> bool:
                if not c.designated:
                    return False
                if rules.joker_rule == "rack-frees":  # Rummikub: a rack tile frees it
                    home = next((g for g in s.table if any(x.ident == c.ident for x in g)), [])
                    laid = Counter(x.face for g in groups for x in g)
                    return any(hand_faces[f] > 0 and laid[f] > table_faces[f]
                               for f in freeing_faces(home, c))
                if rules.joker_rule == "locks-group":
                    return hand_faces[c.play_face] > 0 and (
                        Counter(x.face for g in groups for x in g)[c.play_face]
                        > table_faces[c.play_face]
                    )
                return c.play_face in real_faces

            group = [c.free() if freed(c) else c for c in group]
            found = readings(group, rules.ace, max_jokers=rules.max_jokers_per_group)
        if not found or not any(c.is_joker and not c.designated for c in group):
            out.append(group)  # valid as it is, or invalid: check_move explains
            continue
        options = sorted({r.joker_faces for r in found})
        if rules.joker_rule == "rack-frees" and _floating_set(group, found):
            options = options[:1]  # either missing colour: nobody names one (§5 decision 3)
        chosen = choices.get(i)
        if len(options) > 1:
            wanted = _choice(rules, chosen) if chosen else None
            # a reading lists a set's jokers by suit order, a choice by sorting: compare sorted
            wanted = next((o for o in options if sorted(o) == sorted(wanted or ())), None)
            if wanted is None:
                raise _joker_question(
                    i, [tuple(_face_text(rules, f) for f in opt) for opt in options])
            options = [wanted]
        reading = next(r for r in found if r.joker_faces == options[0])
        out.append(designate(group, reading))
    return out


def _floating_set(group: Sequence[Card], found: Sequence[Reading]) -> bool:
    """A new Rummikub group of three of one number with one free joker: it floats."""
    free = sum(c.is_joker and not c.designated for c in group)
    return len(group) == 3 and free == 1 and all(r.kind == "set" for r in found)


READINGS_JUDGED = 256  # joker readings one Done may judge (each is a check_move)


def _legal_reading(
    s: GameState, rules: Rulebook, groups: list[list[Card]],
    choices: dict[int, tuple[str, ...]], judge: Callable[[list[list[Card]]], MoveCheck],
) -> list[list[Card]]:
    """The groups read so that the move is legal (§4.9, §5 decision 3): what a free joker
    stands for is part of the move — in an initial meld it decides the value. The one legal
    reading is taken; among several the player is asked, offered only the legal ones; with
    none, the first reading's fault is the answer."""
    legal: list[tuple[dict[int, tuple[str, ...]], list[list[Card]]]] = []
    fault: MoveCheck | None = None
    first: JokerChoiceNeeded | None = None
    pending, judged = [dict(choices)], 0
    while pending and judged < READINGS_JUDGED:
        answers = pending.pop()
        try:
            read = _designate_jokers(s, rules, groups, answers)
        except JokerChoiceNeeded as ask:
            first = first or ask
            if ask.group in answers and answers != choices:
                continue  # (never: each option offered is one the question accepts)
            pending += [{**answers, ask.group: opt} for opt in reversed(ask.options)]
            continue
        judged += 1
        check = judge(read)
        if check.ok:
            legal.append((answers, read))
        elif fault is None:
            fault = check
    if not legal:
        if fault is not None:
            raise fault.error()
        raise first or AssertionError("no reading was judged")
    for group in sorted(legal[0][0]):
        options = list(dict.fromkeys(answers[group] for answers, _ in legal))
        if len(options) > 1:
            raise _joker_question(group, options)
    return legal[0][1]


def _joker_question(group: int, options: Sequence[tuple[str, ...]]) -> JokerChoiceNeeded:
    return JokerChoiceNeeded(
        group,
        list(options),
        f"Choose what the joker in group {group_label(group)} stands for: "
        + " or ".join(" ".join(opt) for opt in options),
    )


def _face_text(rules: Rulebook, face: tuple[int, str]) -> str:
    if rules.tiles:
        return tile_face_text(*face)
    return f"{rank_name(face[0])}{face[1]}"


def _choice(rules: Rulebook, chosen: Sequence[str] | str) -> tuple[tuple[int, str], ...] | None:
    items = [chosen] if isinstance(chosen, str) else list(chosen)
    parse = parse_tile_face if rules.tiles else parse_face
    try:
        return tuple(sorted(parse(x) for x in items))
    except ValueError:
        return None


# -- turns, rounds, game end ----------------------------------------------------------------


def _end_turn(s: GameState, rules: Rulebook) -> list[Event]:
    if rules.turn_style.stock_out == "final_turns":
        if s.final_turns is not None:
            s.final_turns -= 1
            if s.final_turns <= 0:
                return _end_round(s, rules)
        elif not s.stock:  # whoever drew the last card did not knock: one more turn each
            s.final_turns = s.players
    s.turn = (s.turn + 1) % s.players
    start_turn(s)
    return [Event("turn", s.turn, {"final": s.final_turns is not None})]


def _end_round(
    s: GameState, rules: Rulebook, *, went_out: int | None = None, knocker: int | None = None
) -> list[Event]:
    score = score_round(rules, s.hands, went_out=went_out, knocker=knocker)
    for i, p in enumerate(score.points):
        s.scores[i] += p
    for w in score.winners:
        s.round_wins[w] += 1
    s.rounds.append(
        {
            "points": list(score.points),
            "winners": list(score.winners),
            "how": score.how,
            "values": list(score.hand_values),
        }
    )
    start_turn(s)
    s.phase = "round_over"
    events = [
        Event(
            "round_over",
            None,
            {
                "round": s.round,
                "points": list(score.points),
                "winners": list(score.winners),
                "how": score.how,
                "scores": list(s.scores),
            },
        )
    ]
    result = _game_result(s, rules)
    if result is not None:
        s.phase = "game_over"
        s.result = result
        events.append(Event("game_over", None, dict(result)))
    return events


def _game_result(s: GameState, rules: Rulebook) -> dict[str, Any] | None:
    """The game's result after a round, or None while it goes on (`Rulebook.game_end`)."""
    end = rules.game_end
    if end.rounds == "one":
        last = s.rounds[-1]
        return {
            "winners": last["winners"],
            "totals": last["points"],
            "draw": len(last["winners"]) > 1,
        }
    if end.rounds == "open":
        return None  # Shanghai: open-ended until the players finish
    if end.rounds == "fixed":  # Rummikub: the chosen number of rounds, the highest total
        if s.round < rules.round_count:
            return None
        winners = rules.best(s.scores)
        return {"winners": winners, "totals": list(s.scores), "draw": len(winners) > 1}
    if max(s.scores) < rules.play_to:  # "target": somebody's score reached play_to
        return None
    totals = (
        carousel_final(s.scores, s.round_wins, rules.play_to) if end.end_bonuses
        else list(s.scores)
    )
    winners = rules.best(totals)
    if len(winners) > 1 and end.tie_at_target == "play_on":
        return None  # a shared best total: another round is played
    return {"winners": winners, "totals": totals, "draw": len(winners) > 1}


def _next_round(s: GameState) -> list[Event]:
    if s.phase != "round_over":
        if s.phase == "play":
            raise IllegalAction("The round is still being played", code="round_in_play")
        raise IllegalAction("The game is over", code="game_over")
    s.round += 1
    deal_round(s, deck_order(s.rules, s.players, s.seed, s.round))
    return [Event("round_started", None, {"round": s.round, "turn": s.turn})]


def _finish(s: GameState) -> list[Event]:
    rules = s.rules
    if not rules.game_end.finish_by_choice:
        raise IllegalAction("This game ends by its own rules, not by choice",
                            code="finish_not_by_choice")
    if s.phase != "round_over":
        raise IllegalAction("Finish after the round is over", code="finish_before_round_over")
    winners = rules.best(s.scores)
    s.phase = "game_over"
    s.result = {"winners": winners, "totals": list(s.scores), "draw": len(winners) > 1}
    return [Event("game_over", None, dict(s.result))]


# -- what a seat may do and see -------------------------------------------------------------


def legal_actions(state: GameState, seat: int) -> list[str]:
    """The kinds of action open to `seat` now (the buttons to show)."""
    if state.phase == "round_over":
        finish = state.rules.game_end.finish_by_choice
        return ["next_round", "finish"] if finish else ["next_round"]
    if state.phase != "play" or seat != state.turn:
        return []
    rules = state.rules
    changed = drafts.gives_up(state)
    out = ["place", "take", "move", "split", "set_draft", "hint"]
    style = rules.turn_style
    if style.draw_first:  # Carousel
        final = state.final_turns is not None
        if final or state.draws >= 1:
            out.append("commit")
        if not final and state.stock and state.draws < style.draw_limit:
            out.append("draw")
        if final or (state.draws >= 1 and not state.stock):
            out.append("pass")
        if style.knock and not final and 1 <= state.draws < style.draw_limit:
            left = drafts.draft_hand(state, seat)
            if rules.hand_value(left) <= rules.knock_limit:
                out.append("knock")
        out.append("reset")
        return out
    out.append("commit")
    if state.stock:
        if not (rules.give_back and changed):
            out.append("draw")
    else:
        out.append("pass")
    out.append("give_up" if rules.give_back and changed else "reset")
    return out


@dataclass(frozen=True)
class PlayerView:
    """What one seat may see (OpenSpiel's observer): no other hand, no stock order."""

    seat: int
    rulebook: str
    options: dict[str, Any]
    round: int
    phase: str
    turn: int
    stock: int
    table: tuple[tuple[Card, ...], ...]
    singles: tuple[Card, ...]
    hand: tuple[Card, ...]
    hand_counts: tuple[int, ...]
    scores: tuple[int, ...]
    draft: Draft | None
    draft_hand: tuple[Card, ...]
    changed: frozenset[int]
    legal: tuple[str, ...]
    draws: int
    first_lay_done: bool
    final_turns: int | None
    hint: dict[str, Any] | None
    last: dict[str, Any] | None
    rounds: tuple[dict[str, Any], ...]
    result: dict[str, Any] | None
    version: int
    reminded: bool
    give_up_armed: bool

    @property
    def rules(self) -> Rulebook:
        return get_rulebook(self.rulebook, **self.options)

    @property
    def my_turn(self) -> bool:
        return self.phase == "play" and self.turn == self.seat


def player_view(state: GameState, seat: int) -> PlayerView:
    mine = seat == state.turn
    return PlayerView(
        seat=seat,
        rulebook=state.rulebook,
        options=dict(state.options),
        round=state.round,
        phase=state.phase,
        turn=state.turn,
        stock=len(state.stock),
        table=tuple(tuple(g) for g in state.table),
        singles=tuple(state.singles),
        hand=tuple(state.hands[seat]),
        hand_counts=tuple(len(h) for h in state.hands),
        scores=tuple(state.scores),
        draft=copy.deepcopy(state.draft) if mine else None,
        draft_hand=tuple(drafts.draft_hand(state, seat)),
        changed=frozenset(drafts.changed_groups(state)) if mine else frozenset(),
        legal=tuple(legal_actions(state, seat)),
        draws=state.draws if mine else 0,
        first_lay_done=state.first_lay_done[seat],
        final_turns=state.final_turns,
        hint=state.hint if mine else None,
        last=state.last,
        rounds=tuple(state.rounds),
        result=state.result,
        version=state.version,
        reminded=state.reminded if mine else False,
        give_up_armed=state.give_up_armed if mine else False,
    )
