"""/stats and /leaderboard as pictures (render/stats.py), their text kept as the caption for
screen readers and for clients without pictures. Words in the reader's language (the current
one), numbers as the text writes them."""

from __future__ import annotations

from collections.abc import Callable, Sequence

from bot.i18n import N_, _, fill, is_rtl
from bot.store import LeaderRow, PlayerStats, SeasonRow
from render.stats import BoardPicture, StatsPicture, StatsWords, draw_board, draw_stats

from .cut import CAPTION_UNITS, utf16_units
from .views import Screen

TITLE = N_("📊 {name}")
RATING = N_("rating")
GAMES = N_("games")
WINS = N_("wins ({rate:.0%})")
PER_GAME = N_("points per game")
CURVE = N_("Rating after each game")
CURVE_EMPTY = N_("Two finished games draw your rating over time here")
GAME = N_("Game")
GAMES_HEAD = N_("Games")
WINS_HEAD = N_("Wins")
BEST_ROUND = N_("Best round")
PLAYER = N_("Name")
RATING_HEAD = N_("Rating")


def _wins(wins: float, rate: float) -> str:
    return f"{wins:g} · {rate:.0%}"


def stats_screen(stats: PlayerStats, caption: str, title: Callable[[str], str]) -> Screen:
    """The player's numbers, their rating's curve and a row per game they play (`title`:
    a variant's name in the reader's language)."""
    rows = tuple(
        (title(row.rulebook), str(row.games), f"{row.wins:g}",
         "—" if row.best_round is None else str(row.best_round))
        for row in stats.by_rulebook)
    words = StatsWords(
        title=fill(_(TITLE), name=stats.name), rating=_(RATING), games=_(GAMES),
        wins=fill(_(WINS), rate=stats.win_rate),
        left=_(PER_GAME), curve=_(CURVE), curve_empty=_(CURVE_EMPTY),
        table=(_(GAME), _(GAMES_HEAD), _(WINS_HEAD), _(BEST_ROUND)), rtl=is_rtl())
    view = StatsPicture(
        words=words, rating=f"{stats.rating:.1f}", games=str(stats.games),
        wins=f"{stats.wins:g}", left=f"{stats.avg_points:.0f}",
        curve=tuple(rating for _when, rating in stats.ratings), rows=rows)
    return Screen(caption, painter=lambda: draw_stats(view), image_key=None)


def board_screen(rows: Sequence[LeaderRow], title: str, caption: str, empty: str) -> Screen:
    """The leaderboard, best first, medals for the first three."""
    view = BoardPicture(
        title=title, headings=(_(PLAYER), _(RATING_HEAD), _(GAMES_HEAD), _(WINS_HEAD)),
        rows=tuple((r.name, f"{r.rating:.1f}", str(r.games), _wins(r.wins, r.win_rate))
                   for r in rows),
        empty=empty, rtl=is_rtl())
    return Screen(caption, painter=lambda: draw_board(view), image_key=None)


def as_messages(picture: Screen) -> list[Screen]:
    """The picture with its whole text as the caption where it fits a caption (1,024 units);
    else the picture under its first line, then the whole text as a message."""
    if utf16_units(picture.text) <= CAPTION_UNITS:
        return [picture]
    head = picture.text.split("\n", 1)[0]
    return [Screen(head, painter=picture.painter, lang=picture.lang),
            Screen(picture.text, lang=picture.lang)]


def season_screen(rows: Sequence[SeasonRow], title: str, caption: str, empty: str,
                  points: str, lang: str = "") -> Screen:
    """A chat's season: points, games and wins per person, medals for the first three."""
    view = BoardPicture(
        title=title, headings=(_(PLAYER), points, _(GAMES_HEAD), _(WINS_HEAD)),
        rows=tuple((r.name, f"{r.points:g}", str(r.games), f"{r.wins:g}") for r in rows),
        empty=empty, rtl=is_rtl())
    return Screen(caption, painter=lambda: draw_board(view), image_key=None, lang=lang)
