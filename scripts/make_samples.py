"""Write the sample pictures in docs/ (docs/sample_*.png) from render.rummy.samples.

    .venv/bin/python scripts/make_samples.py                     # docs/sample_*.png
    .venv/bin/python scripts/make_samples.py --phone /tmp/phone  # + copies 500 px wide

The --phone copies show roughly what a chat app displays (photos ~400-600 px wide): judge
legibility on those. They are for looking at, not for committing.
"""

from __future__ import annotations

import argparse
import io
import sys
from pathlib import Path

from PIL import Image

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from render.lobby import render_lobby
from render.rummy import (
    render_private,
    render_scores,
    render_table,
    samples,
)

ROOT = Path(__file__).resolve().parent.parent
SAMPLES = {
    "table": lambda: render_table(samples.demo_table()),
    "table_4color": lambda: render_table(samples.demo_table(four_color=True)),
    "table_100": lambda: render_table(samples.big_table(100)),
    "tahiti": lambda: render_table(samples.tahiti_table()),
    "private": lambda: render_private(samples.demo_private()),
    "private_by_rank": lambda: render_private(samples.demo_private("rank", four_color=True)),
    "private_20": lambda: render_private(samples.big_private(20)),
    "scores": lambda: render_scores(samples.demo_scores()),
    "scores_carousel": lambda: render_scores(samples.carousel_scores()),
    "final": lambda: render_scores(samples.final_scores()),
    "result": lambda: render_scores(samples.single_result()),
    "lobby": lambda: render_lobby(samples.demo_lobby()),
}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--out", type=Path, default=ROOT / "docs")
    parser.add_argument("--phone", type=Path, help="also write 500 px wide copies here")
    args = parser.parse_args()
    args.out.mkdir(parents=True, exist_ok=True)
    for name, make in SAMPLES.items():
        data = make()
        path = args.out / f"sample_{name}.png"
        path.write_bytes(data)
        image = Image.open(io.BytesIO(data))
        print(f"{path}  {image.width}x{image.height}  {len(data) / 1024:.1f} KB")
        if args.phone:
            phone = args.phone
            phone.mkdir(parents=True, exist_ok=True)
            scale = 500 / image.width
            small = image.convert("RGB").resize(
                (500, round(image.height * scale)), Image.Resampling.LANCZOS
            )
            small.save(phone / f"sample_{name}.png")


if __name__ == "__main__":
    main()
