"""/rummy notify on Discord (issue 41 item 2), end to end: the real discord.py client (through
the adapter) against the fake Discord server (its buckets on the virtual clock), the real core
and store. bob and carol (DMs closed) ask for calls; alice opens a lobby: bob's call comes by
DM with Join, which seats him in the channel's lobby; carol's closed DMs cost nothing; a second
lobby within the meter calls nobody; /rummy notify again turns bob's calls off."""

from __future__ import annotations

import pytest
from fakes.discord_server import FakeDiscord
from players.discord import act, controls, find
from test_discord_e2e import ALICE, BOB, CAROL, GUILD, TABLE, Harness, harness  # noqa: F401

from bot.core.record import Record

pytestmark = pytest.mark.e2e

CALL = "🃏 A game of"


def calls(fake: FakeDiscord, who: int) -> list:
    return [m for m in fake.dm_messages(who) if m.content.startswith(CALL)]


async def test_a_lobby_calls_the_subscribers_and_no_more_within_the_meter(
        harness: Harness) -> None:
    fake = harness.fake
    commands = {c["name"]: c for c in fake.guild_commands(GUILD)}
    assert "notify" in {o["name"] for o in commands["rummy"]["options"]}

    assert "write to you privately" in (await harness.slash(BOB, "notify"))[0]
    assert "write to you privately" in (await harness.slash(CAROL, "notify"))[0]
    await harness.slash(ALICE, "new", {"rulebook": "machiavelli"})
    await fake.wait_until(lambda: len(calls(fake, BOB)) == 1, timeout=20, what="bob's call")
    (call,) = calls(fake, BOB)
    assert call.content == "🃏 A game of Machiavelli is starting in #rummy-table."
    assert [c.label for c in controls(fake, call)] == ["Join"]
    await harness.idle()
    assert calls(fake, CAROL) == [] and calls(fake, ALICE) == []
    closed = [c for c in fake.calls("POST", "/messages") if c.status == 403
              and CALL in str(c.json)]  # carol's call was tried: 50007, and that was all
    assert len(closed) == 1, closed

    # Join in bob's DM: his seat in the channel's lobby
    join = find(fake, call, lambda c: c.label == "Join")
    answers = await act(harness, await fake.click(call, join.custom_id, BOB))
    assert any("You joined" in a for a in answers), answers
    row = await harness.game()
    assert [s.user for s in Record.from_dict(row.record).seats] == [str(ALICE), str(BOB)]

    # a lobby again, within the meter: no call
    await harness.slash(ALICE, "end")
    await harness.slash(ALICE, "new", {"rulebook": "machiavelli"})
    assert (await harness.game()).id != row.id
    await harness.idle()
    assert len(calls(fake, BOB)) == 1

    assert "No more calls" in (await harness.slash(BOB, "notify"))[0]
