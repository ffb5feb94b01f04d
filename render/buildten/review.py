"""Build-to-Ten's review as a picture (issue 32, UX.md §10), like the rummy family's
(render/rummy/review.py): a summary, then a strip per missed turn — what the seat did (the cards
it built, cream with a dog-ear, and its discard), the build piles and its own cards as it saw
them (its face-up stock card, its hand, its discard-pile tops and the cards under them the
better move reaches; the ones that could still have gone outlined cyan), then the better move:
for each build pile it reaches, the pile's top and the cards that could have gone onto it, in a
cyan tray.

Built from a `BuildReviewView` of card faces and words only (bot/games/buildten/review.py makes
it from the seat's own views), so nothing the seat couldn't see can reach the picture. Pure.
"""

from __future__ import annotations

from dataclasses import dataclass

from render import palette as pal
from render.fonts import font
from render.layout import TEXT_PX
from render.looks import Look, Size
from render.widgets import Canvas

from . import _draw_card, _empty_slot

WIDTH = 800
MARGIN = 16
CARD = Size(44, 62)  # on a phone (400 px) 22 × 31: one rank over one suit, as rummy's review
GAP = 3
GROUP_GAP = 14
PAD = 5
LINE = 32
TAB = 24
NEEDS_W = 34  # a build pile's "needs" number beside its top card
ROW_H = TAB + CARD.h + 2 * PAD + 8
STRIP_PAD = 10


@dataclass(frozen=True)
class Group:
    """Cards in a tray under a tab. `kind`: "seen" (as the seat saw them; `marked` cards could
    have gone: outlined cyan), "made" (what the seat did: cream), "better" (the better move:
    cyan tray; `marked` cards are the ones that would go, cream). `needs`: a build pile's next
    number, drawn beside its top (an empty place: a dashed slot and "A")."""

    label: str
    cards: tuple[str, ...]  # faces: `7H`, `QS`, `SHIFT`
    kind: str = "seen"
    marked: tuple[int, ...] = ()
    needs: int | None = None


@dataclass(frozen=True)
class BuildReviewStrip:
    title: str  # "Turn 4: you built 2 cards · you discarded"
    made: tuple[Group, ...]  # [you built …] [you discarded …]
    seen: tuple[tuple[Group, ...], ...]  # rows: the build piles; the seat's own cards
    better: str  # "5 could have gone"
    moves: tuple[Group, ...]  # a tray per build pile the better move reaches


@dataclass(frozen=True)
class BuildReviewView:
    title: str
    summary: tuple[str, ...]  # its parts ("13 turns", "12 missed", …), wrapped to the width
    strips: tuple[BuildReviewStrip, ...]
    perfect: str = ""  # "Every turn was the best move ✓" (no strips)
    more: str = ""  # "…and 2 more missed turns in the text"
    rtl: bool = False


def _tray_width(group: Group) -> int:
    n = max(1, len(group.cards))
    w = 2 * PAD + n * CARD.w + (n - 1) * GAP
    return w + NEEDS_W if group.needs is not None else w


def _group_width(canvas: Canvas, group: Group) -> int:
    return max(_tray_width(group), _tab_width(canvas, group.label))


def _tab_width(canvas: Canvas, label: str) -> int:
    return max(34, canvas.text_width(label, font(TEXT_PX)) + 14)


def _pack(canvas: Canvas, groups: tuple[Group, ...], width: int) -> list[list[Group]]:
    """Groups packed into rows of at most `width` px (a group wider than a row: its own)."""
    rows: list[list[Group]] = []
    used = 0
    for g in groups:
        w = _group_width(canvas, g)
        if rows and rows[-1] and used + GROUP_GAP + w <= width:
            rows[-1].append(g)
            used += GROUP_GAP + w
        else:
            rows.append([g])
            used = w
    return rows


def _split(group: Group, width: int) -> tuple[Group, ...]:
    """A group with more cards than a row holds, cut into rows (its tab on each)."""
    extra = NEEDS_W if group.needs is not None else 0
    most = max(1, (width - 2 * PAD - extra + GAP) // (CARD.w + GAP))
    if len(group.cards) <= most:
        return (group,)
    out = []
    for i in range(0, len(group.cards), most):
        marked = tuple(k - i for k in group.marked if i <= k < i + most)
        out.append(Group(group.label, group.cards[i : i + most], group.kind, marked,
                         group.needs if i == 0 else None))
    return tuple(out)


def _wrap(canvas: Canvas, parts: tuple[str, ...], f, width: int) -> list[str]:
    """Parts joined by " · " into lines no wider than `width` (a part too wide alone: cut)."""
    lines: list[str] = []
    for part in parts:
        if lines and canvas.text_width(lines[-1] + " · " + part, f) <= width:
            lines[-1] += " · " + part
        else:
            lines.append(part)
    return lines


def _rows_of(canvas: Canvas, groups: tuple[Group, ...], width: int) -> list[list[Group]]:
    return _pack(canvas, tuple(p for g in groups for p in _split(g, width)), width)


def _strip_layout(canvas: Canvas, strip: BuildReviewStrip, width: int):
    title = _wrap(canvas, tuple(strip.title.split(" · ")), font(TEXT_PX), width)
    rows = [_rows_of(canvas, strip.made, width)] if strip.made else []
    rows += [_rows_of(canvas, row, width) for row in strip.seen]
    moves = _rows_of(canvas, strip.moves, width)
    n = sum(len(r) for r in rows) + len(moves)
    height = STRIP_PAD + LINE * (len(title) + 1) + n * ROW_H + STRIP_PAD
    return title, [r for rr in rows for r in rr], moves, height


def draw_review(view: BuildReviewView):
    inner = WIDTH - 2 * MARGIN
    width = inner - 2 * STRIP_PAD
    probe = Canvas(8, 8)
    summary = _wrap(probe, view.summary, font(TEXT_PX), inner)
    layouts = [_strip_layout(probe, s, width) for s in view.strips]
    height = MARGIN + LINE + LINE * len(summary) + 6 + sum(h + 10 for *_r, h in layouts)
    height += LINE * (bool(view.perfect) + bool(view.more)) + MARGIN
    canvas = Canvas(WIDTH, height, rtl=view.rtl)
    start = WIDTH - MARGIN if view.rtl else MARGIN
    align = "right" if view.rtl else "left"
    y = MARGIN + LINE / 2
    canvas.text(start, y, view.title, font(26), pal.WHITE, max_width=inner, align=align)
    y += LINE / 2
    for line in summary:
        canvas.text(start, y + LINE / 2, line, font(TEXT_PX), pal.MUTED, max_width=inner,
                    align=align)
        y += LINE
    y += 6
    for strip, (title, rows, moves, h) in zip(view.strips, layouts, strict=True):
        canvas.tray((MARGIN, round(y), WIDTH - MARGIN, round(y + h)), pal.CHIP, radius=10)
        _draw_strip(canvas, strip, view, y, width, title, rows, moves)
        y += h + 10
    for line in (view.perfect, view.more):
        if line:
            canvas.text(start, y + LINE / 2, line, font(TEXT_PX), pal.WHITE, max_width=inner,
                        align=align)
            y += LINE
    return canvas.image.crop((0, 0, WIDTH, round(y) + MARGIN))


def _draw_strip(canvas: Canvas, strip: BuildReviewStrip, view: BuildReviewView, y: float,
                width: int, title: list[str], rows: list[list[Group]],
                moves: list[list[Group]]) -> None:
    pad_x = MARGIN + STRIP_PAD
    start = WIDTH - pad_x if view.rtl else pad_x
    align = "right" if view.rtl else "left"
    y += STRIP_PAD
    for line in title:
        canvas.text(start, y + LINE / 2, line, font(TEXT_PX), pal.WHITE, max_width=width,
                    align=align)
        y += LINE
    for row in rows:
        y = _draw_row(canvas, row, y, width, view.rtl, pad_x)
    canvas.text(start, y + LINE / 2, strip.better, font(TEXT_PX), pal.HINT, max_width=width,
                align=align)
    y += LINE
    for row in moves:
        y = _draw_row(canvas, row, y, width, view.rtl, pad_x)


def _draw_row(canvas: Canvas, groups: list[Group], y: float, width: int, rtl: bool,
              pad_x: int) -> float:
    """One row of trays with their tabs, from the left (right to left: from the right)."""
    top = y + TAB
    x = float(WIDTH - pad_x if rtl else pad_x)
    for group in groups:
        w = _group_width(canvas, group)
        left = x - w if rtl else x
        tray_w = _tray_width(group)
        tray_x = left + w - tray_w if rtl else left  # the tray under its tab's start
        box = (round(tray_x), round(top), round(tray_x + tray_w), round(top + CARD.h + 2 * PAD))
        canvas.tray(box)
        tab_w = _tab_width(canvas, group.label)
        tab_x = left + w - tab_w if rtl else left
        tab = (round(tab_x), round(y + 2), round(tab_x + tab_w), round(top))
        if group.kind == "better":
            canvas.outline(box, pal.HINT, 3)
            canvas.tab(tab, group.label, pal.HINT, pal.INK)
        else:
            canvas.tab(tab, group.label, pal.TAB, pal.WHITE)
        _draw_cards(canvas, group, tray_x, top, rtl)
        x = left - GROUP_GAP if rtl else left + w + GROUP_GAP
    return top + CARD.h + 2 * PAD + 8


def _draw_cards(canvas: Canvas, group: Group, tray_x: float, top: float, rtl: bool) -> None:
    cx = tray_x + PAD
    if group.needs is not None and rtl:  # right to left: the number on the card's left
        cx += NEEDS_W
    if not group.cards:  # an empty build place
        _empty_slot(canvas, cx, top + PAD, CARD)
    for k, face in enumerate(group.cards):
        marked = k in group.marked
        if group.kind == "made":
            look = Look(placed=True)
        elif group.kind == "better":
            look = Look(placed=marked)
        else:
            look = Look(hint=marked)
        _draw_card(canvas, face, cx, top + PAD, CARD, look)
        cx += CARD.w + GAP
    if group.needs is not None:
        nx = tray_x + PAD + NEEDS_W / 2 - 2 if rtl else \
            tray_x + PAD + max(1, len(group.cards)) * (CARD.w + GAP) + NEEDS_W / 2 - 2
        canvas.text(nx, top + PAD + CARD.h / 2, "A" if group.needs == 1 else str(group.needs),
                    font(26), pal.CHANGED, align="center")


def render_review(view: BuildReviewView) -> bytes:
    """The review as PNG bytes."""
    return pal.to_png(draw_review(view))


__all__ = ["BuildReviewStrip", "BuildReviewView", "Group", "draw_review", "render_review"]
