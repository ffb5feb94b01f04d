"""A player's /stats and a chat's leaderboard as pictures (issue 41): the numbers big, the
rating over time as a line, a row per game played, medals on the board.

The words arrive filled in the reader's language (`StatsWords`; the renderer knows none), the
numbers as numbers. Right-to-left readers get every row mirrored, as the scoreboard does. The
text beside the picture (its caption) says the same for screen readers.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass, field

from PIL import Image, ImageDraw

from render import palette as pal
from render.fonts import font
from render.layout import MARGIN, TEXT_PX, WIDTH
from render.shapes import marker
from render.widgets import Canvas

ROW_H = 42
HEAD_H = 34
TILE_H = 96
CHART_H = 260
PLOT = (72, 20, 24, 34)  # chart padding: left (axis labels), top, right, bottom
MEDALS: tuple[pal.RGB, ...] = ((245, 180, 0), (168, 176, 186), (205, 127, 50))


@dataclass(frozen=True)
class Column:
    """A table column: its heading, its right edge as a share of the row (left-to-right
    reading), and how its cells align."""

    heading: str
    right: float
    align: str = "right"


@dataclass(frozen=True)
class StatsWords:
    title: str  # "Dana · stats"
    rating: str = "rating"
    games: str = "games"
    wins: str = "wins"
    left: str = "left in hand (avg)"
    curve: str = "Rating after each game"
    curve_empty: str = "Play two games to see your rating over time"
    table: tuple[str, ...] = ("Game", "Games", "Wins", "Best round")
    rtl: bool = False


@dataclass(frozen=True)
class StatsPicture:
    words: StatsWords
    rating: str  # numbers already written the reader's way ("27.4", "38%")
    games: str
    wins: str  # "5 · 38%"
    left: str
    curve: tuple[float, ...] = ()  # rating after each game, oldest first
    rows: tuple[tuple[str, ...], ...] = ()  # (game title, games, wins, best round)


@dataclass(frozen=True)
class BoardPicture:
    title: str
    headings: tuple[str, ...]  # ("Player", "Rating", "Games", "Wins")
    rows: tuple[tuple[str, ...], ...]  # best first: (name, rating, games, wins)
    empty: str = ""
    rtl: bool = False
    marks: tuple[int, ...] = field(default=())  # rows to mark as the reader's own


STATS_COLUMNS = (0.0, 0.55, 0.71, 1.0)  # right edges after the name column (left-aligned)
BOARD_COLUMNS = (0.0, 0.66, 0.82, 1.0)


def draw_stats(view: StatsPicture) -> bytes:
    rows = len(view.rows)
    height = MARGIN + 44 + TILE_H + 16 + CHART_H + 16 + (HEAD_H + ROW_H * rows + 8 if rows else 0)
    canvas = Canvas(WIDTH, height + MARGIN, rtl=view.words.rtl)
    _title(canvas, view.words.title)
    y = MARGIN + 44
    _tiles(canvas, y, [(view.rating, view.words.rating), (view.games, view.words.games),
                       (view.wins, view.words.wins), (view.left, view.words.left)])
    y += TILE_H + 16
    box = (MARGIN, y, WIDTH - MARGIN, y + CHART_H)
    canvas.tray(box, pal.WHITE, radius=10)
    _curve(canvas, box, view.curve, view.words)
    y += CHART_H + 16
    if rows:
        _table(canvas, y, view.words.table, view.rows, STATS_COLUMNS)
    return pal.to_png(pal.quantize(canvas.image), optimize=True)


def draw_board(view: BoardPicture) -> bytes:
    rows = max(len(view.rows), 1)
    height = MARGIN + 44 + HEAD_H + ROW_H * rows + 8 + MARGIN
    canvas = Canvas(WIDTH, height, rtl=view.rtl)
    _title(canvas, view.title)
    y = MARGIN + 44
    if not view.rows:
        canvas.tray((MARGIN, y, WIDTH - MARGIN, y + HEAD_H + ROW_H), pal.WHITE, radius=10)
        canvas.text(WIDTH / 2, y + (HEAD_H + ROW_H) / 2, view.empty, font(TEXT_PX), pal.GREY,
                    align="center", max_width=WIDTH - 4 * MARGIN)
        return pal.to_png(pal.quantize(canvas.image), optimize=True)
    _table(canvas, y, view.headings, view.rows, BOARD_COLUMNS, medals=True, marks=view.marks)
    return pal.to_png(pal.quantize(canvas.image), optimize=True)


def _title(canvas: Canvas, title: str) -> None:
    rtl = canvas.rtl  # a right-to-left title starts at the right edge
    canvas.text(WIDTH - MARGIN if rtl else MARGIN, MARGIN + 17, title, font(26), pal.WHITE,
                max_width=WIDTH - 2 * MARGIN, align="right" if rtl else "left")


def _tiles(canvas: Canvas, y: int, tiles: Sequence[tuple[str, str]]) -> None:
    """Four numbers, each big over its label, in white tiles (reading order mirrored in RTL)."""
    gap = 10
    width = (WIDTH - 2 * MARGIN - gap * (len(tiles) - 1)) / len(tiles)
    for k, (value, label) in enumerate(tiles):
        slot = len(tiles) - 1 - k if canvas.rtl else k
        x0 = MARGIN + slot * (width + gap)
        canvas.tray((round(x0), y, round(x0 + width), y + TILE_H), pal.WHITE, radius=10)
        mid = x0 + width / 2
        canvas.text(mid, y + 38, value, font(34), pal.INK, align="center", max_width=width - 12)
        canvas.text(mid, y + 76, label, font(20, bold=False), pal.GREY, align="center",
                    max_width=width - 12)


def _nice_step(span: float) -> float:
    raw = max(span / 4, 0.5)
    mag = 10 ** math.floor(math.log10(raw))
    return next(m * mag for m in (1, 2, 2.5, 5, 10) if m * mag >= raw)


def _curve(canvas: Canvas, box: tuple[int, int, int, int], curve: Sequence[float],
           words: StatsWords) -> None:
    head = font(TEXT_PX, bold=False)
    rtl = canvas.rtl
    canvas.text(box[2] - 14 if rtl else box[0] + 14, box[1] + 18, words.curve, head, pal.GREY,
                align="right" if rtl else "left", max_width=box[2] - box[0] - 28)
    if len(curve) < 2:
        canvas.text((box[0] + box[2]) / 2, (box[1] + box[3]) / 2 + 10, words.curve_empty,
                    font(TEXT_PX), pal.GREY, align="center", max_width=box[2] - box[0] - 28)
        return
    low, high = min(curve), max(curve)
    step = _nice_step(high - low)
    low = math.floor(low / step) * step
    high = max(math.ceil(high / step) * step, low + step)
    # the axis on the reading side: the left, or the right for a right-to-left reader
    pad_left, pad_right = (PLOT[2], PLOT[0]) if rtl else (PLOT[0], PLOT[2])
    x0, y0 = box[0] + pad_left, box[1] + PLOT[1] + 24
    x1, y1 = box[2] - pad_right, box[3] - PLOT[3]
    # time runs the reader's way: right to left for a right-to-left reader
    xs = [x0 + (x1 - x0) * k / (len(curve) - 1) for k in range(len(curve))]
    if rtl:
        xs = [x0 + x1 - x for x in xs]

    def py(v: float) -> float:
        return y1 - (y1 - y0) * (v - low) / (high - low)

    small = font(TEXT_PX, bold=False)
    v = low
    while v <= high + 1e-9:
        canvas.draw.line((x0, py(v), x1, py(v)), fill=pal.LIGHT, width=1)
        label = f"{v:g}"
        if rtl:
            canvas.text(x1 + 8, py(v), label, small, pal.GREY, align="left")
        else:
            canvas.text(x0 - 8, py(v), label, small, pal.GREY, align="right")
        v += step
    w, h = box[2] - box[0], box[3] - box[1]
    color = pal.SERIES[0]

    def paint(draw: ImageDraw.ImageDraw, ss: int) -> None:
        pts = [((x - box[0]) * ss, (py(v) - box[1]) * ss) for x, v in zip(xs, curve, strict=True)]
        draw.line(pts, fill=color, width=4 * ss, joint="curve")
        for x, yv in pts[-1:]:  # the newest game: where the player stands now
            marker(draw, 0, x, yv, 7 * ss, color)

    # twice the size, not the house's four times: a single line looks the same, and a
    # chart-sized layer at 4× took most of the picture's time (issue 41: ≤ 40 ms)
    big = Image.new("RGBA", (w * 2, h * 2), (0, 0, 0, 0))
    paint(ImageDraw.Draw(big), 2)
    canvas.paste(big.reduce(2), box[0], box[1])


def _table(canvas: Canvas, y: int, headings: Sequence[str], rows: Sequence[Sequence[str]],
           rights: Sequence[float], *, medals: bool = False, marks: Sequence[int] = ()) -> None:
    """A white table: the first column (a name) from the reading edge, the others numbers
    right-aligned at their `rights` (shares of the row), rows striped."""
    left, right = MARGIN + 14, WIDTH - MARGIN - 18
    span = right - left
    box = (MARGIN, y, WIDTH - MARGIN, y + HEAD_H + ROW_H * len(rows) + 8)
    canvas.tray(box, pal.WHITE, radius=10)
    rtl = canvas.rtl

    def at(x: float) -> float:
        return WIDTH - x if rtl else x

    def side(align: str) -> str:
        return {"left": "right", "right": "left"}.get(align, align) if rtl else align

    name_x = left + (44 if medals else 0)
    name_w = left + span * rights[1] - 84 - name_x
    head = font(TEXT_PX, bold=False)
    canvas.text(at(name_x), y + 18, headings[0], head, pal.GREY, align=side("left"),
                max_width=name_w)
    for k, heading in enumerate(headings[1:], 1):
        canvas.text(at(left + span * rights[k]), y + 18, heading, head, pal.GREY,
                    align=side("right"), max_width=span * (rights[k] - rights[k - 1]) - 8)
    y += HEAD_H
    f, plain = font(TEXT_PX), font(TEXT_PX, bold=False)
    for place, row in enumerate(rows):
        if place % 2 == 0:
            canvas.draw.rectangle((MARGIN + 4, y, WIDTH - MARGIN - 5, y + ROW_H - 1),
                                  fill=pal.LIGHT)
        if place in marks:
            canvas.outline((MARGIN + 4, y, WIDTH - MARGIN - 4, y + ROW_H), pal.SELECTED,
                           width=2, radius=4)
        mid = y + ROW_H / 2
        if medals:
            _medal(canvas, at(left + 15), mid, place)
        canvas.text(at(name_x), mid, row[0], f, pal.INK, max_width=name_w,
                    robot_eyes=pal.WHITE, align=side("left"))
        for k, cell in enumerate(row[1:], 1):
            canvas.text(at(left + span * rights[k]), mid, cell, f if k == 1 else plain,
                        pal.INK, align=side("right"))
        y += ROW_H


def _medal(canvas: Canvas, cx: float, cy: float, place: int) -> None:
    """Gold, silver and bronze discs with the place in them; a plain number after them."""
    text = str(place + 1)
    if place < len(MEDALS):
        canvas.draw.ellipse((cx - 15, cy - 15, cx + 15, cy + 15), fill=MEDALS[place],
                            outline=pal.INK, width=1)
        canvas.text(cx, cy, text, font(18), pal.INK, align="center")
    else:
        canvas.text(cx, cy, text, font(TEXT_PX, bold=False), pal.GREY, align="center")
