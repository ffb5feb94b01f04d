"""Is this arrangement a legal lay from that table and hand? (RULES.md §1, §2, §4)

Cards are compared by face (`7H`): the two copies of a card are equal for play, so a test may
parse the table, the hand and the new table separately. The engine re-attaches physical
identities after a move is accepted (`game.py`).
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any

from engine.cards import Card, format_cards

from .actions import IllegalAction
from .melds import ACE_POLICIES, group_reading, meld_fault, readings, table_order
from .rulebooks import Rulebook
from .tile_rules import initial_meld_fault, joker_fault

Group = Sequence[Card]


def group_label(index: int) -> str:
    """A, B, …, Z, AA, AB, … for 0, 1, …; "?" for a negative index (never a loop: a forged
    button once sent -2 here and `divmod(-3, 26)` never reached 0)."""
    if index < 0:
        return "?"
    label = ""
    index += 1
    while index > 0:
        index, rem = divmod(index - 1, 26)
        label = chr(65 + rem) + label
    return label


def group_index(label: str) -> int:
    """`"B"` -> 1; at most three letters (no table has more than 17,576 groups)."""
    text = label.strip().upper()
    if len(text) > 3:
        raise ValueError(f"'{label[:8]}' is not a group letter")
    value = 0
    for ch in text:
        if not "A" <= ch <= "Z":
            raise ValueError(f"'{label[:8]}' is not a group letter")
        value = value * 26 + (ord(ch) - 64)
    if value == 0:
        raise ValueError("A group letter is needed")
    return value - 1


@dataclass(frozen=True)
class MoveCheck:
    ok: bool
    reason: str | None = None
    placed: tuple[Card, ...] = ()  # the hand cards the move lays
    needs_rearranging: bool = False
    changed: tuple[int, ...] = field(default=())  # indices of old groups not kept as they were
    code: str | None = None  # why not (engine/rummy/reasons.py), with the values the reason names
    params: dict[str, Any] = field(default_factory=dict)

    def __bool__(self) -> bool:
        return self.ok

    def error(self) -> IllegalAction:
        """The refusal to raise for a failed check (same sentence, code and params)."""
        return IllegalAction(self.reason or "That is not a legal move", code=self.code or "illegal",
                             **self.params)


def _fail(code: str, reason: str, **params: Any) -> MoveCheck:
    return MoveCheck(False, reason, code=code, params=params)


def _refused(fault: tuple[str, str, dict[str, Any]]) -> MoveCheck:
    """A failed check from engine/rummy/tile_rules.py (its codes are literals there)."""
    code, reason, params = fault
    return MoveCheck(False, reason, code=code, params=params)


def _faces(cards: Sequence[Card]) -> Counter[str]:
    return Counter(c.face for c in cards)


def _pretty(cards: Sequence[Card]) -> str:
    return format_cards(cards)


def canonical(rulebook: Rulebook, group: Group) -> list[Card]:
    """The group in table order if it is valid with the designations it has; else as given."""
    ordered = table_order(rulebook, group)
    return list(group) if ordered is None else ordered


def check_move(
    rulebook: Rulebook,
    table: Sequence[Group],
    hand: Sequence[Card],
    new_table: Sequence[Group],
    *,
    first_lay_done: bool = True,
    singles: Sequence[Card] = (),
) -> MoveCheck:
    """Check a lay. `table` and `new_table` are lists of groups; Tahiti's unused singles are
    1-card groups in both. Jokers in `new_table` should be designated; a free joker counts as
    newly placed (it may stand for anything that makes its group valid)."""
    placed_faces = _placed_faces(table, hand, new_table)
    if isinstance(placed_faces, MoveCheck):
        return placed_faces
    refused = _group_fault(rulebook, new_table, singles)
    if refused is not None:
        return refused

    if rulebook.first_lay_points and not first_lay_done:
        fault = initial_meld_fault(rulebook, table, new_table, placed_faces)
        if fault is not None:
            return _refused(fault)
    refused = _joker_rules(rulebook, table, new_table, placed_faces)
    if refused is not None:
        return refused
    if (
        rulebook.first_lay_run3
        and not first_lay_done
        and not _has_run3_from_hand(rulebook, new_table, placed_faces)
    ):
        return _fail(
            "first_lay_run3",
            "Your first lay must include a run of three cards of one suit from your "
            "hand (a joker doesn't count as one of the three)"
        )

    placed = _pick(hand, placed_faces)
    changed = _changed_groups(table, new_table)
    kept_as_is_or_extended = all(_is_extended(table[i], new_table, placed_faces) for i in changed)
    return MoveCheck(True, None, tuple(placed), not kept_as_is_or_extended, tuple(changed))


def _placed_faces(table: Sequence[Group], hand: Sequence[Card], new_table: Sequence[Group]
                  ) -> Counter[str] | MoveCheck:
    """The faces the lay brings from the hand (how many of each), or the refusal when a table
    card went back into a hand, a card is not in the hand, or nothing was added."""
    old_cards = [c for g in table for c in g]
    new_cards = [c for g in new_table for c in g]
    old_faces, new_faces, hand_faces = _faces(old_cards), _faces(new_cards), _faces(hand)

    placed_faces: Counter[str] = Counter()
    for face in old_faces | new_faces:
        diff = new_faces[face] - old_faces[face]
        if diff < 0:
            what = "A joker" if face == "*" else face
            return _fail(
                "table_card_to_hand",
                f"{what} is missing from the table: a card on the table can never go "
                "back into a hand",
                face=face,
            )
        if diff > hand_faces[face]:
            what = "joker" if face == "*" else face
            have = hand_faces[face]
            if have == 0:
                return _fail("card_not_in_hand", f"You have no {what} in your hand", face=face,
                             have=0)
            return _fail("card_not_in_hand", f"You have only {have} {what} in your hand",
                         face=face, have=have)
        if diff:
            placed_faces[face] = diff
    if not placed_faces:
        return _fail("nothing_added", "You must add at least one card from your hand")
    return placed_faces


def _group_fault(rulebook: Rulebook, new_table: Sequence[Group], singles: Sequence[Card]
                 ) -> MoveCheck | None:
    """The refusal of the first group of `new_table` that is no set or run (Tahiti's unused
    singles stay alone), else None."""
    single_faces = _faces(singles)
    for i, group in enumerate(new_table):
        label = group_label(i)
        if len(group) == 1 and single_faces[group[0].face] > 0:
            single_faces[group[0].face] -= 1  # an unused Tahiti single stays alone
            continue
        fault = meld_fault(rulebook, group)
        if fault == "group_too_small":
            return _fail(
                "group_too_small",
                f"Group {label} has only {len(group)} card{'s' * (len(group) != 1)} "
                f"({_pretty(group)}): a set or run needs at least 3",
                group=i,
            )
        if fault == "group_two_jokers":
            return _fail("group_two_jokers",
                         f"Group {label} holds two jokers: a group may hold only one", group=i)
        if fault == "group_invalid":
            text = f"Group {label} is not a set or a run: {_pretty(group)}"
            note = _ace_note(rulebook, group)
            cards = [c.token for c in group]  # the bot names them as its screens do
            if note:  # the sentence adds the ace rule: a lesson says more about aces
                return _fail("group_invalid_with_ace", text + note, group=i, cards=cards,
                             ace=rulebook.ace)
            return _fail("group_invalid", text, group=i, cards=cards)
    return None


def _ace_note(rulebook: Rulebook, group: Group) -> str:
    """The rulebook's ace rule, said only when the ace is the reason: the group would be a set
    or a run were the ace allowed elsewhere (A-2-3 in Manipulation), not when it fails for
    another reason too (A♥ 2♥ 3♦, A♠ 3♠ 7♠)."""
    if not any(c.play_rank == 1 for c in group):
        return ""
    if not any(readings(group, other) for other in ACE_POLICIES if other != rulebook.ace):
        return ""
    if rulebook.tiles:
        if rulebook.ace == "wrap":
            return ""
        return " (1 is always lowest: 12-13-1 is no run)"
    note = {
        "high": "the ace is high only (Q-K-A)",
        "low": "the ace is low only (A-2-3)",
        "either": "an ace is high or low, never both, and never in the middle",
        "ends": "an ace is never in the middle of a run",
    }[rulebook.ace]
    return f" ({note})"


def _pick(hand: Sequence[Card], faces: Counter[str]) -> list[Card]:
    want = Counter(faces)
    picked = []
    for card in hand:
        if want[card.face] > 0:
            want[card.face] -= 1
            picked.append(card)
    return picked


def _changed_groups(table: Sequence[Group], new_table: Sequence[Group]) -> list[int]:
    """Old groups that do not stand unchanged (as a multiset of play faces) in the new table."""
    remaining = Counter(_group_key(g) for g in new_table)
    changed = []
    for i, group in enumerate(table):
        key = _group_key(group)
        if remaining[key] > 0:
            remaining[key] -= 1
        else:
            changed.append(i)
    return changed


def _group_key(group: Group) -> tuple[str, ...]:
    return tuple(sorted(c.play_face if c.is_joker else c.face for c in group))


def _is_extended(old: Group, new_table: Sequence[Group], placed: Counter[str]) -> bool:
    """Does some new group hold all of `old` plus only cards from the hand?"""
    old_faces = Counter(c.face for c in old)
    for group in new_table:
        faces = Counter(c.face for c in group)
        if all(faces[f] >= n for f, n in old_faces.items()):
            extra = faces - old_faces
            if all(placed[f] >= n for f, n in extra.items()):
                return True
    return False


def _neighbours(rulebook: Rulebook, group: Group, joker: Card) -> set[str]:
    ordered = canonical(rulebook, group)
    for i, card in enumerate(ordered):
        if card is joker or card == joker:
            near = ordered[max(0, i - 1) : i] + ordered[i + 1 : i + 2]
            return {c.play_face for c in near}
    return set()


def _joker_rules(
    rulebook: Rulebook,
    table: Sequence[Group],
    new_table: Sequence[Group],
    placed: Counter[str],
) -> MoveCheck | None:
    """The joker rules of the rulebook (§2, §4.9–4.11): the failed check, or None."""
    if rulebook.joker_rule == "none":
        return None
    if rulebook.joker_rule == "rack-frees":  # Rummikub: engine/rummy/tile_rules.py
        fault = joker_fault(table, new_table, placed)
        return None if fault is None else _refused(fault)
    new_real = Counter(c.face for g in new_table for c in g if not c.is_joker)
    if rulebook.joker_rule == "locks-group":
        # Tahiti: only the real card laid from the hand frees a joker.
        def freed(face: str) -> bool:
            return placed[face] > 0
    else:

        def freed(face: str) -> bool:
            return new_real[face] > 0

    old_jokers = [(g, c) for g in table for c in g if c.is_joker and c.designated]
    new_designations = Counter(c.play_face for g in new_table for c in g if c.designated)
    for _, joker in old_jokers:
        face = joker.play_face
        if freed(face):
            continue
        if new_designations[face] <= 0:
            return _fail(
                "joker_keeps_card",
                f"The joker standing for {face} must keep standing for {face} until the "
                f"real {face} is on the table",
                face=face,
            )
        new_designations[face] -= 1

    if rulebook.joker_rule == "immobile":
        refused = _immobile_jokers(rulebook, old_jokers, new_table, freed)
        if refused is not None:
            return refused
    if rulebook.joker_rule == "locks-group":
        return _locked_groups(table, new_table, placed, freed)
    return None


def _immobile_jokers(rulebook, old_jokers, new_table, freed) -> MoveCheck | None:
    """Vatican (§4.10): a joker stays while a card that was beside it stays beside it. Each
    old joker needs its own new joker of the same face that kept a neighbour (a matching: the
    first fitting joker may be the only one another old joker could use)."""
    new_jokers = [(card, _neighbours(rulebook, g, card))
                  for g in new_table for card in g if card.is_joker and card.designated]
    options: list[list[int]] = []
    for group, joker in old_jokers:
        face = joker.play_face
        if freed(face):
            continue
        before = _neighbours(rulebook, group, joker)
        fits = [k for k, (card, near) in enumerate(new_jokers)
                if card.play_face == face and before & near]
        if not fits:
            return _immobile_reason(face)
        options.append(fits)
    owner: dict[int, int] = {}  # new joker -> old joker (Kuhn's augmenting paths)

    def assign(i: int, seen: set[int]) -> bool:
        for k in options[i]:
            if k not in seen:
                seen.add(k)
                if k not in owner or assign(owner[k], seen):
                    owner[k] = i
                    return True
        return False

    for i, fits in enumerate(options):
        if not assign(i, set()):
            return _immobile_reason(new_jokers[fits[0]][0].play_face)
    return None


def _immobile_reason(face: str) -> MoveCheck:
    return _fail(
        "joker_immobile",
        f"The joker standing for {face} can't leave the cards beside it until the "
        f"real {face} is on the table",
        face=face,
    )


def _locked_groups(table, new_table, placed, freed) -> MoveCheck | None:
    """Tahiti: a group holding a joker can't be rearranged, only added to from the hand. Each
    locked group must survive whole in its own new group, whatever the order of the groups,
    and everything those groups gained must come from the hand: every pairing is tried."""
    locked: list[tuple[int, Counter[str], str]] = []
    candidates: list[list[tuple[int, Counter[str]]]] = []
    new_faces = [Counter(c.play_face if c.is_joker else c.face for c in g) for g in new_table]
    for i, group in enumerate(table):
        jokers = [c for c in group if c.is_joker and c.designated]
        if not jokers or any(freed(j.play_face) for j in jokers):
            continue
        old = Counter(c.play_face if c.is_joker else c.face for c in group)
        fits = [(gi, faces - old) for gi, faces in enumerate(new_faces)
                if all(faces[f] >= n for f, n in old.items())]
        if not fits:
            real = jokers[0].play_face
            return _locked(i, real)
        locked.append((i, old, jokers[0].play_face))
        candidates.append(fits)
    if not locked:
        return None
    # The pairing that takes the fewest table cards into locked groups; few locked groups
    # (one joker each), so a plain search over pairings is cheap.
    best: list = [None]

    def search(k: int, used: frozenset[int], extra: Counter[str]) -> bool:
        if any(placed[f] < n for f, n in extra.items()):
            if best[0] is None or len(extra) < len(best[0]):
                best[0] = extra
            return False
        if k == len(locked):
            return True
        return any(search(k + 1, used | {gi}, extra + gained)
                   for gi, gained in candidates[k] if gi not in used)

    if search(0, frozenset(), Counter()):
        return None
    if best[0] is None:  # no pairing at all: two locked groups folded into one
        i, _, real = locked[-1]
        return _locked(i, real)
    face = next(f for f, n in best[0].items() if placed[f] < n)
    return _fail(
        "locked_group_took_table_card",
        f"A group that holds a joker can only take cards from your hand ({face} "
        "came from the table)",
        face=face,
    )


def _locked(group: int, real: str) -> MoveCheck:
    return _fail(
        "group_locked",
        f"Group {group_label(group)} holds a joker, so none of its cards can move: you "
        f"can only add cards from your hand, or free the joker by laying the real "
        f"{real} from your hand",
        group=group,
        face=real,
    )


def _has_run3_from_hand(
    rulebook: Rulebook, new_table: Sequence[Group], placed: Counter[str]
) -> bool:
    for group in new_table:
        ordered = canonical(rulebook, group)
        reading = group_reading(ordered, rulebook.ace)
        if reading is None or reading.kind != "run":
            continue
        for i in range(len(ordered) - 2):
            trio = ordered[i : i + 3]
            if any(c.is_joker for c in trio):
                continue
            need = Counter(c.face for c in trio)
            if all(placed[f] >= n for f, n in need.items()):
                return True
    return False
