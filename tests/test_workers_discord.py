"""Discord across workers: a worker's shards come from the environment (DISCORD_SHARD_IDS of
DISCORD_SHARD_COUNT); only shard 0's worker syncs the slash commands; an interaction names the
update being handled (its id), so one handed over twice changes a game once."""

from __future__ import annotations

import discord
import pytest

from bot import app
from bot.adapters.discord import DiscordAdapter, RummyClient, ShardedRummyClient
from bot.core import unit
from bot.core.service import GameService
from bot.games import default_games


def test_shards_from_the_environment(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.delenv("DISCORD_SHARD_COUNT", raising=False)
    monkeypatch.delenv("DISCORD_SHARD_IDS", raising=False)
    assert app.discord_shards() is None
    monkeypatch.setenv("DISCORD_SHARD_COUNT", "4")
    assert app.discord_shards() == ([0, 1, 2, 3], 4)
    monkeypatch.setenv("DISCORD_SHARD_IDS", "2, 3")
    assert app.discord_shards() == ([2, 3], 4)
    monkeypatch.setenv("DISCORD_SHARD_IDS", "4")
    with pytest.raises(SystemExit, match="DISCORD_SHARD_IDS"):
        app.discord_shards()


async def test_a_worker_connects_its_shards_and_shard_0_syncs_the_commands() -> None:
    service = GameService(None, games=default_games())
    plain = DiscordAdapter(service, "token")
    assert type(plain.client) is RummyClient and plain.sync
    mine = DiscordAdapter(service, "token", shards=([2, 3], 4))
    assert isinstance(mine.client, ShardedRummyClient)
    assert isinstance(mine.client, discord.AutoShardedClient)
    assert (mine.client.shard_ids, mine.client.shard_count) == ([2, 3], 4)
    assert not mine.sync  # shard 0's worker syncs
    assert DiscordAdapter(service, "token", shards=([0, 1], 4)).sync


async def test_an_interaction_is_the_update_being_handled() -> None:
    class Response:
        async def defer(self, **kwargs: object) -> None:
            pass

    class Interaction:
        id = 987654321
        response = Response()

    unit.handling(None)
    assert await DiscordAdapter._defer(Interaction())  # type: ignore[arg-type]
    assert unit._next_key(5) == "dc:987654321/5/1"  # the change it makes remembers this key
    unit.handling(None)
