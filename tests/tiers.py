"""The seeded-games tier (marker `games`): many seeded games of the engine, each judged by a
referee after every move, belong to `make test`; `make test-fast`, the quick loop while working,
keeps a sample of each such test (issue 43: the quick loop in half the time)."""

from __future__ import annotations

from collections.abc import Collection, Iterable
from typing import Any

import pytest


def sampled(values: Iterable[Any], keep: Collection[Any]) -> list[Any]:
    """`values` as one parameter's cases: those in `keep` run in every tier, the rest in the
    seeded-games tier only."""
    return [v if v in keep else pytest.param(v, marks=pytest.mark.games) for v in values]
