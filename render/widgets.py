"""Drawing pieces shared by the renderers: text (with the robot icon), trays, tabs, outlines,
cards, seat chips, the legend."""

from __future__ import annotations

from collections.abc import Sequence

from PIL import Image, ImageDraw

from . import palette as pal
from .fonts import ROBOT, Font, clean, font, right_to_left, text_length, text_mask
from .layout import (
    LEGEND_H,
    LEGEND_TEXT,
    TAB_FONT,
    TEXT_PX,
    Box,
    CardSpot,
    GroupSpot,
    Layout,
    Panel,
    legend_rows,
)
from .palette import RGB
from .shapes import icon
from .sprites import Size, card_back, card_sprite
from .tiles import tile_back
from .views import ENGLISH, PictureWords

ELLIPSIS = "…"


class Canvas:
    """An RGB image plus its ImageDraw, with the few operations the renderers need."""

    def __init__(
        self, width: int, height: int, ground: RGB = pal.FELT, rtl: bool = False
    ) -> None:
        self.image = Image.new("RGB", (width, height), ground)
        self.draw = ImageDraw.Draw(self.image)
        self.rtl = rtl  # lines holding Hebrew are laid out right to left

    # text ----------------------------------------------------------------------------------
    def text_width(self, text: str, f: Font) -> int:
        return text_width(text, f)

    def text(
        self,
        x: float,
        y: float,
        text: str,
        f: Font,
        fill: RGB,
        max_width: float | None = None,
        align: str = "left",
        robot_eyes: RGB = pal.FELT,
    ) -> int:
        """Draw one line with its vertical middle at y; returns the drawn width. Text wider
        than max_width is cut with an ellipsis."""
        segments = clean(text)
        if max_width is not None:
            segments = _fit(segments, f, max_width)
        if self.rtl:  # after the cut: the ellipsis stays at the end a reader reaches last
            segments = right_to_left(segments)
        width = _width(segments, f)
        if align == "center":
            x -= width / 2
        elif align == "right":
            x -= width
        for seg in segments:
            if seg == ROBOT:
                size = round(f.size * 0.95)
                robot = icon("robot", size, fill, robot_eyes)
                self.image.paste(robot, (round(x), round(y - size / 2 - 1)), robot)
                x += size + _space(f)
            else:
                mask, left, top = text_mask(seg, f)
                self.image.paste(fill, (round(x) + left, round(y) + top), mask)
                x += text_length(seg, f) + _space(f)
        return width

    # shapes --------------------------------------------------------------------------------
    def tray(self, box: Box, fill: RGB = pal.TRAY, radius: int = 8) -> None:
        self.draw.rounded_rectangle(_inclusive(box), radius, fill=fill)

    def outline(
        self,
        box: Box,
        color: RGB,
        width: int = 3,
        dashed: bool = False,
        grow: int = 0,
        radius: int = 8,
    ) -> None:
        x0, y0, x1, y1 = box[0] - grow, box[1] - grow, box[2] + grow, box[3] + grow
        if not dashed:
            self.draw.rounded_rectangle(
                (x0, y0, x1 - 1, y1 - 1), radius + grow, outline=color, width=width
            )
            return
        dash, space = 10, 6
        for a, b, horizontal, fixed in (
            (x0, x1, True, y0),
            (x0, x1, True, y1 - width),
            (y0, y1, False, x0),
            (y0, y1, False, x1 - width),
        ):
            pos = a
            while pos < b:
                end = min(pos + dash, b)
                if horizontal:
                    self.draw.rectangle((pos, fixed, end - 1, fixed + width - 1), fill=color)
                else:
                    self.draw.rectangle((fixed, pos, fixed + width - 1, end - 1), fill=color)
                pos += dash + space

    def tab(self, box: Box, label: str, fill: RGB, ink: RGB) -> None:
        x0, y0, x1, y1 = box
        self.draw.rounded_rectangle(
            (x0, y0, x1 - 1, y1 + 4), 7, fill=fill, corners=(True, True, False, False)
        )
        self.text(
            (x0 + x1) / 2,
            (y0 + y1) / 2 + 1,
            label,
            font(TAB_FONT),
            ink,
            align="center",
            max_width=x1 - x0 - 6,
            robot_eyes=fill,
        )

    def card(self, spot: CardSpot, four_color: bool) -> None:
        sprite = card_sprite(spot.card, spot.look, spot.size, four_color)
        self.image.paste(sprite, spot.box[:2], sprite)

    def paste(self, sprite: Image.Image, x: float, y: float) -> None:
        self.image.paste(sprite, (round(x), round(y)), sprite)


def text_width(text: str, f: Font) -> int:
    """The drawn width of one line of text (after `clean`)."""
    return _width(clean(text), f)


def _inclusive(box: Box) -> tuple[int, int, int, int]:
    return (box[0], box[1], box[2] - 1, box[3] - 1)


def _space(f: Font) -> float:
    return f.size * 0.3


def _width(segments: Sequence[str], f: Font) -> int:
    total = 0.0
    for k, seg in enumerate(segments):
        total += round(f.size * 0.95) if seg == ROBOT else text_length(seg, f)
        if k:
            total += _space(f)
    return round(total)


def _fit(segments: tuple[str, ...], f: Font, max_width: float) -> tuple[str, ...]:
    if _width(segments, f) <= max_width:
        return segments
    segs = list(segments)
    while segs:
        last = segs[-1]
        if last == ROBOT or len(last) <= 1:
            segs.pop()
            if segs and segs[-1] != ROBOT:
                segs[-1] = segs[-1] + ELLIPSIS
            if _width(segs, f) <= max_width:
                break
            continue
        segs[-1] = last[:-2].rstrip() + ELLIPSIS
        if _width(segs, f) <= max_width:
            break
    return tuple(segs)


# --------------------------------------------------------------------------------------------
# Pieces of the table and the draft

MARK_ORDER = ("invalid", "hint", "changed")
MARK_COLOR = {"changed": pal.CHANGED, "invalid": pal.INVALID, "hint": pal.HINT}


def draw_group(canvas: Canvas, group: GroupSpot) -> None:
    """A group's tray with its letter tab; marks as outlines (invalid dashed) and in the tab."""
    marks = [m for m in MARK_ORDER if m in group.marks]
    if "invalid" in marks and "changed" in marks:
        marks.remove("changed")  # a group that is not valid has changed; one outline says it
    for tray in group.trays:
        canvas.tray(tray)
        for k, mark in enumerate(marks):
            canvas.outline(tray, MARK_COLOR[mark], 3, dashed=mark == "invalid", grow=k * 4)
    if marks:
        canvas.tab(group.tab, group.text, MARK_COLOR[marks[0]], pal.INK)
    else:
        canvas.tab(group.tab, group.text, pal.TAB, pal.WHITE)


PANEL_STYLE: dict[str, tuple[RGB, RGB, RGB | None]] = {
    # kind: (tray, tab, outline)
    "singles": (pal.TRAY, pal.TAB, None),
    "loose": (pal.TRAY, pal.LOOSE, pal.LOOSE),
    "hand": (pal.CHIP, pal.TAB, None),
}


def draw_panel(canvas: Canvas, panel: Panel, first: bool) -> None:
    tray_fill, tab_fill, outline = PANEL_STYLE[panel.kind]
    canvas.tray(panel.tray, tray_fill)
    if outline:
        canvas.outline(panel.tray, outline, 3, dashed=True)
    if first:
        ink = pal.INK if panel.kind == "loose" else pal.WHITE
        canvas.tab(panel.tab, panel.label, tab_fill, ink)


def draw_area(canvas: Canvas, layout: Layout, four_color: bool) -> None:
    """Trays, tabs and every card of the layout."""
    seen: set[str] = set()
    for panel in layout.panels:
        draw_panel(canvas, panel, panel.kind not in seen)
        seen.add(panel.kind)
    for group in layout.groups:
        draw_group(canvas, group)
    for spot in layout.cards:
        canvas.card(spot, four_color)


def draw_empty(canvas: Canvas, box: Box, text: str) -> None:
    canvas.tray(box)
    canvas.text(
        (box[0] + box[2]) / 2,
        (box[1] + box[3]) / 2,
        text,
        font(TEXT_PX, bold=False),
        pal.MUTED,
        align="center",
        robot_eyes=pal.TRAY,
    )


STOCK_CARD = Size(24, 34)


def piece_back(size: Size, tiles: bool) -> Image.Image:
    """A face-down piece: a card back, or a tile for a tile game."""
    return tile_back(size) if tiles else card_back(size)


def draw_stock(canvas: Canvas, box: Box, count: int, tiles: bool = False) -> None:
    """The stock as a card back (a tile game's pool: a tile) with the number left beside it;
    an empty stock is an outline where the pile was."""
    f = font(24)
    text = str(count)
    right = box[2]
    tw = text_length(text, f)
    y_mid = (box[1] + box[3]) / 2
    x = right - tw - 8 - STOCK_CARD.w
    if count:
        canvas.paste(piece_back(STOCK_CARD, tiles), x, y_mid - STOCK_CARD.h / 2)
    else:
        top = round(y_mid - STOCK_CARD.h / 2)
        canvas.draw.rounded_rectangle(
            (x, top, x + STOCK_CARD.w - 1, top + STOCK_CARD.h - 1), 4, outline=pal.MUTED, width=2
        )
    canvas.text(right, y_mid, text, f, pal.WHITE if count else pal.MUTED, align="right")


def stock_width(count: int) -> int:
    return round(text_length(str(count), font(24))) + 8 + STOCK_CARD.w


def draw_legend(
    canvas: Canvas, box: Box, marks: Sequence[str], words: PictureWords = ENGLISH
) -> None:
    """A key for the marks in use, so a first-time player needs no help text."""
    f = font(TEXT_PX, bold=False)
    for row, line in enumerate(legend_rows(marks, words)):
        top = box[1] + row * LEGEND_H
        _legend_row(canvas, (box[0], top, box[2], top + LEGEND_H), line, words, f)


def _legend_row(
    canvas: Canvas, box: Box, marks: Sequence[str], words: PictureWords, f: Font
) -> None:
    rtl = canvas.rtl  # right to left: from the right edge, each swatch right of its word
    used = 0  # the width the row has taken so far
    y0, y1 = box[1] + 3, box[3] - 3
    mid = (box[1] + box[3]) / 2
    for mark in marks:
        text = getattr(words, mark, LEGEND_TEXT[mark])
        x = box[2] - used - 24 if rtl else box[0] + used  # the swatch's left edge
        if mark == "placed":
            canvas.draw.rounded_rectangle((x, y0, x + 17, y1 - 1), 3, fill=pal.PLACED)
            canvas.draw.polygon([(x + 10, y0), (x + 17, y0), (x + 17, y0 + 7)], fill=pal.EAR)
        else:
            canvas.tray((x, y0, x + 24, y1), radius=4)
            canvas.outline(
                (x, y0, x + 24, y1), MARK_COLOR[mark], 3, dashed=mark == "invalid", radius=4
            )
        if rtl:
            used += 32 + canvas.text(x - 8, mid, text, f, pal.WHITE, align="right") + 22
        else:
            used += 32 + canvas.text(x + 32, mid, text, f, pal.WHITE) + 22
