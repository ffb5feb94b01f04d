"""Rummy's sentences: the engine's events and refusals made into words for the log, the group
and a seat's notice line. The one place the rummy game's hosting makes sentences (the
languages issue translates here)."""

from __future__ import annotations

from collections.abc import Iterable, Sequence

from engine import Event
from engine.cards import Card
from engine.game import hint_line

TIMEOUTS_NOTE = " After {n} time-outs in a row, a computer takes the seat."


def pretty(tokens: Iterable[str]) -> str:
    return " ".join(Card.from_token(t).pretty() for t in tokens)


def log_lines(events: Sequence[Event], who: dict[int, str]) -> list[str]:
    """The log lines of a move's events; `who`: seat -> its label."""
    lines = []
    for e in events:
        name = who.get(e.seat, "") if e.seat is not None else ""
        if e.kind == "laid":
            how = " (rearranging the table)" if e.data.get("rearranged") else ""
            lines.append(f"{name} laid {pretty(e.data['placed'])}{how}")
        elif e.kind == "drew" and e.data.get("count"):
            n = e.data["count"]
            lines.append(f"{name} drew {n} card{'s' * (n != 1)}")
        elif e.kind == "passed":
            lines.append(f"{name} passed")
        elif e.kind == "knocked":
            lines.append(f"{name} knocked!")
        elif e.kind == "gave_up":
            lines.append(f"{name} gave up the move and drew {e.data['count']}")
    return lines


def notice(event: Event) -> str | None:
    """The line a seat's private screen shows after one of its own events, if any."""
    if event.kind in ("reminder", "hint"):
        hint = hint_line(event.private.get("hint"))
        if event.kind == "hint":
            return hint
        return (
            "You must lay cards if you can. " + hint
            + " Tap Draw (or Pass) again to go ahead anyway."
        )
    if event.kind == "give_up_confirm":
        return (
            "Give up puts everything back and you draw 3 cards "
            "— tap Give up (+3) again to confirm."
        )
    if event.kind == "drew":
        cards = pretty(event.private.get("cards", []))
        return f"You drew {cards}." if cards else None
    return None


def started(title: str, seats: int) -> str:
    return f"{title} started with {seats} seats"


def time_ran_out(name: str, taken_over: bool, limit: int) -> str:
    note = f"⏱ {name}'s time ran out — the computer played for {name}."
    return note + (TIMEOUTS_NOTE.format(n=limit) if taken_over else "")
