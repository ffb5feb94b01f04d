"""The easy computer player's eye: only the obvious lays — new melds from the hand (Tahiti: with
the face-up singles), cards added to the ends of runs and to sets. It never rearranges the table
and never calls the solver, so it is instant and beatable.
"""

from __future__ import annotations

from collections.abc import Sequence
from itertools import combinations

from engine.cards import SUITS, Card

from ..melds import arrange, designate, readings
from ..moves import check_move
from ..rulebooks import Rulebook

Groups = list[list[Card]]


def obvious_lay(
    rules: Rulebook,
    table: Sequence[Sequence[Card]],
    singles: Sequence[Card],
    hand: Sequence[Card],
    first_lay_done: bool,
) -> Groups | None:
    """The whole new table (unused singles as 1-card groups) for the obvious lay, or None."""
    old = [list(g) for g in table] + [[c] for c in singles]
    for melds, extend in ((True, True), (True, False), (False, True)):
        new = _build(rules, table, singles, hand, first_lay_done, melds=melds, extend=extend)
        if new is None:
            continue
        check = check_move(
            rules, old, list(hand), new, first_lay_done=first_lay_done, singles=singles
        )
        if check.ok and not check.needs_rearranging:
            return new
    return None


def _build(
    rules: Rulebook,
    table: Sequence[Sequence[Card]],
    singles: Sequence[Card],
    hand: Sequence[Card],
    first_lay_done: bool,
    *,
    melds: bool,
    extend: bool,
) -> Groups | None:
    left = sorted(hand, key=lambda c: (c.is_joker, c.rank, c.suit, c.copy))
    free_singles = list(singles)
    new_groups: Groups = []
    if not first_lay_done:  # Vatican: a run of three real cards from the hand comes first
        run = _best_meld(rules, [c for c in left if not c.is_joker], runs_only=True)
        if run is None:
            return None
        new_groups.append(run)
        left = _without(left, run)
    if melds:
        while (meld := _best_meld(rules, [c for c in left if not c.is_joker])) is not None:
            new_groups.append(meld)
            left = _without(left, meld)
        for joker in [c for c in left if c.is_joker]:
            meld = _joker_meld(rules, [c for c in left if not c.is_joker], joker)
            if meld is not None:
                new_groups.append(meld)
                left = _without(left, meld)
        if free_singles:
            while (meld := _singles_meld(rules, left, free_singles)) is not None:
                new_groups.append(meld)
                left = _without(left, meld)
                free_singles = _without(free_singles, meld)
    groups = [list(g) for g in table] + new_groups
    if extend:
        grown = True
        while grown:
            grown = False
            for card in [c for c in left if not c.is_joker]:
                for i, group in enumerate(groups):
                    if _valid(rules, [*group, card]):
                        groups[i] = [*group, card]
                        left = _without(left, [card])
                        grown = True
                        break
    if len(left) == len(hand):
        return None
    return [_tidy(rules, g) for g in groups] + [[c] for c in free_singles]


def _valid(rules: Rulebook, group: Sequence[Card]) -> bool:
    max_jokers = rules.max_jokers_per_group
    return len(group) >= 3 and bool(readings(group, rules.ace, max_jokers=max_jokers))


def _tidy(rules: Rulebook, group: list[Card]) -> list[Card]:
    """Canonical order, every free joker fixed (the first card that fits: the computer chooses
    itself, RULES.md §4.9)."""
    found = readings(group, rules.ace, max_jokers=rules.max_jokers_per_group)
    if not found:
        return group
    if any(c.is_joker and not c.designated for c in group):
        return designate(group, found[0])
    return arrange(group, found[0])


def _without(cards: Sequence[Card], gone: Sequence[Card]) -> list[Card]:
    ids = {c.ident for c in gone}
    return [c for c in cards if c.ident not in ids]


def _best_meld(rules: Rulebook, cards: list[Card], *, runs_only: bool = False) -> list[Card] | None:
    """The longest set or run of real cards (each face once), ties to the higher cards."""
    candidates: list[list[Card]] = []
    if not runs_only:
        by_rank: dict[int, dict[str, Card]] = {}
        for c in cards:
            by_rank.setdefault(c.rank, {}).setdefault(c.suit, c)
        candidates += [list(s.values()) for s in by_rank.values() if len(s) >= 3]
    # (wrap=on: easy sees no run past 13)
    aces = {"high": (14,), "low": (1,), "either": (1, 14), "ends": (1, 14),
            "wrap": (1,)}[rules.ace]
    for suit in SUITS:
        by_value: dict[int, Card] = {}
        for c in cards:
            if c.suit == suit:
                for v in aces if c.rank == 1 else (c.rank,):
                    by_value.setdefault(v, c)
        stretch: list[Card] = []
        for v in range(1, 16):
            if v in by_value and all(c is not by_value[v] for c in stretch):
                stretch.append(by_value[v])
                continue
            if len(stretch) >= 3:
                candidates.append(stretch)
            stretch = [by_value[v]] if v in by_value else []
    candidates = [g for g in candidates if _valid(rules, g)]
    if not candidates:
        return None
    return max(candidates, key=lambda g: (len(g), sum(rules.card_value(c) for c in g)))


def _joker_meld(rules: Rulebook, cards: list[Card], joker: Card) -> list[Card] | None:
    best = None
    for a, b in combinations(cards, 2):
        group = [a, b, joker]
        if _valid(rules, group):
            key = rules.card_value(a) + rules.card_value(b)
            if best is None or key > best[0]:
                best = (key, group)
    return best[1] if best else None


def _singles_meld(rules: Rulebook, hand: list[Card], singles: list[Card]) -> list[Card] | None:
    """Tahiti: three cards from the hand and the singles, at least one from the hand."""
    pool = [c for c in hand if not c.is_joker] + list(singles)
    single_ids = {c.ident for c in singles}
    best = None
    for trio in combinations(pool, 3):
        from_hand = sum(c.ident not in single_ids for c in trio)
        if from_hand and _valid(rules, list(trio)) and (best is None or from_hand > best[0]):
            best = (from_hand, list(trio))
    return best[1] if best else None
