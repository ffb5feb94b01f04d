"""The rummy family's pictures: a view in, PNG bytes out (Pillow only, no system fonts).

`render_table` for the group chat, `render_private` for a seat's DM (hand + draft),
`render_scores` for the scoreboard and final result (the lobby card is the root's:
render/lobby.py).
`table_layout` / `private_layout` say where every card goes (the renderers draw exactly that).
"""

from render.layout import Layout, private_layout, table_layout
from render.views import PrivateView, ScoreView, SeatStrip, TableView

from . import samples
from .private import render_private
from .scores import render_scores
from .table import render_table

__all__ = [
    "Layout",
    "PrivateView",
    "ScoreView",
    "SeatStrip",
    "TableView",
    "private_layout",
    "render_private",
    "render_scores",
    "render_table",
    "samples",
    "table_layout",
]
