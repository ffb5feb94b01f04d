"""A real discord.py ``Bot`` against the fake Discord server (tests/fakes/discord_server.py).

How a test uses the fake:

1. Start it and point discord.py at it (both restored/stopped on exit)::

       async with FakeDiscord(token=TOKEN) as fake, fake.configure_discord_py():

   ``configure_discord_py()`` sets ``discord.http.Route.BASE`` (REST and interaction webhooks)
   and ``discord.gateway.DiscordWebSocket.DEFAULT_GATEWAY``.
2. Build the world *before* connecting: ``fake.guild(id, name)``, ``fake.text_channel(guild,
   id, name)``, ``fake.member(guild, user_id, name, dm_open=True)``.
3. Connect a bot: ``await bot.login(TOKEN)``; ``task = asyncio.create_task(bot.connect())``;
   ``await bot.wait_until_ready()``. Pass ``guild_ready_timeout=0.05`` to the Bot, or
   discord.py waits 2 s after the last GUILD_CREATE before ``on_ready``.
4. Drive it like members do: ``ix = await fake.slash(channel, member, "rummy",
   subcommand="ping")``, ``await fake.click(message, custom_id, member)``,
   ``await fake.select(message, custom_id, values, member)``; ``await ix`` is the initial
   callback, ``await ix.result()`` the message the member ends up seeing,
   ``await ix.followup()`` a followup. Inspect ``fake.channel_messages()``,
   ``fake.visible_to()``, ``fake.ephemeral_for()``, ``fake.dm_messages()``,
   ``fake.components()``, ``fake.attachment()``, ``fake.requests``; assert
   ``fake.unanswered == []`` (interactions not acknowledged within 3 s).
5. Stop: ``await bot.close(); await task`` and leave the ``async with``.
"""

from __future__ import annotations

import asyncio
import contextlib
import io
import json
import zlib
from collections.abc import AsyncIterator
from typing import Any

import aiohttp
import discord
import pytest
from discord import app_commands
from discord.ext import commands
from fakes.discord_server import FakeDiscord

TOKEN = "fake-token-for-tests"
GUILD_ID = 1000
TABLE_ID = 1001
ALICE_ID = 2001
BOB_ID = 2002
CAROL_ID = 2003  # DMs closed
PNG = b"\x89PNG\r\n\x1a\nnot really a png"


class PingButton(discord.ui.DynamicItem[discord.ui.Button], template=r"rummy:ping:(?P<n>\d+)"):
    """Persistent button whose state lives in its custom_id, so it survives restarts."""

    def __init__(self, n: int) -> None:
        super().__init__(
            discord.ui.Button(
                label=f"Ping {n}", style=discord.ButtonStyle.primary, custom_id=f"rummy:ping:{n}"
            )
        )
        self.n = n

    @classmethod
    async def from_custom_id(
        cls, interaction: discord.Interaction, item: discord.ui.Button, match: Any
    ) -> PingButton:
        return cls(int(match["n"]))

    async def callback(self, interaction: discord.Interaction) -> None:
        view = discord.ui.View(timeout=None)
        view.add_item(PingButton(self.n + 1))
        await interaction.response.edit_message(content=f"pong x{self.n + 1}", view=view)
        await interaction.followup.send(f"only you see click {self.n + 1}", ephemeral=True)


class PickView(discord.ui.View):
    def __init__(self, bot: TinyBot) -> None:
        super().__init__(timeout=None)
        self.bot = bot

    @discord.ui.select(
        custom_id="rummy:pick",
        options=[discord.SelectOption(label=x.upper(), value=x) for x in "abc"],
        max_values=2,
    )
    async def pick(self, interaction: discord.Interaction, select: discord.ui.Select) -> None:
        self.bot.seen["pick"] = (interaction.guild_id, type(interaction.user), select.values)
        await interaction.response.send_message(f"picked {','.join(select.values)}")


class RenameModal(discord.ui.Modal, title="Rename table"):
    name: discord.ui.TextInput[RenameModal] = discord.ui.TextInput(
        label="New name", custom_id="rummy:rename:name", max_length=40
    )

    async def on_submit(self, interaction: discord.Interaction) -> None:
        await interaction.response.send_message(f"renamed to {self.name.value}")


def ping_view(n: int = 0) -> discord.ui.View:
    view = discord.ui.View(timeout=None)
    view.add_item(PingButton(n))
    return view


class TinyBot(commands.Bot):
    def __init__(self) -> None:
        super().__init__(
            command_prefix="!",
            intents=discord.Intents.default(),
            guild_ready_timeout=0.05,
            help_command=None,
        )
        self.seen: dict[str, Any] = {}
        group = app_commands.Group(name="rummy", description="Rummy table")

        @group.command(name="ping", description="Answer with a button")
        async def ping(interaction: discord.Interaction) -> None:
            await interaction.response.send_message("pong", view=ping_view())

        @group.command(name="new", description="Deal a game")
        @app_commands.choices(
            rulebook=[
                app_commands.Choice(name="Machiavelli", value="machiavelli"),
                app_commands.Choice(name="Rummikub", value="rummikub"),
            ]
        )
        async def new(
            interaction: discord.Interaction, rulebook: str, opponent: discord.Member
        ) -> None:
            await interaction.response.defer(ephemeral=True, thinking=True)
            self.seen["opponent"] = opponent
            msg = await interaction.followup.send(
                f"{rulebook} vs {opponent.display_name}",
                file=discord.File(io.BytesIO(PNG), "table.png"),
            )
            self.seen["cdn"] = await msg.attachments[0].read()

        @group.command(name="slow", description="Answers too late")
        async def slow(interaction: discord.Interaction) -> None:
            await asyncio.sleep(0.4)
            try:
                await interaction.response.send_message("too late")
            except discord.HTTPException as exc:
                self.seen["late"] = exc

        @group.command(name="rename", description="Rename the table")
        async def rename(interaction: discord.Interaction) -> None:
            await interaction.response.send_modal(RenameModal())

        @group.command(name="join", description="Join a table")
        async def join(interaction: discord.Interaction, table: str) -> None:
            await interaction.response.send_message(f"joined {table}")

        @join.autocomplete("table")
        async def join_tables(
            interaction: discord.Interaction, current: str
        ) -> list[app_commands.Choice[str]]:
            return [
                app_commands.Choice(name=t, value=t)
                for t in ("north", "south")
                if t.startswith(current)
            ]

        @app_commands.command(name="hand", description="Show your hand")  # global: works in DMs
        async def hand(interaction: discord.Interaction) -> None:
            await interaction.response.send_message(
                f"{interaction.user.name}'s hand", ephemeral=True
            )

        self.tree.add_command(group, guild=discord.Object(GUILD_ID))
        self.tree.add_command(hand)

    async def setup_hook(self) -> None:
        # Registered on every start: clicks on buttons sent by a previous process dispatch.
        self.add_dynamic_items(PingButton)

    async def on_resumed(self) -> None:
        self.seen["resumed"] = True


@pytest.fixture
async def fake() -> AsyncIterator[FakeDiscord]:
    async with FakeDiscord(token=TOKEN) as fake, fake.configure_discord_py():
        guild = fake.guild(GUILD_ID, "Card Room")
        fake.text_channel(guild, TABLE_ID, "table")
        fake.member(guild, ALICE_ID, "alice")
        fake.member(guild, BOB_ID, "bob")
        fake.member(guild, CAROL_ID, "carol", dm_open=False)
        yield fake


@contextlib.asynccontextmanager
async def running(bot: TinyBot, *, sync: bool = True) -> AsyncIterator[TinyBot]:
    await bot.login(TOKEN)
    task = asyncio.create_task(bot.connect())
    try:
        await asyncio.wait_for(bot.wait_until_ready(), 5)
        if sync:
            await bot.tree.sync(guild=discord.Object(GUILD_ID))
        yield bot
    finally:
        await bot.close()
        await asyncio.wait_for(task, 5)


async def test_login_and_ready_over_zlib_stream(fake: FakeDiscord) -> None:
    bot = TinyBot()
    async with running(bot, sync=False):
        session = await fake.wait_ready()
        assert bot.user is not None and bot.user.id == fake.bot_id
        assert bot.application_id == fake.application_id
        guild = bot.get_guild(GUILD_ID)
        assert guild is not None and guild.name == "Card Room"
        assert guild.get_channel(TABLE_ID) is not None
        # no GUILD_MEMBERS intent: only the bot is cached, but the count is real
        assert guild.member_count == 4 and [m.id for m in guild.members] == [fake.bot_id]
        assert session.intents == discord.Intents.default().value
        assert session.conn is not None and session.conn.compress is not None
        assert session.conn.compress.kind == "zlib-stream"
        assert session.conn.heartbeats >= 1  # discord.py beats right after HELLO
    assert [c.path for c in fake.requests[:2]] == ["/users/@me", "/oauth2/applications/@me"]


async def test_slash_button_edit_and_ephemeral_followup(fake: FakeDiscord) -> None:
    async with running(TinyBot()):
        (cmd,) = fake.guild_commands(GUILD_ID)
        assert cmd["name"] == "rummy"
        subcommands = {o["name"]: o["type"] for o in cmd["options"]}
        assert subcommands == {"ping": 1, "new": 1, "slow": 1, "rename": 1, "join": 1}

        ix = await fake.slash(TABLE_ID, ALICE_ID, "rummy", subcommand="ping")
        response = await ix
        assert response.type == 4 and not response.ephemeral
        message = await ix.result()
        assert message.content == "pong" and message.visible_to(BOB_ID)
        assert fake.components(message) == [[("Ping 0", "rummy:ping:0", 1, False)]]

        click = await fake.click(message, "rummy:ping:0", BOB_ID)
        assert (await click).type == 7
        assert message.content == "pong x1" and len(message.history) == 1
        assert fake.components(message) == [[("Ping 1", "rummy:ping:1", 1, False)]]
        secret = await click.followup()
        assert secret.content == "only you see click 1" and secret.ephemeral_to == BOB_ID
        assert fake.ephemeral_for(BOB_ID) == [secret]
        assert secret not in fake.visible_to(ALICE_ID, TABLE_ID)
        assert fake.channel_messages(TABLE_ID) == [message]
    assert fake.unanswered == []


async def test_options_resolved_defer_and_file_followup(fake: FakeDiscord) -> None:
    bot = TinyBot()
    async with running(bot):
        ix = await fake.slash(
            TABLE_ID,
            ALICE_ID,
            "rummy",
            subcommand="new",
            options={"rulebook": "Machiavelli", "opponent": BOB_ID},
        )
        assert (await ix).type == 5
        reply = await ix.result()
        assert reply.content == "machiavelli vs bob"
        assert reply.ephemeral_to == ALICE_ID and not reply.loading
        assert fake.attachment(reply, 0) == PNG
        assert reply.attachments[0].filename == "table.png"
        assert await ix.followup() is reply  # first followup after defer fills the placeholder
        assert isinstance(bot.seen["opponent"], discord.Member)
        await fake.wait_until(lambda: "cdn" in bot.seen)  # Attachment.read() hits the fake CDN
        assert bot.seen["cdn"] == PNG
        with pytest.raises(ValueError, match="not a choice"):
            await fake.slash(
                TABLE_ID, ALICE_ID, "rummy", "new", {"rulebook": "gin", "opponent": BOB_ID}
            )


async def test_dm_open_and_closed(fake: FakeDiscord) -> None:
    async with running(TinyBot(), sync=False) as bot:
        alice = await bot.fetch_user(ALICE_ID)
        sent = await alice.send("your hand: 7♥ 8♥ 9♥")
        assert [m.content for m in fake.dm_messages(ALICE_ID)] == ["your hand: 7♥ 8♥ 9♥"]
        await sent.edit(content="your hand: 7♥ 8♥")  # PATCH /channels/{dm}/messages/{id}
        (dm,) = fake.dm_messages(ALICE_ID)
        assert dm.content == "your hand: 7♥ 8♥" and dm.history[0][0] == "your hand: 7♥ 8♥ 9♥"

        carol = await bot.fetch_user(CAROL_ID)
        with pytest.raises(discord.Forbidden) as err:
            await carol.send("your hand")
        assert err.value.code == 50007 and err.value.status == 403
        assert fake.dm_messages(CAROL_ID) == []


async def test_select_menu_in_dm(fake: FakeDiscord) -> None:
    async with running(TinyBot(), sync=False) as bot:
        alice = await bot.fetch_user(ALICE_ID)
        await alice.send("pick up to two", view=PickView(bot))
        (dm,) = fake.dm_messages(ALICE_ID)
        ((menu,),) = fake.components(dm)
        assert menu.custom_id == "rummy:pick" and [o.value for o in menu.options] == list("abc")

        ix = await fake.select(dm, "rummy:pick", ["a", "c"], ALICE_ID)
        reply = await ix.result()
        assert reply.content == "picked a,c" and reply.channel.is_dm
        assert bot.seen["pick"] == (None, discord.User, ["a", "c"])
        assert "guild_id" not in ix.payload and "user" in ix.payload
        with pytest.raises(ValueError):
            await fake.select(dm, "rummy:pick", ["a", "b", "c"], ALICE_ID)  # max_values=2

        await bot.tree.sync()  # global commands
        hand = await fake.slash(None, ALICE_ID, "hand")  # channel=None: the member's DM
        reply = await hand.result()
        assert reply.content == "alice's hand" and reply.channel is fake.dm_channel(ALICE_ID)


async def test_modal_and_autocomplete(fake: FakeDiscord) -> None:
    async with running(TinyBot()):
        ix = await fake.slash(TABLE_ID, ALICE_ID, "rummy", "rename")
        assert (await ix).type == 9 and ix.modal is not None
        assert ix.modal["title"] == "Rename table"
        submitted = await ix.submit_modal({"rummy:rename:name": "High rollers"})
        assert (await submitted.result()).content == "renamed to High rollers"

        ac = await fake.autocomplete(
            TABLE_ID, ALICE_ID, "rummy", "join", {"table": "no"}, focused="table"
        )
        assert (await ac).type == 8
        assert [c["value"] for c in ac.choices or []] == ["north"]
    assert fake.unanswered == []


async def test_restart_keeps_old_buttons_working(fake: FakeDiscord) -> None:
    async with running(TinyBot()):
        message = await (await fake.slash(TABLE_ID, ALICE_ID, "rummy", "ping")).result()
    # a brand-new process: only setup_hook's add_dynamic_items knows the button
    async with running(TinyBot(), sync=False):
        assert fake.gateway.identifies == 2
        # discord.py closes with 4000, so the old session is merely disconnected (resumable)
        (session,) = fake.gateway.connected_sessions()
        assert session is fake.gateway.sessions[-1]
        click = await fake.click(message, "rummy:ping:0", BOB_ID)
        assert (await click).type == 7
        assert message.content == "pong x1"
        assert (await click.followup()).ephemeral_to == BOB_ID
    assert fake.unanswered == []


class ShardBot(discord.AutoShardedClient):
    """One shard of two; /where answers with the shard that got the interaction."""

    def __init__(self, shard: int) -> None:
        super().__init__(intents=discord.Intents.default(), guild_ready_timeout=0.05,
                         shard_ids=[shard], shard_count=2)
        self.tree = app_commands.CommandTree(self)

        @app_commands.command(name="where", description="Which shard answers")
        async def where(interaction: discord.Interaction) -> None:
            await interaction.response.send_message(f"shard {shard}")

        self.tree.add_command(where)


async def test_an_interaction_goes_to_its_guilds_shard() -> None:
    """Discord sends a guild's events to shard (guild_id >> 22) % shard_count, DMs to shard
    0; two workers hold one shard each."""
    guilds = {0: 1000 << 22, 1: 1001 << 22}
    async with FakeDiscord(token=TOKEN, shards=2) as fake, fake.configure_discord_py():
        for shard, guild_id in guilds.items():
            guild = fake.guild(guild_id, f"Room {shard}")
            fake.text_channel(guild, guild_id + 1, "table")
            fake.member(guild, ALICE_ID, "alice")
        bots = [ShardBot(0), ShardBot(1)]
        tasks = []
        try:
            for bot in bots:
                await bot.login(TOKEN)
                tasks.append(asyncio.create_task(bot.connect()))
                await asyncio.wait_for(bot.wait_until_ready(), 5)
            assert [[g.id for g in bot.guilds] for bot in bots] == [[guilds[0]], [guilds[1]]]
            await bots[0].tree.sync()  # global
            for shard, guild_id in guilds.items():
                ix = await fake.slash(guild_id + 1, ALICE_ID, "where")
                assert (await ix.result()).content == f"shard {shard}"
                assert ix.session is not None and ix.session.shard == (shard, 2)
            ix = await fake.slash(None, ALICE_ID, "where")  # a DM
            assert (await ix.result()).content == "shard 0"
        finally:
            for bot in bots:
                await bot.close()
            await asyncio.wait_for(asyncio.gather(*tasks), 5)


async def test_many_interactions_at_once(fake: FakeDiscord) -> None:
    async with running(TinyBot()):
        handles = await asyncio.gather(
            *(fake.slash(TABLE_ID, ALICE_ID, "rummy", "ping") for _ in range(25))
        )
        messages = await asyncio.gather(*(ix.result() for ix in handles))
        assert len({m.id for m in messages}) == 25
        clicks = await asyncio.gather(*(fake.click(m, "rummy:ping:0", BOB_ID) for m in messages))
        await asyncio.gather(*(c.followup() for c in clicks))
        assert all(m.content == "pong x1" for m in messages)
    assert fake.unanswered == []


async def test_unanswered_and_late_interaction(fake: FakeDiscord) -> None:
    fake.ack_deadline = 0.2
    bot = TinyBot()
    async with running(bot):
        ix = await fake.slash(TABLE_ID, ALICE_ID, "rummy", "slow")
        await fake.wait_until(lambda: "late" in bot.seen)
        assert ix.expired_unanswered and fake.unanswered == [ix]
        late = bot.seen["late"]
        assert isinstance(late, discord.NotFound) and late.code == 10062


async def test_error_contract(fake: FakeDiscord) -> None:
    bot = TinyBot()
    async with running(bot):
        ix = await fake.slash(TABLE_ID, ALICE_ID, "rummy", "ping")
        await ix
        table = bot.get_channel(TABLE_ID)
        assert isinstance(table, discord.TextChannel)

        async with aiohttp.ClientSession() as http:
            status, body = await _post(
                http,
                fake,
                f"/interactions/{ix.id}/{ix.token}/callback",
                {"type": 4, "data": {"content": "again"}},
            )
            assert (status, body["code"]) == (400, 40060)
            assert body["message"] == "Interaction has already been acknowledged."

            fake.expire_interaction(ix)
            hook = f"/webhooks/{fake.application_id}/{ix.token}"
            status, body = await _post(http, fake, hook + "?wait=1", {"content": "late"})
            assert (status, body["code"]) == (401, 50027)

            six_rows = [_row(f"r{i}", 1) for i in range(6)]
            status, body = await _post(
                http,
                fake,
                f"/channels/{TABLE_ID}/messages",
                {"content": "x", "components": six_rows},
                auth=True,
            )
            assert (status, body["code"]) == (400, 50035) and "components" in body["errors"]
            status, body = await _post(
                http,
                fake,
                f"/channels/{TABLE_ID}/messages",
                {"content": "x", "components": [_row("b", 6)]},
                auth=True,
            )
            assert (status, body["code"]) == (400, 50035)

        with pytest.raises(discord.NotFound) as not_found:
            await table.fetch_message(123456789)
        assert not_found.value.code == 10008

        long_id = discord.ui.View(timeout=None)
        long_id.add_item(discord.ui.Button(label="x", custom_id="x" * 101))
        with pytest.raises(discord.HTTPException) as invalid:
            await table.send("too long", view=long_id)
        assert invalid.value.code == 50035 and "custom_id" in str(invalid.value)

        mark = len(fake.requests)
        fake.fail_next("/channels/", status=429, retry_after=0.05)
        sent = await table.send("after a 429")  # discord.py sleeps retry_after and retries
        limited = await fake.wait_for(
            lambda c: c.route == "POST /channels/{channel_id}/messages", since=mark
        )
        assert (
            limited.status == 429 and limited.injected and limited.response["retry_after"] == 0.05
        )
        retried = await fake.wait_for(lambda c: c.status == 200, since=mark)
        assert retried.json["content"] == "after a 429"
        assert fake.message(sent.id).content == "after a 429"


async def test_resume_after_reconnect_opcode(fake: FakeDiscord) -> None:
    bot = TinyBot()
    async with running(bot):
        session = await fake.wait_ready()
        await fake.force_reconnect()
        await fake.wait_until(lambda: session.resumes == 1 and session.conn is not None)
        await fake.wait_until(lambda: bot.seen.get("resumed", False))
        assert fake.gateway.identifies == 1
        message = await (await fake.slash(TABLE_ID, ALICE_ID, "rummy", "ping")).result()
        assert message.content == "pong"


async def test_raw_gateway_plain_json_and_content_intent(fake: FakeDiscord) -> None:
    intents = discord.Intents.default()  # GUILD_MESSAGES but not MESSAGE_CONTENT
    async with aiohttp.ClientSession() as http:
        async with http.ws_connect(fake.gateway_url + "?v=10&encoding=json") as ws:
            hello = await ws.receive_json()
            assert hello["op"] == 10 and hello["d"]["heartbeat_interval"] > 0
            await ws.send_json(
                {"op": 2, "d": {"token": TOKEN, "intents": intents.value, "properties": {}}}
            )
            ready = await ws.receive_json()
            assert (ready["t"], ready["s"]) == ("READY", 1)
            assert ready["d"]["guilds"] == [{"id": str(GUILD_ID), "unavailable": True}]
            guild_create = await ws.receive_json()
            assert (guild_create["t"], guild_create["s"]) == ("GUILD_CREATE", 2)
            await ws.send_json({"op": 1, "d": 2})
            assert (await ws.receive_json())["op"] == 11
            await fake.say(TABLE_ID, BOB_ID, "hello table")
            event = await ws.receive_json()
            assert (event["t"], event["s"], event["d"]["content"]) == ("MESSAGE_CREATE", 3, "")

        compressed = fake.gateway_url + "?v=10&encoding=json&compress=zlib-stream"
        async with http.ws_connect(compressed) as ws:
            inflate = zlib.decompressobj()
            frame = await ws.receive_bytes()
            assert frame.endswith(b"\x00\x00\xff\xff")
            assert json.loads(inflate.decompress(frame))["op"] == 10
            await ws.send_json({"op": 2, "d": {"token": "wrong", "intents": 1}})
            closing = await ws.receive()
            assert closing.type is aiohttp.WSMsgType.CLOSE and closing.data == 4004


def _row(prefix: str, buttons: int) -> dict[str, Any]:
    return {
        "type": 1,
        "components": [
            {"type": 2, "style": 1, "label": "b", "custom_id": f"{prefix}{i}"}
            for i in range(buttons)
        ],
    }


async def _post(
    http: aiohttp.ClientSession, fake: FakeDiscord, path: str, body: Any, *, auth: bool = False
) -> tuple[int, Any]:
    headers = {"Authorization": f"Bot {TOKEN}"} if auth else {}
    async with http.post(fake.api_base + path, json=body, headers=headers) as resp:
        return resp.status, await resp.json(content_type=None)
