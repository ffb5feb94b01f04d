"""End to end on Discord, in three languages: members with their client locales (Russian,
English) and a Hebrew reader (Discord has no Hebrew locale: she says `language he` in her DM).
The slash commands' descriptions are localised; the channel reads the host's language; each
member's DM view and answers their own."""

from __future__ import annotations

import re
from collections.abc import AsyncIterator
from pathlib import Path

import pytest
from fakes.discord_server import FakeDiscord
from players.discord import act, live_table
from test_discord_e2e import GUILD, TABLE, Harness

from bot.clock import Clock

pytestmark = pytest.mark.e2e

IVAN, ALICE, YAEL = 2101, 2102, 2103
HEBREW = re.compile(r"[\u0590-\u05ff]")
CYRILLIC = re.compile(r"[\u0400-\u04ff]")


@pytest.fixture
async def harness(tmp_path: Path, clock: Clock) -> AsyncIterator[Harness]:
    async with FakeDiscord(token="discord-i18n-token", clock=clock) as fake, \
            fake.configure_discord_py():
        guild = fake.guild(GUILD, "Card Room")
        fake.text_channel(guild, TABLE, "rummy-table")
        fake.member(guild, IVAN, "ivan")
        fake.member(guild, ALICE, "alice")
        fake.member(guild, YAEL, "yael")
        fake.users[IVAN].locale = "ru"
        h = Harness(fake, tmp_path / "rummy.db")
        await h.up()
        try:
            yield h
        finally:
            await h.down()


def _dm(fake: FakeDiscord, who: int) -> str:
    """The member's newest DM with components (their game view)."""
    views = [m for m in fake.dm_messages(who) if fake.components(m)]
    return views[-1].content if views else ""


async def test_members_in_their_own_languages(harness: Harness) -> None:
    fake = harness.fake
    (rummy,) = [c for c in fake.guild_commands(GUILD) if c["name"] == "rummy"]
    assert rummy["description_localizations"]["ru"] == "Карточные игры в этом канале"
    language = next(o for o in rummy["options"] if o["name"] == "language")
    assert language["description_localizations"]["ru"].startswith("Язык")

    # Yael reads Hebrew: she tells the bot so in her DM (stored with her)
    await fake.say(None, YAEL, "language he")
    await fake.wait_until(lambda: any("בעברית" in m.content for m in fake.dm_messages(YAEL)), 10)

    answer = await harness.slash(YAEL, "new", {"rulebook": "Machiavelli"})
    lobby = live_table(fake, TABLE)
    assert lobby is not None and "מקיאוולי" in lobby.content, lobby.content  # the host's
    assert HEBREW.search(answer[0]), answer
    answers = await harness.slash(IVAN, "join")
    assert CYRILLIC.search(answers[0]), answers  # his client's language
    answers = await harness.slash(ALICE, "join")
    assert "joined" in answers[0], answers
    answers = await harness.slash(IVAN, "end")  # not the host
    assert answers[0] == "Закончить игру может только создатель игры.", answers
    lobby = live_table(fake, TABLE)
    start = next(c for row in fake.components(lobby) for c in row if "▶" in (c.label or ""))
    assert start.label == "התחלה ▶"
    await act(harness, await fake.click(lobby, start.custom_id, YAEL))
    await harness.idle()
    row = await harness.game()
    assert row.status == "playing"
    await fake.wait_until(lambda: all(_dm(fake, m) for m in (IVAN, ALICE, YAEL)), 20)
    assert HEBREW.search(_dm(fake, YAEL)) and not CYRILLIC.search(_dm(fake, YAEL))
    assert "карт" in _dm(fake, IVAN)
    assert "cards" in _dm(fake, ALICE) and not HEBREW.search(_dm(fake, ALICE))
    table = live_table(fake, TABLE)
    assert table is not None and "קופה" in table.content  # the channel: the host's language
