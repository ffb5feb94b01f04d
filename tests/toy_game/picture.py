"""Race's picture: the track from 0 to the target, its cells filled up to the total (Pillow,
pure: numbers in, PNG bytes out)."""

from __future__ import annotations

import io

from PIL import Image, ImageDraw

CELL, GAP, PAD = 28, 4, 10
FILLED, EMPTY, GOAL, BACK = (31, 99, 184), (230, 224, 210), (179, 127, 0), (244, 241, 234)


def race_png(total: int, target: int) -> bytes:
    """`target` cells in a row, the first `total` filled, the last one the goal's colour."""
    width = PAD * 2 + target * CELL + (target - 1) * GAP
    image = Image.new("RGB", (width, PAD * 2 + CELL), BACK)
    draw = ImageDraw.Draw(image)
    for i in range(target):
        x = PAD + i * (CELL + GAP)
        colour = FILLED if i < total else GOAL if i == target - 1 else EMPTY
        draw.rounded_rectangle((x, PAD, x + CELL, PAD + CELL), 5, fill=colour)
    out = io.BytesIO()
    image.save(out, "PNG", optimize=True)
    return out.getvalue()
