"""Rummikub end to end on Discord: the real discord.py client against the fake Discord server,
the real core and store. One member and two computers finish a game by the components the bot
sent — `/rummy new rummikub`, the lobby, the tile menu, Hint, Auto-place, Done — then the
leaderboard counts it. The deal is the Telegram test's scripted one (a few turns)."""

from __future__ import annotations

import asyncio
import time
from collections.abc import AsyncIterator
from pathlib import Path

import pytest
from fakes.discord_server import FakeDiscord
from players.discord import Person, controls, find, live_table
from test_discord_e2e import ALICE, GUILD, TABLE, Harness, label
from test_rummikub_telegram_e2e import scripted_deal

import bot.games.rummy.host as rummy_host
from bot.clock import Clock
from engine.rummy import GameState

pytestmark = pytest.mark.e2e


@pytest.fixture
async def harness(tmp_path: Path, monkeypatch, clock: Clock) -> AsyncIterator[Harness]:
    monkeypatch.setattr(rummy_host, "new_game", scripted_deal)
    async with FakeDiscord(token="discord-e2e-token", clock=clock) as fake, \
            fake.configure_discord_py():
        guild = fake.guild(GUILD, "Tile Room")
        fake.text_channel(guild, TABLE, "rummikub")
        fake.member(guild, ALICE, "alice")
        h = Harness(fake, tmp_path / "rummikub.db")
        await h.up()
        try:
            yield h
        finally:
            await h.down()


async def test_one_member_and_computers_finish_a_rummikub_game(harness: Harness) -> None:
    started = time.monotonic()
    fake: FakeDiscord = harness.fake
    alice = Person(harness, ALICE, "alice", rulebook="rummikub")
    (rummy,) = [c for c in fake.guild_commands(GUILD) if c["name"] == "rummy"]
    (new,) = [o for o in rummy["options"] if o["name"] == "new"]
    assert "rummikub" in [c["value"] for c in new["options"][0]["choices"]]

    await harness.slash(ALICE, "new", {"rulebook": "rummikub"})
    lobby = live_table(fake, TABLE)
    assert lobby is not None and "Rummikub" in lobby.content
    # Rummikub's six options, each a button that moves it to its next value (in five rows)
    await alice.click(lobby, label("Options"), "options")
    lobby = live_table(fake, TABLE)
    shown = [c.label for c in controls(fake, lobby)]
    assert {"rounds: 1 ↻", "runs 12-13-1: no ↻", "one-minute turns: off ↻"} <= set(shown), shown
    await alice.click(lobby, label("rounds: 1"), "rounds")
    await alice.click(live_table(fake, TABLE), label("rounds: 3"), "rounds")
    await alice.click(live_table(fake, TABLE), label("rounds: 5"), "rounds")  # back to 1
    await alice.click(live_table(fake, TABLE), label("Back"), "back")
    assert "rounds: 1" in live_table(fake, TABLE).content
    for level in ("medium", "easy"):
        await alice.click(live_table(fake, TABLE), label("Computer"), "computer menu")
        await alice.click(live_table(fake, TABLE), label(level), level)
    await alice.click(live_table(fake, TABLE), label("Start"), "start")
    row = await harness.game()
    assert harness.store is not None
    hinted = False
    for _step in range(200):
        row, record = await harness.state(row.id)
        if row.status != "playing":
            break
        state = record.state
        if record.seats[state["turn"]].is_computer:
            await asyncio.sleep(0.05)
            continue
        if len(state["table"]) > 1 and not hinted:  # the second turn
            view = await alice.screen()
            menu = find(fake, view, lambda c: (c.custom_id or "").split(":")[-1]
                        .startswith("@cards"))
            assert menu is not None and [o.label for o in menu.options] == ["5O"]
            assert menu.placeholder == "Select tiles…"
            await alice.press(lambda c: "Hint" in (c.label or ""), "hint")
            await fake.wait_until(lambda: "💡" in alice.private_message().content, 10, "hint")
            assert "5🟧" in alice.private_message().content  # a colour mark in a sentence
            hinted = True
        await alice.take_turn()
    row, record = await harness.state(row.id)
    assert row.status == "finished" and hinted
    assert not alice.fallbacks, alice.notes  # she read the table right off the channel
    state = GameState.from_dict(record.state)
    assert state.result["winners"] == [0] and not state.hands[0]
    left = [sum(t.rank for t in hand) for hand in state.hands]
    assert state.result["totals"] == [sum(left), -left[1], -left[2]]
    await fake.wait_until(
        lambda: any("Game over" in m.content for m in fake.channel_messages(TABLE)), 20,
        "the result")
    board = await harness.slash(ALICE, None, {"rulebook": "rummikub"}, name="leaderboard")
    assert "alice" in board[0], board
    for message in fake.channel_messages(TABLE, include_deleted=True):
        assert "Rack:" not in message.content
    assert time.monotonic() - started < 60
