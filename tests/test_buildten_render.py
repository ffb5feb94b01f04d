"""Build-to-Ten's pictures: every face draws, the group's picture has no hand, sizes stay
under 200 KB (times are bench/render.py's rows, not a timed test)."""

from __future__ import annotations

import io

from PIL import Image

from bot.core.record import Record, SeatInfo
from bot.games.buildten import screens
from engine.buildten import DECK, new_game
from engine.buildten.cards import face
from render.buildten import (
    BuildPicture,
    SeatPicture,
    draw_buildten,
    render_buildten,
    sample_picture,
)


def test_every_face_draws():
    faces = sorted({face(c) for c in DECK})
    for i in range(0, len(faces), 5):
        picture = BuildPicture("t", "s", (), (SeatPicture("a", faces[i], 1, 1, ()),), 0,
                               hand=tuple(faces[i:i + 5]))
        assert render_buildten(picture)[:4] == b"\x89PNG"


def test_sizes_and_the_private_part():
    for seats in (2, 3, 4):
        group = sample_picture(seats, private=False)
        mine = sample_picture(seats)
        assert group.hand is None
        g, m = draw_buildten(group), draw_buildten(mine)
        assert g.width == m.width == 800 and m.height > g.height  # the hand: only privately
        assert len(render_buildten(mine)) < 200_000


def test_screens_paint_a_real_game():
    state = new_game(3, 8)
    record = Record(rulebook="buildten", game_name="build-to-ten",
                    seats=[SeatInfo("Ann", "ann"), SeatInfo("Bo", "bo"),
                           SeatInfo("Computer 1", None, None, "hard")])
    record.state = state.to_dict()
    table = screens.table_screen(1, record, state)
    private = screens.private_screen(1, record, state, state.turn)
    for screen in (table, private):
        image = Image.open(io.BytesIO(screen.image))
        assert image.width == 800 and len(screen.image) < 200_000
    assert screens._picture(record, state, None).hand is None
    assert len(screens._picture(record, state, state.turn).hand) == 5


def test_the_two_jokers_differ_without_a_word():
    """No word fits a card at phone size (tests/test_phone_pictures.py): the colour joker's
    four-colour band and the black joker's black band and frame tell them apart (RULES.md §6
    decision 12)."""
    def hand_of(joker: str) -> Image.Image:
        picture = BuildPicture("t", "s", (), (SeatPicture("a", "2H", 1, 1, ()),), 0,
                               hand=(joker,))
        image = draw_buildten(picture)
        return image.crop((0, image.height - 140, 120, image.height))

    shift, swap = hand_of("SHIFT"), hand_of("SWAP")
    band = [shift.getpixel((x, y)) != swap.getpixel((x, y))
            for x in range(shift.width) for y in range(shift.height)]
    assert sum(band) > 400  # the band (and the frame): hundreds of pixels, not a speck


def test_every_place_is_numbered_free_or_not(monkeypatch):
    """A free build-pile place says its number too (pile 2 · free): /play 7h 2 names it."""
    from render import widgets

    drawn: list[str] = []
    real = widgets.Canvas.text
    monkeypatch.setattr(widgets.Canvas, "text",
                        lambda self, x, y, text, *a, **k: drawn.append(text)
                        or real(self, x, y, text, *a, **k))
    draw_buildten(sample_picture(2))  # place 2 is free
    assert [f"pile {n}" for n in range(1, 5)] == [d for d in drawn if d.startswith("pile")]
    assert "free" in drawn and drawn.count("D1") == 2
