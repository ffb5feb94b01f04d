"""The toy third game's web table in a real browser (Chromium at phone size, touch): the same
shared page as rummy's and Build-to-Ten's draws its board from its wing (tests/toy_game/
board.js), says its words, and its "+n" buttons play it to the result panel against a
computer; a Hebrew reader's page speaks Hebrew, right to left."""

from __future__ import annotations

import re

import pytest_asyncio
from all_games import GAMES
from web_browser import (  # noqa: F401  (browser, contexts: fixtures)
    ALICE,
    BROWSER_TESTS,
    PHONE,
    browser,
    close_web,
    contexts,
    new_context,
    open_web,
)

pytestmark = BROWSER_TESTS
TOTAL = re.compile(r"(\d+) of (\d+)")


@pytest_asyncio.fixture(loop_scope="module")  # (the browser's loop: web_browser.py)
async def race_web(tmp_path, sqlite_template):
    opened, runner = await open_web(tmp_path, sqlite_template, games=GAMES)
    try:
        yield opened
    finally:
        await close_web(opened, runner)


async def phone(browser, url: str):
    context = await new_context(browser, viewport=PHONE, has_touch=True, is_mobile=True)
    page = await context.new_page()
    await page.goto(url)
    return page


async def test_the_toy_game_is_played_on_the_web_page(browser, race_web):
    game = await race_web.game("race twenty", levels=("easy",))
    page = await phone(browser, race_web.link(ALICE, game))
    await page.wait_for_selector("[data-total]")
    assert await page.locator("[data-cell]").count() == 20  # its own board, from its wing
    for _turn in range(20):
        await page.wait_for_selector('body[data-mine="yes"], [data-result]')  # (strict CSP)
        if await page.locator("[data-result]").count():
            break
        version = await page.evaluate("document.body.dataset.version")
        total = int(await page.locator("[data-total]").get_attribute("data-total"))
        n = (20 - total) % 3 or 1  # the winning line against an easy computer's 1s (step 2)
        await page.locator(f'[data-action="plus{n}"]').tap()
        await page.wait_for_selector(f'body:not([data-version="{version}"])')
    result = page.locator("[data-result]")
    assert "Alice wins the race" in await result.inner_text()
    record = await race_web.record(game)
    assert record.state["winner"] == 0 and record.state["total"] == 20


async def test_the_toy_games_page_speaks_hebrew(browser, race_web):
    game = await race_web.game("race ten", levels=("easy",))
    page = await phone(browser, race_web.link(ALICE, game, lang="he"))
    await page.wait_for_selector("[data-total]")
    header = await page.locator("header").inner_text()
    assert "סך הכול" in header and "total" not in header
    assert await page.evaluate("document.documentElement.dir") == "rtl"
