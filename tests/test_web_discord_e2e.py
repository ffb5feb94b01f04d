"""The web table from Discord: `/rummy web` answers the member alone with a link button whose
short-lived signed link speaks for that member's seat (or watches, for a member without one).
The real discord.py adapter against the fake Discord server."""

from __future__ import annotations

import time
from urllib.parse import parse_qs, urlparse

import aiohttp
import pytest
from test_discord_hostile import ALICE, BOB, EVE, TABLE, harness  # noqa: F401
from web_browser import SECRET

from bot.app import web_link_maker
from bot.core.service import Actor, pack
from bot.web import auth
from bot.web.server import WebServer, serve
from bot.web.table import WebTable

pytestmark = pytest.mark.e2e


async def link_of(harness, who: int) -> str | None:
    ix = await harness.fake.slash(TABLE, who, "rummy", subcommand="web")
    from players.discord import act

    await act(harness, ix)
    message = ix.followups[-1]
    assert message.ephemeral, "the link is for the member alone"
    urls = [c.url for row in message.controls() for c in row if c.url]
    return urls[0] if urls else None


async def test_a_member_gets_their_own_link_to_the_table(harness):
    server = WebServer(WebTable(harness.service), SECRET)
    runner = await serve(server, "127.0.0.1", 0)
    base = f"http://127.0.0.1:{runner.addresses[0][1]}"
    harness.adapter.web = web_link_maker(base, SECRET, server.clock)
    try:
        assert await link_of(harness, ALICE) is None  # no game here yet: said, no link
        await harness.slash(ALICE, "new", {"rulebook": "manipulation"})
        await harness.slash(BOB, "join")
        game = (await harness.game()).id
        row = await harness.store.get_game(game)
        alice = Actor("discord", str(TABLE), str(ALICE), "alice")
        await harness.service.press(alice, pack(game, row.record.get("lobby_version", 0),
                                                "start"))
        views = {}
        async with aiohttp.ClientSession() as http:
            for who in (ALICE, EVE):
                url = await link_of(harness, who)
                assert url and url.startswith(f"{base}/web/table?g={game}&k=")
                link = parse_qs(urlparse(url).query)["k"][0]
                answer = await http.post(f"{base}/web/session", json={"link": link})
                token = (await answer.json())["token"]
                session = auth.read_session(SECRET, token, time.time())
                assert (session.platform, session.user) == ("discord", str(who))
                ws = await http.ws_connect(f"{base}/web/socket", protocols=("rummy", token))
                await ws.send_str('{"t":"hello","v":0}')
                views[who] = (await ws.receive_json(timeout=5))["view"]
                await ws.close()
            # a link expires: 15 minutes later the page is refused
            late = auth.read_link(SECRET, link, time.time() + auth.LINK_SECONDS + 1)
            assert late is None
        assert views[ALICE]["seat"] == 0 and len(views[ALICE]["hand"]) > 0
        assert views[EVE]["seat"] is None and views[EVE]["hand"] is None  # Eve watches
    finally:
        await server.close_all()
        await runner.cleanup()
