"""The web table's browser tests' helpers: Debian's Chromium driven by Playwright, a game
service with the web table on loopback, rigged deals, touch drags through the DevTools protocol.

No Chromium: the tests skip with the reason — and fail under CI=true (.ci/run installs it)."""

from __future__ import annotations

import contextlib
import os
import shutil
import time
from collections.abc import AsyncIterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import pytest
import pytest_asyncio

from bot.core.record import Record
from bot.core.service import Actor, GameService, pack
from bot.games import default_games
from bot.games.rummy.records import state_of
from bot.store import Store
from bot.web.auth import link_token, watch_param
from bot.web.server import WebServer, serve
from bot.web.table import WebTable
from engine.buildten.state import BuildState
from engine.rummy.state import conservation_errors

CHROMIUM = os.environ.get("RUMMY_CHROMIUM") or shutil.which("chromium") or "/usr/bin/chromium"
PHONE = {"width": 390, "height": 844}
SHOTS = Path(os.environ.get("RUMMY_SHOTS", "/tmp/rummy-web-shots"))
SECRET = b"0123456789abcdef0123456789abcdef"
BOT_TOKEN = "123456:TEST-token"
ALICE = Actor("test", "-1", "1", "Alice")
BOB = Actor("test", "-1", "2", "Bob")


def need_chromium() -> None:
    try:
        import playwright  # noqa: F401
    except ImportError:
        reason = "playwright is not installed (pip install -e '.[dev]')"
    else:
        if Path(CHROMIUM).exists():
            return
        reason = f"no Chromium at {CHROMIUM} (apt-get install chromium; README 'Web table')"
    if os.environ.get("CI") == "true":
        pytest.fail(reason)
    pytest.skip(reason)


@dataclass
class Web:
    service: GameService
    store: Store
    server: WebServer
    base: str
    delivered: list = field(default_factory=list)

    def link(self, actor: Actor | None, game: int, lang: str = "en") -> str:
        if actor is None:  # a watcher: the game's watch link, as its chat was posted
            return f"{self.base}/web/table?g={watch_param(SECRET, game)}"
        token = link_token(SECRET, actor.platform, actor.user, actor.name, game, lang,
                           time.time())
        return f"{self.base}/web/table?g={game}&k={token}"

    async def build_state(self, game: int) -> tuple[Any, Record, BuildState]:
        """A Build-to-Ten game's row, record and engine state, to rig and `save_build`."""
        row = await self.store.get_game(game)
        record = Record.from_dict(row.record)
        state = BuildState.from_dict({k: v for k, v in record.state.items() if k != "lesson"})
        return row, record, state

    async def save_build(self, game: int, row: Any, record: Record, state: BuildState) -> None:
        record.state = {**record.state, **state.to_dict()}
        await self.store.save_game(game, record.to_dict(), expected_version=row.version)

    async def record(self, game: int) -> Record:
        return Record.from_dict((await self.store.get_game(game)).record)

    async def lobby_press(self, actor: Actor, game: int, action: str) -> Any:
        row = await self.store.get_game(game)
        return await self.service.press(actor, pack(game, row.record.get("lobby_version", 0),
                                                    action))

    async def game(self, rulebook: str, *others: Actor, levels: tuple[str, ...] = ()) -> int:
        out = await self.service.new_game(ALICE, rulebook)
        game = out.game_id
        for actor in others:
            await self.lobby_press(actor, game, "join")
        for level in levels:
            await self.lobby_press(ALICE, game, f"cpu:{level}")
        await self.lobby_press(ALICE, game, "start")
        return game

    async def rig(self, game: int, hands: dict[int, list[str]], table: list[list[str]],
                  turn: int = 0) -> None:
        """These hands (seat -> faces), this table, `turn` to move; the rest in the stock:
        every card still in exactly one place."""
        row = await self.store.get_game(game)
        record = Record.from_dict(row.record)
        state = state_of(record)
        pool = state.stock + [c for h in state.hands for c in h] + [
            c for g in state.table for c in g]

        def take(face: str):
            card = next(c for c in pool if c.face == face)
            pool.remove(card)
            return card

        state.hands = [[take(f) for f in hands.get(i, [])] for i in range(len(state.hands))]
        state.table = [[take(f) for f in group] for group in table]
        state.stock = pool
        state.turn, state.draft, state.hint = turn, None, None
        assert not conservation_errors(state)
        record.state = state.to_dict()
        record.seat_ui(turn).notice = ""
        await self.store.save_game(game, record.to_dict(), expected_version=row.version)


async def open_web(tmp_path: Path, template: Path, *, bot_token: str | None = BOT_TOKEN,
                   clock: Any = time.time, games: Any = None) -> tuple[Web, Any]:
    path = tmp_path / "web.db"
    shutil.copy(template, path)
    store = await Store.open(f"sqlite+aiosqlite:///{path}")
    service = GameService(store, games=games or default_games(), computer_delay=0, tick=0.05)
    web = Web(service, store, WebServer(WebTable(service), SECRET, bot_token=bot_token,
                                         clock=clock), "")

    async def deliver(outcome: Any) -> None:
        web.delivered.append(outcome)

    service.register("test", deliver)
    await service.start()
    runner = await serve(web.server, "127.0.0.1", 0)
    web.base = f"http://127.0.0.1:{runner.addresses[0][1]}"
    return web, runner


async def close_web(web: Web, runner: Any) -> None:
    await web.server.close_all()
    await runner.cleanup()
    await web.service.stop()
    await web.store.close()


async def touch_drag(page: Any, source: Any, target: Any, steps: int = 6) -> None:
    """A finger's drag from `source` to `target`, as touch events through the DevTools
    protocol (what a phone sends; the page sees pointer events)."""
    cdp = await page.context.new_cdp_session(page)
    a, b = await source.bounding_box(), await target.bounding_box()
    x0, y0 = a["x"] + a["width"] / 2, a["y"] + a["height"] / 2
    x1, y1 = b["x"] + b["width"] / 2, b["y"] + b["height"] / 2
    await cdp.send("Input.dispatchTouchEvent",
                   {"type": "touchStart", "touchPoints": [{"x": x0, "y": y0}]})
    for i in range(1, steps + 1):
        x, y = x0 + (x1 - x0) * i / steps, y0 + (y1 - y0) * i / steps
        await cdp.send("Input.dispatchTouchEvent",
                       {"type": "touchMove", "touchPoints": [{"x": x, "y": y}]})
    await cdp.send("Input.dispatchTouchEvent", {"type": "touchEnd", "touchPoints": []})
    await cdp.detach()


# -- fixtures (imported by the browser test modules) ----------------------------------------
# One Chromium for a whole module (tests run in the module's event loop: `pytestmark` there
# says `asyncio(loop_scope="module")`); a new context, page and game service for each test.


@pytest_asyncio.fixture(scope="module", loop_scope="module")
async def browser():
    need_chromium()
    from playwright.async_api import async_playwright

    async with async_playwright() as pw:
        chromium = await pw.chromium.launch(executable_path=CHROMIUM,
                                            args=["--no-sandbox", "--disable-gpu"])
        try:
            yield chromium
        finally:
            await chromium.close()


@contextlib.asynccontextmanager
async def serving(tmp_path: Path, template: Path) -> AsyncIterator[Web]:
    """A game service and its web table on loopback, for one test."""
    opened, runner = await open_web(tmp_path, template)
    try:
        yield opened
    finally:
        await close_web(opened, runner)


@pytest_asyncio.fixture(loop_scope="module")
async def web(tmp_path, sqlite_template):
    async with serving(tmp_path, sqlite_template) as opened:
        yield opened


# a browser test module's marks: the slow tier, the module's event loop (one Chromium), its
# contexts closed after each test
BROWSER_TESTS = [pytest.mark.e2e, pytest.mark.asyncio(loop_scope="module"),
                 pytest.mark.usefixtures("contexts")]
OPEN: list = []  # the running test's browser contexts (`contexts` closes them after it)


async def new_context(browser: Any, **options: Any) -> Any:
    context = await browser.new_context(**options)
    OPEN.append(context)
    return context


@pytest_asyncio.fixture(loop_scope="module")
async def contexts():
    yield
    while OPEN:
        await OPEN.pop().close()
