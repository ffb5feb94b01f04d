"""`rummy play --web`: the web table on 127.0.0.1 against computer players, no token needed.

The game is the terminal's (its own SQLite file, its "console" platform, its one person), so
an unfinished one is picked up again; the page is opened by a signed link for that person.
"""

from __future__ import annotations

import asyncio
import random
import secrets
from collections.abc import Callable

from bot.adapters.console import PLATFORM, USER, ConsoleGame, Setup
from bot.clock import REAL
from bot.core.fair_use import FairUse
from bot.core.service import GameService
from bot.games import default_games

from .auth import link_token
from .server import WebServer, serve
from .table import WebTable

LINK_DAYS = 7


async def play_web(setup: Setup, *, url: str, seed: int | None = None, new: bool = False,
                   name: str = "You", lang: str = "", host: str = "127.0.0.1", port: int = 8765,
                   write: Callable[[str], None] = print,
                   stop: asyncio.Event | None = None) -> None:
    """Open (or resume) the terminal's game and serve its web table until `stop` is set."""
    from bot.store import Store

    store = await Store.open(url)
    # a frozen clock: no turn timer for a person at their own page; computers take a moment
    service = GameService(store, games=default_games(), computer_delay=0.7, clock=lambda: 0.0,
                          rng=random.Random(seed) if seed is not None else None)
    unlimited = float("inf")
    service.fair_use = FairUse(user_rate=unlimited, user_burst=unlimited,
                               chat_rate=unlimited, chat_burst=unlimited)
    console = ConsoleGame(service, name=name, write=lambda _text: None, lang=lang)
    secret = secrets.token_bytes(32)
    server = WebServer(WebTable(service), secret)
    runner = None
    try:
        await service.start()
        if not await console.open(setup, new=new) or console.game_id is None:
            write("✗ the game could not be opened")
            return
        runner = await serve(server, host, port)
        bound = runner.addresses[0][1] if runner.addresses else port
        link = link_token(secret, PLATFORM, USER, name, console.game_id, lang, REAL.now(),
                          seconds=LINK_DAYS * 86400)
        write(f"The table is at http://{host}:{bound}/web/table?g={console.game_id}&k={link}")
        write("(Ctrl-C stops; the game is saved.)")
        await (stop or asyncio.Event()).wait()
    finally:
        await server.close_all()
        if runner is not None:
            await runner.cleanup()
        await service.stop()
        await store.close()
