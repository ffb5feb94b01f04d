"""The rummy family hosted on the platform: seven rulebooks of one game (engine/ has the rules),
its lesson and a try at a chat's puzzle of the day, variants of the game (lesson_host.py,
puzzle_host.py)."""

from types import MappingProxyType

from . import lesson_host, puzzle_host
from .host import RummyGame

# The variants that play otherwise, declared with the game (bot/core/hosting.py): here, not in
# host.py, which the variants extend.
RummyGame.played_variants = MappingProxyType({
    lesson_host.KIND: lesson_host.RummyLesson(),
    puzzle_host.KIND: puzzle_host.RummyPuzzle(),
})

__all__ = ["RummyGame"]
