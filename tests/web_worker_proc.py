"""A web-table worker in its own process, for tests that kill it (tests/test_web_kill.py): the
game service on the store at argv[1] (SQLite or PostgreSQL), the web table's server on
127.0.0.1, `argv[2]` Manipulation tables of three people started. Prints one JSON line — its
port and the tables — then serves until killed. Fair use is off (the pages are scripts)."""

from __future__ import annotations

import asyncio
import json
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

SECRET = b"web-kill-secret-web-kill-secret!"


async def main(url: str, tables: int) -> None:
    from bot.core.fair_use import FairUse
    from bot.core.service import Actor, GameService, pack
    from bot.games import default_games
    from bot.store import Store
    from bot.web.server import WebServer, serve
    from bot.web.table import Limits, WebTable

    store = await Store.open(url)
    service = GameService(store, games=default_games(), computer_delay=0, tick=1.0)
    inf = float("inf")
    service.fair_use = FairUse(user_rate=inf, user_burst=inf, chat_rate=inf, chat_burst=inf)

    async def deliver(_outcome: object) -> None:
        return None

    service.register("kill", deliver)
    lifted = Limits(watchers_per_game=10**6, watchers_per_address=10**6, door_rate=inf,
                    door_burst=10**9)
    server = WebServer(WebTable(service, limits=lifted), SECRET)
    runner = await serve(server, "127.0.0.1", 0)
    games = []
    for i in range(tables):
        people = [Actor("kill", f"-{i + 1}", f"{i}{s}", f"P{s}") for s in "abc"]
        game = (await service.new_game(people[0], "manipulation")).game_id
        for person in people[1:]:
            row = await store.get_game(game)
            await service.press(person, pack(game, row.record.get("lobby_version", 0), "join"))
        row = await store.get_game(game)
        await service.press(people[0], pack(game, row.record.get("lobby_version", 0), "start"))
        games.append({"game": game, "users": [p.user for p in people]})
    print(json.dumps({"port": runner.addresses[0][1], "tables": games}), flush=True)
    await asyncio.Event().wait()


if __name__ == "__main__":
    asyncio.run(main(sys.argv[1], int(sys.argv[2])))
