"""What the renderer draws: plain frozen views the bot core fills in.

A view holds only what its audience may see. `TableView` goes to the group chat and therefore has
no hand field at all; `PrivateView` goes to one seat.
"""

from __future__ import annotations

from dataclasses import dataclass

from engine.cards import Card

Ident = tuple[int, str, int]  # Card.ident: the physical card, whatever a joker stands for


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


@dataclass(frozen=True)
class ScoreView:
    title: str  # "Manipulation · after round 3"
    names: tuple[str, ...]
    rounds: tuple[tuple[int, ...], ...]  # points per round per seat (chart shows running totals)
    target: int | None = None  # target line (200/300/150)
    lower_is_better: bool = True
    final: bool = False
    winners: tuple[int, ...] = ()


@dataclass(frozen=True)
class LobbyView:
    title: str  # "Manipulation"
    options: tuple[str, ...]  # ("must lay: remind", "play to 200")
    seats: tuple[str, ...]  # ("Alice (host)", "Bob", "🤖 Computer (medium)")
    max_seats: int = 5
