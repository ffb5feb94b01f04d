"""A lesson on Discord end to end: `/rummy lesson` through the real discord.py client against
the fake Discord server, the lesson service built as `rummy run` builds it (bot/app.py), the
learner pressing only the components the bot sent — in their DM, or ephemerally when their
DMs are closed; a foreign press is refused; the lesson survives a restart."""

from __future__ import annotations

from collections.abc import AsyncIterator, Callable
from pathlib import Path
from typing import Any

import pytest
from fakes.discord_interactions import MESSAGE_COMPONENT
from fakes.discord_server import Control, FakeDiscord, FakeMessage
from players.discord import act, controls, find

from bot.adapters.discord import DiscordAdapter
from bot.app import build_services
from bot.clock import Clock
from bot.games.rummy.lessons import LESSONS
from bot.store import Store
from engine.cards import parse_cards
from engine.rummy import ALL_RULEBOOKS

pytestmark = pytest.mark.e2e

GUILD, TABLE = 3000, 3001
ADA, BOB, CY = 4001, 4002, 4003  # Cy's DMs are closed
LESSON_END = ":quit"  # a lesson's ✖ Quit (its buttons are its game's: no prefix of their own)


class Bot:
    channel_id = TABLE

    def __init__(self, fake: FakeDiscord, db: Path) -> None:
        self.fake = fake
        self.url = f"sqlite+aiosqlite:///{db}"
        self.store: Any = None
        self.service: Any = None
        self.adapter: DiscordAdapter | None = None

    async def up(self) -> None:
        self.store = await Store.open(self.url)
        self.service = build_services(self.store, computer_delay=0.0, tick=0.2,
                                      clock=self.fake.clock)
        self.adapter = DiscordAdapter(self.service, self.fake.token, guild_id=GUILD,
                                      api_base=self.fake.api_base,
                                      gateway_url=self.fake.gateway_url,
                                      guild_ready_timeout=0.05)
        await self.adapter.start(ready_timeout=10)
        await self.service.start()

    async def down(self) -> None:
        await self.service.stop()
        assert self.adapter is not None
        await self.adapter.stop()
        await self.store.close()

    async def idle(self) -> None:
        assert self.adapter is not None
        await self.adapter.wait_idle(20)

    async def lesson_row(self, user: int) -> Any:
        chat = self.fake.dm_channel(user)
        return await self.store.active_game("discord", str(chat.id))


@pytest.fixture
async def bot(tmp_path: Path, clock: Clock) -> AsyncIterator[Bot]:
    async with FakeDiscord(token="discord-lesson-token", clock=clock) as fake, \
            fake.configure_discord_py():
        guild = fake.guild(GUILD, "Classroom")
        fake.text_channel(guild, TABLE, "learn-rummy")
        fake.member(guild, ADA, "ada")
        fake.member(guild, BOB, "bob")
        fake.member(guild, CY, "cy", dm_open=False)
        b = Bot(fake, tmp_path / "rummy.db")
        await b.up()
        try:
            yield b
        finally:
            await b.down()


def lesson_view(messages: list[FakeMessage], fake: FakeDiscord) -> FakeMessage | None:
    """The newest message with a lesson's components."""
    for message in reversed(messages):
        if any((c.custom_id or "").startswith("rt:") and (c.custom_id or "").endswith(LESSON_END)
               for c in controls(fake, message)):
            return message
    return None


class Learner:
    def __init__(self, bot: Bot, user: int, *, dm: bool = True) -> None:
        self.bot, self.user, self.dm = bot, user, dm

    @property
    def fake(self) -> FakeDiscord:
        return self.bot.fake

    def view(self) -> FakeMessage:
        messages = (self.fake.dm_messages(self.user) if self.dm
                    else self.fake.ephemeral_for(self.user, TABLE))
        message = lesson_view(messages, self.fake)
        assert message is not None, f"no lesson view for {self.user}"
        return message

    async def click(self, predicate: Callable[[Control], bool], what: str) -> list[str]:
        message = self.view()
        control = find(self.fake, message, predicate)
        assert control is not None, f"{what}: {[c.label for c in controls(self.fake, message)]}"
        return await act(self.bot, await self.fake.click(message, control.custom_id, self.user))

    async def select(self, faces: str) -> None:
        """Pick these cards in the lesson's card menu."""
        message = self.view()
        menu = find(self.fake, message, lambda c: (c.custom_id or "").endswith("@cards"))
        assert menu is not None, "no card menu"
        wanted = {c.pretty() for c in parse_cards(faces)}
        values = [o.value for o in menu.options if o.default or o.label.strip("()") in wanted]
        await act(self.bot, await self.fake.select(message, menu.custom_id, values, self.user))

    async def lay(self, faces: str) -> list[str]:
        await self.select(faces)
        await self.click(lambda c: c.label == "New group", "new group")
        return await self.click(lambda c: c.label == "✔ Done", "done")


def label(text: str) -> Callable[[Control], bool]:
    return lambda c: text in (c.label or "")


async def test_a_lesson_in_the_dm_step_by_step_and_after_a_restart(bot: Bot) -> None:
    fake = bot.fake
    (rummy,) = [c for c in fake.guild_commands(GUILD) if c["name"] == "rummy"]
    (sub,) = [o for o in rummy["options"] if o["name"] == "lesson"]
    (rulebook,) = sub["options"]
    assert [c["value"] for c in rulebook["choices"]] == list(ALL_RULEBOOKS)

    answer = await act(bot, await fake.slash(TABLE, ADA, "rummy", subcommand="lesson"))
    assert answer == ["🎓 Your lesson is in your DMs."], answer
    ada = Learner(bot, ADA)
    steps = LESSONS["manipulation"].steps
    view = ada.view()
    assert view.content.startswith("Lesson 1/") and steps[0].title in view.content, view.content
    assert view.attachments, "the lesson's picture"
    assert not [m for m in fake.channel_messages(TABLE) if m.author_id == fake.bot_id]

    # buttons: Show me, then a card picked and unpicked in the menu (the selection is kept)
    await ada.click(label("Show me"), "show me")
    assert "5♥" in ada.view().content
    await ada.select("5H")
    menu = find(fake, ada.view(), lambda c: (c.custom_id or "").endswith("@cards"))
    assert menu is not None and [o.label for o in menu.options if o.default] == ["5♥"]
    message_id = ada.view().id

    # a foreign press (a modified client) on Ada's DM message is refused, nothing changes
    row = await bot.lesson_row(ADA)
    before = row.record
    done = find(fake, ada.view(), label("New group"))
    assert done is not None
    data = {"custom_id": done.custom_id, "component_type": 2}
    forged = await fake._send_interaction(MESSAGE_COMPONENT, data, ada.view().channel,
                                          fake.users[BOB], None, ada.view())
    answers = await act(bot, forged)
    assert any("belongs to someone else" in a for a in answers), answers
    assert (await bot.lesson_row(ADA)).record == before
    assert not lesson_view(fake.dm_messages(BOB), fake)

    # the first step's move: the next step shows, in the same message (edited in place)
    await ada.select("5H 6H 7H")
    await ada.click(lambda c: c.label == "New group", "new group")
    answers = await ada.click(lambda c: c.label == "✔ Done", "done")
    assert answers == ["✓ Correct!"], answers
    assert steps[1].title in ada.view().content and ada.view().id == message_id

    # a restart: the state is in the store, the components are persistent
    await bot.down()
    await bot.up()
    answers = await ada.lay("9S 9H 9D")
    assert answers == ["✓ Correct!"], answers
    assert steps[2].title in ada.view().content and ada.view().id == message_id
    dms = [m for m in fake.dm_messages(ADA) if lesson_view([m], fake)]
    assert len(dms) == 1, "one lesson message, edited"


async def test_closed_dms_get_the_lesson_ephemerally(bot: Bot) -> None:
    fake = bot.fake
    answer = await act(bot, await fake.slash(TABLE, CY, "rummy", subcommand="lesson",
                                             options={"rulebook": "manipulation"}))
    cy = Learner(bot, CY, dm=False)
    view = cy.view()
    assert answer == [view.content], answer  # the ephemeral lesson view is the answer
    assert LESSONS["manipulation"].steps[0].title in view.content
    assert not fake.channel_messages(TABLE), "nothing public"
    await cy.select("5H 6H 7H")
    await cy.click(lambda c: c.label == "New group", "new group")
    answers = await cy.click(lambda c: c.label == "✔ Done", "done")
    assert answers == [], answers  # as with a game's cards: the edited view is the answer
    assert LESSONS["manipulation"].steps[1].title in cy.view().content
    assert not fake.channel_messages(TABLE), "nothing public"
