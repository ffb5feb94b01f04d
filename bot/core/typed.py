"""Typed moves (`/lay 7H 8H 9H`, `/add B 10H`, `/move B:QS A`, `/split B 4`, `/take B QS`) turned
into engine actions. Shared by the chat adapters (through the core) and the terminal."""

from __future__ import annotations

import re
from collections.abc import Sequence

from engine import (
    Action,
    Move,
    Place,
    Split,
    Take,
    group_index,
    parse_cards,
)
from engine.actions import WORD_ACTIONS
from engine.cards import Card

SIMPLE = WORD_ACTIONS
MOVE_RE = re.compile(r"([A-Za-z]+)\s*:\s*(.+?)\s+([A-Za-z]+)")


class TypedError(ValueError):
    """A typed command that could not be understood; the message says how to write it."""


def cards_arg(text: str, hand: Sequence[Card]) -> tuple[Card, ...]:
    """Cards by notation (`7H 10S *`) or by their numbers in the sorted hand (`1 4 5`)."""
    out: list[Card] = []
    for token in text.replace(",", " ").split():
        if token.isdigit():
            index = int(token)
            if not 1 <= index <= len(hand):
                raise TypedError(f"There is no card number {index} in your hand")
            out.append(hand[index - 1])
        else:
            try:
                out.extend(parse_cards(token))
            except ValueError as error:
                raise TypedError(str(error)) from None
    if not out:
        raise TypedError("Name the cards, like 7H 8H 9H (or their numbers)")
    return tuple(out)


def _group(label: str) -> int:
    try:
        return group_index(label)
    except ValueError as error:
        raise TypedError(str(error)) from None


def parse_typed(seat: int, verb: str, rest: str, hand: Sequence[Card]) -> list[Action]:
    """The actions for one typed command; `hand` is the seat's sorted, unplaced hand."""
    verb = verb.lower().lstrip("/").split("@")[0]
    rest = rest.strip()
    if verb == "give" and rest.lower() == "up":
        verb = "giveup"
    if verb in SIMPLE:
        return [SIMPLE[verb](seat)]
    if verb == "lay":
        return [Place(seat, cards_arg(rest, hand), None)]
    if verb == "add":
        label, _, cards = rest.partition(" ")
        if not cards.strip():
            raise TypedError("Write it as: /add B 10H")
        return [Place(seat, cards_arg(cards, hand), _group(label))]
    if verb == "take":
        label, _, cards = rest.partition(" ")
        if not cards.strip():
            raise TypedError("Write it as: /take B QS")
        return [Take(seat, _group(label), c) for c in cards_arg(cards, ())]
    if verb == "move":
        match = MOVE_RE.fullmatch(rest)
        if not match:
            raise TypedError("Write it as: /move B:QS A  (or 'new' as the target group)")
        source, cards, target = match.groups()
        to = None if target.lower() == "new" else _group(target)
        return [Move(seat, cards_arg(cards, ()), _group(source), to)]
    if verb == "split":
        label, _, at = rest.partition(" ")
        if not at.strip().isdigit():
            raise TypedError("Write it as: /split B 4  (split group B after its 4th card)")
        return [Split(seat, _group(label), int(at))]
    raise TypedError(f"Unknown move '/{verb}'. Moves: /lay /add /move /split /take /done /reset")


def cannot_place(cards: Sequence[Card], partners: Sequence[Card] = ()) -> str:
    """Auto-place found nothing: say so plainly (UX.md), and name the other hand cards
    (`partners`) that would let them go, if any."""
    names = " ".join(c.pretty() for c in cards)
    if partners:
        alone = "on its own" if len(cards) == 1 else "on their own"
        them = "it" if len(partners) == 1 else "them"
        return (
            f"{names} can't go on the table {alone}, even with rearranging — it can with "
            f"{' '.join(c.pretty() for c in partners)} from your hand: select {them} too"
        )
    if len(cards) == 1:
        return f"{names} can't go anywhere, even with rearranging"
    return f"{names} can't all go on the table together, even with rearranging"


TYPED_VERBS = frozenset({"lay", "add", "take", "move", "split", "give", *SIMPLE})
