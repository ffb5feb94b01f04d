"""Skill ratings: openskill's Plackett-Luce model, one free-for-all match per finished game.

Each player starts at mu = 25, sigma = 25/3 (the openskill defaults). The rating we show and
sort by is the model's ordinal, mu - 3*sigma: a conservative estimate ("99.7% sure the skill is
at least this"). It starts at 0 for everyone and rises as the player wins and the system grows
sure of them; a strong regular ends around 25-35, the same scale as mu, so it reads naturally
next to point totals. Early losers can dip a little below 0; that is honest, not a bug.
"""

from __future__ import annotations

from collections.abc import Sequence

from openskill.models import PlackettLuce

MODEL = PlackettLuce()
DEFAULT_MU: float = MODEL.mu
DEFAULT_SIGMA: float = MODEL.sigma

Skill = tuple[float, float]  # (mu, sigma)


def display_rating(mu: float, sigma: float) -> float:
    """The shown rating: openskill's ordinal, mu - 3 sigma."""
    return MODEL.rating(mu=mu, sigma=sigma).ordinal()


def rate_match(priors: Sequence[Skill], ranks: Sequence[int]) -> list[Skill]:
    """Posterior (mu, sigma) per seat, given each seat's prior and rank (1 = best, ties share).

    Each seat is its own one-player team; fewer than two seats leaves the priors unchanged.
    """
    if len(priors) != len(ranks):
        raise ValueError("one rank per seat")
    if len(priors) < 2:
        return list(priors)
    teams = [[MODEL.rating(mu=mu, sigma=sigma)] for mu, sigma in priors]
    rated = MODEL.rate(teams, ranks=[float(rank) for rank in ranks])
    return [(team[0].mu, team[0].sigma) for team in rated]


def merge(skills: Sequence[Skill]) -> Skill:
    """One competitor in several seats (two 🤖 medium): average their posteriors."""
    count = len(skills)
    return (sum(s[0] for s in skills) / count, sum(s[1] for s in skills) / count)
