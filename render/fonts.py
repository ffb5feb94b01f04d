"""The bundled DejaVu Sans fonts, and text made safe for them.

Names come from chat apps and may hold emoji or scripts DejaVu cannot draw; FreeType would draw
an empty box for each. `clean` keeps what the font has, turns the robot emoji into a token the
drawing code replaces by a small robot shape, drops other symbols and emoji, and turns letters of
scripts the font lacks into "?" so a name never vanishes silently.
"""

from __future__ import annotations

import unicodedata
from functools import cache, lru_cache
from pathlib import Path

from PIL import Image, ImageDraw, ImageFont, features

FONT_DIR = Path(__file__).parent / "fonts"
ROBOT = "\x00robot"  # a segment drawn as the robot shape
_ROBOT_EMOJI = "🤖"

Font = ImageFont.FreeTypeFont


@cache
def font(size: int, bold: bool = True) -> Font:
    name = "DejaVuSans-Bold.ttf" if bold else "DejaVuSans.ttf"
    return ImageFont.truetype(str(FONT_DIR / name), size)


@cache
def _notdef_mask() -> bytes:
    return bytes(font(24).getmask("\U0010fffd"))


@lru_cache(maxsize=4096)
def has_glyph(char: str) -> bool:
    """True when DejaVu draws this character (a missing one renders as the .notdef box)."""
    if char == " ":
        return True
    return bytes(font(24).getmask(char)) != _notdef_mask()


@lru_cache(maxsize=1024)
def clean(text: str) -> tuple[str, ...]:
    """Split text into drawable segments: plain strings, and `ROBOT` for the robot emoji."""
    segments: list[str] = []
    buf: list[str] = []
    for char in text:
        if char == _ROBOT_EMOJI:
            if buf:
                segments.append("".join(buf))
                buf = []
            segments.append(ROBOT)
        elif unicodedata.category(char) == "Zs":
            buf.append(" ")  # no-break and other spaces
        elif unicodedata.category(char)[0] in "CZ":
            continue  # joiners, variation selectors, controls, line breaks
        elif has_glyph(char):
            buf.append(char)
        elif unicodedata.category(char)[0] in "LN":
            buf.append("?")
        # other missing characters (emoji, pictographs) are dropped
    if buf:
        segments.append("".join(buf))
    # "🤖 Computer": keep one space between the icon and the text, never a leading one
    return tuple(s.strip() if s != ROBOT else s for s in segments if s == ROBOT or s.strip())


RAQM = features.check("raqm")  # Pillow's wheels bring libraqm (bidi and shaping)


def has_rtl(text: str) -> bool:
    """Holds Hebrew (or another right-to-left script)."""
    return any(unicodedata.bidirectional(ch) in ("R", "AL") for ch in text)


def _direction(text: str) -> str | None:
    return "rtl" if RAQM and has_rtl(text) else None


def visual_order(text: str) -> str:
    """Without raqm, a right-to-left line in drawing order: runs of Hebrew reversed, the runs
    placed right to left, numbers and Latin words (cards, names) kept as they read."""
    runs: list[list[str]] = []
    kinds: list[bool] = []
    for ch in text:
        rtl = unicodedata.bidirectional(ch) in ("R", "AL")
        neutral = not rtl and unicodedata.bidirectional(ch) in ("WS", "ON", "CS")
        kind = kinds[-1] if neutral and kinds else rtl
        if not kinds or kinds[-1] != kind:
            runs.append([])
            kinds.append(kind)
        runs[-1].append(ch)
    parts = ["".join(reversed(r)) if k else "".join(r) for r, k in zip(runs, kinds, strict=True)]
    return "".join(reversed(parts))


def right_to_left(segments: tuple[str, ...]) -> tuple[str, ...]:
    """A line's segments for a right-to-left reader: the icon and the words swap sides when
    the line holds Hebrew; without raqm each segment is put in drawing order by hand."""
    if not any(s != ROBOT and has_rtl(s) for s in segments):
        return segments
    if not RAQM:
        segments = tuple(s if s == ROBOT else visual_order(s) for s in segments)
    return tuple(reversed(segments))


@lru_cache(maxsize=8192)
def text_length(text: str, f: Font) -> float:
    """Cached: measuring is the costliest part of laying out a big table."""
    return f.getlength(text, direction=_direction(text))


@lru_cache(maxsize=4096)
def text_mask(text: str, f: Font) -> tuple[Image.Image, int, int]:
    """The antialiased coverage of `text` and its offset from the left-middle anchor. Labels
    repeat from render to render, so each is rasterized once and then only pasted."""
    direction = _direction(text)
    left, top, right, bottom = f.getbbox(text, anchor="lm", direction=direction)
    mask = Image.new("L", (max(1, right - left), max(1, bottom - top)), 0)
    ImageDraw.Draw(mask).text(
        (-left, -top), text, font=f, fill=255, anchor="lm", direction=direction
    )
    return mask, left, top
