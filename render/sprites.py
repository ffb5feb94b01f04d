"""Card faces, drawn once per (face, look, size, colour scheme) and cached.

A face shows one big rank over one big suit shape: at phone size a card is ~30 px wide, too small
for pips or corner indices, so the whole card is its index. A joker has a purple frame and star;
a joker standing for a card shows that card's rank and suit inside the frame.
"""

from __future__ import annotations

from functools import lru_cache

from PIL import Image, ImageDraw

from engine.cards import Card, rank_name

from . import palette as pal
from .fonts import font
from .looks import HAND_CARD, PLAIN, TABLE_CARD, Look, Size
from .shapes import star, suit, supersampled
from .tiles import tile_sprite


def card_sprite(
    card: Card, look: Look = PLAIN, size: Size = TABLE_CARD, four_color: bool = False
) -> Image.Image:
    """The RGBA face of `card` (copies of a card look the same); a Rummikub tile's face is
    render/tiles.py's."""
    if card.is_tile:
        return tile_sprite(card, look, size)
    return _sprite(card.rank, card.suit, card.as_rank, card.as_suit, look, size, four_color)


@lru_cache(maxsize=2048)
def _sprite(
    rank: int, suit_: str, as_rank: int, as_suit: str, look: Look, size: Size, four_color: bool
) -> Image.Image:
    w, h = size
    joker = rank == 0
    show_rank, show_suit = (as_rank, as_suit) if joker else (rank, suit_)

    def paint(draw: ImageDraw.ImageDraw, ss: int) -> None:
        W, H = w * ss, h * ss
        radius = round(w * 0.14 * ss)
        ground = pal.PLACED if look.placed else (pal.JOKER_BG if joker else pal.CARD)
        edge = pal.JOKER if joker else pal.CARD_EDGE
        edge_w = round(w * 0.075 * ss) if joker else ss
        draw.rounded_rectangle((0, 0, W - 1, H - 1), radius, fill=edge)
        draw.rounded_rectangle(
            (edge_w, edge_w, W - 1 - edge_w, H - 1 - edge_w), max(1, radius - edge_w), fill=ground
        )
        if look.placed:  # dog-ear: tells "from your hand" by shape as well as by colour
            e = w * 0.34 * ss
            draw.polygon([(W - e, 0), (W, 0), (W, e)], fill=pal.EAR)
        if show_rank:
            _paint_face(draw, ss, w, h, show_rank, show_suit, four_color)
            if joker:  # small stars in the free bottom corners say "joker" on a played joker
                r = w * 0.1 * ss
                for cx in (w * 0.16 * ss, W - w * 0.16 * ss):
                    star(draw, cx, H - h * 0.14 * ss, r, pal.JOKER)
        else:
            star(
                draw,
                W / 2,
                H * 0.4,
                w * 0.36 * ss,
                pal.GOLD,
                outline=pal.JOKER,
                width=round(w * 0.04 * ss),
            )
            label = font(round(h * 0.15 * ss))
            draw.text((W / 2, H * 0.8), "JOKER", font=label, fill=pal.JOKER, anchor="mm")
        # selection and hint borders sit on top, inside the box
        inset = 0
        for on, color, width in ((look.hint, pal.HINT, 0.08), (look.selected, pal.SELECTED, 0.065)):
            if on:
                bw = round(w * width * ss)
                draw.rounded_rectangle(
                    (inset, inset, W - 1 - inset, H - 1 - inset),
                    max(1, radius - inset),
                    outline=color,
                    width=bw,
                )
                inset += bw

    return supersampled(w, h, paint)


def _paint_face(
    draw: ImageDraw.ImageDraw, ss: int, w: int, h: int, rank: int, suit_: str, four_color: bool
) -> None:
    color = pal.suit_color(suit_, four_color)
    text = rank_name(rank)
    size = round(h * 0.40)
    f = font(size * ss)
    while f.getlength(text) > (w - 10) * ss and size > 8:  # "10" on narrow cards
        size -= 1
        f = font(size * ss)
    cap_top = h * 0.08 * ss
    # place by the cap height, not the font's ascent, so every rank sits at the same height
    cap = f.getbbox("A", anchor="ls")[1]
    draw.text((w * ss / 2, cap_top - cap), text, font=f, fill=color, anchor="ms")
    s = min(w * 0.58, h * 0.40)
    suit(draw, suit_, (w - s) / 2 * ss, (h * 0.92 - s) * ss, s * ss, color)


@lru_cache(maxsize=16)
def card_back(size: Size) -> Image.Image:
    """A face-down card (the stock, cards in a hand): blue with a white frame and a lattice, so
    it never looks like a face."""
    w, h = size

    def paint(draw: ImageDraw.ImageDraw, ss: int) -> None:
        W, H = w * ss, h * ss
        radius = round(w * 0.16 * ss)
        draw.rounded_rectangle((0, 0, W - 1, H - 1), radius, fill=pal.CARD)
        m = max(ss, round(w * 0.1 * ss))
        draw.rounded_rectangle((m, m, W - 1 - m, H - 1 - m), max(1, radius - m), fill=pal.BACK)
        if w >= 20:
            step = W / 4
            lw = max(1, round(w * 0.05 * ss))
            for k in range(-4, 9):
                x = k * step
                draw.line((x, m, x + (H - 2 * m), H - m), fill=pal.BACK_LINE, width=lw)
                draw.line((x + (H - 2 * m), m, x, H - m), fill=pal.BACK_LINE, width=lw)
            draw.rounded_rectangle((0, 0, W - 1, H - 1), radius, outline=pal.CARD, width=m)

    return supersampled(w, h, paint)


def sprite_rgb(
    card: Card, look: Look, size: Size, four_color: bool, ground: tuple[int, int, int]
) -> Image.Image:
    """The card as it appears on `ground` after palette mapping (what tests look for)."""
    sprite = card_sprite(card, look, size, four_color)
    base = Image.new("RGB", sprite.size, ground)
    base.paste(sprite, (0, 0), sprite)
    return pal.quantize(base).convert("RGB")


__all__ = [
    "HAND_CARD",
    "PLAIN",
    "TABLE_CARD",
    "Look",
    "Size",
    "card_back",
    "card_sprite",
    "sprite_rgb",
]
