"""The rummy family's puzzle of the day (issue 41 item 5): what a finished game offers
(engine/rummy/puzzle.py cuts it from the people's own views) and the puzzle's pictures — the
position as the seat saw it, no names, and the next day's solution.

A puzzle's data is the engine's `Puzzle.to_dict()`: a table, one hand, the maximum and one lay
reaching it. Nothing else of its round is kept, so nothing else can be shown.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Mapping
from dataclasses import replace
from typing import Any

from bot.core.hosting import Table
from bot.core.record import Record, SeatInfo
from bot.core.views import Screen
from bot.i18n import _, current, t, tn
from engine.cards import Card
from engine.rummy import GameState
from engine.rummy import puzzle as cut_puzzle
from engine.rummy.puzzle import Puzzle
from engine.rummy.tiles import parse_cards
from render.rummy import render_private
from render.views import PrivateView

from . import words
from .screens import picture_words, sorted_hand


def cut(record: Record) -> tuple[int, dict[str, Any]] | None:
    """The best puzzle of a finished game's people's rounds: (score, data), or None."""
    if record.state is None:
        return None
    state = GameState.from_dict(record.state)
    people = [i for i, seat in enumerate(record.seats) if not seat.computer]
    found = cut_puzzle.best(cut_puzzle.candidates(state, people))
    if found is None:
        return None
    gain, rearranged, most = found.rank()
    return gain * 10_000 + min(rearranged, 99) * 100 + min(most, 99), found.to_dict()


def title(data: dict[str, Any]) -> str:
    p = Puzzle.from_dict(data)
    return t("🧩 Puzzle of the day · {rulebook}", rulebook=words.title(p.rulebook))


def task(data: dict[str, Any]) -> str:
    """What to do, in the reader's words."""
    p = Puzzle.from_dict(data)
    if cut_puzzle.is_tiles(p):
        return tn("Lay {n} tile from this rack in one turn. The table may be rearranged.",
                  "Lay {n} tiles from this rack in one turn. The table may be rearranged.",
                  p.most)
    return tn("Lay {n} card from this hand in one turn. The table may be rearranged.",
              "Lay {n} cards from this hand in one turn. The table may be rearranged.", p.most)


def post_screen(data: dict[str, Any], key: str) -> Screen:
    """The day's puzzle as the group sees it: the table and the hand, the task."""
    p = Puzzle.from_dict(data)
    rules = cut_puzzle.rules_of(p)
    hand = parse_cards(" ".join(p.hand), rules)
    table = tuple(tuple(parse_cards(" ".join(g), rules)) for g in p.table)
    singles = tuple(parse_cards(" ".join(p.singles), rules)) if p.singles else ()
    label = (tn("Lay {n} of these tiles", "Lay {n} of these tiles", p.most) if rules.tiles
             else tn("Lay {n} of these cards", "Lay {n} of these cards", p.most))
    picture = PrivateView(
        title(data), tuple(sorted_hand(hand, "suit")), "suit", table, singles,
        words=picture_words(rules.tiles), hand_label=label,
    )
    return Screen(f"{title(data)}\n{task(data)}", image_key=f"puzzle:{key}",
                  painter=lambda: render_private(picture), lang=current())


def solution_screen(data: dict[str, Any], key: str) -> Screen:
    """Yesterday's answer: the table after one lay of the most cards."""
    p = Puzzle.from_dict(data)
    rules = cut_puzzle.rules_of(p)
    copies = iter(range(10_000))  # each card its own ident, so the laid ones can be marked
    table = tuple(tuple(replace(c, copy=next(copies)) for c in parse_cards(" ".join(g), rules))
                  for g in p.solution)
    left = Counter(p.solution_laid())
    placed: list[Card] = []
    for group in table:  # the hand's cards: the table's cards beyond what it held before
        for card in group:
            face = "*" if card.is_joker else str(card)
            if left[face]:
                left[face] -= 1
                placed.append(card)
    if rules.tiles:
        line = tn("Yesterday's puzzle: {n} tile could go down, like this.",
                  "Yesterday's puzzle: {n} tiles could go down, like this.", p.most)
        label = tn("From the rack: {n} tile", "From the rack: {n} tiles", p.most)
    else:
        line = tn("Yesterday's puzzle: {n} card could go down, like this.",
                  "Yesterday's puzzle: {n} cards could go down, like this.", p.most)
        label = tn("From the hand: {n} card", "From the hand: {n} cards", p.most)
    picture = PrivateView(_("Yesterday's puzzle: a solution"), tuple(placed), "suit", table,
                          words=picture_words(rules.tiles),
                          placed=frozenset(c.ident for c in placed), hand_label=label)
    return Screen(line, image_key=f"solution:{key}", painter=lambda: render_private(picture),
                  lang=current())


# -- a try (the variant in puzzle_host.py plays it; the game's puzzle_try deals it) ----------
KIND = "puzzle"  # the variant's name: a try's record carries it as its rulebook
DATA = "puzzle"  # record.options[DATA]: the puzzle's data
STRANGER = "·"  # the other seats' name: nobody's (their cards are strangers')


def try_puzzle(record: Record) -> Puzzle:
    return Puzzle.from_dict(record.options[DATA])


def try_over(state: Mapping[str, Any]) -> bool:
    """Is a try's one turn over (its saved state: the turn passed on, or the round ended)?"""
    return state.get("phase") != "play" or state.get("turn") != 0 or state.get("round") != 1


def deal(table: Table, data: dict[str, Any]) -> GameState:
    """Set a new try's record up: the variant, the puzzle, one seat for the person and one for
    each stranger, the position dealt (seeded by the row: the strangers' cards and the stock)."""
    record = table.record
    p = Puzzle.from_dict(data)
    record.rulebook = KIND
    record.options[DATA] = data
    record.turn_seconds = 0
    record.seats = record.seats[:1] + [SeatInfo(STRANGER, computer="easy")
                                       for _ in range(p.players - 1)]
    state = cut_puzzle.position(p, seed=table.game_id)
    record.state = state.to_dict()
    record.add_log(task(data))
    return state


def verdict(record: Record) -> tuple[bool, int] | None:
    """(solved, cards laid) of a try whose turn is over (or that was given up); None while it
    goes on."""
    if record.state is None or DATA not in record.options:
        return None
    if not (record.ended or try_over(record.state)):
        return None
    p = try_puzzle(record)
    laid = cut_puzzle.laid(p, GameState.from_dict(record.state))
    return cut_puzzle.solved(p, laid), laid


