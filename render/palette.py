"""Colours, the two suit schemes, and PNG output through one fixed palette.

Every image is drawn in RGB (antialiased), then mapped onto one fixed palette and saved as an
8-bit PNG. A fixed palette instead of an adaptive one: mapping is a table lookup (~2-3 ms for a
large table, where adaptive quantizing costs ~10 ms), files are 2-3x smaller than RGB ones, and
a pixel's output colour depends only on its input colour, so tests can compare a crop of the
output with a sprite mapped the same way.
"""

from __future__ import annotations

import io
from functools import cache

from PIL import Image

RGB = tuple[int, int, int]

# Felt and chrome
FELT: RGB = (27, 88, 60)
TRAY: RGB = (19, 68, 45)
CHIP: RGB = (16, 57, 38)
TAB: RGB = (44, 120, 84)
WHITE: RGB = (255, 255, 255)
MUTED: RGB = (178, 214, 193)  # secondary text on felt
INK: RGB = (22, 22, 22)  # dark text on light panels
GREY: RGB = (120, 128, 124)
LIGHT: RGB = (236, 240, 237)  # light panels (score table rows)

# Marks. Each is told apart by more than hue (solid / dashed outline, "!" in the tab, a star),
# so colour-blind players lose nothing.
CHANGED: RGB = (255, 206, 64)  # amber: groups touched by the last move, or changed in the draft
INVALID: RGB = (255, 82, 82)  # red, dashed: draft groups that are not valid yet
HINT: RGB = (64, 210, 255)  # cyan: the hint card and the groups its move changes
SELECTED: RGB = (30, 110, 230)  # blue: selected cards
LOOSE: RGB = (255, 150, 60)  # orange, dashed: table cards waiting to be placed

# Card faces
CARD: RGB = (255, 255, 255)
CARD_EDGE: RGB = (140, 148, 144)
PLACED: RGB = (255, 240, 176)  # cream: a card from your hand now in the draft
EAR: RGB = (224, 138, 0)  # the dog-ear on placed cards
JOKER: RGB = (126, 63, 194)  # purple frame of a joker
JOKER_BG: RGB = (241, 232, 255)
GOLD: RGB = (245, 180, 0)
BACK: RGB = (36, 72, 164)  # card backs (stock, cards in hand)
BACK_LINE: RGB = (90, 130, 214)

SPADE: RGB = (20, 20, 20)
RED: RGB = (210, 24, 38)
BLUE: RGB = (22, 86, 214)
GREEN: RGB = (14, 128, 56)

# Chart series: Okabe-Ito colours (safe for the common colour-vision deficiencies); every series
# also gets its own marker shape.
SERIES: tuple[RGB, ...] = (
    (0, 114, 178),
    (213, 94, 0),
    (0, 158, 115),
    (204, 121, 167),
    (230, 159, 0),
    (86, 180, 233),
)


def suit_color(suit: str, four_color: bool) -> RGB:
    """Two-colour deck: black spades/clubs, red hearts/diamonds; four-colour adds blue diamonds
    and green clubs."""
    if suit == "H":
        return RED
    if suit == "D":
        return BLUE if four_color else RED
    if suit == "C":
        return GREEN if four_color else SPADE
    return SPADE


# (inks, grounds, steps): each ink gets `steps` blend colours towards each ground it is drawn on.
# Only antialiased things blend (supersampled shapes and text); plain ImageDraw outlines don't.
_BLENDS: tuple[tuple[tuple[RGB, ...], tuple[RGB, ...], int], ...] = (
    ((SPADE, RED, BLUE, GREEN, JOKER, CARD_EDGE), (CARD, PLACED, JOKER_BG), 3),
    ((GOLD, EAR, HINT, SELECTED), (CARD, PLACED, JOKER_BG, JOKER), 2),
    ((CARD, CARD_EDGE, JOKER, HINT, SELECTED, EAR, BACK), (TRAY, CHIP, FELT), 2),
    ((WHITE, MUTED), (FELT, TRAY, CHIP, TAB, SELECTED), 3),
    ((INK,), (CHANGED, HINT, INVALID, LOOSE, WHITE, LIGHT), 3),
    ((BACK_LINE, CARD), (BACK,), 2),
    ((GREY, *SERIES, INVALID, GOLD), (WHITE,), 3),
    ((GREY,), (LIGHT,), 2),
)


def _ramp(ink: RGB, ground: RGB, steps: int) -> list[RGB]:
    """Colours between ink and ground: the edge pixels of antialiased shapes and text."""
    return [
        tuple(round(g + (i - g) * k / (steps + 1)) for i, g in zip(ink, ground, strict=True))
        for k in range(1, steps + 1)
    ]  # type: ignore[misc]


@cache
def palette_image() -> Image.Image:
    """The fixed palette: every colour above plus ramps for each ink on each ground it is
    drawn on."""
    colors: list[RGB] = []
    for inks, grounds, steps in _BLENDS:
        for ground in grounds:
            colors.append(ground)
            for ink in inks:
                colors.append(ink)
                colors.extend(_ramp(ink, ground, steps))
    unique = list(dict.fromkeys(colors))
    if len(unique) > 256:
        raise RuntimeError(f"palette has {len(unique)} colours, at most 256 fit")
    flat = [v for color in unique for v in color]
    image = Image.new("P", (1, 1))
    image.putpalette(flat + flat[:3] * (256 - len(unique)))
    return image


def quantize(image: Image.Image) -> Image.Image:
    """RGB -> the fixed palette, nearest colour, no dithering (dithering adds noise that costs
    bytes and blurs small text)."""
    if image.mode != "RGB":  # convert() would copy an RGB image for nothing (~2 ms)
        image = image.convert("RGB")
    return image.quantize(palette=palette_image(), dither=Image.Dither.NONE)


def to_png(image: Image.Image, optimize: bool = False) -> bytes:
    """PNG bytes of the palette-mapped image.

    zlib level 3 by default: a 100-card table encodes in ~5 ms at ~47 KB, where optimize=True
    (level 9) takes ~70 ms for ~34 KB. Tables and hands are drawn on every move, so they take
    the fast setting; rare pictures (scores, lobby) pass optimize=True.
    """
    out = io.BytesIO()
    if optimize:
        quantize(image).save(out, "PNG", optimize=True)
    else:
        quantize(image).save(out, "PNG", compress_level=3)
    return out.getvalue()
