"""The puzzle of the day as a phone shows it (400 px wide), in English, Hebrew and Russian:
docs/puzzle_<lang>.png (the day's post) and docs/puzzle_solution_<lang>.png (the next day's
answer), cut from a seeded computer game of Manipulation as the sweep cuts a chat's games
(issue 41 item 5).

    .venv/bin/python scripts/puzzle_pictures.py            # into docs/
    .venv/bin/python scripts/puzzle_pictures.py --out /tmp/pictures
"""

from __future__ import annotations

import argparse
import io
import sys
from pathlib import Path

from PIL import Image

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from bot.core.record import Record, SeatInfo  # noqa: E402
from bot.games import default_games  # noqa: E402
from bot.i18n import using  # noqa: E402
from engine.rummy.playout import play_game  # noqa: E402
from engine.rummy.rulebooks import get_rulebook  # noqa: E402

PHONE = 400
SEED = 2  # a game whose best puzzle rearranges the table (tests/test_puzzle_cut.py's)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--out", type=Path, default=ROOT / "docs")
    args = parser.parse_args()
    args.out.mkdir(parents=True, exist_ok=True)
    state = play_game(get_rulebook("manipulation"), ["easy", "medium", "hard"], SEED,
                      check=False).state
    record = Record(rulebook="manipulation", state=state.to_dict(), seed=SEED,
                    seats=[SeatInfo(n, user=str(i)) for i, n in enumerate(("A", "B", "C"))])
    rummy = default_games()["rummy"]
    cut = rummy.puzzle_cut(record)
    assert cut is not None
    _score, data = cut
    for lang in ("en", "he", "ru"):
        with using(lang):
            pictures = {"puzzle": rummy.puzzle_post(data, "2026-12-07"),
                        "puzzle_solution": rummy.puzzle_solution(data, "2026-12-07")}
            for kind, screen in pictures.items():
                assert screen.painter is not None
                image = Image.open(io.BytesIO(screen.painter())).convert("RGB")
                small = image.resize((PHONE, round(image.height * PHONE / image.width)),
                                     Image.Resampling.LANCZOS)
                path = args.out / f"{kind}_{lang}.png"
                small.save(path, optimize=True)
                print(f"{path}  {small.width}x{small.height}  "
                      f"{path.stat().st_size / 1024:.1f} KB  {screen.text.splitlines()[0]}")


if __name__ == "__main__":
    main()
