"""The private view (DM): the seat's working copy of the table on top, its hand below.

Draft marks: changed groups amber, not-yet-valid groups red and dashed with "!", hint groups and
the hint card cyan, cards from the hand cream with a dog-ear, loose cards in their own dashed
panel. A legend row explains the marks in use.
"""

from __future__ import annotations

from PIL import Image

from render import palette as pal
from render.fonts import font
from render.layout import TEXT_PX, private_layout
from render.views import PrivateView
from render.widgets import Canvas, draw_area, draw_empty, draw_legend


def draw_private(view: PrivateView) -> Image.Image:
    layout = private_layout(view)
    canvas = Canvas(layout.width, layout.height, rtl=view.words.rtl)
    title = layout.sections["title"]
    rtl = view.words.rtl  # a right-to-left title starts at the right edge
    canvas.text(
        title[2] if rtl else title[0],
        (title[1] + title[3]) / 2,
        view.title,
        font(26),
        pal.WHITE,
        max_width=title[2] - title[0],
        align="right" if rtl else "left",
    )
    if "empty" in layout.sections:
        draw_empty(canvas, layout.sections["empty"], view.words.empty_table)
    draw_area(canvas, layout, view.four_color)
    number_font = font(TEXT_PX)
    for spot in layout.cards:
        if spot.number is None:
            continue
        x0, _, x1, y1 = spot.box
        cx, cy = (x0 + x1) / 2, y1 + 14
        ink = pal.WHITE
        if spot.look.hint or spot.look.selected:  # a pill under the card repeats its mark
            fill, ink = (pal.HINT, pal.INK) if spot.look.hint else (pal.SELECTED, pal.WHITE)
            half = canvas.text_width(str(spot.number), number_font) / 2 + 7
            canvas.draw.rounded_rectangle((cx - half, cy - 13, cx + half, cy + 13), 13, fill=fill)
        canvas.text(cx, cy, str(spot.number), number_font, ink, align="center")
    if not view.hand:
        hand = next(p for p in layout.panels if p.kind == "hand")
        canvas.text(
            (hand.tray[0] + hand.tray[2]) / 2,
            (hand.tray[1] + hand.tray[3]) / 2,
            view.words.empty_hand,
            font(TEXT_PX, bold=False),
            pal.MUTED,
            align="center",
        )
    if "legend" in layout.sections:
        draw_legend(canvas, layout.sections["legend"], layout.legend, view.words)
    return canvas.image


def render_private(view: PrivateView) -> bytes:
    """The private view as PNG bytes."""
    return pal.to_png(draw_private(view))
