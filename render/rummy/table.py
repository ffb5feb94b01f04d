"""The group-chat table: title, stock, seats, then every group lettered A, B, C…

Built from a `TableView`, which has no hand field: nothing private can reach this image.
"""

from __future__ import annotations

from PIL import Image

from render import palette as pal
from render.fonts import font
from render.layout import TEXT_PX, Box, table_layout
from render.sprites import Size
from render.views import SeatStrip, TableView
from render.widgets import Canvas, draw_area, draw_empty, draw_stock, piece_back, stock_width

MINI_CARD = Size(15, 21)


def draw_table(view: TableView) -> Image.Image:
    layout = table_layout(view)
    canvas = Canvas(layout.width, layout.height, rtl=view.words.rtl)
    title = layout.sections["title"]
    stock_w = stock_width(view.stock)
    rtl = view.words.rtl  # right to left: the title from the right edge, the stock on the left
    canvas.text(
        title[2] if rtl else title[0],
        (title[1] + title[3]) / 2,
        view.title,
        font(26),
        pal.WHITE,
        max_width=title[2] - title[0] - stock_w - 16,
        align="right" if rtl else "left",
    )
    if layout.stock:
        box = layout.stock
        if rtl:
            box = (title[0], box[1], title[0] + stock_w, box[3])
        draw_stock(canvas, box, view.stock, view.tiles)
    if "status" in layout.sections:
        box = layout.sections["status"]
        canvas.text(
            box[2] if rtl else box[0],
            (box[1] + box[3]) / 2,
            view.status,
            font(TEXT_PX),
            pal.CHANGED,
            max_width=box[2] - box[0],
            align="right" if rtl else "left",
        )
    for seat, box in zip(view.seats, layout.seats, strict=True):
        if rtl:  # the first seat on the right, where a right-to-left reader starts
            box = (layout.width - box[2], box[1], layout.width - box[0], box[3])
        draw_seat(canvas, seat, box, view.words.points_short, view.tiles)
    if "empty" in layout.sections:
        draw_empty(canvas, layout.sections["empty"], view.words.no_groups)
    draw_area(canvas, layout, view.four_color)
    return canvas.image


def draw_seat(
    canvas: Canvas, seat: SeatStrip, box: Box, points: str = "{n} pts", tiles: bool = False
) -> None:
    """A chip per seat: name on top, cards in hand (a tile game: tiles on the rack) and running
    score below. The seat whose turn it is gets an amber chip and a pointer, so it stands out
    without reading."""
    fill = pal.CHANGED if seat.is_turn else pal.CHIP
    ink = pal.INK if seat.is_turn else pal.WHITE
    sub = pal.INK if seat.is_turn else pal.MUTED
    canvas.tray(box, fill, radius=9)
    x0, y0, x1, y1 = box
    rtl = canvas.rtl  # right to left: the chip mirrored (name and cards on the right)
    x = x1 - 9 if rtl else x0 + 9
    top = y0 + 18
    if seat.is_turn:
        tip = x - 10 if rtl else x + 10
        canvas.draw.polygon([(x, top - 7), (tip, top), (x, top + 7)], fill=ink)
        x += -15 if rtl else 15
    name = seat.name
    if seat.is_computer and "🤖" not in name:
        name = "🤖 " + name
    canvas.text(
        x, top, name, font(TEXT_PX), ink, max_width=(x - x0 - 8) if rtl else (x1 - 8 - x),
        robot_eyes=fill, align="right" if rtl else "left",
    )
    bottom = y1 - 18
    mini = piece_back(MINI_CARD, tiles)
    canvas.paste(mini, x1 - 9 - MINI_CARD.w if rtl else x0 + 9, bottom - MINI_CARD.h / 2)
    f = font(TEXT_PX)  # cards left and points: the numbers read most
    cards_text = f"{seat.cards}"
    if rtl:
        canvas.text(x1 - 9 - MINI_CARD.w - 5, bottom, cards_text, f, sub, align="right")
    else:
        canvas.text(x0 + 9 + MINI_CARD.w + 5, bottom, cards_text, f, sub)
    if seat.score is not None:
        canvas.text(
            x0 + 9 if rtl else x1 - 9, bottom, points.format(n=seat.score), f, sub,
            align="left" if rtl else "right", max_width=x1 - x0 - 60,
        )


def render_table(view: TableView) -> bytes:
    """The table as PNG bytes."""
    return pal.to_png(draw_table(view))


__all__ = ["draw_table", "render_table"]
