"""The puzzle of the day (issue 41): a moment of a finished round where a seat could have laid
far more than it did, and the best lay needs the table rearranged — cut from what that seat saw
then (its own `PlayerView`: the table and its hand, nothing else).

`cut` reads decisions (engine/rummy/review.py's `seat_rounds`) and asks the exact solver for the
most cards each moment allowed; the answer is plain data: the position (table, singles, hand,
first-lay flag), the maximum and one lay that reaches it. `position` deals it as a scenario
(every other card in the stock or a stranger's hand, shuffled by the puzzle's own seed) so a
puzzle is played by the game's own rules; `solved` judges a try against the maximum.
Pure: no I/O, no clock.
"""

from __future__ import annotations

import random
from collections import Counter
from collections.abc import Iterable, Sequence
from dataclasses import asdict, dataclass, field
from typing import Any

from .game import new_game, unmatched_groups
from .review import Decision, seats_rounds
from .rulebooks import Rulebook, get_rulebook
from .scenario import deal_scenario
from .solver import find_move
from .state import GameState
from .tiles import parse_cards

MIN_GAIN = 3  # "far more": the best lay puts down at least this many cards more than the seat did
MIN_HAND = 4  # a hand smaller than this makes no puzzle worth a day
MAX_HAND = 15  # a puzzle fits a phone: at most a dealt hand and a draw …
MAX_GROUPS = 10  # … and a table of at most this many groups


@dataclass(frozen=True)
class Puzzle:
    """One position and its answer; cards as faces (`str(card)`: `7H`, `*7H` for a joker standing
    for 7H), not the saved game's tokens — a puzzle names no copy of a card."""

    rulebook: str
    options: dict[str, Any]
    table: tuple[tuple[str, ...], ...]
    singles: tuple[str, ...]  # Tahiti's unused singles
    hand: tuple[str, ...]
    players: int  # the round's seats: its deck is dealt for that many
    first_lay_done: bool
    most: int  # the most hand cards one lay could put down (the solver's exact maximum)
    laid: int  # what the seat laid in that turn
    rearranged: int  # table groups the best lay changes
    solution: tuple[tuple[str, ...], ...]  # the whole table after one lay of `most` cards
    round: int = 0
    seat: int = 0
    turn: int = 0
    source: dict[str, Any] = field(default_factory=dict)  # the platform's note (its game id)

    @property
    def gain(self) -> int:
        return self.most - self.laid

    def rank(self) -> tuple[int, int, int]:
        """Higher is a better puzzle: more missed cards, more groups to rearrange, more cards."""
        return (self.gain, self.rearranged, self.most)

    def to_dict(self) -> dict[str, Any]:
        return asdict(self)

    def solution_laid(self) -> list[str]:
        """The hand's cards the solution lays (faces; a joker as `*`)."""
        before = Counter(_bare(f) for g in self.table for f in g)
        before.update(_bare(f) for f in self.singles)
        after = Counter(_bare(f) for g in self.solution for f in g)
        return sorted((after - before).elements())

    @classmethod
    def from_dict(cls, data: dict[str, Any]) -> Puzzle:
        tup = tuple
        return cls(
            rulebook=str(data["rulebook"]),
            options=dict(data.get("options") or {}),
            table=tup(tup(str(t) for t in g) for g in data["table"]),
            singles=tup(str(t) for t in data.get("singles") or ()),
            hand=tup(str(t) for t in data["hand"]),
            players=int(data["players"]),
            first_lay_done=bool(data["first_lay_done"]),
            most=int(data["most"]),
            laid=int(data["laid"]),
            rearranged=int(data["rearranged"]),
            solution=tup(tup(str(t) for t in g) for g in data["solution"]),
            round=int(data.get("round", 0)),
            seat=int(data.get("seat", 0)),
            turn=int(data.get("turn", 0)),
            source=dict(data.get("source") or {}),
        )


def _bare(face: str) -> str:
    """A face without a joker's meaning: `*7H` is the joker `*`."""
    return "*" if face.startswith("*") else face


def rules_of(puzzle: Puzzle) -> Rulebook:
    return get_rulebook(puzzle.rulebook, **puzzle.options)


def is_tiles(puzzle: Puzzle) -> bool:
    return bool(rules_of(puzzle).tiles)


def finished_rounds(state: GameState) -> range:
    """The rounds of `state` that are over (a round being played is never cut)."""
    last = state.round if state.phase != "play" else state.round - 1
    return range(1, last + 1)


def candidates(state: GameState, seats: Iterable[int]) -> list[Puzzle]:
    """The best puzzle of each (finished round, seat) of a game, for the seats given (a chat's
    people, not its computers)."""
    done = set(finished_rounds(state))
    if not done:
        return []
    start = new_game(state.rulebook, state.players, state.seed, **state.options)
    found: list[Puzzle] = []
    for by_round in seats_rounds(start, state.actions, seats).values():
        for rnd, decisions in by_round.items():
            if rnd not in done:
                continue
            best = _best_of(decisions)
            if best is not None:
                found.append(best)
    return found


def best(puzzles: Sequence[Puzzle]) -> Puzzle | None:
    """The day's puzzle: the highest rank; ties go to the earliest (a stable, seedless choice)."""
    top: Puzzle | None = None
    for p in puzzles:
        if top is None or p.rank() > top.rank():
            top = p
    return top


def _best_of(decisions: Sequence[Decision]) -> Puzzle | None:
    laid: dict[int, int] = {}
    for d in decisions:
        laid[d.turn] = laid.get(d.turn, 0) + len(d.placed)
    top: Puzzle | None = None
    for d in decisions:
        view = d.view
        if not MIN_HAND <= len(view.hand) <= MAX_HAND or view.draft is not None \
                or not 0 < len(view.table) + len(view.singles) <= MAX_GROUPS:
            continue
        if top is not None and len(view.hand) - laid[d.turn] <= top.gain:
            continue  # even laying the whole hand would not beat the best so far
        puzzle = _cut(d, laid[d.turn])
        if puzzle is not None and (top is None or puzzle.rank() > top.rank()):
            top = puzzle
    return top


def _cut(d: Decision, laid: int) -> Puzzle | None:
    view = d.view
    rules = view.rules
    singles = tuple(c for c in view.singles if not c.is_joker)
    old = [list(g) for g in view.table] + [[c] for c in singles]
    move = find_move(rules, old, list(view.hand), objective="max_cards",
                     first_lay_done=view.first_lay_done, singles=singles)
    if move is None or len(move.placed) - laid < MIN_GAIN:
        return None
    changed = [g for g in unmatched_groups(old, move.new_table) if g < len(view.table)]
    if not changed:
        return None  # no rearranging: a plain lay is no puzzle
    return Puzzle(
        rulebook=view.rulebook,
        options=dict(view.options),
        table=tuple(tuple(str(c) for c in g) for g in view.table),
        singles=tuple(str(c) for c in singles),
        hand=tuple(str(c) for c in view.hand),
        players=len(view.hand_counts),
        first_lay_done=view.first_lay_done,
        most=len(move.placed),
        laid=laid,
        rearranged=len(changed),
        solution=tuple(tuple(str(c) for c in g) for g in move.new_table),
        round=view.round,
        seat=view.seat,
        turn=d.turn,
    )


def position(puzzle: Puzzle, seed: int = 0) -> GameState:
    """The puzzle dealt as a game of its round's seats, seat 0 to play: its table and hand as they
    were; the other seats hold strangers' cards (never the round's other hands: a puzzle knows
    none) and the rest is the stock, both shuffled by `seed`."""
    options = dict(puzzle.options)
    if any(key == "must_lay" for key, _allowed, _default in get_rulebook(puzzle.rulebook)
           .option_spec):
        options["must_lay"] = "trust"  # a puzzle trusts: no reminder that shows a lay
    rules = get_rulebook(puzzle.rulebook, **options)
    faces = [*puzzle.hand, *puzzle.singles, *(f for g in puzzle.table for f in g)]
    shown = Counter(card.face for card in parse_cards(" ".join(faces), rules))
    rest: list[str] = []
    for card in rules.make_deck(*rules.deck_for(puzzle.players)):
        if shown[card.face]:
            shown[card.face] -= 1
        else:
            rest.append(card.face)
    random.Random(f"puzzle:{seed}").shuffle(rest)
    size = min(len(puzzle.hand), len(rest) // puzzle.players)
    strangers = [" ".join(rest[i * size:(i + 1) * size]) for i in range(puzzle.players - 1)]
    state = deal_scenario(rules, [" ".join(puzzle.hand), *strangers],
                          table=[" ".join(g) for g in puzzle.table],
                          singles=" ".join(puzzle.singles), seed=seed,
                          first_lay_done=puzzle.first_lay_done)
    if rules.turn_style.draw_first:
        state.draws = 1  # Carousel: the hand is as it was after the turn's opening draw
    return state


def laid(puzzle: Puzzle, state: GameState) -> int:
    """The cards a try has put on the table (the table holds only the puzzle's and the try's)."""
    before = sum(len(g) for g in puzzle.table) + len(puzzle.singles)
    return sum(len(g) for g in state.table) + len(state.singles) - before


def over(state: GameState) -> bool:
    """Is the try's one turn over (seat 0 laid, drew, passed or went out)?"""
    return state.phase != "play" or state.turn != 0 or state.round != 1


def solved(puzzle: Puzzle, laid: int) -> bool:
    """A try is solved when its one lay put down the maximum (the engine judged it legal)."""
    return laid >= puzzle.most
