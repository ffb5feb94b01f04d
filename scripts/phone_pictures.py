"""The pictures as a phone shows them: 400 px wide, in English, Hebrew and Russian, with five
seats (four computers) — to look at legibility (issue 28, item 8), not for committing.

    .venv/bin/python scripts/phone_pictures.py /tmp/phone
"""

from __future__ import annotations

import io
import sys
from dataclasses import replace
from pathlib import Path

from PIL import Image

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from bot.core import narrate
from bot.i18n import LANGUAGES, fill, strip_bidi, t, using
from render.buildten import render_buildten, sample_picture
from render.lobby import render_lobby
from render.rummy import render_private, render_scores, render_table, samples
from render.views import SeatStrip

PHONE = 400  # px: a photo's width in a chat on a 360-px-wide phone, about


def five_seats() -> tuple[SeatStrip, ...]:
    """Dana and four computers, named as the lobby names them (in the reader's language)."""
    computers = [strip_bidi(fill(narrate.COMPUTER_NAME, number=k)) for k in range(1, 5)]
    return (SeatStrip("Dana", 6, 35, False),
            *(SeatStrip(name, 9 + k, 40 + 15 * k, k == 0, True)
              for k, name in enumerate(computers)))


def pictures(lang: str) -> dict[str, bytes]:
    with using(lang):
        words = narrate.picture_words()
        title = t("Round {n}", n=2)
        turn = strip_bidi(t("{name}'s turn", name=five_seats()[1].name))
        table = replace(samples.demo_table(), seats=five_seats(), words=words,
                        title=title, status=turn)
        return {
            "table": render_table(table),
            "private": render_private(replace(samples.demo_private(), words=words)),
            "scores": render_scores(samples.demo_scores()),
            "lobby": render_lobby(samples.demo_lobby()),
            **buildten_pictures(),
        }


def buildten_pictures() -> dict[str, bytes]:
    """Build-to-Ten's group and private pictures (in the current language), four seats named
    as `five_seats` names the first four; one stock used up, a joker on a pile and in a hand."""
    from bot.games.buildten.screens import picture_words

    names = [s.name for s in five_seats()[:4]]
    out = {}
    for key, private in (("buildten", False), ("buildten_private", True)):
        sample = sample_picture(4, private)
        seats = tuple(replace(seat, name=names[k], face_up=None if k == 3 else seat.face_up,
                              stock=0 if k == 3 else seat.stock)
                      for k, seat in enumerate(sample.seats))
        builds = (*sample.builds[:3], ("SHIFT", 3))
        out[key] = render_buildten(replace(
            sample, seats=seats, builds=builds, words=picture_words(),
            title=t("Build-to-Ten"), status=strip_bidi(t("{name}'s turn", name=names[1]))))
    out["buildten_review"] = buildten_review()
    return out


def buildten_review() -> bytes:
    """Build-to-Ten's review picture (issue 32) of a turn with the most to show: the four
    discard piles, a joker in the hand, a pile that reaches 10 and opens again."""
    from bot.games.buildten.review import review_view
    from engine.buildten import Discard, scripted
    from engine.buildten.review import review, seat_decisions
    from render.buildten.review import render_review

    start = scripted([["2H", "9S"], ["8C", "7D"]], [["AC", "QS", "SHIFT", "KD", "7S"], ["2S"]],
                     builds=[["AS", "2D", "3D"], ["AH"], [],
                             ["AD", "2C", "3C", "4C", "5C", "6C", "7C", "8C"]],
                     discards=[[["9D", "8D", "6D", "5H", "4H", "3H"], ["10D"], ["6S"], ["KS"]]])
    decisions = seat_decisions(start, [Discard(0, "7S#0", 1)], 0)
    return render_review(review_view(review(decisions), decisions))


def phone(data: bytes) -> Image.Image:
    image = Image.open(io.BytesIO(data)).convert("RGB")
    return image.resize((PHONE, round(image.height * PHONE / image.width)),
                        Image.Resampling.LANCZOS)


def main() -> None:
    out = Path(sys.argv[1] if len(sys.argv) > 1 else "/tmp/phone")
    out.mkdir(parents=True, exist_ok=True)
    for lang in LANGUAGES:
        for name, data in pictures(lang).items():
            path = out / f"{name}_{lang}.png"
            phone(data).save(path)
            print(path)


if __name__ == "__main__":
    main()
