"""Discord shards across two workers, end to end: two bot workers (each a Store, a GameService
with PostgreSQL's JobScheduler and delivery lock, and a DiscordAdapter of shard [0] or [1] of
2, wired as `rummy run` wires them) on one scratch PostgreSQL database, against ONE fake
Discord with two guilds on different shards. In each guild a member starts a game against a
computer and plays it by components (a scripted deal: the computer starts, she draws once,
then lays her four sevens); shard 1's member has closed DMs and plays by ephemeral views.

The workers run in this one process, each with its own discord.py client, HTTP session, gateway
connection, store (connection pool) and service: nothing of ours is shared between them but
the database (discord.py's endpoints are process-wide, and the same for both). In one process
the test can ask the fake which gateway session each interaction went to and each adapter
which interactions it handled, and a run takes ~7 s; real processes on one PostgreSQL are
test_workers_e2e.py's (Telegram).

Checked: every interaction was handled by the worker of the shard it was dispatched to (and by
no other), each answered; only shard 0's worker synced the commands; the computer's turns
were played once each (the action log alternates turns); one live table per channel at a
time; no message ever showed an older state than it had shown; a closed-DM member's view
follows the game when the other worker plays the computer's turns."""

from __future__ import annotations

import asyncio
import contextlib
import itertools
import time
from collections.abc import AsyncIterator
from dataclasses import dataclass, field
from typing import Any

import pytest
from fakes.discord_server import FakeDiscord
from players.discord import Person, act, live_table
from sqlalchemy.engine import make_url
from store_fixtures import _pg_truncate

from bot import app
from bot.adapters.discord import DiscordAdapter
from bot.core.record import Record
from bot.games.rummy import host
from bot.games.rummy.records import state_of
from bot.store import Store
from engine.rummy.scenario import deal_scenario

pytestmark = pytest.mark.e2e

COUNT = 2
SNOWFLAKE_SHARD = 1 << 22  # a guild's shard is (guild_id >> 22) % shard count
# guild id -> its shard; ids like real snowflakes, a timestamp apart
GUILDS = {1000 * SNOWFLAKE_SHARD: 0, 1001 * SNOWFLAKE_SHARD: 1}
# Shard 1's member has closed DMs: she plays by ephemeral views in the channel, so her presses
# reach shard 1's worker (DM presses all go to shard 0, as Discord routes them).
DMS_OPEN = {0: True, 1: False}
# Alice (seat 0) holds three sevens; the computer (seat 1) starts, has no meld and draws KS;
# Alice draws 7C, the computer draws again, Alice lays her four sevens and is out.
HANDS = ["7H 7S 7D", "2H 9S KD 4C 6H JS QD 3C 5S"]
STOCK_TOP = "KS 7C"

HUMAN, COMPUTER = 0, 1
ENDS = ("draw", "pass", "commit")  # actions that end a turn


@dataclass
class Worker:
    shard: int
    store: Store
    service: Any
    adapter: DiscordAdapter
    handled: list[int] = field(default_factory=list)  # interaction ids its client got
    delivered: set[int] = field(default_factory=set)  # games it showed an outcome of

    async def stop(self) -> None:
        await app.shutdown(self.service, [self.adapter], self.store)


async def start_worker(fake: FakeDiscord, url: str, shard: int,
                       computer_delay: float = 0.3) -> Worker:
    """What `rummy run` builds with DISCORD_SHARD_IDS=shard, DISCORD_SHARD_COUNT=2 (and
    no DISCORD_GUILD_ID: commands are global, as in production)."""
    store = await Store.open(url)
    assert store.row_locks  # PostgreSQL: JobScheduler and the message lock
    service = app.build_services(store, computer_delay=computer_delay, tick=0.2)
    adapter = DiscordAdapter(service, fake.token, api_base=fake.api_base,
                             gateway_url=fake.gateway_url,
                             shards=([shard], COUNT), guild_ready_timeout=0.05)
    worker = Worker(shard, store, service, adapter)
    received = adapter.on_interaction  # every interaction the client is given passes here

    async def on_interaction(interaction: Any) -> None:
        worker.handled.append(interaction.id)
        await received(interaction)

    adapter.on_interaction = on_interaction  # type: ignore[method-assign]
    deliver = adapter.deliver

    async def delivering(outcome: Any, ctx: Any = None) -> None:
        if outcome.game_id is not None:
            worker.delivered.add(outcome.game_id)
        await deliver(outcome, ctx)

    adapter.deliver = delivering  # type: ignore[method-assign]
    service.register("discord", delivering)  # the service calls what was registered
    await adapter.start(ready_timeout=10)
    await service.start()
    return worker


class Table:
    """A guild's table channel as players/discord.py sees a bot: idle means both workers are."""

    def __init__(self, fake: FakeDiscord, workers: list[Worker], channel_id: int) -> None:
        self.fake, self.workers, self.channel_id = fake, workers, channel_id

    async def idle(self) -> None:
        for worker in self.workers:
            await worker.adapter.wait_idle(20)


def label(text: str):
    return lambda c: text in (c.label or "")


def versions(components: list[dict[str, Any]]) -> set[int]:
    """The state versions a message's components were made for (`rt:game:version:…`)."""
    found: set[int] = set()
    stack = list(components)
    while stack:
        comp = stack.pop()
        stack.extend(comp.get("components", []))
        custom = comp.get("custom_id") or ""
        # 🔎 Review and ↻ Rematch (its call's ▶ Start now) stay after the end
        if custom.startswith("rt:") and ":review:" not in custom \
                and not custom.endswith((":rematch", ":rmstart")):
            found.add(int(custom[3:].removeprefix("L:").split(":")[1]))
    return found


def _is_note(call: Any) -> bool:
    """A new message with no game buttons (a note: scores, game over) — not a table."""
    body = call.json if isinstance(call.json, dict) else {}
    return call.method == "POST" and not versions(body.get("components", []))


def assert_one_live_table(fake: FakeDiscord, channel: int) -> None:
    """Replay the channel's message requests: at most one table (a picture with game
    components) at a time, but for the moment a table is posted anew (moved under newer
    messages): the next request in the channel that is not a note deletes the old one. (A
    note may come between: another worker posts it while this one's delete waits for the
    channel's budget — the two workers' sends share a channel, not a queue.)"""
    live: list[int] = []
    calls = [c for c in fake.requests if c.path.startswith(f"/channels/{channel}/messages")
             and c.status in (200, 204)]
    for n, call in enumerate(calls):
        body = call.json if isinstance(call.json, dict) else {}
        mid = int(call.response["id"]) if isinstance(call.response, dict) else None
        if call.method == "DELETE" or (call.method == "PATCH" and "components" in body
                                       and not versions(body["components"])):
            live = [m for m in live if str(m) != call.path.rsplit("/", 1)[-1]]
        elif call.method == "POST" and call.files and versions(body.get("components", [])):
            live.append(mid)  # type: ignore[arg-type]  # a table (a note has no picture)
        if len(live) > 1:
            after = next((c for c in calls[n + 1:] if not _is_note(c)), None)
            assert len(live) == 2 and after is not None and after.method == "DELETE" and \
                after.path.endswith(f"/{live[0]}"), f"two live tables in {channel}: {call}"
    assert live == [], live  # the game is over: no buttons left


async def until(condition, timeout: float, what: str) -> None:
    end = time.monotonic() + timeout
    while not await condition():
        assert time.monotonic() < end, what
        await asyncio.sleep(0.05)


async def play(table: Table, store: Store, alice: Person) -> int:
    """Alice opens a game against an easy computer and plays it by components: draw on her
    first turn, then as a medium player would (she lays her four sevens and is out)."""
    fake = table.fake
    answers = await act(table, await fake.slash(table.channel_id, alice.id, "rummy",
                                                subcommand="new",
                                                options={"rulebook": "machiavelli"}))
    lobby = live_table(fake, table.channel_id)
    assert lobby is not None, (answers, [str(c) for c in fake.requests[-5:]])
    await alice.click(lobby, label("Computer"), "computer menu")
    await alice.click(lobby, label("easy"), "easy")
    await alice.click(lobby, label("Start"), "start")
    if not alice.dm_open:
        await alice.show_my_hand()  # My cards on the table: her view, ephemeral
    row = await store.active_game("discord", str(table.channel_id))
    assert row is not None and row.status == "playing"
    game_id = row.id

    async def alices_turn_or_over() -> bool:
        row = await store.get_game(game_id)
        return row.status != "playing" or state_of(Record.from_dict(row.record)).turn == HUMAN

    for turn in range(4):
        await until(alices_turn_or_over, 20, "the computer did not play its turn")
        if (await store.get_game(game_id)).status != "playing":
            break
        if turn == 0:
            await alice.press(lambda c: c.label == "Draw", "draw")
        else:
            await alice.take_turn()
    await table.idle()
    return game_id


async def test_two_shards_on_two_workers_play_a_game_each(
    postgres_url: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(host, "new_game",
                        lambda rules, n, seed: deal_scenario(rules, HANDS[:n], stock_top=STOCK_TOP,
                                                          turn=COMPUTER))
    await _pg_truncate(make_url(postgres_url))
    async with FakeDiscord(token="discord-shards-token", shards=COUNT) as fake, \
            fake.configure_discord_py():
        tables = []
        for n, (guild_id, shard) in enumerate(GUILDS.items()):
            assert (guild_id >> 22) % COUNT == shard
            guild = fake.guild(guild_id, f"Card Room {n}")
            channel = fake.text_channel(guild, guild_id + 1, "rummy-table")
            fake.member(guild, 3001 + n, f"alice{n}", dm_open=DMS_OPEN[shard])
            tables.append(channel.id)
        workers: list[Worker] = []
        try:
            # Shard 1's worker first: it connects but syncs nothing; then shard 0's syncs once.
            workers.append(await start_worker(fake, postgres_url, 1))
            assert fake.calls("PUT", "/commands") == [] and fake.commands == {}
            workers.insert(0, await start_worker(fake, postgres_url, 0))
            synced = fake.calls("PUT", "/commands")
            assert len(synced) == 1 and set(fake.commands) == {None}, synced  # global commands
            sessions = fake.gateway.connected_sessions()
            assert sorted(s.shard for s in sessions) == [(0, COUNT), (1, COUNT)]

            started = time.monotonic()
            people = [Person(Table(fake, workers, channel), 3001 + n, f"alice{n}",
                             dm_open=DMS_OPEN[n], rulebook="machiavelli")
                      for n, channel in enumerate(tables)]
            store = workers[0].store
            games = await asyncio.gather(*(play(p.bot, store, p) for p in people))
            elapsed = time.monotonic() - started
            rows = [await store.get_game(g) for g in games]
            actions = [await store.game_actions(g) for g in games]
        finally:
            for worker in workers:
                await worker.stop()

    # Every interaction went to one gateway session, the one of its guild's shard (shard 0
    # for DMs); the worker holding that shard handled it, no other worker did; all answered.
    by_shard = {w.shard: set(w.handled) for w in workers}
    assert not by_shard[0] & by_shard[1]
    for ix in fake.interactions:
        assert ix.session is not None and ix.session.shard is not None
        shard = ix.session.shard[0]
        guild = ix.channel.guild
        assert shard == (GUILDS[guild.id] if guild else 0), (ix.data, shard)
        assert ix.id in by_shard[shard], f"interaction {ix.data} not handled by shard {shard}"
        assert ix.acknowledged, ix.data
    assert fake.unanswered == []
    in_guild = {s: sum(1 for ix in fake.interactions if ix.channel.guild and
                       GUILDS[ix.channel.guild.id] == s) for s in (0, 1)}
    assert in_guild[0] >= 4 and in_guild[1] >= 4, in_guild  # both shards served their guild

    for row, log, channel in zip(rows, actions, tables, strict=True):
        assert row.status == "finished", row.status
        # One turn at a time, each ended once: the computer's never twice in a row (a job
        # claimed by both workers would play it twice).
        ends = [a["seat"] for a in log if a.get("kind") in ENDS]
        assert ends[0] == COMPUTER and ends.count(COMPUTER) >= 2, ends
        assert all(a != b for a, b in itertools.pairwise(ends)), ends
        # One live table in the channel (a message with the game's components).
        assert any(m.content.startswith("game over") for m in fake.channel_messages(channel))
        assert_one_live_table(fake, channel)
    # No message ever went back to an older state, send and edit by edit.
    edited = 0
    for message in fake.messages.values():
        shown = [versions(c) for _content, _embeds, c in message.history]
        shown = [max(v) for v in [*shown, versions(message.components)] if v]
        edited += len(shown) > 1
        assert shown == sorted(shown), f"message {message.id} went back: {shown}"
    assert edited >= 4  # the check saw edits
    # Her ephemeral view follows the game whichever worker plays the computer's turn (the
    # token of her last press is in the game's refs): she never has to press to see it.
    closed = people[1]
    assert closed.refreshes == 0, closed.refreshes
    print(f"closed DMs: {closed.refreshes} refresh(es) by hand; "
          f"two guilds on two shards: {len(fake.interactions)} interactions "
          f"({in_guild} in the guilds), {edited} messages edited, games in {elapsed:.1f} s; "
          f"games delivered by shard: { {w.shard: sorted(w.delivered) for w in workers} }")


@contextlib.asynccontextmanager
async def carols_guild(postgres_url: str, monkeypatch: pytest.MonkeyPatch,
                       computer_delay: float = 0.3) -> AsyncIterator[tuple[FakeDiscord, int,
                                                                           list[Worker]]]:
    """Shard 1's guild, where Carol has closed DMs, and both workers: shard 1's (first)
    answers her presses and claims no jobs, so shard 0's plays every computer turn."""
    monkeypatch.setattr(host, "new_game",
                        lambda rules, n, seed: deal_scenario(rules, HANDS[:n], stock_top=STOCK_TOP,
                                                          turn=COMPUTER))
    await _pg_truncate(make_url(postgres_url))
    guild_id = next(g for g, shard in GUILDS.items() if shard == 1)
    async with FakeDiscord(token="discord-shards-token", shards=COUNT) as fake, \
            fake.configure_discord_py():
        guild = fake.guild(guild_id, "Card Room")
        channel = fake.text_channel(guild, guild_id + 1, "rummy-table").id
        fake.member(guild, 3002, "carol", dm_open=False)
        workers: list[Worker] = []
        try:
            for shard in (1, 0):
                workers.append(await start_worker(fake, postgres_url, shard, computer_delay))
            await workers[0].service.scheduler.stop()  # shard 1's worker claims no jobs
            yield fake, channel, workers
        finally:
            for worker in workers:
                await worker.stop()


async def test_a_closed_dm_view_is_edited_by_the_worker_that_played_the_computer(
    postgres_url: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Shard 1's member has closed DMs: her presses (and so her ephemeral view's interaction
    token) reach shard 1's worker; the computer's turns are all claimed by shard 0's worker
    (shard 1's claims no jobs here). Her view still follows the game without a press of hers,
    and she is never told to use Show my hand."""
    async with carols_guild(postgres_url, monkeypatch) as (fake, channel, workers):
        carol = Person(Table(fake, workers, channel), 3002, "carol", dm_open=False)
        game = await play(carol.bot, workers[0].store, carol)
        row = await workers[0].store.get_game(game)
        log = await workers[0].store.game_actions(game)
    assert row.status == "finished"
    assert [a["seat"] for a in log if a.get("kind") in ENDS].count(COMPUTER) >= 2
    assert game in workers[1].delivered  # shard 0's worker showed the computer's turns
    advised = [m.content for m in fake.channel_messages(channel) if "DMs are closed" in m.content]
    assert carol.refreshes == 0 and advised == [], (carol.refreshes, advised)
    assert fake.unanswered == []


async def test_her_answer_and_the_computers_move_cross_on_two_workers(
    postgres_url: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The crossing CI once caught (one refresh by hand): shard 1's worker is answering her
    My cards (posting her new ephemeral view) while shard 0's worker delivers the computer's
    move. Her view is one message under the message lock: whichever goes second works from
    what the first saved (the computer's move edits her new view, or her answer is older and
    yields), so she never sees an older state than the game's. Forced here: her answer's post
    waits until the other worker has begun delivering the move."""
    crossed: list[float] = []
    # The computer waits 1.5 s: her My cards press comes before its move, and its answer waits
    async with carols_guild(postgres_url, monkeypatch, 1.5) as (fake, channel, workers):
        moving = asyncio.Event()
        deliver = workers[1].adapter.deliver

        async def delivering(outcome: Any, ctx: Any = None) -> None:
            if ctx is None and outcome.game_id is not None:
                moving.set()  # the computer's move: this worker answers no presses here
            await deliver(outcome, ctx)

        workers[1].adapter.deliver = delivering  # type: ignore[method-assign]
        workers[1].service.register("discord", delivering)
        followup = workers[0].adapter._followup

        async def crossing(ctx: Any, text: str, **kwargs: Any) -> Any:
            if kwargs.get("files") and ctx.interaction.data.get("custom_id", "") \
                    .endswith(":cards") and not crossed:
                started = time.monotonic()
                with contextlib.suppress(TimeoutError):
                    await asyncio.wait_for(moving.wait(), 5)
                await asyncio.sleep(0.5)  # the other worker's delivery runs meanwhile
                crossed.append(time.monotonic() - started)
            return await followup(ctx, text, **kwargs)

        workers[0].adapter._followup = crossing  # type: ignore[method-assign]
        carol = Person(Table(fake, workers, channel), 3002, "carol", dm_open=False)
        game = await play(carol.bot, workers[0].store, carol)
        row = await workers[0].store.get_game(game)
    assert row.status == "finished"
    assert crossed and moving.is_set(), crossed  # the move was under way during her answer
    assert carol.refreshes == 0, carol.refreshes
    assert fake.unanswered == []
