"""The games the platform hosts, each through bot/core/hosting.py's interface."""

from __future__ import annotations

from bot.core.hosting import HostedGame

from .buildten import BuildTenGame
from .rummy import RummyGame


def default_games() -> dict[str, HostedGame]:
    """Every game this bot hosts, by name (the first is the default)."""
    return {"rummy": RummyGame(), "build-to-ten": BuildTenGame()}
