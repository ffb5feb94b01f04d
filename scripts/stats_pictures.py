"""/stats' and /leaderboard's pictures as a phone shows them (400 px wide), in English, Hebrew
and Russian, from a made-up player: docs/stats_<lang>.png, docs/board_<lang>.png and a season's
final standings, docs/season_<lang>.png (issue 41).

    .venv/bin/python scripts/stats_pictures.py            # into docs/
    .venv/bin/python scripts/stats_pictures.py --out /tmp/pictures
"""

from __future__ import annotations

import argparse
import io
import random
import sys
from datetime import UTC, datetime, timedelta
from pathlib import Path

from PIL import Image

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from bot.core.seasons import SEASON_FINAL, standings_screen  # noqa: E402
from bot.core.stat_pictures import board_screen, stats_screen  # noqa: E402
from bot.i18n import _, using  # noqa: E402
from bot.store import LeaderRow, PlayerStats, RulebookStats, SeasonRow  # noqa: E402

PHONE = 400
NAMES = {"en": ("Dana", "Oleg", "Yossi"), "he": ("דנה", "אולג", "יוסי"),
         "ru": ("Дана", "Олег", "Йоси")}
TITLES = ("Manipulation", "Rummikub", "Build-to-Ten")


def sample(name: str) -> PlayerStats:
    rng = random.Random(41)
    rating, curve = 0.0, []
    start = datetime(2026, 11, 1, tzinfo=UTC)
    for day in range(30):
        rating = max(0.0, rating + rng.uniform(-1.5, 2.5))
        curve.append((start + timedelta(days=day), rating))
    books = [RulebookStats(book, games, wins, 0.0, best)
             for book, games, wins, best in (("manipulation", 20, 9, 0), ("rummikub", 12, 5.5, 4),
                                             ("build-to-ten", 10, 3, 2))]
    return PlayerStats(name, 42, 17.5, 17.5 / 42, 23.4, rating, [], curve, books)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--out", type=Path, default=ROOT / "docs")
    args = parser.parse_args()
    args.out.mkdir(parents=True, exist_ok=True)
    books = dict(zip(("manipulation", "rummikub", "build-to-ten"), TITLES, strict=True))
    for lang, (dana, oleg, yossi) in NAMES.items():
        with using(lang):
            rows = [LeaderRow(dana, 27.4, 42, 17.5, 0.42, 23, False),
                    LeaderRow("🤖 " + _("hard"), 24.1, 100, 60, 0.6, 10, True),
                    LeaderRow(oleg, 20.0, 12, 3, 0.25, 30, False),
                    LeaderRow(yossi, 15.2, 8, 2, 0.25, 30, False)]
            pictures = {
                "stats": stats_screen(sample(dana), "", lambda b: _(books.get(b, b))).image,
                "board": board_screen(rows, _("🏆 Leaderboard — {scope} · {variant}").format(
                    scope=_("this chat"), variant=_("all rulebooks")), "", "").image,
                "season": standings_screen(_(SEASON_FINAL).format(season="2026-11"), [
                    SeasonRow(dana, 14, 8, 3), SeasonRow(oleg, 11, 7, 2),
                    SeasonRow(yossi, 6, 4, 1), SeasonRow("Sam", 3, 3, 0)], lang).image,
            }
        for kind, png in pictures.items():
            image = Image.open(io.BytesIO(png)).convert("RGB")
            small = image.resize((PHONE, round(image.height * PHONE / image.width)),
                                 Image.Resampling.LANCZOS)
            path = args.out / f"{kind}_{lang}.png"
            small.save(path, optimize=True)
            print(f"{path}  {small.width}x{small.height}  {path.stat().st_size / 1024:.1f} KB")


if __name__ == "__main__":
    main()
