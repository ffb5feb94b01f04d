"""Screenshots of the web table at phone and desktop width, made in Debian's Chromium from a
real server and game (the browser tests' helpers): a seat's turn mid-edit (with the engine's
reason under Done), the round's result panel, a watcher, Rummikub in Hebrew, Build-to-Ten in
Russian. For docs/web/ and for looking at.

    .venv/bin/python scripts/web_screens.py [DIR]      # default docs/web
"""

from __future__ import annotations

import asyncio
import sys
import tempfile
from dataclasses import replace
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path[:0] = [str(ROOT), str(ROOT / "tests")]

from web_browser import ALICE, BOB, CHROMIUM, PHONE, close_web, open_web  # noqa: E402

from bot.store.migrate import upgrade  # noqa: E402

DESKTOP = {"width": 1280, "height": 800}
CHATS = iter(range(-100, -200, -1))  # a chat of its own for each game (one game a chat)


async def new_game(web, rulebook: str) -> int:
    """Alice and Bob at a new game in a chat of its own."""
    chat = str(next(CHATS))
    alice, bob = (replace(ALICE, chat_id=chat), replace(BOB, chat_id=chat))
    game = (await web.service.new_game(alice, rulebook)).game_id
    await web.lobby_press(bob, game, "join")
    await web.lobby_press(alice, game, "start")
    return game


async def shoot(browser, url: str, path: Path, *, wait: str, steps=None, lang_dir=None) -> None:
    for size, name in ((PHONE, "phone"), (DESKTOP, "desktop")):
        context = await browser.new_context(viewport=size, has_touch=size is PHONE,
                                            is_mobile=size is PHONE, device_scale_factor=1,
                                            reduced_motion="reduce")
        page = await context.new_page()
        await page.goto(url)
        await page.wait_for_selector(wait, timeout=10_000)
        if steps is not None:
            await steps(page)
        await page.wait_for_timeout(300)
        await page.screenshot(path=str(path.with_name(f"{path.stem}-{name}.png")), full_page=True)
        await context.close()


async def main(out: Path) -> None:
    from playwright.async_api import async_playwright

    out.mkdir(parents=True, exist_ok=True)
    with tempfile.TemporaryDirectory() as tmp:
        template = Path(tmp) / "template.db"
        await upgrade(f"sqlite+aiosqlite:///{template}")
        web, runner = await open_web(Path(tmp), template)
        try:
            async with async_playwright() as pw:
                browser = await pw.chromium.launch(executable_path=CHROMIUM,
                                                   args=["--no-sandbox", "--disable-gpu"])
                await screens(web, browser, out)
                await browser.close()
        finally:
            await close_web(web, runner)


async def screens(web, browser, out: Path) -> None:
    # Manipulation mid-turn: 5♥ laid alone (not a group yet: the reason under Done)
    game = await new_game(web, "manipulation")
    await web.rig(game, {0: ["5H", "6H", "QS", "2C", "9D", "JC"], 1: ["3D", "4D", "KC"]},
                  [["7H", "8H", "9H", "10H"], ["4S", "4D", "4C"]], turn=0)

    async def lay_one(page) -> None:
        if not await page.locator('[data-group="C"]').count():
            await page.locator('[data-hand] [data-card="5H"]').tap()
            await page.locator('[data-drop="new"]').tap()
        await page.wait_for_selector("[data-why]:not(:empty)", timeout=10_000)

    await shoot(browser, web.link(ALICE, game), out / "manipulation-turn",
                wait="[data-status]", steps=lay_one)
    await shoot(browser, web.link(None, game), out / "watcher", wait="[data-table]")
    # the round over: Alice went out
    game = await new_game(web, "manipulation")
    await web.rig(game, {0: ["5H", "6H"], 1: ["3D", "4D", "KC"]}, [["7H", "8H", "9H", "10H"]])
    context = await browser.new_context(viewport=PHONE, has_touch=True, is_mobile=True)
    page = await context.new_page()
    await page.goto(web.link(ALICE, game))
    await page.wait_for_selector('[data-hand] [data-card="5H"]')
    for face in ("5H", "6H"):
        await page.locator(f'[data-hand] [data-card="{face}"]').tap()
    await page.locator('[data-drop="new"]').tap()
    await page.wait_for_selector('[data-group="B"] [data-card="6H"]')
    await page.locator('[data-group="A"] [data-card="7H"]').tap()
    await page.locator('[data-group="B"] button.gl').tap()
    await page.wait_for_selector('[data-group="B"] [data-card="7H"]')
    await page.locator('[data-action="done"]').tap()
    await page.wait_for_selector("[data-result]")
    await context.close()
    await shoot(browser, web.link(ALICE, game), out / "result", wait="[data-result]")
    # Rummikub in Hebrew, Bob's last move marked on Alice's table
    game = await new_game(web, "rummikub")
    await web.rig(game, {0: ["10R", "11R", "12R", "3B", "5K", "7O", "1O"],
                         1: ["9B", "10B", "11B", "2K"]}, [["4K", "4R", "4B"]], turn=0)
    await shoot(browser, web.link(ALICE, game, lang="he"), out / "rummikub-he",
                wait='[data-hand] [data-card="10R"]')
    # Build-to-Ten in Russian
    game = await new_game(web, "build-to-ten")
    record = await web.record(game)
    me = BOB if record.state["turn"] == 1 else ALICE
    await shoot(browser, web.link(me, game, lang="ru"), out / "buildten-ru",
                wait="[data-hand] [data-card]")


if __name__ == "__main__":
    asyncio.run(main(Path(sys.argv[1]) if len(sys.argv) > 1 else ROOT / "docs" / "web"))
