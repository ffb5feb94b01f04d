"""Build-to-Ten (RULES.md §6) as a hosted game: rules in engine/buildten, chat parts here."""

from .host import BuildTenGame

__all__ = ["BuildTenGame"]
