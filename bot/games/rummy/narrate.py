"""Rummy's sentences: the engine's events and refusals made into words for the log, the group
and a seat's notice line. The one place the rummy game's hosting makes sentences; every msgid
is English and bot.i18n gives it in the reader's language."""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import replace
from typing import Any

from bot.i18n import Laid, _, and_list, isolate, listing, t, tn
from engine.cards import suit_order
from engine.rummy import Event, Rulebook, group_label
from engine.rummy.tile_rules import floats
from engine.rummy.tiles import parse_tiles, piece_from_token


def pretty(tokens: Iterable[str]) -> str:
    return " ".join(piece_from_token(t).marked() for t in tokens)


def pretty_sorted(tokens: Iterable[str]) -> str:
    """Cards or tiles as a hand sorted by suit (colour) then number shows them (a hand left
    at the round's end), each run of them one left-to-right isolate."""
    return isolate(" ".join(c.marked() for c in sorted(map(piece_from_token, tokens),
                                                       key=suit_order)))


def drew(name: str, n: int, tiles: bool = False) -> str:
    """`name` drew `n` cards (a tile game's: tiles)."""
    if tiles:
        return tn("{name} drew {n} tile", "{name} drew {n} tiles", n, name=name)
    return tn("{name} drew {n} card", "{name} drew {n} cards", n, name=name)


def draws_this_turn(events: Sequence[Event], draws: int, turn: int | None,
                    who: dict[int, str], tiles: bool = False) -> tuple[str, str] | None:
    """A draw that goes on the same seat's turn of draws (Manipulation draws one card at a time
    until a lay is possible): the log line of the draws before it and the line of them all,
    ("drew 12 cards", "drew 13 cards"), so that the log says it once; None otherwise.
    `draws`: the turn's draws after this one; `turn`: who moves after it."""
    if len(events) != 1 or events[0].kind != "drew" or events[0].seat != turn:
        return None
    count = int(events[0].data.get("count") or 0)
    if not 0 < count < draws:
        return None
    name = who.get(turn, "") if turn is not None else ""
    return drew(name, draws - count, tiles), drew(name, draws, tiles)


def log_lines(events: Sequence[Event], who: dict[int, str], tiles: bool = False) -> list[str]:
    """The log lines of a move's events; `who`: seat -> its label; `tiles`: a tile game's.
    A seat's draws in a row are one line (the computer finishing a timed-out turn draws
    several in one go)."""
    lines = []
    for e in _draws_merged(events):
        name = who.get(e.seat, "") if e.seat is not None else ""
        if e.kind == "laid":
            cards = pretty(e.data["placed"])  # the engine tells them in their group's order
            if e.data.get("rearranged"):
                lines.append(
                    t("{name} laid {cards} (rearranging the table)", name=name, cards=cards)
                )
            else:
                lines.append(t("{name} laid {cards}", name=name, cards=cards))
        elif e.kind == "drew" and e.data.get("count"):
            lines.append(drew(name, e.data["count"], tiles))
        elif e.kind == "passed":
            lines.append(t("{name} passed", name=name))
        elif e.kind == "knocked":
            lines.append(t("{name} knocked!", name=name))
        elif e.kind == "gave_up":
            lines.append(t("{name} gave up the move and drew {count}", name=name,
                           count=e.data["count"]))
    return lines


def _draws_merged(events: Sequence[Event]) -> list[Event]:
    merged: list[Event] = []
    for e in events:
        last = merged[-1] if merged else None
        if (e.kind == "drew" and last is not None and last.kind == "drew"
                and last.seat == e.seat and e.data.get("count") and last.data.get("count")):
            merged[-1] = replace(last, data={**last.data,
                                             "count": last.data["count"] + e.data["count"]})
        else:
            merged.append(e)
    return merged


def _lay_text(hint: dict[str, Any], tiles: bool) -> tuple[str, int]:
    """The hint's whole lay — every card, not one: one card alone is often no move — by the
    group each goes to (`8K 9K 10K · 10O 11O 🃏12O`), and how many of those groups are new.
    A Rummikub joker floating in a group of three names no colour (RULES.md §5 decision 3)."""
    placed = hint.get("placed") or [hint["card"]]
    mine = {piece_from_token(t).ident for t in placed}
    parts, new = [], 0
    for tokens in hint.get("lay") or [placed]:
        group = [piece_from_token(t) for t in tokens]
        cards = [c.free() if tiles and c.is_joker and floats(group, c) else c
                 for c in group if c.ident in mine]
        if cards:  # a tile with its colour mark (7🟥); each group its own isolate
            parts.append(isolate(" ".join(c.marked() for c in cards)))
            new += len(cards) == len(group)
    return Laid(" · ".join(parts)), new


def hint_line(hint: dict[str, Any] | None, tiles: bool = False) -> str:
    """What a hint says to the player (the table picture outlines the same groups)."""
    if not hint:
        return _("No tile of yours can be played now.") if tiles else _(
            "No card of yours can be played now.")
    card, new_groups = _lay_text(hint, tiles)
    labels = [group_label(g) for g in hint.get("groups", [])]
    tokens = hint.get("singles", [])
    where = []
    if labels:
        where.append(
            t("it changes group {group}", group=labels[0]) if len(labels) == 1
            else t("it changes groups {groups}", groups=and_list(labels))
        )
    if tokens:
        where.append(tn("with the single {cards} from the table",
                        "with the singles {cards} from the table", len(tokens),
                        cards=pretty(tokens)))
    how = ", ".join(where) or (_("as new groups") if new_groups > 1 else _("as a new group"))
    if hint.get("rearrange"):
        return t("💡 You can play {card} — {how}; you need to rearrange the table.", card=card,
                 how=how)
    return t("💡 You can play {card} — {how}.", card=card, how=how)


def notice(event: Event, rules: Rulebook | None = None) -> str | None:
    """The line a seat's private screen shows after one of its own events, if any."""
    tiles = rules is not None and rules.tiles
    if event.kind in ("reminder", "hint"):
        hint = hint_line(event.private.get("hint"), tiles)
        if event.kind == "hint":
            return hint
        return t(
            "You must lay cards if you can. {hint} Tap Draw (or Pass) again to go ahead anyway.",
            hint=hint,
        )
    if event.kind == "give_up_confirm" and tiles and rules is not None:
        return tn(
            "Give up puts the table back and you draw {n} tile — tap Give up (+{n}) again to "
            "confirm.",
            "Give up puts the table back and you draw {n} tiles — tap Give up (+{n}) again to "
            "confirm.",
            rules.give_up_draw,
        )
    if event.kind == "give_up_confirm":
        return _(
            "Give up puts everything back and you draw 3 cards "
            "— tap Give up (+3) again to confirm."
        )
    if event.kind == "drew":
        cards = pretty(event.private.get("cards", []))
        return t("You drew {cards}.", cards=cards) if cards else None
    return None


def starting_draw(draws: Sequence[Sequence[str]], who: dict[int, str], starter: int) -> str:
    """Rummikub's starting draw (RULES.md §5 decision 4): each seat's tiles (with their colour
    marks, as the log shows tiles; a joker or a tie drew again) and who starts. In Hebrew each
    name and each tile is its own isolate, each seat a list item: one isolate around it all
    would split `🤖 מחשב 1 13🟥` into `🤖 13 1 מחשב`."""
    drawn = listing(
        [isolate(who.get(seat, "?")) + " "
         + " ".join(isolate(tile.marked()) for face in faces for tile in parse_tiles(face))
         for seat, faces in enumerate(draws)], " · ")
    return t("Starting draw: {draws} — {name} starts", draws=drawn, name=who.get(starter, "?"))


def started(title: str, seats: int) -> str:
    return tn("{title} started with {n} player", "{title} started with {n} players", seats,
              title=title)


def time_ran_out(name: str, taken_over: bool, limit: int, ruled: bool = False) -> str:
    """`ruled`: the rules' own timer gave the turn up (Rummikub), no computer played it."""
    note = (t("⏱ {name}'s time ran out — the turn is given up.", name=name) if ruled
            else t("⏱ {name}'s time ran out — the computer played for {name}.", name=name))
    if taken_over:
        note += " " + tn("After {n} time-out in a row, a computer takes the seat.",
                         "After {n} time-outs in a row, a computer takes the seat.", limit)
    return note
