"""Build-to-Ten's log lines and one-line notices, from the engine's events (English)."""

from __future__ import annotations

from collections.abc import Mapping, Sequence

from engine.buildten import Event, card_label


def pile_name(pile: int) -> str:
    return f"pile {pile + 1}"


def log_lines(events: Sequence[Event], names: Mapping[int, str]) -> list[str]:
    """What the group reads happened, one line per event worth telling."""
    lines = []
    for e in events:
        who = names.get(e.seat, "") if e.seat is not None else ""
        d = e.data
        if e.kind == "played":
            source = {"stock": "from the stock", "hand": "from the hand",
                      "discard": "from a discard pile"}[d["source"]]
            lines.append(f"{who} plays {card_label(d['card'])} {source} onto "
                         f"{pile_name(d['pile'])} (now {d['number']})")
        elif e.kind == "completed":
            lines.append(f"{pile_name(d['pile'])} reached 10 and is set aside")
        elif e.kind == "joker":
            target = names.get(d["target"], "?")
            whose = "their own" if d["target"] == e.seat else f"{target}'s"
            if d["kind"] == "SHIFT":
                lines.append(f"{who} shifts {whose} {card_label(d['old'])} under the stock: "
                             f"{card_label(d['new'])} turns up")
            else:
                lines.append(f"{who} swaps face-up cards with {target}: "
                             f"{target} gets {card_label(d['new'])}")
        elif e.kind == "discarded":
            lines.append(f"{who} discards {card_label(d['card'])}")
        elif e.kind == "passed":
            lines.append(f"{who} ends the turn with an empty hand")
        elif e.kind == "rebuilt":
            lines.append(f"the general stock is rebuilt ({d['cards']} cards)")
        elif e.kind == "won":
            lines.append(f"{who} empties the stock and wins!")
        elif e.kind == "stuck":
            won = " and ".join(names.get(w, "?") for w in d["winners"])
            lines.append(f"nobody can build any more: {won} with the fewest stock cards win")
    return lines


def notice(event: Event) -> str | None:
    """A line for the mover's own screen."""
    if event.kind == "drew":
        return f"You drew {event.data['cards']} card{'s' if event.data['cards'] > 1 else ''}."
    if event.kind == "revealed":
        return f"Your stock turns up {card_label(event.data['card'])}."
    return None
