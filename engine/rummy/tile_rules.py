"""Rummikub's own rules of a lay (RULES.md §5): the initial meld, and the jokers a rack tile
frees. `check_move` (engine/rummy/moves.py) asks these after the groups themselves are valid.

Like the rest of the referee these compare faces (`7R`), not physical tiles: the two copies of
a tile are equal for play, so "the 7R from the rack went here, the table's 7R there" and the
other way round are the same table.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable, Sequence
from itertools import combinations, permutations
from typing import Any

from engine.cards import SUITS, Card

from .melds import readings
from .rulebooks import Rulebook

Group = Sequence[Card]


Fault = tuple[str, str, dict[str, Any]]  # (engine/rummy/reasons.py code, sentence, params)


def _fail(code: str, reason: str, **params: Any) -> Fault:
    return (code, reason, params)


def _key(group: Group) -> tuple[str, ...]:
    """A group as laid: a joker standing for 7R (`*7R`) is not the 7R itself."""
    return tuple(sorted(map(str, group)))


def _faces(group: Iterable[Card]) -> Counter[str]:
    return Counter(c.face for c in group)  # a joker is "*" whatever it stands for


def new_groups(table: Sequence[Group], new_table: Sequence[Group]) -> tuple[list[int], list[int]]:
    """(indices of old groups not standing unchanged, indices of new groups that are no old
    group unchanged), each unchanged old group matched once."""
    remaining = Counter(_key(g) for g in table)
    fresh = []
    for i, g in enumerate(new_table):
        k = _key(g)
        if remaining[k] > 0:
            remaining[k] -= 1
        else:
            fresh.append(i)
    left = Counter(_key(g) for i, g in enumerate(new_table) if i not in set(fresh))
    changed = []
    for i, g in enumerate(table):
        k = _key(g)
        if left[k] > 0:
            left[k] -= 1
        else:
            changed.append(i)
    return changed, fresh


def meld_value(rulebook: Rulebook, group: Group) -> int:
    """The numbers of the group's tiles added up, a joker counting as the tile it stands for
    (decision 1); a free joker as the most it could stand for here."""
    if all(not c.is_joker or c.designated for c in group):
        return sum(c.play_rank for c in group)
    real = sum(c.rank for c in group if not c.is_joker)
    fills = [sum(r for r, _ in reading.joker_faces) for reading in readings(group, rulebook.ace)]
    return real + sum(c.as_rank for c in group if c.designated) + max(fills, default=0)


def initial_meld_fault(
    rulebook: Rulebook, table: Sequence[Group], new_table: Sequence[Group],
    placed: Counter[str],
) -> Fault | None:
    """Why this lay is no initial meld (code, sentence, params), or None when it is one: new
    combinations from the rack alone worth `first_lay_points`, the table's combinations left
    as they were (decision 2) — with `initial_may_add` anything else once those are down."""
    need = rulebook.first_lay_points
    changed, fresh = new_groups(table, new_table)
    if changed and not rulebook.initial_may_add:
        return _fail("initial_meld_table_touched",
                     "Your initial meld must be new combinations from your rack only: the "
                     "table's combinations can't be changed or added to on that turn",
                     groups=changed)
    # The new combinations made of rack tiles alone; the best set of them that the rack's
    # laid tiles can all fill at once is the initial meld (without may_add: all of them).
    own = [i for i in fresh if all(placed[f] >= n for f, n in _faces(new_table[i]).items())]
    best = 0
    for size in range(len(own), 0, -1):
        for chosen in combinations(own, size):
            used = sum((_faces(new_table[i]) for i in chosen), Counter())
            if all(placed[f] >= n for f, n in used.items()):
                best = max(best, sum(meld_value(rulebook, new_table[i]) for i in chosen))
    if best < need:
        return _fail("initial_meld_too_low",
                     f"Your initial meld must be worth at least {need} from your rack alone "
                     f"(this is {best})",
                     value=best, need=need)
    return None


def freeing_faces(table_group: Group, joker: Card) -> set[str]:
    """The rack tiles that free this table joker (decision 3): in a group of three of one
    number, either missing colour; otherwise exactly the tile it stands for."""
    if len(table_group) == 3 and len({c.play_rank for c in table_group}) == 1:
        # by identity of the physical tile: the caller's joker may be a copy from a new table
        present = {c.play_suit for c in table_group if c.ident != joker.ident}
        if len(present) == 2:
            return {joker.free().designate(joker.as_rank, s).play_face
                    for s in SUITS if s not in present}
    return {joker.play_face}


def floats(group: Group, joker: Card) -> bool:
    """A joker in a group of three of one number floats (decision 3): it stands for either
    missing colour, and nobody names one while it floats (the engine keeps one of the two)."""
    return len(freeing_faces(group, joker)) > 1


def refloat(rulebook: Rulebook, table: Sequence[Group], group: list[Card]) -> list[Card]:
    """`group` with a floating table joker standing for its home group's other missing colour
    when the group reads only so: its own colour was added for real, and the joker is now the
    last colour (decision 3). Else `group` as it is."""
    if readings(group, rulebook.ace, max_jokers=rulebook.max_jokers_per_group):
        return group
    for k, joker in enumerate(group):
        home = next((g for g in table if any(x.ident == joker.ident for x in g)), None)
        if home is None or not joker.designated or not floats(home, joker):
            continue
        present = {c.play_suit for c in home if c.ident != joker.ident}
        for suit in (x for x in SUITS if x not in present and x != joker.as_suit):
            turned = [*group[:k], joker.designate(joker.as_rank, suit), *group[k + 1:]]
            if readings(turned, rulebook.ace, max_jokers=rulebook.max_jokers_per_group):
                return turned
    return group


def _kept(home: Group, joker: Card, moved: Card, group: Group) -> bool:
    """Did the table joker stay, standing for what it stood for? `moved` is the joker as it is
    in `group` of the new table. It stays while it keeps its tile (a floating joker may turn the
    other missing colour when that colour's real tile joins its group of three, decision 3) and
    its combination: `group` still holds a tile that was with it. A joker in a combination of
    none of its old tiles has left it — whatever it stands for there — and only its tile from
    the rack frees it; a tile already on the table that takes its place never does."""
    if not moved.designated:
        return False
    companions = _faces(c for c in home if not c.is_joker)
    reals = _faces(c for c in group if not c.is_joker)
    if not companions & reals:
        return False  # it left its combination
    if moved.play_face == joker.play_face:
        return True
    # a floater turned the last colour: its group of three whole, that colour's tile beside it
    return (floats(home, joker) and moved.play_face in freeing_faces(home, joker)
            and all(c.play_rank == joker.as_rank for c in group)
            and all(reals[f] >= n for f, n in companions.items()))


def _rack_tiles_fit(homes: Sequence[Group], spare: Counter[str]) -> bool:
    """Can each of these combinations hold two tiles laid from the rack, no rack tile counted
    twice (`spare`: the faces laid, less those that freed jokers)? A transport problem with
    demand 2 per combination: feasible iff every set S of them finds 2·|S| tiles
    (sum over faces of min(spare, what S holds of that face)). Two jokers: at most 3 sets."""
    holds = [_faces(c for c in g if not c.is_joker) for g in homes]
    for size in range(1, len(homes) + 1):
        for chosen in combinations(range(len(homes)), size):
            held = sum((holds[i] for i in chosen), Counter())
            if sum(min(n, spare[f]) for f, n in held.items()) < 2 * size:
                return False
    return True


def joker_fault(
    table: Sequence[Group], new_table: Sequence[Group], placed: Counter[str]
) -> Fault | None:
    """Rummikub's table jokers (decision 3), or None when they are kept: each stays with its
    combination and its tile unless a tile laid from the rack frees it (a table tile never
    does), and a freed joker goes into a combination new to the table holding at least two
    tiles laid from the rack in this move.

    The two jokers are equal for play, like the two copies of a tile: the move is legal when
    some way of telling which table joker went where makes it so."""
    old = [(g, c) for g in table for c in g if c.is_joker and c.designated]
    if not old:
        return None
    spots = [(i, c) for i, g in enumerate(new_table) for c in g if c.is_joker]
    old_keys = Counter(_key(g) for g in table)
    fault: Fault | None = None
    # The joker's own identity first: in a game it is the physical tile that moved.
    orders = sorted(permutations(range(len(spots)), len(old)), key=lambda order: sum(
        spots[k][1].ident != old[n][1].ident for n, k in enumerate(order)))
    for order in orders:
        found = _judge_jokers(old, [spots[k] for k in order], new_table, old_keys, placed)
        if found is None:
            return None
        fault = fault or found
    return fault


def _judge_jokers(old, spots, new_table, old_keys, placed) -> Fault | None:
    """The joker rules with old joker n now at spots[n] (new group index, the joker there)."""
    spare = Counter({f: n for f, n in placed.items() if f != "*"})
    homes: list[int] = []
    for (home, joker), (where, moved) in zip(old, spots, strict=True):
        if _kept(home, joker, moved, new_table[where]):
            continue
        frees = sorted(freeing_faces(home, joker))
        use = next((f for f in frees if spare[f] > 0), None)
        if use is None:
            face = joker.play_face
            if moved.designated and moved.play_face == face:
                return _fail("joker_left_group",
                             f"The joker standing for {face} can't leave its combination: only "
                             f"{' or '.join(frees)} laid from your rack in its place frees it (a "
                             "tile already on the table never does)",
                             face=face, frees=frees)
            return _fail("joker_needs_rack_tile",
                         f"The joker standing for {face} keeps standing for it: only that "
                         "tile laid from your rack frees it",
                         face=face)
        spare[use] -= 1
        homes.append(where)
    if not homes:
        return None
    groups = [new_table[i] for i in sorted(set(homes))]
    if any(old_keys[_key(g)] for g in groups) or not _rack_tiles_fit(groups, spare):
        return _fail("freed_joker_needs_new_group",
                     "A joker you free must go, this same move, into a new combination with "
                     "at least two tiles from your rack",
                     freed=len(homes))
    return None
