"""What the renderer draws: plain frozen views the bot core fills in.

A view holds only what its audience may see. `TableView` goes to the group chat and therefore has
no hand field at all; `PrivateView` goes to one seat.
"""

from __future__ import annotations

from dataclasses import dataclass

from engine.cards import Card

Ident = tuple[int, str, int]  # Card.ident: the physical card, whatever a joker stands for


@dataclass(frozen=True)
class PictureWords:
    """Every word drawn inside a picture, in the reader's language (the bot fills it from its
    catalogs; the renderer knows no language). `{n}`-style templates are filled here. `rtl`:
    lay out lines holding right-to-left script right to left."""

    singles: str = "Singles"
    loose: str = "Loose: place these"
    empty_table: str = "The table is empty"
    no_groups: str = "No groups on the table yet"
    empty_hand: str = "No cards left in your hand"
    changed: str = "changed"
    invalid: str = "not valid yet"
    hint: str = "hint"
    placed: str = "from your hand"
    points_short: str = "{n} pts"
    draw: str = "It's a draw"
    wins: str = "{name} wins!"
    win: str = "{names} win!"
    and_: str = "and"
    round: str = "round {n}"
    total: str = "total"
    points: str = "points"
    target: str = "target {n}"
    lobby: str = "Rummy Table · new game"
    seats: str = "Seats {taken}/{max}"
    open_seat: str = "open seat"
    rtl: bool = False


ENGLISH = PictureWords()


@dataclass(frozen=True)
class SeatStrip:
    name: str
    cards: int  # cards in hand
    score: int | None  # running score, None for single-round games
    is_turn: bool
    is_computer: bool = False


@dataclass(frozen=True)
class TableView:
    title: str  # "Manipulation · Round 2"
    groups: tuple[tuple[Card, ...], ...]  # canonical order; labelled A, B, C… by index
    singles: tuple[Card, ...] = ()  # Tahiti face-up singles, drawn apart
    changed: frozenset[int] = frozenset()  # groups touched by the last move
    stock: int = 0
    seats: tuple[SeatStrip, ...] = ()
    status: str = ""  # "Bob's turn"
    four_color: bool = False
    words: PictureWords = ENGLISH
    tiles: bool = False  # a tile game (Rummikub): the pool and the racks are counted in tiles


@dataclass(frozen=True)
class PrivateView:
    title: str  # "Your turn · you drew 1"
    hand: tuple[Card, ...]  # hand cards NOT placed in the draft
    sort: str = "suit"  # "suit" | "rank"; the renderer sorts and numbers 1..n in that order
    groups: tuple[tuple[Card, ...], ...] = ()  # the draft (or the table when no draft)
    singles: tuple[Card, ...] = ()
    changed: frozenset[int] = frozenset()  # draft groups that differ from the table
    invalid: frozenset[int] = frozenset()  # draft groups that are not valid yet
    loose: tuple[Card, ...] = ()  # table cards taken out and not yet placed
    placed: frozenset[Ident] = frozenset()  # hand cards now in the draft ("from your hand")
    selected: frozenset[Ident] = frozenset()
    hint_cards: frozenset[Ident] = frozenset()
    hint_groups: frozenset[int] = frozenset()
    four_color: bool = False
    words: PictureWords = ENGLISH
    hand_label: str = ""  # "Your hand · 7 cards · by suit" ("": made in English here)


@dataclass(frozen=True)
class ScoreView:
    title: str  # "Manipulation · after round 3"
    names: tuple[str, ...]
    rounds: tuple[tuple[int, ...], ...]  # points per round per seat (chart shows running totals)
    target: int | None = None  # target line (200/300/150)
    lower_is_better: bool = True
    final: bool = False
    winners: tuple[int, ...] = ()
    words: PictureWords = ENGLISH


@dataclass(frozen=True)
class LobbyView:
    title: str  # "Manipulation"
    options: tuple[str, ...]  # ("must lay: remind", "play to 200")
    seats: tuple[str, ...]  # ("Alice (host)", "Bob", "🤖 Computer (medium)")
    max_seats: int = 5
    words: PictureWords = ENGLISH
    tiles: bool = False  # a tile game (Rummikub): tiles, not a fan of cards
