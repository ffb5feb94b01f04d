"""Rummikub tiles and a rack (RULES.md §5): pure, tiles in, PNG bytes out.

A tile is a cream face with its number in its colour. The four colours are black, crimson and
the Okabe-Ito blue and orange (far apart in lightness as well as hue), and each also carries a
small mark of its own under the number — square black, circle red, triangle blue, diamond
orange — as the four-colour card option does, so no player has to tell the colours apart by
hue alone. The joker is a face drawn from shapes.
"""

from __future__ import annotations

import io
from collections.abc import Sequence
from functools import lru_cache

from PIL import Image, ImageDraw

from engine.cards import Card

from . import palette as pal
from .fonts import font
from .looks import PLAIN, TABLE_CARD, Look, Size
from .shapes import supersampled

RGB = tuple[int, int, int]
CREAM: RGB = (250, 243, 222)
EDGE: RGB = (176, 160, 128)
RACK: RGB = (122, 82, 48)
RACK_EDGE: RGB = (84, 54, 30)
INK: dict[str, RGB] = {  # by colour letter (engine/rummy/tiles.py)
    "K": (34, 34, 34),
    "R": (196, 30, 58),
    "B": (0, 114, 178),
    "O": (230, 159, 0),
}
JOKER_INK: RGB = (204, 51, 102)
TILE_W, TILE_H = 56, 76
GAP = 6


def _mark(draw: ImageDraw.ImageDraw, colour: str, cx: int, cy: int, r: int) -> None:
    ink = INK[colour]
    if colour == "K":
        draw.rectangle((cx - r, cy - r, cx + r, cy + r), fill=ink)
    elif colour == "R":
        draw.ellipse((cx - r, cy - r, cx + r, cy + r), fill=ink)
    elif colour == "B":
        draw.polygon([(cx, cy - r - 1), (cx + r + 1, cy + r), (cx - r - 1, cy + r)], fill=ink)
    else:
        draw.polygon([(cx, cy - r - 1), (cx + r + 1, cy), (cx, cy + r + 1), (cx - r - 1, cy)],
                     fill=ink)


def _joker(draw: ImageDraw.ImageDraw, w: int, h: int) -> None:
    """A smiling face in the joker's ink: no font needed."""
    cx, cy, r = w // 2, h // 2 - 4, w // 3
    draw.ellipse((cx - r, cy - r, cx + r, cy + r), outline=JOKER_INK, width=3)
    e = r // 3
    draw.ellipse((cx - e - 4, cy - e, cx - e + 2, cy - e + 6), fill=JOKER_INK)
    draw.ellipse((cx + e - 2, cy - e, cx + e + 4, cy - e + 6), fill=JOKER_INK)
    draw.arc((cx - r // 2, cy - r // 3, cx + r // 2, cy + r // 2), 20, 160, fill=JOKER_INK,
             width=3)
    draw.polygon([(cx - r, cy - r + 4), (cx - r // 3, cy - r - 10), (cx, cy - r + 2),
                  (cx + r // 3, cy - r - 10), (cx + r, cy - r + 4)], fill=JOKER_INK)


@lru_cache(maxsize=128)
def _tile_image(rank: int, colour: str, as_rank: int, as_colour: str) -> Image.Image:
    img = Image.new("RGB", (TILE_W, TILE_H), RACK)
    draw = ImageDraw.Draw(img)
    draw.rounded_rectangle((0, 0, TILE_W - 1, TILE_H - 1), radius=8, fill=CREAM, outline=EDGE,
                           width=2)
    if rank == 0:
        _joker(draw, TILE_W, TILE_H)
        if as_rank:  # a joker on the table shows what it stands for, small
            draw.text((TILE_W // 2 - 5, TILE_H - 12), str(as_rank), fill=INK[as_colour],
                      font=font(13), anchor="mm")
            _mark(draw, as_colour, TILE_W // 2 + 9, TILE_H - 12, 3)
        return img
    size = 30 if rank < 10 else 26
    draw.text((TILE_W // 2, TILE_H // 2 - 7), str(rank), fill=INK[colour], font=font(size),
              anchor="mm")
    _mark(draw, colour, TILE_W // 2, TILE_H - 15, 5)
    return img


def tile_image(tile: Card) -> Image.Image:
    """One tile (an engine Tile: its face ends in its colour letter, `7R`) as an RGB image."""
    colour = "" if tile.is_joker else tile.face[-1]
    as_colour = tile.play_face[-1] if tile.is_joker and tile.as_rank else ""
    return _tile_image(tile.rank, colour, tile.as_rank, as_colour)


def rack_image(tiles: Sequence[Card], per_row: int = 14) -> Image.Image:
    """The private view's rack: tiles in rows of `per_row` on a wooden rack."""
    rows = [list(tiles[i:i + per_row]) for i in range(0, len(tiles), per_row)] or [[]]
    width = GAP + max(1, min(per_row, len(tiles))) * (TILE_W + GAP)
    height = GAP + len(rows) * (TILE_H + GAP + 6)
    img = Image.new("RGB", (width, height), RACK)
    draw = ImageDraw.Draw(img)
    for r, row in enumerate(rows):
        y = GAP + r * (TILE_H + GAP + 6)
        draw.rectangle((0, y + TILE_H, width, y + TILE_H + 6), fill=RACK_EDGE)  # the ledge
        for c, tile in enumerate(row):
            img.paste(tile_image(tile), (GAP + c * (TILE_W + GAP), y))
    return img


def rack_png(tiles: Sequence[Card], per_row: int = 14) -> bytes:
    """PNG bytes of `rack_image` (an adaptive palette: the tile colours stay exact)."""
    out = io.BytesIO()
    rack_image(tiles, per_row).quantize(colors=96, dither=Image.Dither.NONE).save(
        out, "PNG", compress_level=6)
    return out.getvalue()


# -- tiles inside the table and private pictures ------------------------------------------
# Those pictures go through the fixed palette (render/palette.py), so a tile there is drawn in
# colours the palette holds: a white face (cream when laid from your rack this turn, with the
# dog-ear every placed card has), black, red, blue and the palette's orange — and the marks
# under the number, which tell the colours apart without hue.
TABLE_INK: dict[str, RGB] = {"K": pal.SPADE, "R": pal.RED, "B": pal.BLUE, "O": pal.EAR}


def tile_sprite(tile: Card, look: Look, size: Size) -> Image.Image:
    """The RGBA face of a tile at a card's size, with a card's marks (placed, selected, hint)."""
    colour = "" if tile.is_joker else tile.face[-1]
    as_colour = tile.play_face[-1] if tile.is_joker and tile.as_rank else ""
    return _sprite(tile.rank, colour, tile.as_rank, as_colour, look, size)


def tile_face_sprite(rank: int, colour: str, size: Size = TABLE_CARD) -> Image.Image:
    """A plain tile by its number and colour letter (K R B O), for pictures that show tiles
    without a game's pieces at hand (the lobby's fan)."""
    return _sprite(rank, colour, 0, "", PLAIN, size)


def _paint_mark(draw: ImageDraw.ImageDraw, colour: str, cx: float, cy: float, r: float,
                ink: RGB) -> None:
    if colour == "K":
        draw.rectangle((cx - r, cy - r, cx + r, cy + r), fill=ink)
    elif colour == "R":
        draw.ellipse((cx - r, cy - r, cx + r, cy + r), fill=ink)
    elif colour == "B":
        draw.polygon([(cx, cy - r * 1.2), (cx + r * 1.2, cy + r), (cx - r * 1.2, cy + r)],
                     fill=ink)
    else:
        draw.polygon([(cx, cy - r * 1.3), (cx + r * 1.3, cy), (cx, cy + r * 1.3),
                      (cx - r * 1.3, cy)], fill=ink)


def _paint_number(draw: ImageDraw.ImageDraw, ss: int, w: int, h: int, text: str, top: float,
                  height: float, ink: RGB) -> None:
    size = round(height)
    f = font(size * ss)
    while f.getlength(text) > (w - 8) * ss and size > 8:  # "13" on narrow tiles
        size -= 1
        f = font(size * ss)
    cap = f.getbbox("1", anchor="ls")[1]
    draw.text((w * ss / 2, top * ss - cap), text, font=f, fill=ink, anchor="ms")


@lru_cache(maxsize=1024)
def _sprite(rank: int, colour: str, as_rank: int, as_colour: str, look: Look,
            size: Size) -> Image.Image:
    w, h = size
    joker = rank == 0

    def paint(draw: ImageDraw.ImageDraw, ss: int) -> None:
        W, H = w * ss, h * ss
        radius = round(w * 0.16 * ss)
        ground = pal.PLACED if look.placed else (pal.JOKER_BG if joker else pal.CARD)
        edge_w = round(w * 0.07 * ss) if joker else ss
        draw.rounded_rectangle((0, 0, W - 1, H - 1), radius,
                               fill=pal.JOKER if joker else pal.CARD_EDGE)
        draw.rounded_rectangle((edge_w, edge_w, W - 1 - edge_w, H - 1 - edge_w),
                               max(1, radius - edge_w), fill=ground)
        if look.placed:
            e = w * 0.34 * ss
            draw.polygon([(W - e, 0), (W, 0), (W, e)], fill=pal.EAR)
        if joker:
            _paint_joker(draw, ss, w, h, as_rank, as_colour)
        else:
            ink = TABLE_INK[colour]
            _paint_number(draw, ss, w, h, str(rank), h * 0.1, h * 0.44, ink)
            _paint_mark(draw, colour, W / 2, H * 0.76, w * 0.13 * ss, ink)
        inset = 0
        for on, color, width in ((look.hint, pal.HINT, 0.08), (look.selected, pal.SELECTED, 0.065)):
            if on:
                bw = round(w * width * ss)
                draw.rounded_rectangle((inset, inset, W - 1 - inset, H - 1 - inset),
                                       max(1, radius - inset), outline=color, width=bw)
                inset += bw

    return supersampled(w, h, paint)


def _paint_joker(draw: ImageDraw.ImageDraw, ss: int, w: int, h: int, as_rank: int,
                 as_colour: str) -> None:
    """A smiling face; a joker standing for a tile shows that tile small below it."""
    W = w * ss
    cy = h * (0.34 if as_rank else 0.45) * ss
    r = w * (0.26 if as_rank else 0.32) * ss
    cx = W / 2
    line = max(ss, round(w * 0.06 * ss))
    draw.ellipse((cx - r, cy - r, cx + r, cy + r), outline=pal.JOKER, width=line)
    e = r * 0.38
    for dx in (-e, e):
        draw.ellipse((cx + dx - r * 0.13, cy - e - r * 0.13, cx + dx + r * 0.13,
                      cy - e + r * 0.13), fill=pal.JOKER)
    draw.arc((cx - r * 0.55, cy - r * 0.35, cx + r * 0.55, cy + r * 0.6), 20, 160,
             fill=pal.JOKER, width=line)
    if as_rank:  # the number and its colour's mark side by side, under the face
        ink = TABLE_INK[as_colour]
        text = str(as_rank)
        f = font(round(h * 0.24) * ss)
        tw = f.getlength(text)
        r = w * 0.08 * ss
        x = (W - tw - 3 * r) / 2
        y = h * 0.8 * ss
        draw.text((x, y), text, font=f, fill=ink, anchor="lm")
        _paint_mark(draw, as_colour, x + tw + 2 * r, y, r, ink)


@lru_cache(maxsize=16)
def tile_back(size: Size) -> Image.Image:
    """A small face-down tile (the pool, the tiles on a rack), where a card game has a card
    back: a cream face on a ledge, with the red mark at the pool's size. The palette's colours
    only (cream is its "placed" ground), so the table picture keeps its fixed palette."""
    w, h = size

    def paint(draw: ImageDraw.ImageDraw, ss: int) -> None:
        W, H = w * ss, h * ss
        radius = round(w * 0.2 * ss)
        ledge = round(h * 0.16 * ss)  # a tile is thick: its edge shows below the face
        draw.rounded_rectangle((0, 0, W - 1, H - 1), radius, fill=pal.CARD_EDGE)
        m = max(ss, round(w * 0.06 * ss))
        draw.rounded_rectangle((m, m, W - 1 - m, H - 1 - ledge), max(1, radius - m),
                               fill=pal.PLACED)
        if w >= 20:
            _paint_mark(draw, "R", W / 2, (H - ledge) / 2, w * 0.17 * ss, pal.RED)

    return supersampled(w, h, paint)
