"""The party's lobby at phone width, for the README (docs/party_lobby.png): a real party
server (tests/test_party.py's) and Debian's Chromium, three phones joined, the host's view with
Rummikub picked and a computer added, the address and its QR code.

    .venv/bin/python scripts/party_screens.py [PATH]      # default docs/party_lobby.png
"""

from __future__ import annotations

import asyncio
import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path[:0] = [str(ROOT), str(ROOT / "tests")]

from test_party import close_room, open_room  # noqa: E402
from web_browser import CHROMIUM, PHONE  # noqa: E402

from bot.store.migrate import upgrade  # noqa: E402
from bot.web.party import addresses  # noqa: E402


async def main(out: Path) -> None:
    from playwright.async_api import async_playwright

    with tempfile.TemporaryDirectory() as tmp:
        path = Path(tmp) / "party.db"
        await upgrade(f"sqlite+aiosqlite:///{path}")
        room = await open_room(path, host="0.0.0.0")
        port = room.runner.addresses[0][1]
        room.party.address = addresses("0.0.0.0", port)[0]  # what `rummy party` prints
        try:
            async with async_playwright() as pw:
                browser = await pw.chromium.launch(executable_path=CHROMIUM,
                                                   args=["--no-sandbox", "--disable-gpu"])
                pages = []
                for name in ("Noa", "Misha", "Sam"):
                    context = await browser.new_context(viewport=PHONE, has_touch=True,
                                                        is_mobile=True, device_scale_factor=1,
                                                        reduced_motion="reduce")
                    page = await context.new_page()
                    await page.goto(room.party.address)
                    await page.wait_for_selector("#name", timeout=10_000)
                    await page.fill("#name", name)
                    await page.locator('button[data-do="join"]').tap()
                    await page.wait_for_selector("[data-seats] li.me", timeout=10_000)
                    pages.append(page)
                host = pages[0]
                await host.locator('select[data-choose="game"]').select_option("rummy/rummikub")
                await host.wait_for_selector('[data-game-title]:text-matches("^Rummikub")')
                await host.locator('button[data-do="cpu"][data-arg="medium"]').tap()
                await host.wait_for_selector("[data-seats] li:nth-child(4)")
                await host.wait_for_timeout(300)
                out.parent.mkdir(parents=True, exist_ok=True)
                await host.screenshot(path=str(out), full_page=True)
                await browser.close()
        finally:
            await close_room(room)
    print(out)


if __name__ == "__main__":
    asyncio.run(main(Path(sys.argv[1]) if len(sys.argv) > 1 else ROOT / "docs" / "party_lobby.png"))
