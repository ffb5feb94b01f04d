"""Vector shapes drawn with ImageDraw: suits, star, robot, tick, crown, card back.

ImageDraw does not antialias polygons, so small pictures are drawn at `SS` times their size and
reduced (a box filter, i.e. exact pixel coverage); callers cache the results.
"""

from __future__ import annotations

import math
from collections.abc import Callable
from functools import lru_cache

from PIL import Image, ImageDraw

from .palette import RGB

SS = 4  # supersampling factor
Point = tuple[float, float]


def _tangent_points(cx: float, cy: float, r: float, px: float, py: float) -> tuple[Point, Point]:
    """The two points where lines from (px, py) touch the circle (cx, cy, r)."""
    dx, dy = px - cx, py - cy
    d = math.hypot(dx, dy)
    base = math.atan2(dy, dx)
    spread = math.acos(r / d)
    return (
        (cx + r * math.cos(base + spread), cy + r * math.sin(base + spread)),
        (cx + r * math.cos(base - spread), cy + r * math.sin(base - spread)),
    )


def _heart(
    draw: ImageDraw.ImageDraw, x: float, y: float, w: float, h: float, fill: RGB, flip: bool = False
) -> None:
    """A heart filling (x, y, w, h); `flip` turns it upside down (the body of a spade)."""

    def pt(u: float, v: float) -> Point:
        return (x + u * w, y + (1 - v if flip else v) * h)

    r = 0.26
    for cu in (0.26, 0.74):
        cx, cy = pt(cu, 0.29)
        draw.ellipse((cx - r * w, cy - r * h, cx + r * w, cy + r * h), fill=fill)
    # the lower body: tangents from the point to both lobes (in unit space, then mapped)
    left = _tangent_points(0.26, 0.29, r, 0.5, 1.0)
    right = _tangent_points(0.74, 0.29, r, 0.5, 1.0)
    lt = min(left, key=lambda p: p[0])
    rt = max(right, key=lambda p: p[0])
    draw.polygon([pt(*lt), pt(0.5, 0.2), pt(*rt), pt(0.5, 1.0)], fill=fill)


def suit(draw: ImageDraw.ImageDraw, s: str, x: float, y: float, size: float, fill: RGB) -> None:
    """Draw suit `s` (S H D C) in the square (x, y, size)."""
    if s == "H":
        _heart(draw, x, y + size * 0.04, size, size * 0.92, fill)
    elif s == "D":
        m = size * 0.5
        draw.polygon(
            [(x + m, y), (x + size * 0.9, y + m), (x + m, y + size), (x + size * 0.1, y + m)],
            fill=fill,
        )
    elif s == "S":
        _heart(draw, x, y, size, size * 0.8, fill, flip=True)
        _stem(draw, x, y, size, fill)
    elif s == "C":
        r = size * 0.22
        for cu, cv in ((0.5, 0.25), (0.25, 0.56), (0.75, 0.56)):
            cx, cy = x + cu * size, y + cv * size
            draw.ellipse((cx - r, cy - r, cx + r, cy + r), fill=fill)
        c = size * 0.5
        draw.polygon(
            [
                (x + c, y + size * 0.3),
                (x + size * 0.3, y + size * 0.58),
                (x + size * 0.7, y + size * 0.58),
            ],
            fill=fill,
        )
        _stem(draw, x, y, size, fill)


def _stem(draw: ImageDraw.ImageDraw, x: float, y: float, size: float, fill: RGB) -> None:
    c = x + size * 0.5
    draw.polygon(
        [
            (c - size * 0.05, y + size * 0.55),
            (c + size * 0.05, y + size * 0.55),
            (c + size * 0.2, y + size),
            (c - size * 0.2, y + size),
        ],
        fill=fill,
    )


def star(
    draw: ImageDraw.ImageDraw,
    cx: float,
    cy: float,
    r: float,
    fill: RGB,
    outline: RGB | None = None,
    width: int = 0,
) -> None:
    """A five-pointed star: the joker's emblem."""
    pts = []
    for k in range(10):
        rad = r if k % 2 == 0 else r * 0.45
        a = -math.pi / 2 + k * math.pi / 5
        pts.append((cx + rad * math.cos(a), cy + rad * math.sin(a)))
    draw.polygon(pts, fill=fill, outline=outline, width=width)


def robot(draw: ImageDraw.ImageDraw, x: float, y: float, size: float, fill: RGB, eyes: RGB) -> None:
    """A robot head: stands in for the 🤖 emoji, which the bundled font lacks."""
    s = size
    draw.line(
        (x + s * 0.5, y + s * 0.08, x + s * 0.5, y + s * 0.3),
        fill=fill,
        width=max(1, round(s * 0.08)),
    )
    draw.ellipse((x + s * 0.42, y, x + s * 0.58, y + s * 0.16), fill=fill)
    draw.rounded_rectangle(
        (x + s * 0.1, y + s * 0.26, x + s * 0.9, y + s * 0.92), radius=s * 0.16, fill=fill
    )
    draw.rectangle((x, y + s * 0.48, x + s * 0.1, y + s * 0.72), fill=fill)
    draw.rectangle((x + s * 0.9, y + s * 0.48, x + s, y + s * 0.72), fill=fill)
    for ex in (0.33, 0.67):
        draw.ellipse(
            (x + s * (ex - 0.1), y + s * 0.44, x + s * (ex + 0.1), y + s * 0.64), fill=eyes
        )
    draw.rectangle((x + s * 0.32, y + s * 0.76, x + s * 0.68, y + s * 0.82), fill=eyes)


def tick(
    draw: ImageDraw.ImageDraw, x: float, y: float, size: float, fill: RGB, width: float
) -> None:
    draw.line(
        [
            (x + size * 0.12, y + size * 0.52),
            (x + size * 0.4, y + size * 0.8),
            (x + size * 0.88, y + size * 0.22),
        ],
        fill=fill,
        width=round(width),
        joint="curve",
    )


def crown(draw: ImageDraw.ImageDraw, x: float, y: float, size: float, fill: RGB) -> None:
    s = size
    draw.polygon(
        [
            (x, y + s * 0.3),
            (x + s * 0.27, y + s * 0.55),
            (x + s * 0.5, y + s * 0.1),
            (x + s * 0.73, y + s * 0.55),
            (x + s, y + s * 0.3),
            (x + s * 0.88, y + s * 0.85),
            (x + s * 0.12, y + s * 0.85),
        ],
        fill=fill,
    )
    for cx in (0.0, 0.5, 1.0):
        r = s * 0.08
        cy = y + (s * 0.1 if cx == 0.5 else s * 0.3)
        draw.ellipse((x + cx * s - r, cy - r, x + cx * s + r, cy + r), fill=fill)


def marker(draw: ImageDraw.ImageDraw, kind: int, cx: float, cy: float, r: float, fill: RGB) -> None:
    """Chart markers: a different shape per series, so lines differ by more than colour."""
    k = kind % 6
    if k == 0:
        draw.ellipse((cx - r, cy - r, cx + r, cy + r), fill=fill)
    elif k == 1:
        draw.rectangle((cx - r * 0.85, cy - r * 0.85, cx + r * 0.85, cy + r * 0.85), fill=fill)
    elif k == 2:
        draw.polygon(
            [(cx, cy - r * 1.1), (cx + r, cy + r * 0.8), (cx - r, cy + r * 0.8)], fill=fill
        )
    elif k == 3:
        draw.polygon(
            [(cx, cy - r * 1.15), (cx + r * 1.15, cy), (cx, cy + r * 1.15), (cx - r * 1.15, cy)],
            fill=fill,
        )
    elif k == 4:
        star(draw, cx, cy, r * 1.3, fill)
    else:
        draw.polygon(
            [(cx - r, cy - r * 0.8), (cx + r, cy - r * 0.8), (cx, cy + r * 1.1)], fill=fill
        )


def supersampled(
    width: int,
    height: int,
    paint: Callable[[ImageDraw.ImageDraw, int], None],
    background: tuple[int, int, int, int] = (0, 0, 0, 0),
) -> Image.Image:
    """An RGBA image of (width, height): `paint(draw, SS)` draws at SS times the size."""
    big = Image.new("RGBA", (width * SS, height * SS), background)
    paint(ImageDraw.Draw(big), SS)
    return big.reduce(SS)


@lru_cache(maxsize=256)
def icon(kind: str, size: int, fill: RGB, extra: RGB = (255, 255, 255)) -> Image.Image:
    """A small cached RGBA icon: 'robot', 'crown', 'star', 'tick' or a suit letter."""

    def paint(draw: ImageDraw.ImageDraw, ss: int) -> None:
        s = size * ss
        if kind == "robot":
            robot(draw, 0, 0, s, fill, extra)
        elif kind == "crown":
            crown(draw, 0, 0, s, fill)
        elif kind == "star":
            star(draw, s / 2, s / 2 + s * 0.04, s / 2, fill)
        elif kind == "tick":
            tick(draw, 0, 0, s, fill, s * 0.16)
        else:
            suit(draw, kind, 0, 0, s, fill)

    return supersampled(size, size, paint)
