"""The lobby card: rulebook, options, and the seats (taken and open)."""

from __future__ import annotations

from functools import cache

from PIL import Image

from engine.cards import parse_cards

from . import palette as pal
from .fonts import font
from .layout import MARGIN, TEXT_PX, WIDTH
from .sprites import card_sprite
from .tiles import tile_face_sprite
from .views import LobbyView
from .widgets import Canvas, text_width

SEAT_H = 48
CHIP_H = 38


def draw_lobby(view: LobbyView) -> Image.Image:
    option_rows = _flow_options(view.options)
    slots = max(view.max_seats, len(view.seats))
    height = (
        MARGIN
        + 96
        + (len(option_rows) * (CHIP_H + 8) + 10 if option_rows else 0)
        + 36
        + slots * (SEAT_H + 6)
        + MARGIN
    )
    canvas = Canvas(WIDTH, height, rtl=view.words.rtl)
    fan = _fan(view.tiles)
    rtl = view.words.rtl  # right to left: the words from the right edge, the fan on the left
    canvas.paste(fan, MARGIN if rtl else WIDTH - MARGIN - fan.width, MARGIN - 4)
    text_w = WIDTH - 3 * MARGIN - fan.width
    tx, align = (WIDTH - MARGIN, "right") if rtl else (MARGIN, "left")
    canvas.text(tx, MARGIN + 26, view.title, font(36), pal.WHITE, max_width=text_w, align=align)
    canvas.text(
        tx,
        MARGIN + 68,
        view.words.lobby,
        font(TEXT_PX, bold=False),
        pal.MUTED,
        max_width=text_w,
        align=align,
    )
    y = MARGIN + 96
    f = font(TEXT_PX, bold=False)
    for row in option_rows:
        used = 0  # the row's width so far (right to left: the chips flow from the right edge)
        for text, w in row:
            x = WIDTH - MARGIN - used - w if rtl else MARGIN + used
            canvas.tray((x, y, x + w, y + CHIP_H), pal.TAB, radius=CHIP_H // 2)
            canvas.text(
                x + w / 2,
                y + CHIP_H / 2,
                text,
                f,
                pal.WHITE,
                align="center",
                max_width=w - 20,
                robot_eyes=pal.TAB,
            )
            used += w + 8
        y += CHIP_H + 8
    if option_rows:
        y += 10
    seats = view.words.seats.format(taken=len(view.seats), max=view.max_seats)
    canvas.text(tx, y + 14, seats, font(TEXT_PX), pal.WHITE, align=align)
    y += 36
    name_font = font(TEXT_PX)
    for k in range(slots):
        box = (MARGIN, y, WIDTH - MARGIN, y + SEAT_H)
        mid = y + SEAT_H / 2
        # right to left: the seat number on the right, the name right-aligned beside it
        circle = WIDTH - MARGIN - 23 if rtl else MARGIN + 23
        name_x = WIDTH - MARGIN - 48 if rtl else MARGIN + 48
        if k < len(view.seats):
            canvas.tray(box, pal.CHIP, radius=10)
            canvas.draw.ellipse((circle - 16, mid - 16, circle + 16, mid + 16), fill=pal.TAB)
            canvas.text(circle, mid, str(k + 1), font(TEXT_PX), pal.WHITE, align="center")
            canvas.text(
                name_x,
                mid,
                view.seats[k],
                name_font,
                pal.WHITE,
                max_width=WIDTH - 2 * MARGIN - 60,
                robot_eyes=pal.CHIP,
                align=align,
            )
        else:
            canvas.outline(box, pal.TAB, 2, dashed=True)
            canvas.text(
                name_x, mid, view.words.open_seat, font(TEXT_PX, bold=False), pal.MUTED, align=align
            )
        y += SEAT_H + 6
    return canvas.image


def _flow_options(options: tuple[str, ...]) -> list[list[tuple[str, int]]]:
    """Option chips, wrapped into rows."""
    f = font(TEXT_PX, bold=False)
    rows: list[list[tuple[str, int]]] = []
    x = MARGIN
    for text in options:
        w = min(WIDTH - 2 * MARGIN, text_width(text, f) + 28)
        if not rows or x + w > WIDTH - MARGIN:
            rows.append([])
            x = MARGIN
        rows[-1].append((text, w))
        x += w + 8
    return rows


@cache
def _fan(tiles: bool = False) -> Image.Image:
    """Four court cards fanned out: decoration that says "card game" at a glance (a tile
    game: four tiles, one of each colour)."""
    if tiles:  # by number and colour: the render root knows no game's pieces
        sprites = [tile_face_sprite(rank, colour)
                   for rank, colour in ((1, "R"), (13, "B"), (7, "O"), (12, "K"))]
    else:
        sprites = [card_sprite(card) for card in parse_cards("AS KH QD JC")]
    fan = Image.new("RGBA", (190, 96), (0, 0, 0, 0))
    for k, face in enumerate(sprites):
        sprite = face.rotate(
            12 - 8 * k, resample=Image.Resampling.BICUBIC, expand=True
        )
        fan.alpha_composite(sprite, (8 + k * 40, 8 + round(abs(k - 1.5)) * 3))
    return fan


def render_lobby(view: LobbyView) -> bytes:
    """The lobby card as PNG bytes."""
    return pal.to_png(draw_lobby(view), optimize=True)
