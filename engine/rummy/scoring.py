"""Round scoring per rulebook (its `score_style`, RULES.md §2, §4.7–4.8) and Carousel's final
bonuses; who wins the game is decided in game.py from the rulebook's `game_end`.

`RoundScore.points` is what each seat scores this round in the rulebook's own sense: penalties
(lower is better) — card values in Manipulation and Tahiti, one a card in Shanghai, Machiavelli
and Guadeloupe; points won (higher is better) in Carousel; nothing in Vatican.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from engine.cards import Card

from .rulebooks import Rulebook

UNDERCUT_BONUS = 10
GOING_OUT_BONUS = 25
CAROUSEL_END_BONUS = 100
CAROUSEL_ROUND_WIN_BONUS = 25


@dataclass(frozen=True)
class RoundScore:
    points: tuple[int, ...]
    winners: tuple[int, ...]  # several winners: a tie (a draw where the rulebook says so)
    hand_values: tuple[int, ...]  # what each hand left is worth under the rulebook's values
    how: str  # "out", "knock", "blocked", "stock"


def score_round(
    rulebook: Rulebook,
    hands: Sequence[Sequence[Card]],
    *,
    went_out: int | None = None,
    knocker: int | None = None,
) -> RoundScore:
    """Score a finished round. Neither `went_out` nor `knocker`: a blocked round (or, in
    Carousel, the end after the stock ran out)."""
    values = tuple(rulebook.hand_value(list(h)) for h in hands)
    n = len(hands)
    style = rulebook.score_style
    if style.others_lose:
        return _others_lose(values, went_out)
    if style.winner_scores:
        return _carousel(values, went_out, knocker)

    # What a hand left weighs: its points (card values) or its number of cards.
    measure = values if style.measure == "points" else tuple(len(h) for h in hands)
    if went_out is not None:
        winners: tuple[int, ...] = (went_out,)
        how = "out"
    else:
        # Blocked: the fewest cards (or, measured in points, the fewest points) wins.
        best = min(measure)
        winners = tuple(i for i in range(n) if measure[i] == best)
        how = "blocked"
    if style.penalties:  # everyone but the one who went out takes what the hand weighs
        points = tuple(0 if i == went_out else measure[i] for i in range(n))
    else:
        points = (0,) * n
    return RoundScore(points, winners, values, how)


def _carousel(values: tuple[int, ...], went_out: int | None, knocker: int | None) -> RoundScore:
    n = len(values)
    points = [0] * n
    if went_out is not None:
        points[went_out] = sum(values) - values[went_out] + GOING_OUT_BONUS
        return RoundScore(tuple(points), (went_out,), values, "out")

    best = min(values)
    lowest = [i for i in range(n) if values[i] == best]
    bonus = 0
    if knocker is not None:
        others = [i for i in lowest if i != knocker]
        if others:  # undercut, or a tie with the knocker: the other player wins
            winners = others
            bonus = UNDERCUT_BONUS
        else:
            winners = [knocker]
        how = "knock"
    else:
        winners = lowest  # stock exhausted: no undercut bonus
        how = "stock"
    for w in winners:  # each tied winner scores as if they had won alone (§4.7)
        points[w] = sum(v - values[w] for v in values) + bonus
    return RoundScore(tuple(points), tuple(winners), values, how)


def _others_lose(values: tuple[int, ...], went_out: int | None) -> RoundScore:
    """Rummikub (RULES.md §5, decision 5): whoever went out scores plus what the others lose,
    each other seat minus its hand. Blocked (the pool empty, nobody able to lay): the lowest
    hand wins, every other seat scores minus the difference to it, and each seat tied for the
    lowest scores plus the total of those differences."""
    n = len(values)
    if went_out is not None:
        points = [-values[i] for i in range(n)]
        points[went_out] = sum(values) - values[went_out]
        return RoundScore(tuple(points), (went_out,), values, "out")
    best = min(values)
    winners = tuple(i for i in range(n) if values[i] == best)
    won = sum(v - best for v in values)
    points = tuple(won if i in winners else best - values[i] for i in range(n))
    return RoundScore(points, winners, values, "blocked")


def carousel_final(scores: Sequence[int], round_wins: Sequence[int], play_to: int) -> list[int]:
    """Final Carousel totals: +100 to whoever reached the target, +25 a round won."""
    return [
        s + (CAROUSEL_END_BONUS if s >= play_to else 0) + CAROUSEL_ROUND_WIN_BONUS * w
        for s, w in zip(scores, round_wins, strict=True)
    ]
