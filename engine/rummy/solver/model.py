"""The solver's face-level model of a position (shared by every search in engine/rummy/solver/).

Cards of one face (`7H`) are interchangeable for play, so a search works on counts per face:
face index `f = (rank - 1) * 4 + suit` (0..51). Every group a table can hold is a `Template`:
its faces in canonical order (runs low to high, sets S H D C).

A position becomes one or more `Problem`s (the joker cases, see `build_problems`); the best
answer over the cases is the answer for the position. In a Problem:

- `table[f]`   real table cards of face f: must all be used;
- `hand_m[f]`  hand cards that must be laid (`select`, or a card that frees a joker in this case);
- `hand_o[f]`  hand cards that may be laid;
- `single[f]`  Tahiti singles: may be used (the single then counts as a changed group);
- `fixed`      table jokers that keep their card (they must be used, as exactly that face);
- `wild_m`     jokers that must be used as anything (freed table jokers, selected hand jokers);
- `wild_o`     hand jokers that may be laid as anything;
- `old_keys`   the old groups a new group may leave unchanged (sorted play faces);
- `base`       what the case fixes before any search (Tahiti locked groups, with their extension).
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass, field
from functools import cache
from itertools import combinations, product

from engine.cards import SUITS, Card

from ..melds import AcePolicy

NF = 52
SUIT_INDEX = {s: i for i, s in enumerate(SUITS)}


def face_of(rank: int, suit: str) -> int:
    return (rank - 1) * 4 + SUIT_INDEX[suit]


def face_rank(f: int) -> int:
    return f // 4 + 1


def face_suit(f: int) -> str:
    return SUITS[f % 4]


def value_face(value: int, suit: int) -> int:
    """The face of run value 1..14 (14 is the high ace) in suit index `suit`."""
    return ((1 if value == 14 else value) - 1) * 4 + suit


def card_face(card: Card) -> int:
    """Play face of a real card or a designated joker."""
    if card.rank:  # a real card (face_of(card.play_rank, card.play_suit), without the properties)
        return (card.rank - 1) * 4 + SUIT_INDEX[card.suit]
    return (card.as_rank - 1) * 4 + SUIT_INDEX[card.as_suit]


@dataclass(frozen=True, slots=True)
class Template:
    kind: str  # "set" | "run"
    faces: tuple[int, ...]  # canonical order
    key: tuple[int, ...]  # sorted faces: how check_move compares groups
    start: int  # runs: value of the lowest card (1..12), sets: 0
    suit: int  # runs: suit index, sets: -1
    rank: int  # sets: the rank, runs: 0
    wrap: bool = False  # a run that goes on from 13 to 1 (ace policy "wrap", Rummikub)


def value_range(ace: AcePolicy) -> tuple[int, int]:
    """The run values an ace policy uses ("wrap": those of "low"; its runs past 13 come on
    top, `templates`)."""
    return {"high": (2, 14), "low": (1, 13), "either": (1, 14), "ends": (1, 14),
            "wrap": (1, 13)}[ace]


@cache
def templates(ace: AcePolicy) -> tuple[Template, ...]:
    """Every valid group of real faces under an ace policy."""
    out: list[Template] = []
    low, high = value_range(ace)
    for s in range(4):
        for a in range(low, high - 1):
            for b in range(a + 2, high + 1):
                if ace == "either" and a == 1 and b == 14:
                    continue
                faces = tuple(value_face(v, s) for v in range(a, b + 1))
                out.append(Template("run", faces, tuple(sorted(faces)), a, s, 0))
    if ace == "wrap":  # 12-13-1, 13-1-2, …: at most 13 tiles
        for s in range(4):
            for n in range(3, 14):
                for a in range(15 - n, 14):
                    faces = tuple(value_face((a + i - 1) % 13 + 1, s) for i in range(n))
                    out.append(Template("run", faces, tuple(sorted(faces)), a, s, 0, True))
    for rank in range(1, 14):
        for n in (3, 4):
            for suits in combinations(range(4), n):
                faces = tuple((rank - 1) * 4 + s for s in suits)
                out.append(Template("set", faces, faces, 0, -1, rank))
    return tuple(out)


@cache
def templates_by_face(ace: AcePolicy) -> tuple[tuple[Template, ...], ...]:
    by: list[list[Template]] = [[] for _ in range(NF)]
    for t in templates(ace):
        for f in set(t.faces):
            by[f].append(t)
    return tuple(tuple(x) for x in by)


@dataclass(frozen=True, slots=True)
class FixedJoker:
    card: Card  # the physical table joker, designated
    face: int
    neighbours: frozenset[int] | None  # Vatican: faces it must stay beside (None: free to move)
    # Rummikub: the faces of the real tiles of its old combination, one of which must be in its
    # new one (RULES.md §5 decision 3: a joker that leaves its combination is not kept)
    companions: frozenset[int] | None = None
    whole: bool = False  # Rummikub: a floater turned the other missing colour: with all of them


@dataclass
class LockedChoice:
    """Tahiti: a locked group (joker not freed) kept, possibly extended with hand cards."""

    group: int  # old group index (-1: Rummikub, a freed joker's new group, see homed_cases)
    template: Template  # the group after extension
    added: tuple[int, ...]  # faces added from the hand
    joker: int = -1  # the face a freed table joker takes in it (group -1)
    taken: tuple[int, ...] = ()  # the table faces it takes (group -1)


@dataclass
class Problem:
    ace: AcePolicy
    max_jokers: int  # per group (99 = no limit)
    table: list[int]
    hand_m: list[int]
    hand_o: list[int]
    single: list[int]
    fixed: list[FixedJoker]
    wild_m: int
    wild_o: int
    wild_m_hand: int  # how many of wild_m are hand jokers (select): they are placed cards
    old_keys: Counter[tuple[int, ...]]
    n_old: int  # old groups, singles included
    triple: tuple[int, int] | None = None  # Vatican first lay: (suit, low value) to lay as a run
    locked: list[LockedChoice] = field(default_factory=list)
    freed_tables: list[Card] = field(default_factory=list)  # table jokers that are wild here
    idle_singles: int = 0  # singles that fit nowhere: left alone, so unchanged groups
    # per table group, its old_keys key (None for a single): the move's rebuild reuses them
    group_keys: list[tuple[int, ...] | None] | None = None
    # Rummikub: a group holding a freed table joker (a "W") needs this many hand cards too
    # (RULES.md §5 decision 3: two tiles from the rack; 0 where no such rule)
    freed_home_hand: int = 0
    # the hand faces that free table jokers in this case, and how many of each
    freeing: Counter[int] = field(default_factory=Counter)


# -- building the cases ---------------------------------------------------------------------


@dataclass
class Position:
    """The inputs, indexed: who is where, for building problems and for rebuilding a move."""

    table: list[list[Card]]
    hand: list[Card]
    singles_idx: list[int]  # indices of table groups that are Tahiti singles
    select: list[Card] | None
    require: Sequence[Card] = ()  # hand cards (no jokers) the lay must hold; the rest may go


def _neighbour_faces(group: Sequence[Card], joker: Card, ace: AcePolicy) -> frozenset[int]:
    from ..melds import arrange, group_reading

    reading = group_reading(group, ace)
    ordered = arrange(group, reading) if reading is not None else list(group)
    for i, card in enumerate(ordered):
        if card is joker:
            near = ordered[max(0, i - 1): i] + ordered[i + 1: i + 2]
            return frozenset(card_face(c) for c in near if c.play_rank)
    return frozenset()


def locked_extensions(ace: AcePolicy, key: tuple[int, ...], hand: Counter[int]) -> list[tuple]:
    """(template, added faces) for a locked group: itself, or grown by hand cards only."""
    out = []
    have = Counter(key)
    # Only a template holding key's first face can hold the group (same order as templates()).
    for t in templates_by_face(ace)[key[0]] if key else templates(ace):
        need = Counter(t.key)
        if any(need[f] < n for f, n in have.items()):
            continue
        extra = need - have
        if all(hand[f] >= n for f, n in extra.items()):
            out.append((t, tuple(sorted(extra.elements()))))
    return out


def build_problems(
    rulebook,
    pos: Position,
    objective: str,
    first_lay_done: bool,
    *,
    lock_immobile: bool = False,
    freeing: bool = True,
    lock_only: frozenset[int] | None = None,
) -> list[Problem]:
    """Every joker case of the position (see module doc); empty when none can be legal.
    `lock_immobile`: Vatican's and Rummikub's unfreed jokers lock their groups as in Tahiti
    (only grown by hand cards): a narrower but simpler problem, every answer of which is legal.
    `freeing=False`: no table joker is freed (Rummikub's fallback, engine/rummy/solver).
    `lock_only`: with `lock_immobile`, lock only the groups of these table jokers (`id`s)."""
    ace = rulebook.ace
    table_groups = pos.table
    singles_set = set(pos.singles_idx)
    rule = rulebook.joker_rule
    one_joker = 1 if rulebook.one_joker_per_group else 99

    table, single, jokers, loose_wild, single_jokers = _count_table(table_groups, singles_set)
    hand_cards = pos.select if pos.select is not None else pos.hand
    hand = [0] * NF
    hand_jokers = 0
    for card in hand_cards:
        if not card.rank:  # a joker
            hand_jokers += 1
        else:
            hand[card_face(card)] += 1
    mandatory = pos.select is not None
    required = Counter(card_face(c) for c in pos.require)  # hand cards to lay: hand_m

    # Faces whose table jokers may be freed by laying the real card from the hand.
    joker_faces = sorted({card_face(c) for _, c in jokers})
    # (a joker's face, the hand face whose laying frees it): the real card itself, and in
    # Rummikub also a 3-tile group's other missing colour (RULES.md §5, decision 3)
    freeable: list[tuple[int, int]] = []
    always_free: set[int] = set()
    others = _other_missing_colours(table_groups, jokers) if rule == "rack-frees" else {}
    for f in joker_faces:
        if rule not in ("locks-group", "rack-frees") and (table[f] or single[f]):
            always_free.add(f)  # a real card of that face is (and stays) on the table
        elif freeing:
            freeable += [(f, g) for g in (f, *sorted(others.get(f, ()))) if hand[g]]

    triples = _first_lay_runs(ace, hand) if rulebook.first_lay_run3 and not first_lay_done \
        else [None]
    group_keys = [None if gi in singles_set else
                  tuple(sorted(card_face(c) for c in group if c.rank or c.as_rank))
                  for gi, group in enumerate(table_groups)]
    problems: list[Problem] = []
    for used in range(len(single_jokers) + 1):  # how many joker singles go into groups
        for freed_bits in product((False, True), repeat=len(freeable)):
            chosen = [fg for fg, b in zip(freeable, freed_bits, strict=True) if b]
            freed = always_free | {f for f, _ in chosen}
            for triple in triples:
                need = required | Counter(g for _, g in chosen)
                if triple is not None:
                    need |= Counter(value_face(triple[1] + i, triple[0]) for i in range(3))
                # Rummikub: a kept floater stands for either missing colour (one case each)
                floaters = [(id(j), sorted(others[card_face(j)])[0]) for _, j in jokers
                            if card_face(j) not in freed and len(others.get(card_face(j), ())) == 1]
                for turn in product((False, True), repeat=len(floaters)):
                    turned = {j: alt for (j, alt), t in zip(floaters, turn, strict=True) if t}
                    base = _base_problem(ace, one_joker, table, single, hand, hand_jokers,
                                         mandatory, need, table_groups, group_keys, jokers,
                                         freed, rule, loose_wild + single_jokers[:used], turned)
                    if base is None:
                        continue
                    base.triple = triple
                    base.freeing = Counter(g for _, g in chosen)
                    base.idle_singles += len(single_jokers) - used  # they stay alone: unchanged
                    locks = rule == "locks-group" or (
                        lock_immobile and rule in ("immobile", "rack-frees"))
                    problems.extend(_locked_cases(base, locks, table_groups, jokers, freed,
                                                  hand, lock_only))
    for p in problems:
        prune_unplaceable(p)
    return problems


def _count_table(table_groups, singles_set: set[int]) -> tuple[
        list[int], list[int], list[tuple[int, Card]], list[Card], list[Card]]:
    """The table's cards per face (groups', singles'), its designated jokers (group index,
    joker), its undesignated ones (wild: should not happen) and Tahiti's joker singles."""
    table = [0] * NF
    single = [0] * NF
    jokers: list[tuple[int, Card]] = []
    loose_wild: list[Card] = []
    single_jokers: list[Card] = []  # Tahiti: a joker dealt as a single (may stay alone)
    for gi, group in enumerate(table_groups):
        for card in group:
            if not card.rank:  # a joker
                if card.as_rank:  # designated
                    jokers.append((gi, card))
                elif gi in singles_set:
                    single_jokers.append(card)
                else:
                    loose_wild.append(card)
            elif gi in singles_set:
                single[card_face(card)] += 1
            else:
                table[card_face(card)] += 1
    return table, single, jokers, loose_wild, single_jokers


def _first_lay_runs(ace, hand: list[int]) -> list[tuple[int, int] | None]:
    """Vatican's first lay: every run of three of one suit the hand holds (suit, low value)."""
    triples: list[tuple[int, int] | None] = []
    low, high = value_range(ace)
    for s in range(4):
        for v in range(low, high - 1):
            if all(hand[value_face(v + i, s)] for i in range(3)):
                triples.append((s, v))
    return triples


def _other_missing_colours(table_groups, jokers) -> dict[int, set[int]]:
    """Rummikub: a joker in a 3-tile group of one number is freed by either missing colour;
    for each such joker's face, the faces other than its own that free it."""
    out: dict[int, set[int]] = {}
    for gi, joker in jokers:
        group = table_groups[gi]
        if len(group) != 3 or len({c.play_rank for c in group}) != 1:
            continue
        present = {SUIT_INDEX[c.play_suit] for c in group}
        f = card_face(joker)
        rank = joker.as_rank
        out.setdefault(f, set()).update(
            (rank - 1) * 4 + s for s in range(4) if s not in present)
    return out


def _base_problem(ace, one_joker, table, single, hand, hand_jokers, mandatory, need,
                  table_groups, group_keys, jokers, freed, rule, loose_wild, turned=None
                  ) -> Problem | None:
    if mandatory:
        hand_m, hand_o = list(hand), [0] * NF
    else:  # the needed cards are laid whatever happens; the others may be
        hand_m, hand_o = [0] * NF, list(hand)
        for f, n in need.items():
            m = min(n, hand[f])
            hand_m[f], hand_o[f] = m, hand[f] - m
    if any(hand[f] < n for f, n in need.items()):
        return None
    fixed: list[FixedJoker] = []
    freed_tables: list[Card] = list(loose_wild)
    for gi, joker in jokers:
        f = card_face(joker)
        if f in freed:
            freed_tables.append(joker)
        elif rule == "immobile":
            fixed.append(FixedJoker(joker, f, _neighbour_faces(table_groups[gi], joker, ace)))
        elif rule == "rack-frees":
            kin = frozenset(card_face(c) for c in table_groups[gi] if c.rank)
            if turned and id(joker) in turned:  # the other missing colour, beside them all
                fixed.append(FixedJoker(joker, turned[id(joker)], None, kin, whole=True))
            else:
                fixed.append(FixedJoker(joker, f, None, kin))
        else:
            fixed.append(FixedJoker(joker, f, None))
    old_keys: Counter[tuple[int, ...]] = Counter(k for k in group_keys if k is not None)
    return Problem(
        ace=ace, max_jokers=one_joker, table=list(table), hand_m=hand_m, hand_o=hand_o,
        single=list(single), fixed=fixed, wild_m=len(freed_tables) + (hand_jokers if mandatory
                                                                       else 0),
        wild_o=0 if mandatory else hand_jokers, wild_m_hand=hand_jokers if mandatory else 0,
        old_keys=old_keys, n_old=len(table_groups), freed_tables=freed_tables,
        group_keys=group_keys,
        freed_home_hand=2 if rule == "rack-frees" and len(freed_tables) > len(loose_wild) else 0,
    )


def _locked_cases(base: Problem, locks: bool, table_groups, jokers, freed, hand,
                  lock_only: frozenset[int] | None = None) -> list[Problem]:
    """Tahiti: a group holding an unfreed joker is kept, grown only by hand cards."""
    if not locks:
        return [base]
    locked = sorted({gi for gi, j in jokers if card_face(j) not in freed
                     and (lock_only is None or id(j) in lock_only)})
    if not locked:
        return [base]
    # The locked groups leave the pool: their cards, and their jokers as fixed units.
    lock_jokers = {id(j) for gi, j in jokers if gi in locked}
    base.fixed = [fj for fj in base.fixed if id(fj.card) not in lock_jokers]
    for gi in locked:
        key = tuple(sorted(card_face(c) for c in table_groups[gi]))
        base.old_keys[key] -= 1
        for c in table_groups[gi]:
            if not c.is_joker:
                base.table[card_face(c)] -= 1
    avail = Counter({f: base.hand_m[f] + base.hand_o[f] for f in range(NF)})
    options = []
    for gi in locked:
        key = tuple(sorted(card_face(c) for c in table_groups[gi]))
        options.append([(gi, t, added) for t, added in locked_extensions(base.ace, key, avail)])
    out = []
    for combo in product(*options):
        used: Counter[int] = Counter()
        for _, _, added in combo:
            used.update(added)
        if any(used[f] > avail[f] for f in used):
            continue
        p = Problem(**{k: getattr(base, k) for k in base.__dataclass_fields__})
        p.hand_m, p.hand_o = list(base.hand_m), list(base.hand_o)
        for f, n in used.items():
            take_m = min(n, p.hand_m[f])  # a card that must be laid may go here
            p.hand_m[f] -= take_m
            p.hand_o[f] -= n - take_m
        p.locked = [LockedChoice(gi, t, added) for gi, t, added in combo]
        out.append(p)
    return out


def prune_unplaceable(p: Problem) -> None:
    """Drop optional hand cards and singles that fit no group even with every other card at
    hand (a necessary condition, repeated until nothing changes): fewer cards to search."""
    if p.ace == "wrap":
        return  # _fits_somewhere knows no run past 13: nothing is dropped
    fixed_at = [0] * NF
    for fj in p.fixed:
        fixed_at[fj.face] += 1
    low, high = value_range(p.ace)
    wild = p.wild_m + p.wild_o
    p.hand_o, p.single = list(p.hand_o), list(p.single)  # the cases may share these lists
    changed = True
    while changed:
        changed = False
        avail = [a + b + c + d + e for a, b, c, d, e in zip(
            p.table, p.hand_m, p.hand_o, p.single, fixed_at, strict=True)]
        for f in range(NF):
            if not (p.hand_o[f] or p.single[f]):
                continue
            if not _fits_somewhere(f, avail, wild, low, high):
                p.idle_singles += p.single[f]
                p.hand_o[f] = p.single[f] = 0
                changed = True


def _fits_somewhere(f: int, avail: list[int], wild: int, low: int, high: int) -> bool:
    rank, suit = f // 4 + 1, f % 4
    others = sum(1 for s in range(4) if s != suit and avail[(rank - 1) * 4 + s])
    if others + wild >= 2:
        return True
    values = [v for v in ((1, 14) if rank == 1 else (rank,)) if low <= v <= high]
    for v in values:
        for a in range(v - 2, v + 1):
            if a < low or a + 2 > high:
                continue
            missing = sum(1 for x in range(a, a + 3) if x != v and not avail[value_face(x, suit)])
            if missing <= wild:
                return True
    return False


HOME_SIZES = (3, 4, 5)  # the freed joker's new group: it, 2+ hand tiles, maybe table tiles
HOMES_TRIED = 48  # homes searched per case, most hand tiles first


def homed_cases(p: Problem) -> list[Problem]:
    """Rummikub, a case with one freed table joker whose home the fast search can't express
    (a new combination with two hand tiles besides the one that freed it): the home taken
    first — the joker, two or more hand tiles, table tiles for the rest — and the rest of the
    position searched as usual: a narrower problem every answer of which keeps the rule."""
    if not p.freed_home_hand or len(p.freed_tables) != 1 or p.wild_m_hand or p.wild_m != 1:
        return []
    spare = [p.hand_m[f] + p.hand_o[f] - p.freeing[f] for f in range(NF)]
    out = []
    seen = set()
    for t in templates(p.ace):
        if len(t.faces) not in HOME_SIZES or t.wrap:
            continue
        for slot, face in enumerate(t.faces):
            need = Counter(t.faces[:slot] + t.faces[slot + 1:])
            if sum(min(n, spare[f]) for f, n in need.items()) < p.freed_home_hand:
                continue
            if any(spare[f] + p.table[f] < n for f, n in need.items()):
                continue
            faces = sorted(need)
            splits = [range(max(0, need[f] - p.table[f]), min(need[f], spare[f]) + 1)
                      for f in faces]
            for split in product(*splits):
                hand = Counter({f: k for f, k in zip(faces, split, strict=True) if k})
                if sum(hand.values()) < p.freed_home_hand or (t.key, face, split) in seen:
                    continue
                seen.add((t.key, face, split))
                out.append((-sum(hand.values()), len(t.faces), t.key,
                            face, split, t, hand, need - hand))
    # The homes that take the most hand tiles first, the smallest first among them, and
    # only so many: a 27-tile rack beside a 52-tile table has
    # thousands (a computer's turn must stay short)
    out.sort(key=lambda home: home[:5])
    return [_homed(p, t, joker, hand, table)
            for _, _, _, joker, _, t, hand, table in out[:HOMES_TRIED]]


def _homed(p: Problem, t: Template, face: int, hand: Counter[int], table: Counter[int]
           ) -> Problem:
    q = Problem(**{k: getattr(p, k) for k in p.__dataclass_fields__})
    q.hand_m, q.hand_o, q.table = list(p.hand_m), list(p.hand_o), list(p.table)
    for f, n in hand.items():  # optional copies first: the freeing tile stays due
        take_o = min(n, q.hand_o[f])
        q.hand_o[f] -= take_o
        q.hand_m[f] -= n - take_o
    for f, n in table.items():
        q.table[f] -= n
    q.wild_m = 0
    q.freed_home_hand = 0
    q.locked = [*p.locked, LockedChoice(-1, t, tuple(sorted(hand.elements())), face,
                                        tuple(sorted(table.elements())))]
    return q
