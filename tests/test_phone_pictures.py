"""The pictures on a phone (issue 28, item 8): a chat shows a picture about 400 px wide, so at
that width every word and number drawn — cards left, points, group letters, hand numbers, the
legend, the scores; Build-to-Ten's pile numbers and what each needs, stock and hand counts,
discard places D1–D4 and their buried cards (scripts/phone_pictures.py draws its group and
private pictures too) — is at least 11 px (its font's size, scaled), and five seats keep five
different, uncut names. Measured on what the renderers really draw (every Canvas.text call).
`scripts/phone_pictures.py DIR` writes these pictures at phone width, to look at."""

from __future__ import annotations

import io
import sys
from pathlib import Path

import pytest
from PIL import Image

from bot.i18n import LANGUAGES, using
from render import widgets
from render.fonts import clean
from render.layout import PHONE

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "scripts"))
from phone_pictures import pictures

MIN_PX = 11  # on the phone


@pytest.fixture
def drawn(monkeypatch):
    """Every text a renderer draws: (text, font size, cut with an ellipsis)."""
    seen: list[tuple[str, int, bool]] = []
    real = widgets.Canvas.text

    def spy(self, x, y, text, f, fill, max_width=None, *args, **kwargs):
        whole = clean(text)
        cut = max_width is not None and widgets._fit(whole, f, max_width) != whole
        seen.append((text, f.size, cut))
        return real(self, x, y, text, f, fill, max_width, *args, **kwargs)

    monkeypatch.setattr(widgets.Canvas, "text", spy)
    return seen


@pytest.mark.parametrize("lang", LANGUAGES)
def test_every_text_is_legible_at_phone_width(drawn, lang):
    made = pictures(lang)  # the table, a hand, the scores, the lobby: all drawn as wide
    (width,) = {Image.open(io.BytesIO(data)).width for data in made.values()}
    small = {(text, size) for text, size, _cut in drawn if size * PHONE / width < MIN_PX}
    assert not small, sorted(small)[:8]


@pytest.mark.parametrize("lang", LANGUAGES)
def test_five_seats_show_five_names_uncut(drawn, lang):
    from phone_pictures import five_seats

    pictures(lang)
    with using(lang):
        names = {s.name for s in five_seats()}
    assert len(names) == 5
    shown = [(text, cut) for text, _size, cut in drawn if any(n in text for n in names)]
    assert {n for n in names if any(n in text for text, _cut in shown)} == names
    assert not [text for text, cut in shown if cut], shown
