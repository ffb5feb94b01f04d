"""Where everything goes: pure geometry, no pixels.

The renderers draw exactly what the layout says, and tests use the same layout to crop each
card out of a rendered image and compare it with that card's sprite.

Images have a fixed width, so a card is always the same size on a phone: a big table grows
taller (groups wrap into more rows) instead of shrinking its cards. At 800 px wide, a 48 px card
shows ~30 px wide in a 500 px chat bubble, and the longest run (13 cards) still fits in one row.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass, field, replace

from engine.cards import Card, rank_order, suit_order

from .fonts import font, text_length
from .sprites import HAND_CARD, TABLE_CARD, Look, Size
from .views import ENGLISH, Ident, PictureWords, PrivateView, TableView

Box = tuple[int, int, int, int]  # x0, y0, x1, y1; x1 and y1 exclusive

WIDTH = 800
MARGIN = 16
PAD = 5  # tray padding around its cards
GAP = 3  # between the cards of a group
LOOSE_GAP = 8  # between cards that are not a group (singles, loose cards)
TRAY_GAP = 12  # between trays in a row
TAB_H = 28  # the label tab above a tray
ROW_GAP = 8
SECTION_GAP = 14
TITLE_H = 34
STATUS_H = 28
SEAT_H = 66
NUMBER_H = 28  # hand numbers under the cards
HAND_GAP = 5
HAND_ROW_GAP = 4
LEGEND_H = 32
# A phone shows a picture about 400 px wide: half of WIDTH. Every word and number a player
# acts on (cards left, points, group letters, hand numbers, the legend) is at least this
# many px here, 11 on the phone (tests/test_phone_pictures.py).
PHONE = 400
TEXT_PX = 22
TAB_FONT = TEXT_PX


@dataclass(frozen=True)
class CardSpot:
    card: Card
    box: Box
    look: Look
    size: Size
    area: str  # "group" | "single" | "loose" | "hand"
    group: int | None = None
    number: int | None = None  # the hand number, 1..n


@dataclass(frozen=True)
class GroupSpot:
    index: int
    label: str
    trays: tuple[Box, ...]  # more than one only if the group is wider than the image
    tab: Box
    marks: frozenset[str] = frozenset()  # "changed", "invalid", "hint"
    text: str = ""  # what the tab shows: the label, plus " !" when the group is not valid


@dataclass(frozen=True)
class Panel:
    """A labelled area that is not a group: Tahiti's singles, loose cards, the hand."""

    kind: str  # "singles" | "loose" | "hand"
    label: str
    tray: Box
    tab: Box


@dataclass(frozen=True)
class Layout:
    width: int
    height: int
    cards: tuple[CardSpot, ...]
    groups: tuple[GroupSpot, ...] = ()
    panels: tuple[Panel, ...] = ()
    seats: tuple[Box, ...] = ()
    stock: Box | None = None
    legend: tuple[str, ...] = ()  # marks used, explained in a legend row
    sections: dict[str, Box] = field(default_factory=dict)  # "title", "status", "legend", ...


def group_label(index: int) -> str:
    """A, B, … Z, AA, AB, … (spreadsheet style)."""
    label = ""
    n = index + 1
    while n:
        n, r = divmod(n - 1, 26)
        label = chr(65 + r) + label
    return label


def tab_width(text: str) -> int:
    return max(28, round(text_length(text, font(TAB_FONT))) + 16)


class _Flow:
    """Places trays left to right and wraps to a new row when one does not fit."""

    def __init__(self, top: int, card: Size) -> None:
        self.x = MARGIN
        self.top = top
        self.row_h = TAB_H + 2 * PAD + card.h
        self.card = card
        self.used = False

    @property
    def bottom(self) -> int:
        return self.top + self.row_h if self.used else self.top

    def per_row(self, gap: int) -> int:
        return max(1, (WIDTH - 2 * MARGIN - 2 * PAD + gap) // (self.card.w + gap))

    def place(self, count: int, gap: int, min_width: int) -> Box:
        """A tray for `count` cards; returns its box (the tab sits above it)."""
        width = max(min_width, 2 * PAD + max(count, 1) * (self.card.w + gap) - gap)
        if self.used and self.x + width > WIDTH - MARGIN:
            self.x = MARGIN
            self.top += self.row_h + ROW_GAP
        y0 = self.top + TAB_H
        box = (self.x, y0, self.x + width, y0 + 2 * PAD + self.card.h)
        self.x += width + TRAY_GAP
        self.used = True
        return box

    def newline(self) -> None:
        if self.used:
            self.top += self.row_h + ROW_GAP
            self.x = MARGIN
            self.used = False


def _cards_in(tray: Box, cards: Sequence[Card], gap: int, size: Size) -> list[Box]:
    x, y = tray[0] + PAD, tray[1] + PAD
    return [
        (x + k * (size.w + gap), y, x + k * (size.w + gap) + size.w, y + size.h)
        for k in range(len(cards))
    ]


def _chunks(cards: Sequence[Card], n: int) -> list[Sequence[Card]]:
    return [cards[k : k + n] for k in range(0, len(cards), n)] or [()]


@dataclass
class _Area:
    """Groups, singles and loose cards: what the table and the draft have in common."""

    cards: list[CardSpot] = field(default_factory=list)
    groups: list[GroupSpot] = field(default_factory=list)
    panels: list[Panel] = field(default_factory=list)
    bottom: int = 0


def _table_area(
    top: int,
    groups: Sequence[Sequence[Card]],
    singles: Sequence[Card],
    loose: Sequence[Card] = (),
    marks: dict[int, frozenset[str]] | None = None,
    look: dict[Ident, Look] | None = None,
    words: PictureWords = ENGLISH,
) -> _Area:
    area = _Area(bottom=top)
    marks = marks or {}
    look = look or {}
    card = TABLE_CARD

    def spot(c: Card, box: Box, kind: str, group: int | None = None) -> CardSpot:
        return CardSpot(c, box, look.get(c.ident, Look()), card, kind, group)

    flow = _Flow(top, card)
    if singles:
        _panel(area, flow, "singles", words.singles, singles, spot)
        flow.newline()
        flow.top += SECTION_GAP - ROW_GAP
    for i, cards in enumerate(groups):
        label = group_label(i)
        mark = marks.get(i, frozenset())
        text = label + (" !" if "invalid" in mark else "")
        trays: list[Box] = []
        for chunk in _chunks(cards, flow.per_row(GAP)):
            tray = flow.place(len(chunk), GAP, tab_width(text) if not trays else 0)
            trays.append(tray)
            area.cards += [
                spot(c, b, "group", i)
                for c, b in zip(chunk, _cards_in(tray, chunk, GAP, card), strict=True)
            ]
        tab = (trays[0][0], trays[0][1] - TAB_H, trays[0][0] + tab_width(text), trays[0][1])
        area.groups.append(GroupSpot(i, label, tuple(trays), tab, mark, text))
    if loose:
        flow.newline()
        flow.top += SECTION_GAP - ROW_GAP
        _panel(area, flow, "loose", words.loose, loose, spot)
    area.bottom = flow.bottom
    return area


def _panel(
    area: _Area,
    flow: _Flow,
    kind: str,
    label: str,
    cards: Sequence[Card],
    spot: Callable[[Card, Box, str], CardSpot],
) -> None:
    """Cards that are not a group, spaced wider so they read as separate cards."""
    trays: list[Box] = []
    for chunk in _chunks(cards, flow.per_row(LOOSE_GAP)):
        tray = flow.place(len(chunk), LOOSE_GAP, tab_width(label) if not trays else 0)
        trays.append(tray)
        area.cards += [
            spot(c, b, "single" if kind == "singles" else kind)
            for c, b in zip(chunk, _cards_in(tray, chunk, LOOSE_GAP, flow.card), strict=True)
        ]
    tab = (trays[0][0], trays[0][1] - TAB_H, trays[0][0] + tab_width(label), trays[0][1])
    for tray in trays:
        area.panels.append(Panel(kind, label, tray, tab))


def table_layout(view: TableView) -> Layout:
    sections: dict[str, Box] = {}
    y = MARGIN
    sections["title"] = (MARGIN, y, WIDTH - MARGIN, y + TITLE_H)
    stock = (WIDTH - MARGIN - 90, y, WIDTH - MARGIN, y + TITLE_H)
    y += TITLE_H
    if view.status:
        sections["status"] = (MARGIN, y, WIDTH - MARGIN, y + STATUS_H)
        y += STATUS_H
    seats = _seat_boxes(y + 6, len(view.seats))
    if seats:
        y = seats[-1][3]
    y += SECTION_GAP
    marks = {i: frozenset({"changed"}) for i in view.changed}
    area = _table_area(y, view.groups, view.singles, marks=marks, words=view.words)
    if not view.groups and not view.singles:
        sections["empty"] = (MARGIN, y, WIDTH - MARGIN, y + 60)
        area.bottom = y + 60
    layout = Layout(
        width=WIDTH,
        height=area.bottom + MARGIN,
        cards=tuple(area.cards),
        groups=tuple(area.groups),
        panels=tuple(area.panels),
        seats=seats,
        stock=stock,
        sections=sections,
    )
    return right_to_left(layout) if view.words.rtl else layout


def _seat_boxes(top: int, n: int) -> tuple[Box, ...]:
    """The seats' chips: one row of up to three, else two rows (four or five seats stay
    wide enough for a name on a phone)."""
    if not n:
        return ()
    gap = 8
    per_row = n if n <= 3 else -(-n // 2)
    w = min(250, (WIDTH - 2 * MARGIN - (per_row - 1) * gap) // per_row)
    boxes = []
    for k in range(n):
        row, col = divmod(k, per_row)
        x, y = MARGIN + col * (w + gap), top + row * (SEAT_H + gap)
        boxes.append((x, y, x + w, y + SEAT_H))
    return tuple(boxes)


LEGEND_TEXT = {
    "changed": "changed",
    "invalid": "not valid yet",
    "hint": "hint",
    "placed": "from your hand",
}


def legend_rows(marks: Sequence[str], words: PictureWords) -> list[list[str]]:
    """The legend's marks in rows as wide as the picture (a swatch and its word each:
    Russian words need two rows at a phone's legible size)."""
    f = font(TEXT_PX, bold=False)
    rows: list[list[str]] = []
    used = WIDTH  # starts a row
    for mark in marks:
        text = getattr(words, mark, LEGEND_TEXT[mark])
        w = 32 + text_length(text, f) + 22
        if used + w - 22 > WIDTH - 2 * MARGIN:
            rows.append([])
            used = 0
        rows[-1].append(mark)
        used += w
    return rows


def sort_hand(cards: Iterable[Card], sort: str) -> list[Card]:
    return sorted(cards, key=rank_order if sort == "rank" else suit_order)


def private_layout(view: PrivateView) -> Layout:
    sections: dict[str, Box] = {}
    y = MARGIN
    sections["title"] = (MARGIN, y, WIDTH - MARGIN, y + TITLE_H)
    y += TITLE_H + SECTION_GAP // 2

    def look_of(c: Card) -> Look:
        return Look(c.ident in view.placed, c.ident in view.selected, c.ident in view.hint_cards)

    everything = [*(c for g in view.groups for c in g), *view.singles, *view.loose, *view.hand]
    looks = {c.ident: look_of(c) for c in everything}
    marks: dict[int, frozenset[str]] = {}
    for name, indexes in (
        ("changed", view.changed),
        ("invalid", view.invalid),
        ("hint", view.hint_groups),
    ):
        for i in indexes:
            marks[i] = marks.get(i, frozenset()) | {name}
    area = _table_area(y, view.groups, view.singles, view.loose, marks, looks, view.words)
    if not view.groups and not view.singles and not view.loose:
        sections["empty"] = (MARGIN, y, WIDTH - MARGIN, y + 44)
        area.bottom = y + 44
    y = area.bottom + SECTION_GAP

    # the hand: bigger cards, numbered in the chosen order
    hand = sort_hand(view.hand, view.sort)
    size = HAND_CARD
    gap = HAND_GAP
    per_row = max(1, (WIDTH - 2 * MARGIN - 2 * PAD + gap) // (size.w + gap))
    rows = max(1, -(-len(hand) // per_row))
    label = view.hand_label or (
        f"Your hand · {len(hand)} card{'s' if len(hand) != 1 else ''} · by {view.sort}"
    )
    tray_top = y + TAB_H
    row_h = size.h + NUMBER_H
    tray_h = 2 * PAD + rows * row_h + (rows - 1) * HAND_ROW_GAP
    tray = (MARGIN, tray_top, WIDTH - MARGIN, tray_top + tray_h)
    panels = [
        *area.panels,
        Panel("hand", label, tray, (MARGIN, y, MARGIN + tab_width(label), tray_top)),
    ]
    cards = list(area.cards)
    for k, c in enumerate(hand):
        r, col = divmod(k, per_row)
        x0 = MARGIN + PAD + col * (size.w + gap)
        y0 = tray_top + PAD + r * (row_h + HAND_ROW_GAP)
        cards.append(
            CardSpot(
                c, (x0, y0, x0 + size.w, y0 + size.h), looks[c.ident], size, "hand", number=k + 1
            )
        )
    y = tray[3]

    legend = tuple(m for m in ("changed", "invalid", "hint", "placed") if _uses(m, marks, view))
    if legend:
        y += 10
        height = LEGEND_H * len(legend_rows(legend, view.words))
        sections["legend"] = (MARGIN, y, WIDTH - MARGIN, y + height)
        y += height
    layout = Layout(
        width=WIDTH,
        height=y + MARGIN,
        cards=tuple(cards),
        groups=tuple(area.groups),
        panels=tuple(panels),
        legend=legend,
        sections=sections,
    )
    return right_to_left(layout) if view.words.rtl else layout


def right_to_left(layout: Layout) -> Layout:
    """The same layout for a right-to-left reader: each group and panel moves to the mirrored
    place (group A on the right, its tab at its right edge); the cards inside keep their order
    (a run still reads 7 8 9, the hand keeps its numbers 1 2 3 from the left)."""
    width = layout.width

    def shift(box: Box, dx: int) -> Box:
        return (box[0] + dx, box[1], box[2] + dx, box[3])

    def block(trays: Sequence[Box], tab: Box) -> tuple[int, Box]:
        left = min(b[0] for b in (*trays, tab))
        right = max(b[2] for b in (*trays, tab))
        dx = (width - right) - left
        return dx, (right + dx - (tab[2] - tab[0]), tab[1], right + dx, tab[3])

    moves: dict[tuple[str, int | None], int] = {}
    groups = []
    for g in layout.groups:
        dx, tab = block(g.trays, g.tab)
        moves[("group", g.index)] = dx
        groups.append(replace(g, trays=tuple(shift(t, dx) for t in g.trays), tab=tab))
    panels = []
    for panel in layout.panels:
        dx, tab = block((panel.tray,), panel.tab)
        moves[(panel.kind, None)] = dx
        panels.append(replace(panel, tray=shift(panel.tray, dx), tab=tab))
    cards = tuple(
        replace(c, box=shift(c.box, moves.get(_owner(c), 0))) for c in layout.cards
    )
    return replace(layout, cards=cards, groups=tuple(groups), panels=tuple(panels))


def _owner(spot: CardSpot) -> tuple[str, int | None]:
    """The group or panel a card is drawn in (right_to_left's key)."""
    if spot.area == "group":
        return ("group", spot.group)
    return ("singles" if spot.area == "single" else spot.area, None)


def _uses(mark: str, marks: dict[int, frozenset[str]], view: PrivateView) -> bool:
    if mark == "placed":
        return bool(view.placed)
    if mark == "hint":
        return bool(view.hint_groups or view.hint_cards)
    return any(mark in m for m in marks.values())
