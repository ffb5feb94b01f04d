"""Build-to-Ten's pictures: the build piles with the number each needs next, every seat's
face-up stock card, stock and hand counts and discard piles, and (on a seat's private
picture only) its hand — the rummy pictures' felt, cards, chips and fonts.

Places stay put (RULES.md §6 decision 11): the 4 build-pile places and each seat's 4
discard-pile places are drawn where they are, an empty one as an empty slot. A discard pile
shows its top card and, under it, every card buried beneath (public: everyone may see them;
wild cards gold). The two jokers differ at a glance (decision 12): the colour joker (shift)
has a four-colour band, the black joker (swap) a black one and a black frame.

A `BuildPicture` is plain data the game's screens fill in; `hand` is None on the group's
picture, so nothing private can reach it. Its `words` are every word drawn (the bot fills them
from its catalogs, like the rummy pictures' `PictureWords`); `rtl` lays Hebrew out right to left:
titles, headings and seat chips from the right edge, the stock on the left.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

from PIL import Image

from engine.cards import SUIT_SYMBOLS, Card
from render import palette as pal
from render.fonts import font
from render.layout import TEXT_PX, tab_width
from render.sprites import HAND_CARD, PLAIN, Look, Size, card_back, card_sprite
from render.widgets import Canvas, draw_stock, stock_width

WIDTH = 800
MARGIN = 16
TITLE_H = 34
STATUS_H = 28
TAB_H = 28
GAP = 12
PILE_GAP = 8  # between two build-pile places
PILE_CARD = Size(64, 90)  # build piles and face-up stock cards: the cards that matter most
DISCARD_CARD = Size(44, 62)
MINI = Size(13, 18)
BUILD_H = PILE_CARD.h + 16
SEAT_H = 120  # the chip's three lines, the discard piles with their buried cards and D1–D4
CHIP_W = 232  # a computer's name in Russian, uncut
HAND_H = HAND_CARD.h + 40
MAX_PILES = 4
# A phone shows the picture about 400 px wide, half of WIDTH: every word and number here is
# drawn at least TEXT_PX (11 px on the phone; tests/test_phone_pictures.py), the title larger.


@dataclass(frozen=True)
class BuildWords:
    """Every word drawn inside a Build-to-Ten picture, in the reader's language. `{n}`-style
    templates are filled here."""

    build_piles: str = "Build piles"
    pile: str = "pile {n}"
    needs: str = "needs"
    free: str = "free"
    you: str = "{name} (you)"
    stock: str = "stock {n}"
    hand: str = "hand {n}"
    discards: str = "discards"
    your_hand: str = "Your hand"
    no_cards: str = "No cards in your hand"
    rtl: bool = False


ENGLISH = BuildWords()


@dataclass(frozen=True)
class SeatPicture:
    name: str
    face_up: str | None  # `7H`; None: the stock is empty
    stock: int
    hand: int
    discards: tuple[tuple[str, ...], ...]  # each place's pile, bottom -> top (empty: free)
    is_turn: bool = False
    is_computer: bool = False
    is_you: bool = False


@dataclass(frozen=True)
class BuildPicture:
    title: str
    status: str
    builds: tuple[tuple[str, int] | None, ...]  # by place: top face and the number it needs
    seats: tuple[SeatPicture, ...]
    general: int
    hand: tuple[str, ...] | None = None  # the private picture's hand (None: the group's)
    selected: str | None = None  # a face in the hand, a pile top or the stock card chosen
    hint: str | None = None
    hint_target: tuple[str, int] | None = None  # where the hint's card goes: ("b"|"d", place)
    words: BuildWords = ENGLISH


_RANKS = {"A": 1, "Q": 12, "K": 13}


def _card(face: str) -> Card:
    """A face (`10H`, `QS`, `SHIFT`) as a card to draw; a joker draws as the rummy joker."""
    if face in ("SHIFT", "SWAP"):
        return Card(0, "")
    rank = face[:-1]
    return Card(_RANKS.get(rank) or int(rank), face[-1])


COLOUR_BAND = (pal.RED, pal.GOLD, pal.GREEN, pal.BLUE)  # the colour joker's stripes
WILD_RANKS = ("Q", "K")


def _draw_card(canvas: Canvas, face: str, x: float, y: float, size: Size,
               look: Look = PLAIN) -> None:
    canvas.paste(card_sprite(_card(face), look, size), x, y)
    if face in ("SHIFT", "SWAP"):  # which joker: a band over its "JOKER" label (no word:
        # none fits a card at phone size; the colour and the frame tell them apart)
        band = (round(x + 3), round(y + size.h * 0.68), round(x + size.w - 4),
                round(y + size.h * 0.92))
        if face == "SHIFT":  # the colour joker: four stripes
            step = (band[2] - band[0]) / len(COLOUR_BAND)
            for i, colour in enumerate(COLOUR_BAND):
                canvas.draw.rectangle((round(band[0] + i * step), band[1],
                                       round(band[0] + (i + 1) * step), band[3]), fill=colour)
        else:  # the black joker: black band, black frame
            canvas.draw.rectangle(band, fill=pal.SPADE)
            width = max(2, size.w // 16)
            canvas.draw.rectangle((round(x), round(y), round(x + size.w - 1),
                                   round(y + size.h - 1)), outline=pal.SPADE, width=width)


def _empty_slot(canvas: Canvas, x: float, y: float, size: Size, *lines: str) -> None:
    """A dashed place; its words a line each, centred (at phone size: one short word a line)."""
    canvas.outline((round(x), round(y), round(x + size.w), round(y + size.h)), pal.MUTED,
                   width=2, dashed=True)
    step = TEXT_PX + 4
    for k, line in enumerate(lines):
        canvas.text(x + size.w / 2, y + size.h / 2 + (k - (len(lines) - 1) / 2) * step, line,
                    font(TEXT_PX, bold=False), pal.MUTED, align="center", max_width=size.w - 4)


def _look(picture: BuildPicture, face: str) -> Look:
    return Look(selected=face == picture.selected, hint=face == picture.hint)


def _height(picture: BuildPicture) -> int:
    h = MARGIN + TITLE_H + STATUS_H + TAB_H + BUILD_H + GAP
    h += len(picture.seats) * (SEAT_H + 8) + GAP
    if picture.hand is not None:
        h += TAB_H + HAND_H + GAP
    return h + MARGIN


def draw_buildten(picture: BuildPicture) -> Image.Image:
    rtl = picture.words.rtl  # right to left: titles from the right edge, the stock on the left
    canvas = Canvas(WIDTH, _height(picture), rtl=rtl)
    y = MARGIN
    stock_w = stock_width(picture.general)
    start, align = (WIDTH - MARGIN, "right") if rtl else (MARGIN, "left")
    canvas.text(start, y + TITLE_H / 2, picture.title, font(26), pal.WHITE,
                max_width=WIDTH - 2 * MARGIN - stock_w - 16, align=align)
    sx = MARGIN if rtl else WIDTH - MARGIN - stock_w
    draw_stock(canvas, (sx, y, sx + stock_w, y + TITLE_H), picture.general)
    y += TITLE_H
    canvas.text(start, y + STATUS_H / 2, picture.status, font(TEXT_PX), pal.CHANGED,
                max_width=WIDTH - 2 * MARGIN, align=align)
    y += STATUS_H
    y = _draw_builds(canvas, picture, y)
    for seat in picture.seats:
        _draw_seat(canvas, picture, seat, y)
        y += SEAT_H + 8
    y += GAP
    if picture.hand is not None:
        _draw_hand(canvas, picture, y)
    return canvas.image


def _draw_builds(canvas: Canvas, picture: BuildPicture, y: int) -> int:
    words = picture.words
    canvas.tab(_tab_box(words, y, tab_width(words.build_piles)), words.build_piles, pal.TAB,
               pal.WHITE)
    y += TAB_H
    slot_w = (WIDTH - 2 * MARGIN - (MAX_PILES - 1) * PILE_GAP) / MAX_PILES
    small = font(TEXT_PX, bold=False)
    for i in range(MAX_PILES):
        slot = MAX_PILES - 1 - i if words.rtl else i  # right to left: pile 1 on the right
        x = MARGIN + slot * (slot_w + PILE_GAP)
        canvas.tray((round(x), y, round(x + slot_w), y + BUILD_H))
        if picture.hint_target == ("b", i):  # the hint's card goes here: the hint's cyan
            canvas.outline((round(x), y, round(x + slot_w), y + BUILD_H), pal.HINT, width=4)
        # right to left: the card on the slot's right, its words right-aligned beside it
        cx, cy = (x + slot_w - 4 - PILE_CARD.w if words.rtl else x + 4), y + 8
        tx, align = (cx - 5, "right") if words.rtl else (cx + PILE_CARD.w + 5, "left")
        room = (tx - x - 3) if words.rtl else (x + slot_w - tx - 3)
        canvas.text(tx, cy + 12, words.pile.format(n=i + 1), small, pal.MUTED,
                    max_width=room, align=align)
        place = picture.builds[i] if i < len(picture.builds) else None
        if place is not None:
            face, needed = place
            _draw_card(canvas, face, cx, cy, PILE_CARD, _look(picture, face))
            canvas.text(tx, cy + 42, words.needs, small, pal.MUTED, max_width=room, align=align)
            canvas.text(tx, cy + 72, "A" if needed == 1 else str(needed), font(30),
                        pal.CHANGED, align=align)
        else:  # a free place: what may start it
            _empty_slot(canvas, cx, cy, PILE_CARD, "A", "Q", "K")
            canvas.text(tx, cy + 42, words.free, small, pal.MUTED, max_width=room, align=align)
    return y + BUILD_H + GAP


def _draw_seat(canvas: Canvas, picture: BuildPicture, seat: SeatPicture, y: int) -> None:
    words = picture.words
    rtl = words.rtl  # right to left: the row mirrored (the chip on the right, piles leftward)

    def at(x: float, width: float = 0) -> float:
        """x (of something `width` wide) on a left-to-right row, or its mirrored place."""
        return WIDTH - x - width if rtl else x

    align = "right" if rtl else "left"
    box = (MARGIN, y, WIDTH - MARGIN, y + SEAT_H)
    canvas.tray(box, pal.TRAY)
    left, right = MARGIN + 4, MARGIN + 4 + CHIP_W  # the chip, on a left-to-right row
    chip = (round(at(right)), y + 4, round(at(left)), y + SEAT_H - 4) if rtl else (
        left, y + 4, right, y + SEAT_H - 4)
    fill = pal.CHANGED if seat.is_turn else pal.CHIP
    ink = pal.INK if seat.is_turn else pal.WHITE
    sub = pal.INK if seat.is_turn else pal.MUTED
    canvas.tray(chip, fill, radius=9)
    x = left + 9
    top = chip[1] + 20
    if seat.is_turn:
        tip = at(x + 10)
        canvas.draw.polygon([(at(x), top - 7), (tip, top), (at(x), top + 7)], fill=ink)
        x += 15
    name = words.you.format(name=seat.name) if seat.is_you else seat.name
    if seat.is_computer and "🤖" not in name:
        name = "🤖 " + name
    canvas.text(at(x), top, name, font(TEXT_PX), ink, max_width=right - 8 - x,
                robot_eyes=fill, align=align)
    f = font(TEXT_PX, bold=False)
    canvas.text(at(left + 9), chip[1] + 54, words.stock.format(n=seat.stock), f, sub,
                max_width=right - left - 14, align=align)
    canvas.paste(card_back(MINI), at(left + 9, MINI.w), chip[1] + 79)
    canvas.text(at(left + 9 + MINI.w + 5), chip[1] + 88, words.hand.format(n=seat.hand), f, sub,
                max_width=right - left - MINI.w - 19, align=align)
    # the face-up stock card, the one to empty (none: "stock 0" in the chip says why)
    fx, fy = right + 12, y + (SEAT_H - PILE_CARD.h) / 2
    if seat.face_up:
        _draw_card(canvas, seat.face_up, at(fx, PILE_CARD.w), fy, PILE_CARD,
                   _look(picture, seat.face_up))
    else:
        _empty_slot(canvas, at(fx, PILE_CARD.w), fy, PILE_CARD)
    # the 4 discard-pile places (D1–D4): each top card, the cards buried under it beside it
    dx = fx + PILE_CARD.w + 16
    canvas.text(at(dx), y + 14, words.discards, f, pal.MUTED, align=align)
    step = (WIDTH - MARGIN - 6 - dx) / MAX_PILES
    for i in range(MAX_PILES):
        px = dx + i * step
        py = y + 28
        pile = seat.discards[i] if i < len(seat.discards) else ()
        canvas.text(at(px + DISCARD_CARD.w / 2), py + DISCARD_CARD.h + 14, f"D{i + 1}",
                    f, pal.MUTED, align="center")
        if pile:
            face = pile[-1]
            look = _look(picture, face) if seat.is_you else Look()
            _draw_card(canvas, face, at(px, DISCARD_CARD.w), py, DISCARD_CARD, look)
            _draw_buried(canvas, pile[:-1], px + DISCARD_CARD.w + 3, py,
                         step - DISCARD_CARD.w - 8, at)
        else:
            _empty_slot(canvas, at(px, DISCARD_CARD.w), py, DISCARD_CARD)
        if seat.is_you and picture.hint_target == ("d", i):  # the hint's discard goes here
            canvas.outline((round(at(px, DISCARD_CARD.w)) - 3, py - 3,
                            round(at(px, DISCARD_CARD.w) + DISCARD_CARD.w) + 3,
                            py + DISCARD_CARD.h + 3), pal.HINT, width=3)


BURIED_ROW = TEXT_PX + 4  # a buried card's chip: its height
BURIED_H = SEAT_H - 28 - 4  # from the top card's top to the row's bottom


def _draw_buried(canvas: Canvas, buried: tuple[str, ...], x: float, y: float, room: float,
                 at: Callable[[float, float], float]) -> None:
    """The cards under a discard pile's top, newest first, a chip a line (as many as fit;
    "+n" for the rest): public, and a wild card there is one to wait for."""
    rows = int(BURIED_H // BURIED_ROW)
    shown = list(reversed(buried))
    if len(shown) > rows:
        shown, more = shown[: rows - 1], len(shown) - rows + 1
    else:
        more = 0
    f = font(TEXT_PX)
    width = min(room, 52.0)
    for n, face in enumerate(shown):
        top = y + n * BURIED_ROW
        box = (round(at(x, width)), round(top), round(at(x, width) + width),
               round(top + BURIED_ROW - 2))
        wild = face[:-1] in WILD_RANKS
        joker = face in ("SHIFT", "SWAP")
        canvas.tray(box, pal.GOLD if wild else (pal.SPADE if face == "SWAP" else pal.CARD),
                    radius=3)
        if joker:
            label, ink = ("J", pal.WHITE) if face == "SWAP" else ("J", pal.JOKER)
        else:
            label = ("A" if face[0] == "A" else face[:-1]) + SUIT_SYMBOLS[face[-1]]
            ink = pal.RED if face[-1] in "HD" else pal.INK
        canvas.text((box[0] + box[2]) / 2, (box[1] + box[3]) / 2, label, f, ink,
                    align="center", max_width=width)
    if more:
        canvas.text(at(x + width / 2), y + len(shown) * BURIED_ROW + BURIED_ROW / 2 - 1,
                    f"+{more}", font(TEXT_PX, bold=False), pal.MUTED, align="center")


def _draw_hand(canvas: Canvas, picture: BuildPicture, y: int) -> None:
    hand = picture.hand or ()
    words = picture.words
    canvas.tab(_tab_box(words, y, tab_width(words.your_hand)), words.your_hand, pal.TAB,
               pal.WHITE)
    y += TAB_H
    canvas.tray((MARGIN, y, WIDTH - MARGIN, y + HAND_H))
    if not hand:
        canvas.text(WIDTH / 2, y + HAND_H / 2, words.no_cards, font(TEXT_PX, bold=False),
                    pal.MUTED, align="center")
        return
    for i, face in enumerate(hand):
        x = MARGIN + 12 + i * (HAND_CARD.w + 14)
        _draw_card(canvas, face, x, y + 8, HAND_CARD, _look(picture, face))
        canvas.text(x + HAND_CARD.w / 2, y + HAND_CARD.h + 24, str(i + 1), font(TEXT_PX),
                    pal.WHITE, align="center")


def _tab_box(words: BuildWords, y: int, width: int) -> tuple[int, int, int, int]:
    """A heading's tab: at the left edge, or the right one in a right-to-left language."""
    if words.rtl:
        return (WIDTH - MARGIN - width, y, WIDTH - MARGIN, y + TAB_H)
    return (MARGIN, y, MARGIN + width, y + TAB_H)


def render_buildten(picture: BuildPicture) -> bytes:
    """The picture as PNG bytes."""
    return pal.to_png(draw_buildten(picture))


__all__ = ["ENGLISH", "BuildPicture", "BuildWords", "SeatPicture", "draw_buildten",
           "render_buildten", "sample_picture"]


def sample_picture(seats: int = 4, private: bool = True) -> BuildPicture:
    """A busy game for benchmarks and docs: four build piles, full discard piles."""
    names = ("Raz", "Lia", "Computer 1", "Computer 2")
    shown = ("2H", "8C", "10D", "KS")
    piles = (("KD", "4S", "10C", "9C"), ("7D", "SHIFT"), (), ("2C", "5D", "QS", "8H", "6C", "QH"))
    return BuildPicture(
        "Build-to-Ten", f"{names[1]}'s turn",
        (("6S", 7), None, ("9D", 10), ("AH", 2)),
        tuple(SeatPicture(names[i], shown[i], 20 - 3 * i, 5 - i, piles[i:] + piles[:i],
                          is_turn=i == 1, is_computer=i >= 2, is_you=private and i == 0)
              for i in range(seats)),
        37,
        hand=("3D", "KC", "5H", "SWAP", "10S") if private else None,
        selected="5H" if private else None,
    )
