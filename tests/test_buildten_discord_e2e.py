"""Build-to-Ten end to end on Discord: the real discord.py client (through the adapter)
against the fake Discord server, the real core and store. `/rummy new build-to-ten`, then one
member and two computers finish a game with the components the bot sent to the member's DMs."""

from __future__ import annotations

import asyncio

import pytest
from fakes.discord_server import FakeDiscord
from players.discord import act, controls, live_table
from test_buildten_telegram_e2e import taps
from test_discord_e2e import ALICE, GUILD, TABLE, Harness, label

from engine.buildten import BuildState, player_view
from engine.buildten.ai import choose_action

pytestmark = pytest.mark.e2e
PACE = 0.13  # s between taps: a person's pace, inside the fair-use limit (8 a second)


@pytest.fixture
async def harness(tmp_path, clock):
    async with FakeDiscord(token="discord-e2e-token", clock=clock) as fake, \
            fake.configure_discord_py():
        guild = fake.guild(GUILD, "Card Room")
        fake.text_channel(guild, TABLE, "card-table")
        fake.member(guild, ALICE, "alice")
        h = Harness(fake, tmp_path / "buildten.db")
        await h.up()
        try:
            yield h
        finally:
            await h.down()


async def click_dm(harness: Harness, version: int, action: str) -> None:
    fake = harness.fake
    suffix = f":{version}:{action}"

    def found():
        for message in reversed(fake.dm_messages(ALICE)):
            for control in controls(fake, message):
                if (control.custom_id or "").endswith(suffix):
                    return message, control
        return None

    try:
        await fake.wait_until(lambda: found() is not None, timeout=20, what=f"a {action} button")
    except TimeoutError:
        shown = [(m.content[:60], [c.custom_id for c in controls(fake, m)][:3])
                 for m in fake.dm_messages(ALICE)[-4:]]
        raise AssertionError(f"no {suffix} in Alice's DM: {shown}") from None
    message, control = found()
    await fake.clock.sleep(PACE)
    answers = await act(harness, await fake.click(message, control.custom_id, ALICE))
    assert not any("out of date" in a or "✗" in a for a in answers), answers


async def test_a_member_and_two_computers_finish_a_game_by_components(harness: Harness):
    fake = harness.fake
    commands = {c["name"]: c for c in fake.guild_commands(GUILD)}
    new = next(o for o in commands["rummy"]["options"] if o["name"] == "new")
    choices = {c["value"]: c for c in new["options"][0]["choices"]}
    assert choices["buildten"]["name"] == "Build-to-Ten"
    assert choices["buildten"]["name_localizations"] == {"ru": "Строим до десяти"}
    await harness.slash(ALICE, "new", {"rulebook": "buildten"})
    lobby = live_table(fake, TABLE)
    assert lobby is not None and "Build-to-Ten" in lobby.content
    for level in ("medium", "easy"):
        await act(harness, await fake.click(lobby, next(
            c.custom_id for c in controls(fake, lobby) if label("Computer")(c)), ALICE))
        lobby = live_table(fake, TABLE)
        await act(harness, await fake.click(lobby, next(
            c.custom_id for c in controls(fake, lobby) if label(level)(c)), ALICE))
        lobby = live_table(fake, TABLE)
    await act(harness, await fake.click(lobby, next(
        c.custom_id for c in controls(fake, lobby) if label("Start")(c)), ALICE))
    row = await harness.game()
    assert row.status == "playing"
    for _step in range(3000):
        row, record = await harness.state(row.id)
        if row.status != "playing":
            break
        state = BuildState.from_dict(record.state)
        if state.turn != 0:
            await harness.idle()
            await asyncio.sleep(0.02)
            continue
        action = choose_action(player_view(state, 0), "medium")
        for data in taps(state, action):
            await click_dm(harness, state.version, data)
    await harness.idle()
    row, _ = await harness.state(row.id)
    assert row.status == "finished", "the game did not finish"
    assert any("Game over" in m.content for m in fake.channel_messages(TABLE))
    for message in fake.channel_messages(TABLE, include_deleted=True):
        assert "your hand" not in message.content
    board = await harness.slash(ALICE, None, {"rulebook": "buildten"}, name="leaderboard")
    assert "alice" in board[0] and "1 game " in board[0], board
    print(f"buckets spent {fake.drained}, 429s {fake.limited}, requests {len(fake.requests)}")
