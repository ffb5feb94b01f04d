"""Rummikub tile pictures: a cream face, the number in its colour, a mark per colour, the
joker face, a rack for the private view."""

from __future__ import annotations

from PIL import Image

from engine.rummy import parse_tiles
from render.tiles import CREAM, INK, rack_image, rack_png, tile_image


def _colours(image: Image.Image) -> set:
    return {c for _, c in image.getcolors(1 << 16)}


def test_each_colour_inks_its_tile_and_the_face_is_cream():
    for text, letter in (("7K", "K"), ("7R", "R"), ("7B", "B"), ("7O", "O")):
        colours = _colours(tile_image(parse_tiles(text)[0]))
        assert CREAM in colours and INK[letter] in colours
        assert not {INK[x] for x in INK if x != letter} & colours


def test_the_colours_carry_marks_of_different_shapes():
    def mark(text: str) -> list[tuple[int, int]]:
        img = tile_image(parse_tiles(text)[0])
        ink = INK[text[-1]]
        return sorted((x, y) for x in range(img.width) for y in range(img.height - 25,
                                                                      img.height)
                      if img.getpixel((x, y)) == ink)

    shapes = [mark(t) for t in ("5K", "5R", "5B", "5O")]
    assert all(shapes) and len({tuple(s) for s in shapes}) == 4


def test_joker_face_and_a_designated_joker_shows_its_tile():
    free, fixed = tile_image(parse_tiles("*")[0]), tile_image(parse_tiles("*7B")[0])
    assert free.tobytes() != fixed.tobytes() and INK["B"] in _colours(fixed)


def test_rack_png_rows():
    tiles = parse_tiles("1K 7R 10B 13O * 12K 5R 5B 5O 5K 11O 2B 9R 3K 4K")
    assert rack_image(tiles, per_row=14).height > rack_image(tiles[:14], per_row=14).height
    assert rack_png(tiles).startswith(b"\x89PNG")
