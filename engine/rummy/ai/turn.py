"""What every computer level shares: its picture of the turn, built from its `PlayerView` alone,
and the actions that lay, knock, draw or pass.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from functools import cached_property

from engine.cards import Card

from ..actions import Action, Commit, Draw, GiveUp, IllegalAction, Knock, Pass, Reset
from ..game import PlayerView, apply
from ..rulebooks import Rulebook
from ..solver import Move, find_move, no_lay_proved
from ..state import GameState
from .easy import obvious_lay

Groups = Sequence[Sequence[Card]]


@dataclass(frozen=True)
class Turn:
    """The seat's turn as the computer sees it: its own hand, the table, public counts."""

    view: PlayerView

    @cached_property
    def rules(self) -> Rulebook:
        return self.view.rules

    @property
    def seat(self) -> int:
        return self.view.seat

    @property
    def hand(self) -> list[Card]:
        return list(self.view.hand)

    @cached_property
    def singles(self) -> tuple[Card, ...]:
        """Tahiti's singles the computer may use. A joker dealt as a single is left alone: the
        solver fails on it (engine/rummy/solver.py `_rebuild`), and an unused single may be left out
        of a lay."""
        return tuple(c for c in self.view.singles if not c.is_joker)

    @cached_property
    def table(self) -> list[list[Card]]:
        """The table as the solver and check_move take it: Tahiti's singles as 1-card groups."""
        return [list(g) for g in self.view.table] + [[c] for c in self.singles]

    @property
    def legal(self) -> tuple[str, ...]:
        return self.view.legal

    @property
    def carousel(self) -> bool:
        return self.rules.turn == "carousel"

    @property
    def must_draw_first(self) -> bool:
        """Carousel: a turn starts with a draw (unless the stock has run out)."""
        return self.carousel and "commit" not in self.legal and "draw" in self.legal

    @property
    def may_knock_after_lay(self) -> bool:
        """Carousel: a lay now may end the round by knocking (§4.7)."""
        v = self.view
        return self.carousel and v.final_turns is None and 1 <= v.draws <= 2

    @property
    def opponents(self) -> list[int]:
        return [i for i in range(len(self.view.hand_counts)) if i != self.seat]

    def solve(
        self,
        objective: str = "any",
        *,
        select: Sequence[Card] | None = None,
        table: Groups | None = None,
        hand: Sequence[Card] | None = None,
        first_lay_done: bool | None = None,
        effort: int | None = None,
    ) -> Move | None:
        """The solver on this turn's position (or on a what-if table and hand); with `effort`,
        None may also mean "not found within that much work" (find_move)."""
        return find_move(
            self.rules,
            self.table if table is None else table,
            self.hand if hand is None else hand,
            objective=objective,
            first_lay_done=self.view.first_lay_done if first_lay_done is None else first_lay_done,
            singles=self.singles if table is None else _singles_in(table, self.singles),
            select=select,
            effort=effort,
        )

    def no_lay_proved(self) -> bool:
        """Has a search (this seat's or the game's) already proved there is no lay here?"""
        return no_lay_proved(
            self.rules,
            self.table,
            self.hand,
            first_lay_done=self.view.first_lay_done,
            singles=self.singles,
        )

    def left_after(self, placed: Sequence[Card]) -> list[Card]:
        ids = {c.ident for c in placed}
        return [c for c in self.view.hand if c.ident not in ids]

    def value(self, cards: Sequence[Card]) -> int:
        return self.rules.hand_value(list(cards))


def _singles_in(table: Groups, singles: Sequence[Card]) -> list[Card]:
    """The Tahiti singles still alone on a what-if table."""
    alone = {g[0].ident for g in table if len(g) == 1}
    return [c for c in singles if c.ident in alone]


def arrangement(groups: Groups) -> tuple[tuple[Card, ...], ...]:
    return tuple(tuple(g) for g in groups)


def lay(
    turn: Turn, groups: Groups, placed: Sequence[Card], *, knock: bool = True
) -> Action | None:
    """Done with this new table (a Carousel knock when allowed, wanted and not going out), or
    None when the game would refuse it (a solver slip must never become an illegal action)."""
    left = turn.left_after(placed)
    knocking = (
        knock and left and turn.may_knock_after_lay and turn.value(left) <= turn.rules.knock_limit
    )
    kind = Knock if knocking else Commit
    for cards, choices in _namings(turn, groups):
        action = kind(turn.seat, cards, choices)
        if accepted(turn, action):
            return action
    return None


def _namings(turn: Turn, groups: Groups):
    """The arrangement as the solver fixed its jokers; then with the hand's jokers named free
    and their cards given as joker choices (RULES.md §4.9). Done matches a joker named with a
    designation it doesn't have yet by trying the table, the singles, then the hand, so the
    first naming can pick the wrong physical joker (a table one, or a Tahiti single)."""
    yield arrangement(groups), {}
    mine = {c.ident for c in turn.view.hand if c.is_joker}
    if not any(c.is_joker and c.ident in mine for g in groups for c in g):
        return
    out: list[tuple[Card, ...]] = []
    choices: dict[int, tuple[str, ...]] = {}
    for i, group in enumerate(groups):
        named = []
        for card in group:
            if card.is_joker and card.ident in mine and card.designated:
                choices[i] = (*choices.get(i, ()), card.play_face)  # 7H, or a tile's 7R
                card = card.free()
            named.append(card)
        out.append(tuple(named))
    yield tuple(out), choices


def accepted(turn: Turn, action: Action) -> bool:
    """Would the game accept this lay? Tried on the position rebuilt from the view alone: the
    other hands and the stock are left empty, as a lay's legality doesn't depend on them."""
    v = turn.view
    n = len(v.hand_counts)
    hands: list[list[Card]] = [[] for _ in range(n)]
    hands[v.seat] = list(v.hand)
    lays = [True] * n
    lays[v.seat] = v.first_lay_done
    state = GameState(
        rulebook=v.rulebook,
        options=dict(v.options),
        players=n,
        seed=0,
        round=v.round,
        turn=v.seat,
        hands=hands,
        table=[list(g) for g in v.table],
        singles=list(v.singles),
        draws=v.draws,
        first_lay_done=lays,
        final_turns=v.final_turns,
        scores=list(v.scores),
        round_wins=[0] * n,
    )
    try:
        apply(state, action)
    except IllegalAction:
        return False
    return True


def no_lay(turn: Turn, *, knock: bool = True) -> Action:
    """Nothing to lay: knock (Carousel, hand already low), draw, pass, or give the move up."""
    legal = turn.legal
    if knock and "knock" in legal:
        # A bare knock would play a half-built draft (a person's, on a timeout): reset it first.
        return Knock(turn.seat) if turn.view.draft is None else Reset(turn.seat)
    if "draw" in legal:
        return Draw(turn.seat)
    if "pass" in legal:
        return Pass(turn.seat)
    if "give_up" in legal:  # a half-built draft (a person's, on a timeout) under Give back
        return GiveUp(turn.seat)
    return Reset(turn.seat)


# Solver work units (a few µs each): a bound on one decision's time. The biggest lay is
# proved within it almost always; the rest (a first lay in Vatican with jokers and 26 cards
# took 3.3 s) settle for any lay the solver finds.
LAY_EFFORT = 2_000_000


def biggest_move(turn: Turn) -> Move | None:
    """The solver's biggest lay (most penalty points where cards have values, else most
    cards) within LAY_EFFORT; else some lay; None when it finds none."""
    objective = "max_cards" if turn.rules.values == "count" else "max_points"
    move = turn.solve(objective, effort=LAY_EFFORT)
    return move if move is not None else turn.solve("any", effort=LAY_EFFORT)


def biggest_lay(turn: Turn) -> Action:
    """`medium`: the biggest lay, else no lay."""
    move = biggest_move(turn)
    if move is None:
        if turn.no_lay_proved():
            return no_lay(turn)
        return fallback(turn)  # (the obvious lay, if the bounded search missed one)
    return lay(turn, move.new_table, move.placed) or fallback(turn)


def fallback(turn: Turn) -> Action:
    """When every lay the solver offered was refused: the obvious lay, else no lay."""
    v = turn.view
    groups = obvious_lay(turn.rules, v.table, turn.singles, turn.hand, v.first_lay_done)
    if groups is not None:
        laid = {c.ident for g in groups for c in g}
        action = lay(turn, groups, [c for c in turn.hand if c.ident in laid])
        if action is not None:
            return action
    return no_lay(turn)
