"""Build-to-Ten's post-turn review (issue 32): when a seat ended its turn, which of the cards it
could see — its face-up stock card, its hand, its discard piles (top first) — could still have
gone onto the build piles.

As engine/review.py: `seat_decisions` replays a record and keeps the seat's `BuildView` at each
turn's end; `review` reads only those views. The search is exact and cheap: the known cards
only (the stock card under the face-up one and a refill are unknown, so they are not counted),
the most stock cards first (emptying the stock wins), then the most cards. Plain data out.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import asdict, dataclass
from typing import Any

from .actions import Action, Discard, Pass, Play, action_from_dict
from .cards import TOP, fits, is_joker, is_wild, number
from .rules import apply
from .state import BuildState, free_place
from .view import BuildView, player_view

STOCK_COULD_GO = "stock_could_go"  # the face-up stock card could have gone (at once or after
# a chain of known cards)
CARDS_COULD_GO = "cards_could_go"  # other known cards could still have gone


@dataclass(frozen=True)
class Decision:
    turn: int  # the seat's turn, from 1
    view: BuildView  # what it saw when it ended the turn
    did: str  # "discarded" | "passed"
    played: int  # cards it played onto build piles in that turn
    plays: tuple[tuple[str, int], ...] = ()  # those cards and their build places, in order
    discarded: str | None = None  # the card it ended the turn with


@dataclass(frozen=True)
class Chance:
    stock: int  # stock cards that could have gone (0 or 1: only the face-up one is known)
    cards: int  # every card that could have gone
    plays: tuple[tuple[str, int], ...]  # (card, build place 0-3), in order


@dataclass(frozen=True)
class TurnReview:
    turn: int
    did: str
    played: int
    missed: Chance | None  # None: nothing known could still go
    codes: tuple[str, ...]


@dataclass(frozen=True)
class RoundReview:
    seat: int
    turns: tuple[TurnReview, ...]
    missed: int
    cards: int  # Σ of the cards that could still have gone

    @property
    def perfect(self) -> bool:
        return self.missed == 0

    def to_dict(self) -> dict[str, Any]:
        return {**asdict(self), "perfect": self.perfect}


def seat_decisions(start: BuildState, actions: Iterable[dict[str, Any] | Action], seat: int
                   ) -> list[Decision]:
    """Replay `actions` from `start`; keep `seat`'s view each time it ended a turn."""
    state = start
    out: list[Decision] = []
    turn = 0
    played = 0
    plays: list[tuple[str, int]] = []
    active = False
    for data in actions:
        action = action_from_dict(data) if isinstance(data, dict) else data
        before = state
        state, _ = apply(before, action)
        if before.turn != seat:
            active = False
            continue
        if not active:
            turn, played, plays, active = turn + 1, 0, [], True
        if isinstance(action, Play):
            played += 1
            place = action.pile if action.pile >= 0 else free_place(before.builds)
            plays.append((action.card, -1 if place is None else place))
        elif isinstance(action, (Discard, Pass)):
            did = "discarded" if isinstance(action, Discard) else "passed"
            out.append(Decision(turn, player_view(before, seat), did, played, tuple(plays),
                                action.card if isinstance(action, Discard) else None))
    return out


def review(decisions: Sequence[Decision]) -> RoundReview:
    turns = []
    for d in decisions:
        chance = best_plays(d.view)
        codes: list[str] = []
        if chance is not None:
            if chance.stock:
                codes.append(STOCK_COULD_GO)
            if chance.cards > chance.stock:
                codes.append(CARDS_COULD_GO)
        turns.append(TurnReview(d.turn, d.did, d.played, chance, tuple(codes)))
    seat = decisions[0].view.seat if decisions else 0
    return RoundReview(seat, tuple(turns), sum(bool(t.codes) for t in turns),
                       sum(t.missed.cards for t in turns if t.missed))


def best_plays(view: BuildView) -> Chance | None:
    """The most stock cards, then the most cards, the seat's known cards could still lay onto
    the build piles from this view (None: none)."""
    seat = view.seat
    stock = view.face_up[seat]
    hand = tuple(sorted(c for c in view.hand if not is_joker(c)))
    piles = tuple(tuple(p) for p in view.discards[seat])
    needs = tuple(len(b) + 1 if b else 0 for b in view.builds)  # 0: an empty place
    memo: dict[tuple, tuple[int, int, tuple]] = {}

    def search(needs: tuple[int, ...], stock: str | None, hand: tuple[str, ...],
               tops: tuple[int, ...]) -> tuple[int, int, tuple]:
        key = (needs, stock, hand, tops)
        got = memo.get(key)
        if got is not None:
            return got
        best: tuple[int, int, tuple] = (0, 0, ())
        options: list[tuple[str, str, int]] = []  # (card, source, index)
        if stock is not None:
            options.append((stock, "stock", 0))
        kinds = set()
        for i, card in enumerate(hand):
            if _kind(card) not in kinds:  # one of each: cards that play alike
                kinds.add(_kind(card))
                options.append((card, "hand", i))
        for i, n in enumerate(tops):
            if n:
                options.append((piles[i][n - 1], "discard", i))
        for card, source, i in options:
            for place in _places(needs, card):
                need = needs[place] or 1
                after = list(needs)
                after[place] = 0 if need == TOP else need + 1
                rest = search(
                    tuple(after),
                    None if source == "stock" else stock,
                    hand[:i] + hand[i + 1:] if source == "hand" else hand,
                    tuple(n - 1 if j == i and source == "discard" else n
                          for j, n in enumerate(tops)),
                )
                got = (rest[0] + (source == "stock"), rest[1] + 1, ((card, place), *rest[2]))
                if got[:2] > best[:2]:
                    best = got
        memo[key] = best
        return best

    stock_n, cards, plays = search(needs, stock, hand, tuple(len(p) for p in piles))
    return Chance(stock_n, cards, plays) if cards else None


def _kind(card: str) -> object:
    """Cards that play alike: the same number, or any wild card."""
    return "wild" if is_wild(card) else number(card)


def _places(needs: tuple[int, ...], card: str) -> list[int]:
    """The build places `card` may go to, one per number needed (an empty place opens with 1)."""
    out, seen = [], set()
    for place, need in enumerate(needs):
        n = need or 1
        if n not in seen and fits(card, n):
            seen.add(n)
            out.append(place)
    return out

