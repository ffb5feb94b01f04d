"""Every button label shows uncut on a 360-px-wide phone's Telegram keyboard at its row's
button count, in every language (issue 28, item 6; the measure: tests/button_widths.py)."""

from __future__ import annotations

import pytest
from button_widths import KEYBOARD, SIZE, measured, room, width

from bot.i18n import LANGUAGES, using


def test_the_measure_is_the_fonts():
    assert room(1) == KEYBOARD - 10 and room(2) < KEYBOARD / 2
    assert width("WWW") > width("iii") > 0  # advance widths, not a count of characters
    assert width("💡") == pytest.approx(1.2 * SIZE)
    assert width("Новая комбинация") > room(5)  # today's five-a-row labels were cut


@pytest.mark.parametrize("lang", LANGUAGES)
def test_every_label_fits_its_row(lang):
    cut = [(label, n, round(w)) for label, n, w, r in measured(lang) if w > r]
    assert not cut, cut


@pytest.mark.parametrize("lang", LANGUAGES)
def test_an_options_values_never_read_alike(lang):
    from button_widths import lobby_rows

    for row in lobby_rows(lang):
        assert len(set(row)) == len(row), row
        heads = {label.lstrip("✓ ")[:12] for label in row}
        assert len(row) < 2 or len(heads) == len(row), row  # not "обязательный ход: …" twice


def test_russian_reset_and_give_up_say_what_they_do():
    """«Сброс» was both Reset and Build-to-Ten's discard pile; «Сдаться» read as conceding."""
    from bot.i18n import _

    with using("ru"):
        reset, give_up = _("↺ Reset"), _("Give up (+3)")
        discard = _("discards")
    assert "сброс" not in reset.lower() and "сброс" in discard.lower()
    assert "сда" not in give_up.lower()
