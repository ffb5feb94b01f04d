"""Pictures of the game: a view in, PNG bytes out (Pillow only, no system fonts).

`render_table` for the group chat, `render_private` for a seat's DM (hand + draft),
`render_scores` for the scoreboard and final result, `render_lobby` for the lobby card.
`table_layout` / `private_layout` say where every card goes (the renderers draw exactly that).
"""

from . import samples
from .layout import Layout, private_layout, table_layout
from .lobby import render_lobby
from .private import render_private
from .scores import render_scores
from .table import render_table
from .views import LobbyView, PrivateView, ScoreView, SeatStrip, TableView

__all__ = [
    "Layout",
    "LobbyView",
    "PrivateView",
    "ScoreView",
    "SeatStrip",
    "TableView",
    "private_layout",
    "render_lobby",
    "render_private",
    "render_scores",
    "render_table",
    "samples",
    "table_layout",
]
