"""Typed moves (`/lay 7H 8H 9H`, `/add B 10H`, `/move B:QS A`, `/split B 4`, `/take B QS`) turned
into engine actions. Shared by the chat adapters (through the core) and the terminal. Rummikub's
are written in tile notation (`/lay 10R 11R 12R`, `/add B 7R`; RULES.md §5)."""

from __future__ import annotations

from collections.abc import Sequence

from bot.i18n import _, current, t, tn
from engine.cards import Card
from engine.rummy import (
    Action,
    Move,
    Place,
    Split,
    Take,
    group_index,
    parse_cards,
)
from engine.rummy.actions import WORD_ACTIONS
from engine.rummy.tiles import parse_tiles

SIMPLE = WORD_ACTIONS
MAX_TYPED = 300  # characters; longer text is refused before it is read
MAX_CARDS = 40  # cards one typed move may name


class TypedError(ValueError):
    """A typed command that could not be understood; the message says how to write it."""


def cards_arg(text: str, hand: Sequence[Card], tiles: bool = False) -> tuple[Card, ...]:
    """Cards by notation (`7H 10S *`; tiles: `7R 13O *`) or by their numbers in the sorted hand
    (`1 4 5`)."""
    out: list[Card] = []
    tokens = text.replace(",", " ").split()
    if len(tokens) > MAX_CARDS:
        raise TypedError(t("That's more than {n} tiles", n=MAX_CARDS) if tiles
                         else t("That's more than {n} cards", n=MAX_CARDS))
    for token in tokens:
        if token.isdigit():
            if not (token.isascii() and len(token) <= 3):  # '²'.isdigit() is True
                raise TypedError(t("'{token}' is not a card number", token=token[:8]))
            index = int(token)
            if not 1 <= index <= len(hand):
                raise TypedError(t("There is no tile number {n} on your rack", n=index) if tiles
                                 else t("There is no card number {n} in your hand", n=index))
            out.append(hand[index - 1])
        else:
            try:
                out.extend(parse_tiles(token) if tiles else parse_cards(token))
            except ValueError as error:
                raise TypedError(
                    str(error) if current() == "en"
                    else t("'{token}' is not a tile: write them like {example}", token=token[:8],
                           example="7R 13O 1K *")
                    if tiles
                    else t("'{token}' is not a card: write them like {example}", token=token[:8],
                           example="7H 10S QD *")
                ) from None
    if not out:
        raise TypedError(
            t("Name the tiles, like {example} (or their numbers)", example="10R 11R 12R")
            if tiles
            else t("Name the cards, like {example} (or their numbers)", example="7H 8H 9H")
        )
    return tuple(out)


def written_as(example: str) -> str:
    """How a typed move is written: the example keeps its own direction in a Hebrew line."""
    return t("Write it as: {example}", example=example)


def _group(label: str) -> int:
    try:
        return group_index(label)
    except ValueError as error:
        raise TypedError(
            str(error) if current() == "en" else t("There is no group {group}", group=label[:8])
        ) from None


def _move_parts(rest: str) -> tuple[str, str, str] | None:
    """`B:QS A` -> ("B", "QS", "A"): split by hand, in linear time (the regex this replaces
    backtracked cubically over a run of spaces: 4,000 characters held the GIL for minutes)."""
    source, colon, tail = rest.partition(":")
    words = tail.split()
    if not colon or len(words) < 2:
        return None
    source, target = source.strip(), words[-1]
    if not (source.isascii() and source.isalpha() and target.isascii() and target.isalpha()):
        return None
    return source, " ".join(words[:-1]), target


def parse_typed(
    seat: int, verb: str, rest: str, hand: Sequence[Card], tiles: bool | None = None
) -> list[Action]:
    """The actions for one typed command; `hand` is the seat's sorted, unplaced hand; `tiles`:
    read tile notation (None: when the hand is tiles)."""
    if tiles is None:
        tiles = any(c.is_tile for c in hand)
    if len(rest) > MAX_TYPED or len(verb) > 40:
        raise TypedError(t("That's too long for a move (at most {n} characters)", n=MAX_TYPED))
    verb = verb.lower().lstrip("/").split("@")[0]
    rest = rest.strip()
    if verb == "give" and rest.lower() == "up":
        verb = "giveup"
    if verb in SIMPLE:
        return [SIMPLE[verb](seat)]
    if verb == "lay":
        return [Place(seat, cards_arg(rest, hand, tiles), None)]
    if verb == "add":
        label, _sep, cards = rest.partition(" ")
        if not cards.strip():
            raise TypedError(written_as("/add B 7R" if tiles else "/add B 10H"))
        return [Place(seat, cards_arg(cards, hand, tiles), _group(label))]
    if verb == "take":
        label, _sep, cards = rest.partition(" ")
        if not cards.strip():
            raise TypedError(written_as("/take B 7R" if tiles else "/take B QS"))
        return [Take(seat, _group(label), c) for c in cards_arg(cards, (), tiles)]
    if verb == "move":
        parts = _move_parts(rest)
        if parts is None:
            raise TypedError(_("Write it as: /move B:QS A  (or 'new' as the target group)"))
        source, cards, target = parts
        to = None if target.lower() == "new" else _group(target)
        return [Move(seat, cards_arg(cards, (), tiles), _group(source), to)]
    if verb == "split":
        label, _sep, at = rest.partition(" ")
        at = at.strip()
        if not (at.isascii() and at.isdecimal() and len(at) <= 3):
            raise TypedError(_("Write it as: /split B 4  (split group B after its 4th card)"))
        return [Split(seat, _group(label), int(at))]
    raise TypedError(
        t("Unknown move '/{verb}'. Moves: /lay /add /move /split /take /done /reset", verb=verb)
    )


def cannot_place(cards: Sequence[Card], partners: Sequence[Card] = ()) -> str:
    """Auto-place found nothing: say so plainly (UX.md), and name the other hand cards
    (`partners`) that would let them go, if any."""
    names = " ".join(c.pretty() for c in cards)
    if partners:
        others = " ".join(c.pretty() for c in partners)
        alone = tn(
            "{cards} can't go on the table on its own, even with rearranging",
            "{cards} can't go on the table on their own, even with rearranging",
            len(cards), cards=names,
        )
        helper = tn(
            "it can with {cards} from your hand: select it too",
            "it can with {cards} from your hand: select them too",
            len(partners), cards=others,
        )
        return alone + " — " + helper
    if len(cards) == 1:
        return t("{cards} can't go anywhere, even with rearranging", cards=names)
    return t("{cards} can't all go on the table together, even with rearranging", cards=names)


TYPED_VERBS = frozenset({"lay", "add", "take", "move", "split", "give", *SIMPLE})
