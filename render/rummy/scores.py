"""The scoreboard: running totals as a line chart with the target line, the round's points, and
at the end the result card with the winners.

Series differ by colour (Okabe-Ito) and by marker shape, and the table repeats each seat's
marker, so nobody has to match colours.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from itertools import accumulate

from PIL import Image, ImageDraw

from render import palette as pal
from render.fonts import font
from render.layout import MARGIN, TEXT_PX, WIDTH
from render.shapes import icon, marker, supersampled
from render.views import ScoreView
from render.widgets import Canvas

CHART_H = 300
ROW_H = 42
PLOT = (72, 24, 26, 44)  # chart padding: left (axis labels), top, right, bottom (round labels)


def totals(rounds: Sequence[Sequence[int]], seats: int) -> list[list[int]]:
    """Running totals per seat, starting at 0 before round 1."""
    return [[0, *accumulate(r[i] for r in rounds)] for i in range(seats)]


def ranking(view: ScoreView) -> list[int]:
    """Seats best first (lowest total first when lower is better); winners always on top."""
    final = [sum(r[i] for r in view.rounds) for i in range(len(view.names))]
    sign = 1 if view.lower_is_better else -1
    return sorted(range(len(view.names)), key=lambda i: (i not in view.winners, sign * final[i], i))


def _show_chart(view: ScoreView) -> bool:
    return len(view.rounds) >= 2 or (view.target is not None and bool(view.rounds))


def _nice_step(span: float) -> int:
    """A round gridline step giving about five lines."""
    raw = max(span / 5, 1)
    mag = 10 ** math.floor(math.log10(raw))
    return int(next(m * mag for m in (1, 2, 2.5, 5, 10) if m * mag >= raw))


def draw_scores(view: ScoreView) -> Image.Image:
    n = len(view.names)
    chart = _show_chart(view)
    y = MARGIN + 34
    banner_h = 56 if view.final else 0
    height = y + banner_h + (CHART_H + 14 if chart else 0) + 34 + ROW_H * n + 12 + MARGIN
    canvas = Canvas(WIDTH, height, rtl=view.words.rtl)
    rtl = view.words.rtl  # a right-to-left title starts at the right edge
    canvas.text(WIDTH - MARGIN if rtl else MARGIN, MARGIN + 17, view.title, font(26), pal.WHITE,
                max_width=WIDTH - 2 * MARGIN, align="right" if rtl else "left")
    y += 6
    if view.final:
        _banner(canvas, view, y)
        y += banner_h
    if chart:
        box = (MARGIN, y, WIDTH - MARGIN, y + CHART_H)
        canvas.tray(box, pal.WHITE, radius=10)
        _chart(canvas, view, box)
        y += CHART_H + 14
    _table(canvas, view, y)
    return canvas.image


def _banner(canvas: Canvas, view: ScoreView, y: int) -> None:
    names = [view.names[i] for i in view.winners]
    words = view.words
    if not names:
        text = words.draw
    elif len(names) == 1:
        text = words.wins.format(name=names[0])
    else:
        text = words.win.format(names=f"{', '.join(names[:-1])} {words.and_} {names[-1]}")
    f = font(30)
    crown = icon("crown", 40, pal.GOLD)
    width = canvas.text_width(text, f) + (52 if names else 0)
    x = max(MARGIN, (WIDTH - width) / 2)
    if names and canvas.rtl:  # right to left: the crown after the words, on the right
        drawn = canvas.text(x, y + 24, text, f, pal.GOLD, max_width=WIDTH - MARGIN - x - 52)
        canvas.paste(crown, x + drawn + 12, y + 4)
        return
    if names:
        canvas.paste(crown, x, y + 4)
        x += 52
    canvas.text(x, y + 24, text, f, pal.GOLD, max_width=WIDTH - MARGIN - x)


def _chart(canvas: Canvas, view: ScoreView, box: tuple[int, int, int, int]) -> None:
    series = totals(view.rounds, len(view.names))
    rounds = len(view.rounds)
    values = [0, 1, *(v for s in series for v in s)]
    if view.target is not None:
        values.append(view.target)
    low, high = min(values), max(values)
    step = _nice_step(high - low)
    low = math.floor(low / step) * step
    high = math.ceil(high * 1.04 / step) * step
    x0, y0 = box[0] + PLOT[0], box[1] + PLOT[1]
    x1, y1 = box[2] - PLOT[2], box[3] - PLOT[3]

    def px(r: float) -> float:
        return x0 + (x1 - x0) * r / max(rounds, 1)

    def py(v: float) -> float:
        return y1 - (y1 - y0) * (v - low) / (high - low)

    small = font(TEXT_PX, bold=False)
    for v in range(low, high + 1, step):
        canvas.draw.line((x0, py(v), x1, py(v)), fill=pal.LIGHT if v else pal.GREY, width=1)
        canvas.text(x0 - 8, py(v), str(v), small, pal.GREY, align="right")
    every = max(1, math.ceil(rounds / 12))  # at most ~12 round labels
    for r in range(0, rounds + 1, every):
        canvas.text(px(r), y1 + 20, str(r), small, pal.GREY, align="center")
    if view.target is not None:
        ty = py(view.target)
        for xs in range(int(x0), int(x1), 14):
            canvas.draw.line((xs, ty, min(xs + 8, x1), ty), fill=pal.INVALID, width=2)
        canvas.text(x0 + 8, ty - 15, view.words.target.format(n=view.target), font(TEXT_PX),
                    pal.INVALID)

    # the lines antialiased: drawn supersampled on a transparent layer, then pasted
    w, h = box[2] - box[0], box[3] - box[1]

    def paint(draw: ImageDraw.ImageDraw, ss: int) -> None:
        for k, totals_k in enumerate(series):
            color = pal.SERIES[k % len(pal.SERIES)]
            pts = [((px(r) - box[0]) * ss, (py(v) - box[1]) * ss) for r, v in enumerate(totals_k)]
            draw.line(pts, fill=color, width=4 * ss, joint="curve")
            for x, yv in pts[1:]:
                marker(draw, k, x, yv, 6.5 * ss, color)

    layer = supersampled(w, h, paint)
    canvas.paste(layer, box[0], box[1])


def _table(canvas: Canvas, view: ScoreView, y: int) -> None:
    n = len(view.names)
    multi = _show_chart(view)  # several rounds: round points, total, the chart's markers
    box = (MARGIN, y, WIDTH - MARGIN, y + 34 + ROW_H * n)
    canvas.tray(box, pal.WHITE, radius=10)
    rtl = canvas.rtl  # right to left: the row mirrored (place and name on the right)

    def at(x: float, width: float = 0) -> float:
        """x (of something `width` wide) on a left-to-right row, or its mirrored place."""
        return WIDTH - x - width if rtl else x

    def side(align: str) -> str:
        return {"left": "right", "right": "left"}.get(align, align) if rtl else align

    head = font(TEXT_PX, bold=False)
    col_round, col_total = WIDTH - MARGIN - 190, WIDTH - MARGIN - 24
    last = len(view.rounds)
    if multi:
        canvas.text(
            at(col_round), y + 18, view.words.round.format(n=last) if last else "", head,
            pal.GREY, align=side("right"),
        )
        canvas.text(at(col_total), y + 18, view.words.total, head, pal.GREY, align=side("right"))
    else:
        canvas.text(at(col_total), y + 18, view.words.points, head, pal.GREY, align=side("right"))
    order = ranking(view)
    f = font(TEXT_PX)
    y += 34
    for place, i in enumerate(order):
        if place % 2 == 0:
            canvas.draw.rectangle(
                (MARGIN + 4, y, WIDTH - MARGIN - 5, y + ROW_H - 1), fill=pal.LIGHT
            )
        mid = y + ROW_H / 2
        canvas.text(at(MARGIN + 14), mid, f"{place + 1}.", f, pal.INK, align=side("left"))
        x = MARGIN + 50
        if multi:
            canvas.paste(_marker_icon(i), at(x, 22), mid - 9)
            x += 30
        if i in view.winners:
            crown = icon("crown", 22, pal.GOLD)
            canvas.paste(crown, at(x, crown.width), mid - 12)
            x += 28
        canvas.text(
            at(x), mid, view.names[i], f, pal.INK, max_width=col_round - 110 - x,
            robot_eyes=pal.WHITE, align=side("left"),
        )
        total = sum(r[i] for r in view.rounds)
        if multi and view.rounds:
            pts = view.rounds[-1][i]
            canvas.text(
                at(col_round),
                mid,
                f"+{pts}" if pts >= 0 else str(pts),
                font(TEXT_PX, False),
                pal.GREY,
                align=side("right"),
            )
        canvas.text(at(col_total), mid, str(total), f, pal.INK, align=side("right"))
        y += ROW_H


def _marker_icon(k: int) -> Image.Image:
    color = pal.SERIES[k % len(pal.SERIES)]

    def paint(draw: ImageDraw.ImageDraw, ss: int) -> None:
        draw.line((0, 9 * ss, 22 * ss, 9 * ss), fill=color, width=3 * ss)
        marker(draw, k, 11 * ss, 9 * ss, 6 * ss, color)

    return supersampled(22, 18, paint)


def render_scores(view: ScoreView) -> bytes:
    """The scoreboard as PNG bytes."""
    return pal.to_png(draw_scores(view), optimize=True)


__all__ = ["draw_scores", "ranking", "render_scores", "totals"]
