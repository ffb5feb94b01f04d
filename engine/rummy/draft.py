"""The private copy: edits a seat makes to its working arrangement before Done (RULES.md §1).

Functions here take the state (already copied by `game.apply`) and change its draft in place.
Cards the player names are matched by face against what they may use, so `7H` picks either
copy; a designated joker is named by what it stands for (`*7H`), a free one by `*`.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable, Sequence

from engine.cards import Card, rank_order

from .actions import IllegalAction
from .melds import table_order
from .moves import group_label
from .rulebooks import Rulebook
from .state import Draft, GameState
from .tile_rules import refloat
from .tiles import piece_from_token


def ensure_draft(state: GameState) -> Draft:
    if state.draft is None:
        state.draft = Draft([list(g) for g in state.table], [], list(state.singles))
    return state.draft


def draft_differs(state: GameState) -> bool:
    """Does the private copy differ from the table? (Give up (+3) replaces Reset then.)"""
    d = state.draft
    if d is None:
        return False
    if d.loose:
        return True
    return _multiset(d.groups) != _multiset(state.table) or Counter(
        c.ident for c in d.singles
    ) != Counter(c.ident for c in state.singles)


def gives_up(state: GameState) -> bool:
    """Is taking the private copy back giving up (Give up (+3) instead of Reset)? Only for
    the player's own edits: the hint's lay that Show me placed goes back freely (a hint never
    changes what the buttons mean)."""
    if not draft_differs(state):
        return False
    lay = (state.hint or {}).get("lay")
    if not lay or state.draft is None or state.draft.loose:
        return True
    shown = [[piece_from_token(t) for t in g] for g in lay if len(g) > 1]  # (not the singles)
    return _multiset(state.draft.groups) != _multiset(shown)


def _multiset(groups: Sequence[Sequence[Card]]) -> Counter:
    return Counter(tuple(sorted(c.ident for c in g)) for g in groups)


def draft_hand(state: GameState, seat: int) -> list[Card]:
    """The seat's hand cards not yet placed in its draft."""
    hand = state.hands[seat]
    if state.draft is None or seat != state.turn:
        return list(hand)
    used = {c.ident for c in state.draft.cards()}
    return [c for c in hand if c.ident not in used]


def changed_groups(state: GameState) -> set[int]:
    """Draft groups that are not a table group unchanged."""
    if state.draft is None:
        return set()
    remaining = Counter(tuple(sorted(c.ident for c in g)) for g in state.table)
    out = set()
    for i, g in enumerate(state.draft.groups):
        key = tuple(sorted(c.ident for c in g))
        if remaining[key] > 0:
            remaining[key] -= 1
        else:
            out.add(i)
    return out


def tidy(rulebook: Rulebook, group: list[Card]) -> list[Card]:
    """Lay a group out in table order when it is valid as designated; else by rank."""
    ordered = table_order(rulebook, group)
    return sorted(group, key=rank_order) if ordered is None else ordered


def take_matching(pool: list[Card], wanted: Card, what: str) -> Card:
    """Remove and return the card of `pool` that `wanted` names (exact copy first)."""
    for i, card in enumerate(pool):
        if card == wanted:
            return pool.pop(i)
    for i, card in enumerate(pool):
        if _names(wanted, card):
            return pool.pop(i)
    raise IllegalAction(f"There is no {wanted.pretty()} {what}", code="no_such_card",
                        card=str(wanted))


def _names(wanted: Card, card: Card) -> bool:
    if wanted.is_joker:
        if not card.is_joker:
            return False
        return not wanted.designated or wanted.play_face == card.play_face or not card.designated
    return card.face == wanted.face


def _group(draft: Draft, index: int) -> list[Card]:
    if not 0 <= index < len(draft.groups):
        raise IllegalAction(f"There is no group {group_label(index)}", code="no_such_group",
                            group=index)
    return draft.groups[index]


def _clean(state: GameState, draft: Draft) -> None:
    rules = state.rules
    if rules.joker_rule == "rack-frees":  # a floating joker turns the last colour at once
        draft.groups = [refloat(rules, state.table, g) for g in draft.groups]
    draft.groups = [tidy(rules, g) for g in draft.groups if g]


def place(state: GameState, seat: int, cards: Iterable[Card], group: int | None) -> None:
    draft = ensure_draft(state)
    sources = [draft.loose, draft_hand(state, seat), draft.singles]
    chosen = []
    for wanted in cards:
        for source in sources:
            try:
                card = take_matching(source, wanted, "")
            except IllegalAction:
                continue
            if source is draft.loose or source is draft.singles:
                pass  # removed from the draft's own list already
            chosen.append(_as_asked(card, wanted))  # a typed designation (`*11O`) is kept
            break
        else:
            raise IllegalAction(f"You have no {wanted.pretty()} to place",
                                code="card_not_available", card=str(wanted))
    if not chosen:
        raise IllegalAction("Select the cards to place first", code="nothing_selected")
    if group is None:
        draft.groups.append(chosen)
    else:
        _group(draft, group).extend(chosen)
    _clean(state, draft)


def take(state: GameState, seat: int, group: int, wanted: Card) -> None:
    draft = ensure_draft(state)
    cards = _group(draft, group)
    card = take_matching(cards, wanted, f"in group {group_label(group)}")
    hand = {c.ident for c in state.hands[seat]}
    if card.ident in hand:
        pass  # a hand card placed this turn simply goes back to the hand
    elif any(c.ident == card.ident for c in state.singles):
        draft.singles.append(card)
    else:
        draft.loose.append(card)
    _clean(state, draft)


def move(state: GameState, cards: Sequence[Card], source: int, target: int | None) -> None:
    draft = ensure_draft(state)
    origin = _group(draft, source)
    moving = [take_matching(origin, c, f"in group {group_label(source)}") for c in cards]
    if not moving:
        raise IllegalAction("Name the cards to move", code="move_needs_cards")
    if target is None:
        draft.groups.append(moving)
    else:
        _group(draft, target).extend(moving)
    _clean(state, draft)


def split(state: GameState, group: int, at: int) -> None:
    draft = ensure_draft(state)
    cards = _group(draft, group)
    if not 1 <= at < len(cards):
        raise IllegalAction(
            f"Group {group_label(group)} has {len(cards)} cards: split it after card 1 to "
            f"{len(cards) - 1}",
            code="split_out_of_range",
            group=group,
            at=at,
        )
    draft.groups[group] = cards[:at]
    draft.groups.append(cards[at:])
    _clean(state, draft)


def set_draft(state: GameState, seat: int, arrangement: Sequence[Sequence[Card]]) -> None:
    """Replace the draft: table cards left out go loose, unused singles stay singles."""
    table_pool = [c for g in state.table for c in g]
    singles_pool = list(state.singles)
    hand_pool = list(state.hands[seat])
    groups = resolve_all(arrangement, table_pool, singles_pool, hand_pool)
    groups, singles = keep_singles(groups, state.singles, singles_pool)
    rules = state.rules
    state.draft = Draft([tidy(rules, g) for g in groups if g], table_pool, singles)


def keep_singles(
    groups: list[list[Card]], singles: Sequence[Card], left_out: list[Card]
) -> tuple[list[list[Card]], list[Card]]:
    """Tahiti: an arrangement may give an unused single as a 1-card group (the solver's table
    does) or leave it out; either way it stays a single. The groups, and the unused singles."""
    kept = [g for g in groups if not (len(g) == 1 and g[0] in singles)]
    return kept, [g[0] for g in groups if len(g) == 1 and g[0] in singles] + left_out


def resolve_all(arrangement: Sequence[Sequence[Card]], *pools: list[Card]) -> list[list[Card]]:
    """`resolve` for every card of an arrangement, taking them out of the pools. A computer's
    arrangement names the pools' very Card objects: those are found at once (each physical
    card is in one place only, so `resolve` would find the same one)."""
    where = {id(c) for pool in pools for c in pool}
    wanted_ids = [id(c) for g in arrangement for c in g]
    if len(set(wanted_ids)) == len(wanted_ids) and where.issuperset(wanted_ids):
        taken = set(wanted_ids)
        for pool in pools:
            pool[:] = [c for c in pool if id(c) not in taken]
        return [list(g) for g in arrangement]
    return [[resolve(wanted, *pools) for wanted in g] for g in arrangement]


def resolve(wanted: Card, *pools: list[Card]) -> Card:
    """Find the physical card `wanted` names, preferring the earlier pools (table first:
    every table card must stay on the table). A designated joker keeps the designation asked
    for, so a freed joker can be fixed anew; a joker named by its tile (a computer's move) is
    that tile, so a rack joker laid beside a table joker never takes the table joker's place
    (issue 45: where each joker came from stays true)."""
    for pool in pools:
        for i, card in enumerate(pool):
            if card.ident == wanted.ident and card.play_face == wanted.play_face:
                return _as_asked(pool.pop(i), wanted)
    if wanted.is_joker and wanted.designated:
        for pool in pools:
            for i, card in enumerate(pool):
                if card.is_joker and card.play_face == wanted.play_face:
                    return pool.pop(i)
    if wanted.is_joker:  # the very joker, fixed anew: never the other one in its place
        for pool in pools:
            for i, card in enumerate(pool):
                if card.ident == wanted.ident:
                    return _as_asked(pool.pop(i), wanted)
    for pool in pools:
        for i, card in enumerate(pool):
            if _names(wanted, card) or (wanted.is_joker and card.is_joker):
                return _as_asked(pool.pop(i), wanted)
    raise IllegalAction(f"You have no {wanted.pretty()}", code="card_not_available",
                        card=str(wanted))


def _as_asked(card: Card, wanted: Card) -> Card:
    if card.is_joker and wanted.is_joker:
        return card.designate(wanted.as_rank, wanted.as_suit) if wanted.designated else card
    return card
