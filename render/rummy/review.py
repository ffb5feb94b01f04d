"""The post-round review as a picture (issue 32): a strip per missed turn — what the seat did
(the cards it laid, cream with a dog-ear), then the groups the better lay makes or changes,
outlined cyan with the cards it would have laid from the hand marked.

Built from a `ReviewView` of card tokens and words only (bot/games/rummy/review.py makes it
from the seat's own views), so nothing the seat couldn't see can reach the picture. Pure.
"""

from __future__ import annotations

from dataclasses import dataclass

from engine.rummy.tiles import piece_from_token
from render import palette as pal
from render.fonts import font
from render.layout import MARGIN, TEXT_PX, WIDTH
from render.looks import Look, Size
from render.sprites import card_sprite
from render.widgets import Canvas

CARD = Size(44, 62)  # on a phone (400 px) 22 × 31: still one rank over one suit
GAP = 3
GROUP_GAP = 14
PAD = 5
LINE = 32
TAB = 24


@dataclass(frozen=True)
class ReviewStrip:
    title: str  # "Turn 4: you drew"
    better: str  # "3 could have gone"
    placed: tuple[str, ...]  # the hand cards laid that turn (tokens)
    lay: tuple[tuple[str, ...], ...]  # the better lay's new or changed groups (tokens)
    labels: tuple[str, ...]  # their letters on the table after the lay
    mine: tuple[str, ...]  # the hand cards the better lay lays (tokens)


@dataclass(frozen=True)
class ReviewView:
    title: str
    summary: str
    strips: tuple[ReviewStrip, ...]
    perfect: str = ""  # "Every turn was the best move ✓" (no strips)
    more: str = ""  # "…and 2 more missed turns in the text"
    you_laid: str = "you laid"
    rtl: bool = False
    tiles: bool = False


def _chunks(groups: tuple[tuple[str, ...], ...], labels: tuple[str, ...], width: int
            ) -> tuple[tuple[tuple[str, ...], ...], tuple[str, ...]]:
    """Groups too long for one row cut into rows (a 20-card lay stays inside the picture)."""
    most = max(1, (width - 2 * PAD + GAP) // (CARD.w + GAP))
    out, names = [], []
    for g, label in zip(groups, labels, strict=True):
        for i in range(0, len(g), most):
            out.append(g[i : i + most])
            names.append(label)
    return tuple(out), tuple(names)


def _rows(groups: tuple[tuple[str, ...], ...], width: int) -> list[list[int]]:
    """Groups packed into rows of at most `width` px (a group wider than a row gets its own)."""
    rows: list[list[int]] = [[]]
    used = 0
    for i, g in enumerate(groups):
        w = _group_width(len(g))
        if rows[-1] and used + GROUP_GAP + w > width:
            rows.append([])
            used = 0
        used += (GROUP_GAP if rows[-1] else 0) + w
        rows[-1].append(i)
    return rows if rows[0] else []


def _group_width(n: int) -> int:
    return 2 * PAD + n * CARD.w + max(0, n - 1) * GAP


def _strip_height(strip: ReviewStrip, inner: int) -> int:
    width = inner - 20
    lay, _labels = _chunks(strip.lay, strip.labels, width)
    placed, _l = _chunks((strip.placed,), ("",), width) if strip.placed else ((), ())
    rows = len(_rows(lay, width)) + len(placed)
    return 2 * LINE + rows * (TAB + CARD.h + 2 * PAD + 8) + 12


def draw_review(view: ReviewView):
    inner = WIDTH - 2 * MARGIN
    height = MARGIN + 2 * LINE + sum(_strip_height(s, inner) + 10 for s in view.strips)
    height += LINE * (bool(view.perfect) + bool(view.more)) + MARGIN
    canvas = Canvas(WIDTH, height + 200, rtl=view.rtl)  # cropped to what was drawn
    start = WIDTH - MARGIN if view.rtl else MARGIN
    align = "right" if view.rtl else "left"
    y = MARGIN + LINE / 2
    canvas.text(start, y, view.title, font(26), pal.WHITE, max_width=inner, align=align)
    y += LINE
    canvas.text(start, y, view.summary, font(TEXT_PX), pal.MUTED, max_width=inner, align=align)
    y += LINE / 2 + 6
    for strip in view.strips:
        h = _strip_height(strip, inner)
        canvas.tray((MARGIN, y, WIDTH - MARGIN, y + h), pal.CHIP, radius=10)
        _draw_strip(canvas, strip, view, y, inner)
        y += h + 10
    for line in (view.perfect, view.more):
        if line:
            canvas.text(start, y + LINE / 2, line, font(TEXT_PX), pal.WHITE, max_width=inner,
                        align=align)
            y += LINE
    return canvas.image.crop((0, 0, WIDTH, round(y) + MARGIN))


def _draw_strip(canvas: Canvas, strip: ReviewStrip, view: ReviewView, y: float,
                inner: int) -> float:
    pad_x = MARGIN + 10
    width = inner - 20
    start = WIDTH - pad_x if view.rtl else pad_x
    align = "right" if view.rtl else "left"
    canvas.text(start, y + LINE / 2 + 4, strip.title, font(TEXT_PX), pal.WHITE,
                max_width=width, align=align)
    y += LINE + 4
    if strip.placed:
        placed, _labels = _chunks((strip.placed,), (view.you_laid,), width)
        for part in placed:
            y = _draw_row(canvas, [(view.you_laid, part, None)], y, width, view, pad_x)
    canvas.text(start, y + LINE / 2, strip.better, font(TEXT_PX), pal.HINT, max_width=width,
                align=align)
    y += LINE
    mine = set(strip.mine)
    lay, labels = _chunks(strip.lay, strip.labels, width)
    for row in _rows(lay, width):
        y = _draw_row(canvas, [(labels[i], lay[i], mine) for i in row], y, width, view, pad_x)
    return y + 12


def _draw_row(canvas: Canvas, groups, y: float, width: int, view: ReviewView,
              pad_x: int) -> float:
    """One row of trays with their tabs; `mine` (None: the lay made) marks the hand's cards
    and outlines the tray cyan."""
    x = pad_x
    total = sum(_group_width(len(cards)) for _, cards, _m in groups) \
        + GROUP_GAP * (len(groups) - 1)
    if view.rtl:
        x = pad_x + width - total
    top = y + TAB
    for label, cards, mine in groups:
        w = _group_width(len(cards))
        box = (x, top, x + w, top + CARD.h + 2 * PAD)
        canvas.tray(box)
        tab_w = max(34, canvas.text_width(label, font(TEXT_PX)) + 14)
        tab = (x, y + 2, x + min(max(w, tab_w), width), top)
        if mine is not None:
            canvas.outline(box, pal.HINT, 3)
            canvas.tab(tab, label, pal.HINT, pal.INK)
        else:
            canvas.tab(tab, label, pal.TAB, pal.WHITE)
        cx = x + PAD
        for token in cards:
            placed = mine is None or token in mine
            sprite = card_sprite(piece_from_token(token), Look(placed=placed), CARD)
            canvas.paste(sprite, cx, top + PAD)
            cx += CARD.w + GAP
        x += w + GROUP_GAP
    return top + CARD.h + 2 * PAD + 8


def render_review(view: ReviewView) -> bytes:
    """The review as PNG bytes."""
    return pal.to_png(draw_review(view))


__all__ = ["ReviewStrip", "ReviewView", "draw_review", "render_review"]
