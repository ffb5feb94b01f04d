"""The rummy family hosted on the platform: seven rulebooks of one game (engine/ has the rules),
and its lesson, a variant of the game (lesson_host.py)."""

from types import MappingProxyType

from .host import RummyGame
from .lesson_host import KIND, RummyLesson

# The variants that play otherwise, declared with the game (bot/core/hosting.py): here, not in
# host.py, which the variant extends.
RummyGame.played_variants = MappingProxyType({KIND: RummyLesson()})

__all__ = ["RummyGame"]
