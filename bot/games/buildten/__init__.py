"""Build-to-Ten (RULES.md §6) as a hosted game: rules in engine/buildten, chat parts here, and
its lesson, a variant of the game (lesson_host.py)."""

from types import MappingProxyType

from .host import LESSON, BuildTenGame
from .lesson_host import BuildTenLesson

# The variants that play otherwise, declared with the game (bot/core/hosting.py): here, not in
# host.py, which the variant extends.
BuildTenGame.played_variants = MappingProxyType({LESSON: BuildTenLesson()})

__all__ = ["BuildTenGame"]
