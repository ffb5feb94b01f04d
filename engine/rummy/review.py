"""The post-round review (issue 32, UX.md §10): for one seat, turn by turn, what it did and what
the exact solver proves it could have done from what it saw at that moment.

Two steps, kept apart so the analysis cannot reach a secret:
- `seat_decisions` replays a game record and keeps, for each moment the seat chose (lay, draw,
  pass, knock, give up), that seat's `PlayerView` then and what it chose — views only;
- `review` reads nothing but those views: the seat's hand, the table, the public counts and its
  own rulebook flags (first lay, draws, final turns). It never sees a state.

The answer is plain data (codes and numbers, card tokens; JSON-safe by `to_dict`), never prose.
Pure: no I/O, no clock.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable, Sequence
from dataclasses import asdict, dataclass
from typing import Any

from engine.cards import Card

from .actions import Action, action_from_dict
from .game import PlayerView, apply, player_view, unmatched_groups
from .rulebooks import Rulebook
from .solver import STATS, Move, find_move
from .state import GameState

# What the seat did at a decision (from the events its action caused).
DID = ("laid", "knocked", "drew", "passed", "gave_up", "timed_out")
_EVENT_DID = {"laid": "laid", "knocked": "knocked", "drew": "drew", "passed": "passed",
              "gave_up": "gave_up", "time_up": "timed_out"}

# Codes of a decision that was not the best one (empty: the best move).
COULD_LAY = "could_lay"  # drew, passed or gave up while a lay was open
MORE_CARDS = "more_cards"  # laid fewer cards than the most that could go
MORE_POINTS = "more_points"  # shed fewer points than the most that could go
COULD_GO_OUT = "could_go_out"  # the whole hand could have gone
KNOCK_WINS = "knock_wins"  # Carousel: a knock that wins whatever the other hands hold


@dataclass(frozen=True)
class Decision:
    """One moment a seat chose: what it saw (its own view, nothing else) and what it did."""

    turn: int  # the seat's turn in the round, from 1
    view: PlayerView
    did: str  # one of DID
    placed: tuple[Card, ...] = ()  # the hand cards laid (laid / knocked)


@dataclass(frozen=True)
class Chance:
    """A lay the solver found open at a decision."""

    cards: int  # hand cards laid
    points: int  # their value under the rulebook's card values
    placed: tuple[str, ...]  # their tokens, in table order
    groups: tuple[int, ...]  # the table's groups it changes (0 = A), not kept card for card
    singles: tuple[str, ...]  # Tahiti: the unused singles it takes in
    lay: tuple[tuple[str, ...], ...]  # the whole table after it
    new: tuple[int, ...]  # the groups of `lay` that are new or changed
    left: int  # the value of the hand it leaves
    meld: int  # a first lay that must reach points (Rummikub): its value, a joker as its tile
    goes_out: bool
    knock: str  # "" | "may" (a knock is open) | "wins" (a knock wins whatever others hold)


@dataclass(frozen=True)
class Step:
    """One decision reviewed."""

    did: str
    placed: tuple[str, ...]
    cards: int
    points: int
    left: int  # the value of the hand the seat kept
    most_cards: Chance | None  # the lay with the most cards (None: no lay was open)
    most_points: Chance | None  # the lay shedding the most points (same as most_cards when
    # every card counts the same)
    codes: tuple[str, ...]  # what was missed; () is the best move
    exact: bool  # False when a joker search hit its budget (the answer may be short of best)


@dataclass(frozen=True)
class TurnReview:
    turn: int
    steps: tuple[Step, ...]
    laid: int  # hand cards laid in the turn
    could: int  # a missed turn: the most cards a lay at any moment of it could have laid
    # (a turn without a miss: the cards laid)
    codes: tuple[str, ...]  # every code of its steps, once each, in order

    @property
    def missed(self) -> bool:
        return bool(self.codes)


@dataclass(frozen=True)
class RoundReview:
    rulebook: str
    seat: int
    round: int
    turns: tuple[TurnReview, ...]
    missed: int  # turns with a missed chance
    cards: int  # cards left in hand that could have gone: Σ over missed turns of (could − laid)
    exact: bool

    @property
    def perfect(self) -> bool:
        return self.missed == 0

    def to_dict(self) -> dict[str, Any]:
        """Plain JSON-safe data (tuples become lists)."""
        return {**asdict(self), "perfect": self.perfect}


# -- collecting the decisions (the only part that sees states) ---------------------------


def seat_decisions(
    start: GameState,
    actions: Iterable[dict[str, Any] | Action],
    seat: int,
    round: int | None = None,
) -> list[Decision]:
    """Replay `actions` from `start` and keep `seat`'s decisions in `round` (default: the last
    round the actions reach). Each keeps only `player_view(state, seat)` before the action."""
    found = seat_rounds(start, actions, seat)
    if round is None:
        round = max(found, default=start.round)
    return found.get(round, [])


def seat_rounds(
    start: GameState, actions: Iterable[dict[str, Any] | Action], seat: int
) -> dict[int, list[Decision]]:
    """`seat`'s decisions in every round the actions reach, by round."""
    return seats_rounds(start, actions, (seat,))[seat]


def seats_rounds(
    start: GameState, actions: Iterable[dict[str, Any] | Action], seats: Iterable[int]
) -> dict[int, dict[int, list[Decision]]]:
    """Each of `seats`' decisions in every round the actions reach (seat -> round -> list), from
    one replay."""
    wanted = set(seats)
    state = start
    found: dict[int, dict[int, list[Decision]]] = {seat: {} for seat in wanted}
    turns: Counter[tuple[int, int]] = Counter()  # (seat, round) -> the seat's turns begun
    previous: int | None = None  # the seat on turn at the action before (None: not in play)
    for data in actions:
        action = data if isinstance(data, Action) else action_from_dict(data)
        before = state
        state, events = apply(before, action)
        seat = before.turn if before.phase == "play" else None
        begun, previous = seat != previous, seat
        if seat is None or seat not in wanted:
            continue
        if begun:
            turns[seat, before.round] += 1
        if action.seat != seat:
            continue
        if before.rules.turn_style.draw_first and before.final_turns is None \
                and before.draws == 0:
            continue  # Carousel's opening draw is no choice
        kinds = [e.kind for e in events if e.seat == seat]
        did = next((_EVENT_DID[k] for k in kinds if k in _EVENT_DID), None)
        if "knocked" in kinds:
            did = "knocked"  # a knock lays first
        elif did == "drew" and "laid" in kinds:
            did = "laid"  # Guadeloupe draws after laying
        if did is None:
            continue  # a draft edit, a hint, a reminder: the turn goes on
        r = before.round
        placed: tuple[Card, ...] = ()
        if did in ("laid", "knocked"):
            kept = {c.ident for c in state.hands[seat]}
            placed = tuple(c for c in before.hands[seat] if c.ident not in kept)
        found[seat].setdefault(r, []).append(
            Decision(turns[seat, r], player_view(before, seat), did, placed))
    return found


def game_decisions(state: GameState, seat: int, round: int | None = None) -> list[Decision]:
    """The decisions of `seat` in `round` of a game, replayed from its record (seed + actions)."""
    from .game import new_game

    start = new_game(state.rulebook, state.players, state.seed, **state.options)
    return seat_decisions(start, state.actions, seat, round)


# -- the analysis: views in, plain data out ----------------------------------------------


def review(decisions: Sequence[Decision]) -> RoundReview:
    """Review one seat's decisions of one round (from `seat_decisions`)."""
    if not decisions:
        raise ValueError("no decisions to review")
    first = decisions[0].view
    turns: list[TurnReview] = []
    by_turn: dict[int, list[Step]] = {}
    for d in decisions:
        by_turn.setdefault(d.turn, []).append(review_decision(d))
    for n, steps in sorted(by_turn.items()):
        laid = sum(s.cards for s in steps)
        could = max((s.most_cards.cards for s in steps if s.most_cards), default=0)
        codes = tuple(dict.fromkeys(c for s in steps for c in s.codes))
        turns.append(TurnReview(n, tuple(steps), laid, max(could, laid) if codes else laid,
                                codes))
    return RoundReview(
        rulebook=first.rulebook,
        seat=first.seat,
        round=first.round,
        turns=tuple(turns),
        missed=sum(t.missed for t in turns),
        cards=sum(t.could - t.laid for t in turns),
        exact=all(s.exact for t in turns for s in t.steps),
    )


def review_decision(d: Decision) -> Step:
    """What the seat did at one decision against what its view allowed."""
    view = d.view
    rules = view.rules
    singles = tuple(c for c in view.singles if not c.is_joker)  # as the computer seats do
    table = [list(g) for g in view.table] + [[c] for c in singles]
    hand = list(view.hand)
    cut = STATS["cut"]

    def solve(objective: str) -> Move | None:
        return find_move(rules, table, hand, objective=objective,
                         first_lay_done=view.first_lay_done, singles=singles)

    by_cards = solve("max_cards")
    by_points = by_cards
    if by_cards is not None and rules.values != "count":
        by_points = solve("max_points")
    exact = STATS["cut"] == cut
    knock_open = _knock_open(view)
    most_cards = _chance(view, rules, by_cards, knock_open)
    most_points = _chance(view, rules, by_points, knock_open)
    # Each search's answer bounds the other's: Rummikub's "most points" falls back to a lay
    # that frees no joker when its best breaks the freed-joker rule (solver._rack_frees_move),
    # and the most-cards lay may then shed more.
    if most_cards is not None and (most_points is None or most_cards.points > most_points.points):
        most_points = most_cards
    if most_points is None and knock_open and rules.hand_value(hand) <= rules.knock_limit:
        most_points = most_cards = _no_lay_knock(view, rules)
    points = rules.hand_value(list(d.placed))
    left = rules.hand_value(hand) - points
    codes: list[str] = []
    if most_cards is not None and most_cards.cards:
        if d.did not in ("laid", "knocked"):
            codes.append(COULD_LAY)
        else:
            # A lay is missed only when one of the solver's two lays beats it in one measure
            # and is at least as good in the other: laying the most points in fewer cards is
            # no miss, nor the most cards for fewer points.
            made = (len(d.placed), points)
            for better in (most_cards, most_points):
                if better is None or not _dominates((better.cards, better.points), made):
                    continue
                if better.cards > made[0] and MORE_CARDS not in codes:
                    codes.append(MORE_CARDS)
                if rules.values != "count" and better.points > made[1] \
                        and MORE_POINTS not in codes:
                    codes.append(MORE_POINTS)
        if most_cards.goes_out and len(d.placed) < len(hand):
            codes.append(COULD_GO_OUT)
    # a knock that only "may" win is a gamble, not a miss; going out beats any knock
    if most_points is not None and most_points.knock == "wins" and d.did != "knocked" \
            and not (most_cards is not None and most_cards.goes_out):
        codes.append(KNOCK_WINS)
    placed = tuple(c.token for c in d.placed)
    return Step(d.did, placed, len(d.placed), points, left, most_cards, most_points,
                tuple(codes), exact)


def _dominates(a: tuple[int, int], b: tuple[int, int]) -> bool:
    return a[0] >= b[0] and a[1] >= b[1] and a != b


def _knock_open(view: PlayerView) -> bool:
    """Carousel: may this decision end in a knock (§2 Carousel, §4.7)?"""
    rules = view.rules
    return bool(rules.turn_style.knock and rules.knock_limit and view.final_turns is None
                and 1 <= view.draws <= 2)


def _chance(view: PlayerView, rules: Rulebook, move: Move | None, knock_open: bool
            ) -> Chance | None:
    if move is None:
        return None
    mine = {c.ident for c in move.placed}
    placed = tuple(c.token for g in move.new_table for c in g if c.ident in mine)
    points = rules.hand_value(list(move.placed))
    left = rules.hand_value(list(view.hand)) - points
    goes_out = len(move.placed) == len(view.hand)
    n_groups = len(view.table)
    old = [list(g) for g in view.table] + [[c] for c in view.singles if not c.is_joker]
    gone = unmatched_groups(old, move.new_table)
    return Chance(
        cards=len(move.placed),
        points=points,
        placed=placed,
        groups=tuple(g for g in gone if g < n_groups),
        singles=tuple(old[g][0].token for g in gone if g >= n_groups),
        lay=tuple(tuple(c.token for c in g) for g in move.new_table),
        new=tuple(unmatched_groups(move.new_table, old)),
        left=left,
        meld=sum(c.play_rank for g in move.new_table for c in g if c.ident in mine)
        if rules.first_lay_points and not view.first_lay_done else 0,
        goes_out=goes_out,
        knock=_knock(view, rules, left) if knock_open and not goes_out else "",
    )


def _no_lay_knock(view: PlayerView, rules: Rulebook) -> Chance:
    """Carousel: a knock that lays nothing (the hand is already within the limit)."""
    left = rules.hand_value(list(view.hand))
    return Chance(0, 0, (), (), (), tuple(tuple(c.token for c in g) for g in view.table), (),
                  left, 0, False, _knock(view, rules, left))


def _knock(view: PlayerView, rules: Rulebook, left: int) -> str:
    """"wins" when a knock leaving `left` points beats every other hand whatever it holds —
    each holds at least its count of the cheapest cards this seat has not seen (a tie goes to
    the other player, §2 Carousel) — "may" when a knock is only allowed, "" when not even that."""
    if left > rules.knock_limit:
        return ""
    players = len(view.hand_counts)
    seen = Counter(c.ident for c in view.hand)
    seen.update(c.ident for g in view.table for c in g)
    seen.update(c.ident for c in view.singles)
    unseen = sorted(rules.card_value(c) for c in rules.make_deck(*rules.deck_for(players))
                    if not _take(seen, c.ident))
    for other, count in enumerate(view.hand_counts):
        if other != view.seat and sum(unseen[:count]) <= left:
            return "may"
    return "wins"


def _take(seen: Counter, ident: tuple) -> bool:
    if seen[ident]:
        seen[ident] -= 1
        return True
    return False

