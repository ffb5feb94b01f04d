"""What every lesson module shares: the computer's idle hand and the position helper."""

from __future__ import annotations

from typing import Any

from ..model import Position

CPU = "KS KD 3C 8D 2S"  # a computer hand that plays no part in the step


def _at(rulebook: str, hand: str, *, cpu: str = CPU, **spec: Any) -> Position:
    return Position(rulebook, (hand, cpu), **spec)
