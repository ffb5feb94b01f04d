"""A toy third game, shaped as a wing: `rules.py` is its engine part (the game contract,
engine/contract.py) and `host.py` its chat part (screens, words, buttons). It touches no file
of the platform: a test registers it with one line, `{**default_games(), "race": RaceGame()}`."""

from .host import RaceGame
from .rules import RaceRules

__all__ = ["RaceGame", "RaceRules"]
