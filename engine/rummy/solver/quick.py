"""Quick answers for "any" and "hint" that need no search (engine/rummy/solver/fast.py does the
rest).

The hint's order is: fewest changed groups, then fewest cards. So
- three hand cards that form a group by themselves change nothing: no lay beats them;
- failing that, one hand card that grows one group (or splits a run around itself) changes one
  group with one card: nothing beats that either.
Every candidate is checked by check_move before it is used. When neither exists, the caller
searches. Vatican's first lay needs a run of three real hand cards, so there it is that run or
nothing at all.
"""

from __future__ import annotations

from collections.abc import Iterator, Sequence
from itertools import combinations

from engine.cards import Card

from ..melds import designate, readings
from ..moves import MoveCheck, check_move
from ..rulebooks import Rulebook
from .model import card_face, value_range


def quick_lay(
    rulebook: Rulebook,
    table: list[list[Card]],
    hand: list[Card],
    *,
    objective: str,
    first_lay_done: bool,
    singles: Sequence[Card],
) -> tuple[list[list[Card]], tuple[Card, ...], MoveCheck] | bool | None:
    """(new table, hand cards laid, check_move's verdict) for a provably best hint or a legal
    "any"; False when it is proven that no lay exists (Vatican's first lay); None when only a
    search can tell.

    With a joker in play a hint can't be decided here: a joker may take the place of a card
    in a group that then "stays unchanged" (same faces), so a lay can change nothing without
    being a group of hand cards."""
    if objective == "hint" and (any(c.is_joker for c in hand) or
                                any(c.is_joker for g in table for c in g)):
        return None
    first_lay = rulebook.first_lay_run3 and not first_lay_done
    for cards in _hand_groups(rulebook, hand, runs_only=first_lay):
        got = _try(rulebook, table, hand, [*table, cards], cards, first_lay_done, singles)
        if got:
            return got
    if first_lay:
        return False  # every lay holds a run of three real hand cards: there is none
    for index, group in _one_card_changes(rulebook, table, hand):
        new_table = [g if i != index else None for i, g in enumerate(table)]
        parts = group if isinstance(group[0], list) else [group]
        new_table[index] = parts[0]
        new_table = [g for g in new_table if g is not None] + parts[1:]
        got = _try(rulebook, table, hand, new_table, (), first_lay_done, singles)
        if got:
            return got
    return None


def _try(rulebook, table, hand, new_table, laid, first_lay_done, singles):
    check = check_move(rulebook, table, hand, new_table, first_lay_done=first_lay_done,
                       singles=singles)
    if not check.ok:
        return None
    # Hand cards by identity; hand jokers by their copy (a designated joker is a new object).
    ids = {id(c) for g in new_table for c in g}
    table_jokers = {c.copy for g in table for c in g if c.is_joker}
    new_jokers = {c.copy for g in new_table for c in g if c.is_joker} - table_jokers
    placed = tuple(c for c in hand if id(c) in ids or (c.is_joker and c.copy in new_jokers))
    return new_table, placed, check


def _designated(cards: list[Card], rulebook: Rulebook) -> list[Card] | None:
    """The group with its free jokers fixed (the first reading), in table order; None if it
    is not a group."""
    found = readings(cards, rulebook.ace, max_jokers=rulebook.max_jokers_per_group)
    if not found:
        return None
    runs = [r for r in found if r.kind == "run"]
    return designate(cards, (runs or found)[0])


def _hand_groups(rulebook: Rulebook, hand: list[Card], *, runs_only: bool) -> Iterator[list]:
    """Every group of three hand cards (jokers allowed, not for a first lay), designated."""
    real = [c for c in hand if not c.is_joker]
    jokers = [c for c in hand if c.is_joker]
    max_j = rulebook.max_jokers_per_group or 3
    low, high = value_range(rulebook.ace)
    seen: set[tuple[str, ...]] = set()

    def emit(cards: list[Card]):
        key = tuple(sorted(c.face for c in cards))
        if key in seen:
            return None
        seen.add(key)
        group = _designated(list(cards), rulebook)
        if group is None or (runs_only and not _is_run(group)):
            return None
        return group

    by_face: dict[int, Card] = {}
    for c in real:
        by_face.setdefault(card_face(c), c)
    # Runs of three real cards.
    for f, c in by_face.items():
        for v in ((1, 14) if c.rank == 1 else (c.rank,)):
            if not low <= v <= high - 2:
                continue
            others = [by_face.get(((1 if x == 14 else x) - 1) * 4 + f % 4) for x in (v + 1, v + 2)]
            if all(others):
                group = emit([c, *others])
                if group:
                    yield group
    if runs_only:
        return
    # Sets of three real cards.
    for rank in range(1, 14):
        suits = [by_face[(rank - 1) * 4 + s] for s in range(4) if (rank - 1) * 4 + s in by_face]
        if len(suits) >= 3:
            group = emit(suits[:3])
            if group:
                yield group
    # With jokers: two real cards and a joker, or one real card and two jokers.
    if jokers and max_j >= 1:
        for a, b in combinations(list(by_face.values()), 2):
            group = emit([a, b, jokers[0].free()])
            if group:
                yield _with_physical(group, jokers[:1])
    if len(jokers) >= 2 and max_j >= 2:
        for c in by_face.values():
            group = emit([c, jokers[0].free(), jokers[1].free()])
            if group:
                yield _with_physical(group, jokers[:2])


def _with_physical(group: list[Card], jokers: list[Card]) -> list[Card]:
    """The designated group, its jokers carrying their own copies (their identity)."""
    it = iter(jokers)
    return [next(it).designate(c.as_rank, c.as_suit) if c.is_joker else c for c in group]


def _is_run(group: list[Card]) -> bool:
    return not any(c.is_joker for c in group) and len({c.suit for c in group}) == 1


def _one_card_changes(rulebook: Rulebook, table: list[list[Card]], hand: list[Card]):
    """(group index, new group or [two groups]) for one hand card growing a group, then for
    one hand card splitting a run around itself."""
    jokers = [c for c in hand if c.is_joker]
    real = {}
    for c in hand:
        if not c.is_joker:
            real.setdefault(c.face, c)
    splits = []
    for i, group in enumerate(table):
        if len(group) < 3:
            continue
        n_jokers = sum(c.is_joker for c in group)
        for card in _growers(group, real, rulebook):
            grown = _designated([*group, card], rulebook)
            if grown is not None:
                yield i, grown
        if jokers and n_jokers < (rulebook.max_jokers_per_group or 3):
            grown = _designated([*group, jokers[0].free()], rulebook)
            if grown is not None:
                yield i, _with_physical_keep(grown, group, jokers[0])
        splits.append(i)
    for i in splits:
        for parts in _split_runs(table[i], real, rulebook):
            yield i, parts


def _with_physical_keep(grown: list[Card], group: list[Card], joker: Card) -> list[Card]:
    """Group `group` grown by a hand joker: its own jokers stay the very cards they were."""
    own = [c for c in group if c.is_joker]
    out = []
    for c in grown:
        if c.is_joker:
            match = next((o for o in own if o.as_rank == c.as_rank and o.as_suit == c.as_suit),
                         None)
            if match is not None:
                own.remove(match)
                out.append(match)
            else:
                out.append(joker.designate(c.as_rank, c.as_suit))
        else:
            out.append(c)
    return out


def _growers(group: list[Card], real: dict[str, Card], rulebook: Rulebook) -> list[Card]:
    """Hand cards that may fit at an end of the run or in the set (readings decide)."""
    ranks = {c.play_rank for c in group}
    suits = {c.play_suit for c in group}
    out = []
    if len(ranks) == 1:  # a set: the missing suits
        rank = next(iter(ranks))
        if len(group) < 4:
            out = [c for c in real.values() if c.rank == rank and c.suit not in suits]
        return out
    if len(suits) != 1:
        return out
    suit = next(iter(suits))
    values = {14 if r == 1 else r for r in ranks} | ({1} if 1 in ranks else set())
    for card in real.values():
        if card.suit != suit or card.rank in ranks:
            continue
        mine = (1, 14) if card.rank == 1 else (card.rank,)
        if any(v - 1 in values or v + 1 in values for v in mine):
            out.append(card)
    return out


def _split_runs(group: list[Card], real: dict[str, Card], rulebook: Rulebook):
    """[left, right]: a run of five or more cut around a hand card equal to an inner card."""
    if len(group) < 5 or len({c.play_suit for c in group}) != 1:
        return
    found = readings(group, rulebook.ace)
    runs = [r for r in found if r.kind == "run"]
    if not runs:
        return
    from ..melds import arrange

    ordered = arrange(group, runs[0])
    for i in range(2, len(ordered) - 2):
        inner = ordered[i]
        card = real.get(f"{_rank_text(inner.play_rank)}{inner.play_suit}")
        if card is None:
            continue
        yield [ordered[: i + 1], [card, *ordered[i + 1:]]]


def _rank_text(rank: int) -> str:
    return {1: "A", 11: "J", 12: "Q", 13: "K"}.get(rank, str(rank))


__all__ = ["quick_lay"]
