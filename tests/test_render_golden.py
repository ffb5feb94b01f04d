"""Golden images: a few fixed views (render.rummy.samples) must keep looking the same.

Compared on 4x4 block averages with a tolerance: antialiasing noise from another Pillow or
FreeType build passes; a moved or recoloured card, a lost mark, or a line of text shifted by a
pixel fails (look at the actual image the failure names, then regenerate if it is fine).

After an intended change of the look (or of render/rummy/samples.py), regenerate and review them:

    RUMMY_UPDATE_GOLDEN=1 .venv/bin/pytest -q tests/test_render_golden.py
    git diff --stat tests/golden/   # then look at the new PNGs before committing
"""

from __future__ import annotations

import io
import os
from collections.abc import Callable
from dataclasses import replace
from pathlib import Path

import pytest
from PIL import Image, ImageChops, ImageStat

from render.lobby import render_lobby
from render.rummy import render_private, render_scores, render_table, samples


def _hebrew_table() -> bytes:
    """The demo table as a Hebrew group sees it: words from the catalog, laid out RTL."""
    from bot.core.narrate import picture_words
    from bot.i18n import t, using

    with using("he"):
        view = replace(
            samples.demo_table(),
            title="מניפולציה · " + t("Round {n}", n=2),
            status=t("{name}'s turn", name="בוב"),
            seats=tuple(replace(s, name=n) for s, n in zip(
                samples.SEATS, ("אליס", "בוב", "Carol", "מחשב 1"), strict=False)),
            words=picture_words(),
        )
    return render_table(view)


def _hebrew_private() -> bytes:
    """The demo private view in Hebrew (the title and hand tab as the bot makes them)."""
    from bot.core.narrate import picture_words
    from bot.games.rummy.screens import hand_label
    from bot.i18n import _, t, tn, using

    view = samples.demo_private()
    with using("he"):
        title = " · ".join(
            [_("Your turn"), t("you drew {n}", n=1), tn("{n} card", "{n} cards", 13)]
        )
        view = replace(view, title=title, words=picture_words(),
                       hand_label=hand_label(len(view.hand), view.sort))
    return render_private(view)

GOLDEN = Path(__file__).parent / "golden"
UPDATE = os.environ.get("RUMMY_UPDATE_GOLDEN") == "1"

CASES: dict[str, Callable[[], bytes]] = {
    "table": lambda: render_table(samples.demo_table()),
    "tahiti": lambda: render_table(samples.tahiti_table()),
    "private": lambda: render_private(samples.demo_private()),
    "scores": lambda: render_scores(samples.demo_scores()),
    "final": lambda: render_scores(samples.final_scores()),
    "lobby": lambda: render_lobby(samples.demo_lobby()),
    "table_he": _hebrew_table,
    "private_he": _hebrew_private,
}

BLOCK = 4  # compare 4x4 block averages: glyph edges that moved a pixel average out
MAX_DIFFERENT = 0.003  # share of blocks allowed to differ visibly
VISIBLE = 24  # a block differing by more than this (0-255, luminance) differs visibly
MAX_MEAN = 1.5  # mean absolute difference per channel, whole image


def difference(a: Image.Image, b: Image.Image) -> tuple[float, float]:
    """(share of visibly different blocks, mean absolute channel difference)."""
    a, b = a.convert("RGB"), b.convert("RGB")
    mean = sum(ImageStat.Stat(ImageChops.difference(a, b)).mean) / 3
    blocks = ImageChops.difference(a.reduce(BLOCK), b.reduce(BLOCK)).convert("L")
    visible = blocks.point(lambda v: 255 if v > VISIBLE else 0)
    return ImageStat.Stat(visible).mean[0] / 255, mean


@pytest.mark.parametrize("name", sorted(CASES))
def test_golden(name: str, tmp_path: Path) -> None:
    actual = Image.open(io.BytesIO(CASES[name]()))
    path = GOLDEN / f"{name}.png"
    if UPDATE:
        GOLDEN.mkdir(exist_ok=True)
        actual.save(path, optimize=True)
        pytest.skip(f"updated {path}")
    assert path.exists(), f"no golden {path}: run with RUMMY_UPDATE_GOLDEN=1 to create it"
    expected = Image.open(path)
    out = tmp_path / f"{name}_actual.png"
    assert actual.size == expected.size, f"size {actual.size} != {expected.size} (see {out})"
    share, mean = difference(actual, expected)
    if share > MAX_DIFFERENT or mean > MAX_MEAN:
        actual.save(out)
        pytest.fail(
            f"{name}: {share:.2%} of pixels differ, mean {mean:.2f} (actual image: "
            f"{out}; if the change is intended, regenerate with RUMMY_UPDATE_GOLDEN=1)"
        )


def test_golden_comparison_catches_a_moved_card() -> None:
    """The tolerance is loose enough for another font build, not for real changes."""
    base = Image.open(io.BytesIO(CASES["table"]())).convert("RGB")
    assert difference(base, base) == (0.0, 0.0)
    # every pixel one step off (as if antialiasing differed everywhere): passes
    shifted = base.point(lambda v: min(255, v + 1))
    assert difference(base, shifted)[0] <= MAX_DIFFERENT
    # one card drawn somewhere else: fails
    moved = base.copy()
    moved.paste(base.crop((20, 180, 70, 250)), (300, 420))
    share, mean = difference(base, moved)
    assert share > MAX_DIFFERENT or mean > MAX_MEAN
    # one card's suit colour changed (a 5 of hearts drawn black): fails
    recolored = base.copy()
    heart = base.crop((20, 180, 70, 250)).point(lambda v: 20 if v < 230 else v)
    recolored.paste(heart, (20, 180))
    share, mean = difference(base, recolored)
    assert share > MAX_DIFFERENT or mean > MAX_MEAN
