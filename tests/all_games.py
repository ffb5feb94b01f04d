"""Every game the tests host: the bot's registry (bot.games.default_games) and the one line a
third game needs, the toy race (tests/toy_game, its whole wing)."""

from __future__ import annotations

from toy_game import RaceGame

from bot.games import default_games

GAMES = {**default_games(), "race": RaceGame()}
