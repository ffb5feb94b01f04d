"""↻ Rematch on Discord (issue 41 item 1), end to end: the real discord.py client (through the
adapter) against the fake Discord server (its buckets on the virtual clock), the real core and
store. A game of alice, bob and a computer ends; its result carries ↻ Rematch; eve is refused,
alice is in, bob presses the call's ▶ Start now (not the host: refused), then ↻ Rematch — and
the second game starts in the channel with the same seats, each hand in its DM."""

from __future__ import annotations

import pytest
from fakes.discord_server import FakeDiscord, FakeMessage
from players.discord import act, controls, find, game_of
from rematch_games import record_near_end
from test_discord_e2e import ALICE, BOB, EVE, GUILD, TABLE, Harness, harness  # noqa: F401

from bot.core.record import Record

pytestmark = pytest.mark.e2e


def newest_with(fake: FakeDiscord, text: str) -> FakeMessage | None:
    """The newest channel message with a component labelled `text`."""
    for message in reversed(fake.channel_messages(TABLE)):
        if find(fake, message, lambda c: text in (c.label or "")) is not None:
            return message
    return None


async def click(harness: Harness, who: int, text: str) -> list[str]:
    fake = harness.fake
    await fake.wait_until(lambda: newest_with(fake, text) is not None, timeout=20,
                          what=f"a {text} button")
    message = newest_with(fake, text)
    control = find(fake, message, lambda c: text in (c.label or ""))
    return await act(harness, await fake.click(message, control.custom_id, who))


async def test_a_game_then_its_rematch_then_the_second_game(harness: Harness) -> None:
    fake, store = harness.fake, harness.store
    people = [(str(ALICE), "alice", await store.player("discord", str(ALICE), "alice")),
              (str(BOB), "bob", await store.player("discord", str(BOB), "bob"))]
    row = await store.create_game("discord", str(TABLE), record_near_end(people).to_dict(),
                                  status="playing")
    first = row.id
    harness.service.scheduler.after_save(first, Record.from_dict(row.record))  # it ends now

    answers = await click(harness, EVE, "↻ Rematch")
    assert (await store.get_game(first)).status == "finished"
    assert "belong to a player" in answers[0], answers
    answers = await click(harness, ALICE, "↻ Rematch")
    assert "You're in" in answers[0], answers
    await fake.wait_until(lambda: any("Waiting for: bob" in m.content
                                      for m in fake.channel_messages(TABLE)), timeout=20,
                          what="the call")
    call = newest_with(fake, "▶ Start now")
    assert [c.label for c in controls(fake, call)] == ["↻ Rematch", "▶ Start now"]
    answers = await click(harness, BOB, "▶ Start now")  # bob is no host
    assert "Only the host" in answers[0], answers
    assert await harness.game() is None

    await click(harness, BOB, "↻ Rematch")
    second = await harness.game()
    assert second is not None and second.id != first and second.status == "playing"
    record = Record.from_dict(second.record)
    assert [(s.user, s.computer) for s in record.seats] == [
        (str(ALICE), None), (str(BOB), None), (None, "medium")]
    assert Record.from_dict((await store.get_game(first)).record).rematch == second.id
    # the second game's table in the channel, each person's hand in their DM
    await fake.wait_until(lambda: any(game_of(fake, m) == second.id
                                      for m in fake.channel_messages(TABLE)), timeout=20,
                          what="the second game's table")
    for who in (ALICE, BOB):
        await fake.wait_until(lambda who=who: any(game_of(fake, m) == second.id
                                                  for m in fake.dm_messages(who)),
                              timeout=20, what="a hand of the second game")
    assert all("Hand:" not in m.content for m in fake.channel_messages(TABLE))
