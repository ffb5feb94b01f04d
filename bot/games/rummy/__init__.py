"""The rummy family hosted on the platform: seven rulebooks of one game (engine/ has the rules)."""

from .host import RummyGame

__all__ = ["RummyGame"]
