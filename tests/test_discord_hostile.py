"""Hostile input on Discord, end to end: the real discord.py client (through the adapter)
against the fake Discord server, the real core and store (SQLite).

- display names with markdown, masked links, URLs and mentions show literally, and a member
  named like a computer seat is not shown as one;
- forged component interactions (custom ids and menu values a modified client sends) each get
  a polite answer, never silence, and the bot keeps serving;
- /rummy leave and /rummy end work in a DM that has its own game (and typed there too);
- /stats of another member is paid for by the asker, not by that member.
"""

from __future__ import annotations

import asyncio
import re
from collections.abc import AsyncIterator
from pathlib import Path
from typing import Any

import pytest
from fakes.discord_interactions import CHANNEL_MESSAGE_WITH_SOURCE, MESSAGE_COMPONENT
from fakes.discord_server import FakeDiscord, FakeInteraction, FakeMessage
from players.discord import Person, act, find, live_table
from test_discord_e2e import Harness as E2EHarness

from bot.adapters.discord_layout import escape
from bot.core.fair_use import SLOW_DOWN, FairUse
from bot.core.names import PERSON_MARK, clean_name
from bot.core.record import Record
from bot.core.service import NOT_OURS, Actor

GUILD, TABLE = 3000, 3001
ALICE, BOSS, ROBOT, PINGER, BOB, EVE = 4001, 4002, 4003, 4004, 4005, 4006
BOSS_NAME = "**Boss** [x](http://e.vil) @everyone"
ROBOT_NAME = "🤖 Computer 2"
PINGER_NAME = "@here <@123456789012345678>"


class Harness(E2EHarness):
    channel_id = TABLE
    guild_id = None  # commands synced globally: they are offered in DMs too
    seed = 5

    async def slash(self, who: int, sub: str | None, options: dict[str, Any] | None = None,
                    *, name: str = "rummy", dm: bool = False) -> list[str]:
        ix = await self.fake.slash(None if dm else TABLE, who, name, subcommand=sub,
                                   options=options)
        return await act(self, ix)

    async def game(self, chat: int = TABLE) -> Any:
        return await self.store.active_game("discord", str(chat))


@pytest.fixture
async def harness(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> AsyncIterator[Harness]:
    monkeypatch.delenv("DISCORD_GUILD_ID", raising=False)
    async with FakeDiscord(token="discord-hostile-token") as fake, fake.configure_discord_py():
        guild = fake.guild(GUILD, "Den")
        fake.text_channel(guild, TABLE, "rummy")
        for who, name in ((ALICE, "alice"), (BOSS, BOSS_NAME), (ROBOT, ROBOT_NAME),
                          (PINGER, PINGER_NAME), (BOB, "bob"), (EVE, "eve")):
            fake.member(guild, who, name)
        h = Harness(fake, tmp_path / "rummy.db")
        await h.up()
        try:
            yield h
        finally:
            await h.down()


def label(text: str):
    return lambda c: text in (c.label or "")


async def forge(h: Harness, message: FakeMessage, who: int, custom_id: Any, *,
                component_type: int = 2, values: list[Any] | None = None) -> FakeInteraction:
    """What a modified client can send: any custom_id, type and values, on a message it sees."""
    channel = message.channel
    member = channel.guild.members.get(who) if channel.guild else None
    data: dict[str, Any] = {"custom_id": custom_id, "component_type": component_type}
    if values is not None:
        data["values"] = values
    return await h.fake._send_interaction(MESSAGE_COMPONENT, data, channel, h.fake.users[who],
                                          member, message)


async def answer(h: Harness, ix: FakeInteraction) -> str:
    """The interaction's answer (it must have one): the reply, or the followups."""
    response = await ix.response(timeout=5)
    await h.idle()
    if response.type == CHANNEL_MESSAGE_WITH_SOURCE:
        assert response.ephemeral, "a rejection is for the presser only"
        return (response.data or {}).get("content", "")
    return "\n".join(m.content for m in ix.followups)


def contents(fake: FakeDiscord, channel: int = TABLE) -> list[str]:
    messages = fake.channel_messages(channel, include_deleted=True, include_ephemeral=True)
    return [m.content for m in messages]


# -- names -------------------------------------------------------------------------------


async def test_names_show_literally_and_nobody_passes_for_a_computer(harness: Harness) -> None:
    fake = harness.fake
    alice = Person(harness, ALICE, "alice")
    await harness.slash(ALICE, "new", {"rulebook": "Guadeloupe"})
    lobby = live_table(fake, TABLE)
    assert lobby is not None
    for who in (BOSS, ROBOT, PINGER):
        await Person(harness, who, str(who)).click(lobby, label("Join"), "join")
    await alice.click(lobby, label("Computer"), "computer menu")
    await alice.click(lobby, label("easy"), "easy")
    lobby = live_table(fake, TABLE)
    assert lobby is not None
    (seats,) = [line for line in lobby.content.splitlines() if line.startswith("Players: ")]

    # Markdown is escaped: Discord shows the name as typed (clean_name cut it to 32 characters,
    # and made the link's and the mentions' signs look-alikes: ∕ ․ ＠).
    boss = clean_name(BOSS_NAME)
    assert boss == "**Boss** [x](http:∕∕e․vil) ＠ever"
    assert r"\*\*Boss\*\* \[x](http:∕∕e․vil) ＠ever" in seats, seats
    assert "＠here \\<＠123456789012345678>" in seats, seats
    # The member calling themself "🤖 Computer 2" is marked a person; the real computer is
    # the only "🤖 Computer …" seat without that mark.
    assert f"{ROBOT_NAME}{PERSON_MARK}" in seats, seats
    computers = re.findall(r"🤖 Computer \d+(?: \((?:easy|medium|hard|person)\))?", seats)
    assert computers == [f"{ROBOT_NAME}{PERSON_MARK}", "🤖 Computer 1 (easy)"], computers
    row = await harness.game()
    record = Record.from_dict(row.record)
    assert [s.name for s in record.seats if not s.is_computer][2] == f"{ROBOT_NAME}{PERSON_MARK}"

    await alice.click(lobby, label("Start"), "start")
    await harness.idle()
    row = await harness.game()
    assert row.status == "playing"
    for person in (ALICE, BOSS, ROBOT, PINGER):
        await fake.wait_until(lambda p=person: any(m.attachments for m in fake.dm_messages(p)),
                              10, f"the cards of {person}")
    # Nothing the bot posted anywhere renders the names as markup.
    shown = contents(fake) + [m.content for p in (ALICE, BOSS, ROBOT, PINGER)
                              for m in fake.dm_messages(p)]
    table = live_table(fake, TABLE)
    assert table is not None and r"\*\*Boss\*\* \[x](http:∕∕e․vil)" in table.content
    for text in shown:
        assert "**Boss**" not in text, text
        assert not re.search(r"(?<!\\)\[x\]\(", text), text
        assert "http://" not in text and "@everyone" not in text and "@here" not in text, text
        assert not re.search(r"(?<!\\)<@", text), text
    assert fake.unanswered == []


def test_escape_shows_plain_text_literally() -> None:
    assert escape("**a** __b__ ~~c~~ ||d|| `e` \\") == (
        r"\*\*a\*\* \_\_b\_\_ \~\~c\~\~ \|\|d\|\| \`e\` \\")
    assert escape("[x](http://e.vil) <https://e.vil> https://e.vil") == (
        r"\[x](http\://e.vil) \<https\://e.vil> https\://e.vil")
    assert escape("# big\n-# small\n> quote\n  - item\nok #1 - 2 > 1") == (
        "\\# big\n\\-# small\n\\> quote\n  \\- item\nok #1 - 2 > 1")
    assert escape("@everyone @here <@&123> <t:0:R> <:e:1>") == (
        "@\u200beveryone @\u200bhere \\<@&123> \\<t:0:R> \\<:e:1>")
    assert escape("a\u202eb\u2066c") == "abc"
    # linear: a caption of brackets and parentheses (discord.utils.escape_markdown takes ~1 s)
    import time

    start = time.perf_counter()
    for text in ("[a](" * 500, "[" * 1000 + "](" * 500, "\n" * 2000, " " * 2000 + "#"):
        escape(text)
    assert time.perf_counter() - start < 0.1


# -- forged components -------------------------------------------------------------------


async def test_forged_components_are_answered_and_the_bot_carries_on(harness: Harness) -> None:
    fake = harness.fake
    alice = Person(harness, ALICE, "alice")
    await harness.slash(ALICE, "new", {"rulebook": "Guadeloupe"})
    lobby = live_table(fake, TABLE)
    assert lobby is not None
    row = await harness.game()
    game = row.id
    join = find(fake, lobby, label("Join"))
    assert join is not None and join.custom_id == f"rt:{game}:0:join"

    forged: list[tuple[Any, int]] = [
        ("rt:²:0:join", 2),  # a superscript digit ("²".isdigit())
        ("rt:٣:0:join", 2),  # an Arabic-Indic digit (re's \d, and int(), take it)
        ("rt:99999999999999999999999:0:join", 2),  # past any game id
        (f"rt:{game}:9999999999:join", 2),  # a 10-digit version
        ("rt:1:" + "9" * 5000 + ":join", 2),  # int() refuses 4,300+ digits
        (f"rt:{game}:0:tc:-2:5H#0", 2),  # a negative index
        (f"rt:{game}:0:" + "a" * 90, 2),  # an action over 64 characters, id within 100
        (f"rt:{game}:0:" + "join" * 60, 2),  # a custom_id over 100 characters
        (f"rt:{game}:0:join\n", 2),
        (f"rt:{game}:0:leave~7", 2),  # well formed, but not on this message
        (f"rt:{game}:0:join", 3),  # the Join button's id, sent as a select menu
        (f"rt:{game}:0:@cards", 3),  # a menu this message doesn't have
        ("", 2),
        ("nonsense", 2),
        ("rt:" + "\u0301" * 90, 2),
    ]
    for custom_id, kind in forged:
        ix = await forge(harness, lobby, ALICE, custom_id, component_type=kind)
        assert await answer(harness, ix) == NOT_OURS, custom_id
    row = await harness.game()
    assert row.status == "lobby" and len(Record.from_dict(row.record).seats) == 1

    # The lobby still works; then the private view's card menu, forged.
    await Person(harness, BOB, "bob").click(lobby, label("Join"), "join")
    await alice.click(lobby, label("Start"), "start")
    row = await harness.game()
    assert row.status == "playing"
    view = await alice.screen(my_turn=False)
    menu = find(fake, view, lambda c: (c.custom_id or "").split(":")[-1].startswith("@cards"))
    assert menu is not None and menu.custom_id
    tokens = [o.value for o in menu.options]
    for values in (
        [tokens[0]] * 500,  # 500 entries
        tokens + ["ZZ#9"] * 30,  # more than 25
        ["ZZ#9"],  # not an option of this menu
        ["10H#0\u200b"],
        [tokens[0], tokens[0]],  # the same card twice
        [7],  # not a string
    ):
        ix = await forge(harness, view, ALICE, menu.custom_id, component_type=3, values=values)
        assert await answer(harness, ix) == NOT_OURS, values[:3]
    record = Record.from_dict((await harness.store.get_game(row.id)).record)
    assert record.seat_ui(0).selected == []

    # A real pick is answered and counts.
    answers = await alice.pick(view, menu, [tokens[0]])
    assert not any(NOT_OURS in a for a in answers), answers
    record = Record.from_dict((await harness.store.get_game(row.id)).record)
    assert record.seat_ui(0).selected == [tokens[0]]
    assert fake.unanswered == []


# -- DM games ----------------------------------------------------------------------------


async def dm_game(harness: Harness, who: int, name: str) -> Any:
    """A game in `who`'s DM against the computer (what a finished lesson's Play a real game
    opens in the private chat)."""
    dm = harness.fake.dm_channel(who)
    actor = Actor("discord", str(dm.id), str(who), name, private=True)
    outcome = await harness.service.play_computer(actor, "guadeloupe", "easy")
    assert outcome.game_id is not None, outcome.reply
    await harness.adapter.deliver(outcome)
    await harness.idle()
    return await harness.game(dm.id)


async def test_leave_and_end_work_in_a_dm_with_its_own_game(harness: Harness) -> None:
    fake = harness.fake
    row = await dm_game(harness, ALICE, "alice")
    assert row.status == "playing"
    (reply,) = await harness.slash(ALICE, "join", dm=True)
    assert "server channel" in reply, reply
    (reply,) = await harness.slash(ALICE, "end", dm=True)
    assert "ended" in reply.lower(), reply
    assert (await harness.store.get_game(row.id)).status == "ended"

    row = await dm_game(harness, BOB, "bob")
    replies = await harness.slash(BOB, "leave", dm=True)
    assert any("left" in r for r in replies), replies
    assert (await harness.store.get_game(row.id)).status != "playing"  # nobody left to play

    # Typed in the DM, too (slash commands synced to one server are not offered in DMs).
    row = await dm_game(harness, EVE, "eve")
    before = len(fake.dm_messages(EVE))
    await fake.say(None, EVE, "end")
    await fake.wait_until(lambda: any("ended" in m.content.lower()
                                      for m in fake.dm_messages(EVE)[before:]), 10, "ended")
    await harness.idle()
    assert (await harness.store.get_game(row.id)).status == "ended"
    assert fake.unanswered == []


# -- /stats ------------------------------------------------------------------------------


async def test_stats_of_someone_else_is_paid_by_the_asker(harness: Harness) -> None:
    fake = harness.fake
    harness.service.fair_use = FairUse(clock=lambda: 0.0)  # no refills while the test runs
    asks = await asyncio.gather(*(fake.slash(TABLE, EVE, "stats", options={"member": ALICE})
                                  for _ in range(30)))
    replies = [r for ix in asks for r in await act(harness, ix)]
    assert SLOW_DOWN in replies  # Eve is slowed down…
    (reply,) = await harness.slash(ALICE, "new")
    assert SLOW_DOWN not in reply, reply  # …and Alice is not
    assert fake.unanswered == []


async def test_rummy_table_posts_the_table_again(harness: Harness) -> None:
    """A lost or buried table message is never the end of a game: /rummy table posts it anew,
    buttons and all, as the newest message of the channel."""
    fake = harness.fake
    alice = Person(harness, ALICE, "alice")
    await harness.slash(ALICE, "new", {"rulebook": "Guadeloupe"})
    lobby = live_table(fake, TABLE)
    assert lobby is not None
    await alice.click(lobby, label("Computer"), "computer menu")
    await alice.click(lobby, label("easy"), "easy")
    await alice.click(live_table(fake, TABLE), label("Start"), "start")
    await harness.idle()
    before = live_table(fake, TABLE)
    assert before is not None
    await harness.slash(BOB, "table")  # anyone in the channel may ask
    await harness.idle()
    after = live_table(fake, TABLE)
    assert after is not None and after.id != before.id
    assert fake.last_message(TABLE).id == after.id
    assert any("My cards" in (c.label or "") for row in fake.components(after) for c in row)


async def test_plain_dm_text_gets_the_pointer_to_the_buttons(harness: Harness) -> None:
    """Any DM text that is no typed move ("hi") is answered — it crashed the handler (the
    gettext `_` rebound by a tuple unpack) and the member got no answer at all."""
    fake = harness.fake

    def said() -> list[str]:
        return [m.content for m in fake.dm_messages(EVE) if m.author.id != EVE]

    for text in ("hi", "what is this?"):
        before = len(said())
        await fake.say(None, EVE, text)
        await fake.wait_until(lambda b=before: len(said()) > b, 10, "answered")
    assert all("lay 7H 8H 9H" in s for s in said()[-2:]), said()
