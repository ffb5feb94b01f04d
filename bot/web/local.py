"""`rummy play --web`: the web table on 127.0.0.1 against computer players, no token needed.

The game is the terminal's (its own SQLite file, its "console" platform, its one person), so
an unfinished one is picked up again; the page is opened by a signed link for that person.
The link's secret is kept in the data directory (`web-secret`, 0600, made once), so a page left
open across a restart is taken back, and last week's printed address still works.
"""

from __future__ import annotations

import asyncio
import contextlib
import os
import random
import secrets
from collections.abc import Callable
from pathlib import Path

from bot.adapters.console import PLATFORM, USER, ConsoleGame, Setup
from bot.clock import REAL
from bot.core.fair_use import FairUse
from bot.core.service import GameService
from bot.games import default_games
from bot.i18n import N_

from .auth import link_token
from .server import WebServer, serve
from .table import WebTable

LINK_DAYS = 7
SECRET_FILE = "web-secret"
# no chat here: the terminal printed the address
LOCAL_REFUSED = N_("This link is not valid or has expired. Open the address printed in the "
                   "terminal.")


def local_secret(data: Path, name: str = SECRET_FILE) -> bytes:
    """The local table's signing secret, kept in `data` (readable by its owner alone): made
    once, whole or not at all (a new file is linked into place only once written). `name`:
    the file (`rummy party` keeps its own)."""
    path = data / name
    kept = _read_secret(path)
    if kept is not None:
        return kept
    secret = secrets.token_bytes(32)
    draft = data / f".{name}.{secrets.token_hex(4)}"
    fd = os.open(draft, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o600)
    try:
        with os.fdopen(fd, "w", encoding="ascii") as out:
            out.write(secret.hex() + "\n")
            out.flush()
            os.fsync(out.fileno())
        try:
            os.link(draft, path)
        except FileExistsError:  # another `play --web` made one first (theirs), or a torn one
            kept = _read_secret(path)
            if kept is not None:
                return kept
            os.replace(draft, path)
        except OSError:  # a file system without hard links: the rename is still whole
            os.replace(draft, path)
    finally:
        with contextlib.suppress(FileNotFoundError):
            os.unlink(draft)
    return secret


def _read_secret(path: Path) -> bytes | None:
    try:
        kept = bytes.fromhex(path.read_text("ascii").strip())
        if len(kept) == 32:
            if os.stat(path).st_mode & 0o077:  # copied in with looser rights: its owner's only
                os.chmod(path, 0o600)
            return kept
    except (OSError, ValueError):
        pass
    return None


async def play_web(setup: Setup, *, url: str, seed: int | None = None, new: bool = False,
                   name: str = "You", lang: str = "", host: str = "127.0.0.1", port: int = 8765,
                   write: Callable[[str], None] = print,
                   stop: asyncio.Event | None = None, data: Path | None = None) -> None:
    """Open (or resume) the terminal's game and serve its web table until `stop` is set.
    `data`: where the secret is kept (None: a new one, good for this run only)."""
    from bot.store import Store

    store = await Store.open(url)
    # a frozen clock: no turn timer for a person at their own page; computers take a moment
    service = GameService(store, games=default_games(), computer_delay=0.7, clock=lambda: 0.0,
                          rng=random.Random(seed) if seed is not None else None)
    unlimited = float("inf")
    service.fair_use = FairUse(user_rate=unlimited, user_burst=unlimited,
                               chat_rate=unlimited, chat_burst=unlimited)
    console = ConsoleGame(service, name=name, write=lambda _text: None, lang=lang)
    secret = local_secret(data) if data is not None else secrets.token_bytes(32)
    server = WebServer(WebTable(service), secret, refused=LOCAL_REFUSED)
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
