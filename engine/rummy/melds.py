"""Sets and runs under each ace policy, and the cards a joker may stand for.

A group is a multiset: the engine lays it out in canonical order (`arrange`), so a player never
has to type a run in order. Ace policies (RULES.md §2 and §4.1):

- `high`:   Q-K-A is a run; A-2-3 is not (Manipulation).
- `low`:    A-2-3 is a run; Q-K-A is not (Shanghai).
- `either`: high or low, never both — an ace only at one end, never two aces in a run.
- `ends`:   never in the middle — A-2-3 and Q-K-A; A-2-…-K-A has an ace at each end (Carousel).

- `wrap`:   Rummikub with `wrap=on` (RULES.md §5): 1 is low, and a run may go on from 13 to 1
            (12-13-1, 13-1-2), at most 13 tiles.

No other policy wraps: K-A-2 is never a run.

Whether a group may stand on a rulebook's table is decided in one place, `meld_fault` (and
`is_meld`, its yes/no): the referee, the simulated games' table check and the lessons ask it.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from functools import lru_cache
from itertools import combinations, product
from typing import Literal, Protocol

from engine.cards import SUITS, Card

AcePolicy = Literal["high", "low", "either", "ends", "wrap"]
ACE_POLICIES: tuple[AcePolicy, ...] = ("high", "low", "either", "ends", "wrap")
Face = tuple[int, str]  # (rank 1-13, suit)


class Rulebook(Protocol):
    """What a group's check needs of engine/rummy/rulebooks.py's `Rulebook` (which imports
    this module, so it is named here by its shape)."""

    @property
    def ace(self) -> AcePolicy: ...

    @property
    def max_jokers_per_group(self) -> int | None: ...


@dataclass(frozen=True, slots=True)
class Reading:
    """One way to read a group: its kind and the faces its free jokers take (sorted)."""

    kind: Literal["set", "run"]
    joker_faces: tuple[Face, ...]
    start: int = 0  # runs: the value of the lowest card (ace low = 1, ace high = 14)
    wrap: bool = False  # a run that goes on from 13 to 1 (policy `wrap`): laid out from start


def _ace_values(policy: AcePolicy) -> tuple[int, ...]:
    return {"high": (14,), "low": (1,), "either": (1, 14), "ends": (1, 14)}[policy]


def _value_range(policy: AcePolicy) -> tuple[int, int]:
    return {"high": (2, 14), "low": (1, 13), "either": (1, 14), "ends": (1, 14)}[policy]


def readings(
    cards: Sequence[Card], ace: AcePolicy, *, max_jokers: int | None = None
) -> list[Reading]:
    """Every way the group can be valid; empty if it is not a set or a run.

    Designated jokers play as the card they stand for; free jokers may be anything that fits.
    """
    if max_jokers is not None and sum(c.is_joker for c in cards) > max_jokers:
        return []
    fixed = tuple(
        (c.play_rank, c.play_suit) for c in cards if not (c.is_joker and not c.designated)
    )
    return list(_readings(fixed, len(cards) - len(fixed), ace))


@lru_cache(maxsize=1 << 16)
def _readings(fixed: tuple[Face, ...], free: int, ace: AcePolicy) -> tuple[Reading, ...]:
    """Cached: the referee and the joker naming read the same groups turn after turn."""
    if ace == "wrap":
        return tuple(_set_readings(list(fixed), free) + _run_readings(list(fixed), free, "low")
                     + _wrap_readings(list(fixed), free))
    return tuple(_set_readings(list(fixed), free) + _run_readings(list(fixed), free, ace))


def _wrap_readings(fixed: list[Face], free: int) -> list[Reading]:
    """Runs that go on from 13 to 1 (start + length - 1 > 13), at most 13 tiles."""
    n = len(fixed) + free
    suits = {s for _, s in fixed}
    if not 3 <= n <= 13 or len(suits) > 1:
        return []
    values = [r for r, _ in fixed]
    if len(set(values)) != len(values):
        return []
    out = []
    for suit in sorted(suits) if suits else SUITS:
        for start in range(15 - n, 14):  # the run's last value is past 13
            window = [(start + i - 1) % 13 + 1 for i in range(n)]
            if not set(values) <= set(window):
                continue
            faces = tuple(sorted((v, suit) for v in window if v not in values))
            out.append(Reading("run", faces, start, wrap=True))
    return out


def _set_readings(fixed: list[Face], free: int) -> list[Reading]:
    n = len(fixed) + free
    if not 3 <= n <= 4:
        return []
    ranks = {r for r, _ in fixed}
    suits = [s for _, s in fixed]
    if len(ranks) > 1 or len(set(suits)) != len(suits):
        return []
    missing = [s for s in SUITS if s not in suits]
    out = []
    for rank in sorted(ranks) if ranks else range(1, 14):
        for chosen in combinations(missing, free):
            out.append(Reading("set", tuple((rank, s) for s in chosen)))
    return out


def _run_readings(fixed: list[Face], free: int, ace: AcePolicy) -> list[Reading]:
    n = len(fixed) + free
    if n < 3:
        return []
    suits = {s for _, s in fixed}
    if len(suits) > 1:
        return []
    low, high = _value_range(ace)
    out: list[Reading] = []
    seen: set[tuple] = set()
    for suit in sorted(suits) if suits else SUITS:
        choices = [_ace_values(ace) if r == 1 else (r,) for r, _ in fixed]
        for values in product(*choices):
            present = sorted(values)
            if len(set(present)) != len(present):
                continue
            if not present:  # only jokers
                starts = range(low, high - n + 2)
            else:
                vmin, vmax = present[0], present[-1]
                gaps = vmax - vmin + 1 - len(present)
                if gaps > free:
                    continue
                extra = free - gaps
                starts = range(vmin - extra, vmin + 1)
            for start in starts:
                end = start + n - 1
                if start < low or end > high:
                    continue
                if ace == "either" and start == 1 and end == 14:
                    continue
                taken = set(present)
                faces = tuple(
                    (1 if v == 14 else v, suit) for v in range(start, end + 1) if v not in taken
                )
                key = (suit, start, faces)
                if key not in seen:
                    seen.add(key)
                    out.append(Reading("run", tuple(sorted(faces)), start))
    return out


MeldFault = Literal["group_too_small", "group_two_jokers", "group_invalid"]


def meld_fault(rulebook: Rulebook, cards: Sequence[Card]) -> MeldFault | None:
    """Why `cards` can't stand as a group on this rulebook's table (an engine/rummy/reasons.py
    code),
    or None when it can: at least 3 cards, no more jokers than a group may hold, and a set or a
    run under the rulebook's ace policy (free jokers standing for anything that fits)."""
    if len(cards) < 3:
        return "group_too_small"
    limit = rulebook.max_jokers_per_group
    if limit is not None and sum(c.is_joker for c in cards) > limit:
        return "group_two_jokers"
    if not readings(cards, rulebook.ace):
        return "group_invalid"
    return None


def is_meld(rulebook: Rulebook, cards: Sequence[Card]) -> bool:
    """May `cards` stand as a group on this rulebook's table? (`meld_fault` is None.)"""
    return meld_fault(rulebook, cards) is None


def table_order(rulebook: Rulebook, cards: Sequence[Card]) -> list[Card] | None:
    """The group laid out in table order (`arrange`) when it is valid under this rulebook as
    its jokers are designated; None when it holds a free joker or reads as no set or run."""
    if any(c.is_joker and not c.designated for c in cards):
        return None
    reading = group_reading(cards, rulebook.ace, max_jokers=rulebook.max_jokers_per_group)
    return None if reading is None else arrange(cards, reading)


def meld_kind(
    cards: Sequence[Card], ace: AcePolicy, *, max_jokers: int | None = None
) -> Literal["set", "run"] | None:
    """ "set", "run" or None. A group that reads both ways (7H * *) is reported as a run."""
    found = readings(cards, ace, max_jokers=max_jokers)
    if not found:
        return None
    return "run" if any(r.kind == "run" for r in found) else "set"


def designate(cards: Sequence[Card], reading: Reading) -> list[Card]:
    """The group with its free jokers fixed as `reading` says, in canonical order."""
    faces = list(reading.joker_faces)
    out = []
    for card in cards:
        if card.is_joker and not card.designated:
            rank, suit = faces.pop(0)
            card = card.designate(rank, suit)
        out.append(card)
    return arrange(out, reading)


def arrange(cards: Sequence[Card], reading: Reading) -> list[Card]:
    """Canonical order: runs low to high; sets by suit (S H D C). All jokers designated."""
    if reading.kind == "set":
        return sorted(cards, key=lambda c: (SUITS.index(c.play_suit), c.is_joker, c.copy))

    if reading.wrap:
        return sorted(cards, key=lambda c: ((c.play_rank - reading.start) % 13, c.is_joker,
                                            c.copy))

    def value(card: Card) -> int:
        v = card.play_rank
        return 14 if v == 1 and reading.start > 1 else v

    # An ace at the high end of a run (start > 1) counts 14; with the `ends` policy a run
    # A..K..A holds one ace of each value, so place the second ace last.
    ordered = sorted(cards, key=lambda c: (value(c), c.is_joker, c.copy))
    if reading.start == 1 and len(ordered) == 14:
        aces = [c for c in ordered if c.play_rank == 1]
        rest = [c for c in ordered if c.play_rank != 1]
        ordered = [aces[0], *rest, aces[1]]
    return ordered


def group_reading(
    cards: Sequence[Card], ace: AcePolicy, *, max_jokers: int | None = None
) -> Reading | None:
    """The reading of a group whose jokers are all designated (None if invalid or ambiguous)."""
    found = readings(cards, ace, max_jokers=max_jokers)
    if len(found) == 1:
        return found[0]
    if not found:
        return None
    # Fully designated groups can still read two ways only in degenerate cases; prefer a run.
    runs = [r for r in found if r.kind == "run"]
    return runs[0] if runs else found[0]
