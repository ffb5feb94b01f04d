"""What a guided lesson is made of: positions, goals and steps (plain frozen data, no I/O).

A step is judged by the real engine: the learner's actions go through `game.apply`, and the
step's `Goal` is checked against the events and the new state — never against one exact move.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any, Literal

GoalKind = Literal["lay", "draw", "pass", "knock", "give_up", "reset", "finish", "turn_over"]
Tool = Literal["new", "add", "take", "split"]


@dataclass(frozen=True)
class Position:
    """A `deal_scenario` spec; seat 0 is the learner, the other seats are computers."""

    rulebook: str
    hands: tuple[str, ...]
    table: tuple[str, ...] = ()
    singles: str = ""
    stock_top: str = ""
    turn: int = 0
    options: Mapping[str, Any] = field(default_factory=dict)
    first_lay_done: bool | None = None
    empty_stock: bool = False  # the rest of the stock goes to seat 1's hand (cards conserved)
    setup: tuple[str, ...] = ()  # moves already made, in demo notation (Carousel's first draw)
    seed: int = 0


@dataclass(frozen=True)
class Goal:
    """What the learner must achieve. Every field given must hold; faces like `9S`, `*`."""

    kind: GoalKind
    places: str = ""  # a lay: all these cards come from the hand (or Tahiti's singles)
    places_any: str = ""  # a lay: at least one of these cards comes from the hand
    group: str = ""  # after the move some table group is exactly these faces
    contains: str = ""  # after the move some table group holds at least these faces
    rearranged: bool | None = None  # the lay had to rearrange the table (or must not)
    out: bool = False  # the learner empties their hand


@dataclass(frozen=True)
class Step:
    id: str  # stable name (tests and saved progress refer to steps by index; ids document)
    title: str
    text: str  # the instruction
    goal: Goal
    position: Position | None  # None: go on from the game the previous step left
    outline: str = ""  # faces to outline on the picture (hand or table)
    outline_groups: tuple[int, ...] = ()  # groups to outline once "Show me" is pressed
    show: str = ""  # what "Show me" says
    demo: tuple[str, ...] = ()  # the expected moves in typed notation (Show me, Skip, tests)
    tools: tuple[Tool, ...] = ("new", "add")  # draft tools the screen offers
    allow: frozenset[str] = frozenset()  # outcomes that are fine on the way, e.g. {"drew"}
    nudges: Mapping[str, str] = field(default_factory=dict)  # what went wrong -> what to say
    success: str = ""
    computers: bool = False  # once met, the computer seats play until it's your turn again


@dataclass(frozen=True)
class Lesson:
    name: str  # the rulebook it teaches
    title: str
    intro: str
    steps: tuple[Step, ...]
    outro: str = ""
