"""Texts cut to Telegram's limits in UTF-16 units, cleanly (bot/core/cut.py)."""

from __future__ import annotations

from hypothesis import given, settings
from hypothesis import strategies as st

from bot.core.cut import ELLIPSIS, cut, graphemes, short_name, utf16_units

FAMILY = "👩\u200d👩\u200d👧"  # one grapheme, 8 units
FLAG = "🇮🇱"
ACCENT = "e\u0301"
FSI, PDI = "\u2068", "\u2069"


def test_units_are_telegrams():
    assert utf16_units("abc") == 3
    assert utf16_units("😀") == 2 == len("😀".encode("utf-16-le")) // 2
    assert utf16_units(FAMILY) == 8


def test_a_text_that_fits_is_kept_whole():
    assert cut("😀" * 512, 1024) == "😀" * 512


def test_the_cut_counts_units_not_characters():
    text = "😀" * 600  # 600 characters, 1200 units: `text[:1024]` was 2048 units
    out = cut(text, 1024)
    assert utf16_units(out) <= 1024 and out == "😀" * 511 + ELLIPSIS


def test_no_grapheme_is_split():
    for piece in (FAMILY, FLAG, ACCENT, "👍🏽", "1\ufe0f\u20e3"):
        text = "ab " + piece * 10
        for limit in range(3, utf16_units(text)):
            out = cut(text, limit)
            assert utf16_units(out) <= limit
            body = out[: -len(ELLIPSIS)]
            assert text.startswith(body)
            assert list(graphemes(body)) == list(graphemes(text))[: len(list(graphemes(body)))]


def test_an_isolate_cut_open_is_closed():
    text = "Turn: " + FSI + "שלום עולם" + PDI + " · stock 40"
    out = cut(text, 12)
    assert out.count(FSI) == out.count(PDI) == 1 and out.endswith(ELLIPSIS + PDI)
    assert utf16_units(out) <= 12


@settings(max_examples=500, deadline=None)
@given(st.text(max_size=200), st.integers(0, 300))
def test_cut_is_bounded_and_a_clean_head(text, limit):
    out = cut(text, limit)
    assert utf16_units(out) <= limit
    out.encode("utf-8")  # no lone surrogate
    if out != text and out:
        body = out[: out.rindex(ELLIPSIS)]
        assert text.startswith(body)


def test_short_names_stay_told_apart():
    computers = [short_name(f"🤖 Computer {n}", 8) for n in range(1, 6)]
    assert computers == ["🤖 1", "🤖 2", "🤖 3", "🤖 4", "🤖 5"]
    people = [short_name("😀" * 31 + e, 16) for e in "🍎🍐🍊🍋🍌"]
    assert len(set(people)) == 5 and all(utf16_units(p) <= 16 for p in people)
    assert short_name("Alexandra Smith", 10) != short_name("Alexandra Smyth", 10)
    assert short_name("Ann", 8) == "Ann"
