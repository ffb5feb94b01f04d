"""The review on Discord (issue 32), end to end: the real discord.py client against the fake
Discord server, the real core and store (SQLite). The scripted round of tests/review_games.py
(the seat only ever drew while cards fitted) ends with the computer going out; its scores carry
🔎 Review. The player gets the review (picture and text) by DM, or — DMs closed — as an
ephemeral answer; a member who only watches is told no, and sees nothing of it."""

from __future__ import annotations

import io
from collections.abc import AsyncIterator
from pathlib import Path

import pytest
from fakes.discord_server import FakeDiscord
from PIL import Image
from players.discord import act, controls
from review_games import drawing_round, record_of
from test_discord_e2e import ALICE, CAROL, EVE, GUILD, TABLE, Harness

from bot.core.record import Record
from engine.rummy.review import game_decisions, review

pytestmark = pytest.mark.e2e


@pytest.fixture
async def harness(tmp_path: Path) -> AsyncIterator[Harness]:
    async with FakeDiscord(token="discord-e2e-token") as fake, fake.configure_discord_py():
        guild = fake.guild(GUILD, "Card Room")
        fake.text_channel(guild, TABLE, "rummy-table")
        fake.member(guild, ALICE, "alice")
        fake.member(guild, CAROL, "carol", dm_open=False)
        fake.member(guild, EVE, "eve")
        h = Harness(fake, tmp_path / "rummy.db")
        await h.up()
        try:
            yield h
        finally:
            await h.down()


async def _round_ends(h: Harness, who: int) -> None:
    """`who` sits in the scripted game; the computer's last move ends it."""
    player = await h.store.player("discord", str(who), "player")
    record = record_of(drawing_round(stop_before_end=True), user=str(who), player_id=player)
    row = await h.store.create_game("discord", str(TABLE), record.to_dict(), status="playing")
    h.service.scheduler.after_save(row.id, Record.from_dict(row.record))
    await h.fake.wait_until(lambda: _review_button(h) is not None, timeout=20)
    await h.idle()


def _review_button(h: Harness):
    for message in reversed(h.fake.channel_messages(TABLE)):
        for control in controls(h.fake, message):
            if control.label == "🔎 Review":
                return message, control
    return None


def _summary() -> str:
    result = review(game_decisions(drawing_round(), 0, 1))
    return (f"{len(result.turns)} turns · {result.missed} missed · {result.cards} cards left "
            "in hand that could have gone")


async def test_the_review_comes_by_dm_and_a_watcher_is_told_no(harness: Harness):
    fake = harness.fake
    await _round_ends(harness, ALICE)
    message, button = _review_button(harness)
    before = len(fake.dm_messages(ALICE))
    await act(harness, await fake.click(message, button.custom_id, ALICE))
    await fake.wait_until(lambda: len(fake.dm_messages(ALICE)) >= before + 2, timeout=20)
    picture, text = fake.dm_messages(ALICE)[-2:]
    assert [a.filename for a in picture.attachments] == ["review.png"]
    assert Image.open(io.BytesIO(picture.attachments[0].data)).width == 800
    assert _summary() in picture.content
    assert "Turn 1: you drew" in text.content and _summary() in text.content

    eve_dms = len(fake.dm_messages(EVE))
    said = await act(harness, await fake.click(message, button.custom_id, EVE))
    assert any("Only the players of this game can review it" in s for s in said)
    assert len(fake.dm_messages(EVE)) == eve_dms
    assert not any("Turn 1" in m.content for m in fake.ephemeral_for(EVE))


async def test_with_dms_closed_the_review_is_ephemeral(harness: Harness):
    fake = harness.fake
    await _round_ends(harness, CAROL)
    said = await harness.slash(CAROL, "review")
    assert any(_summary() in s for s in said)
    assert not any("private chat" in s for s in said)  # it came here, not there
    shown = [m for m in fake.ephemeral_for(CAROL) if m.attachments]
    assert shown and shown[-1].attachments[0].filename == "review.png"
    assert not fake.dm_messages(CAROL)
    said = await harness.slash(EVE, "review", {"round": 2})
    assert any("Only the players" in s for s in said)


async def test_a_build_to_ten_review_comes_by_dm_with_its_picture(harness: Harness):
    """Build-to-Ten's review on Discord: the same road as rummy's, picture then text."""
    from test_review_buildten import play_game

    from bot.games.buildten.review import review_screen

    fake = harness.fake
    player = await harness.store.player("discord", str(ALICE), "alice")
    record = play_game(user=str(ALICE), name="alice", player_id=player)
    row = await harness.store.create_game("discord", str(TABLE), record.to_dict(),
                                          status="finished")
    expected = review_screen(row.id, record, 0, None).text
    before = len(fake.dm_messages(ALICE))
    await harness.slash(ALICE, "review")
    await fake.wait_until(lambda: len(fake.dm_messages(ALICE)) >= before + 2, timeout=20)
    picture, text = fake.dm_messages(ALICE)[-2:]
    assert [a.filename for a in picture.attachments] == ["review.png"]
    assert Image.open(io.BytesIO(picture.attachments[0].data)).width == 800
    assert picture.content == "\n".join(expected.split("\n")[:2])
    assert text.content == expected
