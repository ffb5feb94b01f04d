"""Scripted Discord members for end-to-end tests: they look at what the bot really sent (their
DM, or their ephemeral view when DMs are closed) and act only through its components."""

from __future__ import annotations

import asyncio
import contextlib
import random
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any, Protocol

from fakes.discord_server import Control, FakeDiscord, FakeInteraction, FakeMessage
from felt import SLOW

from bot.core.record import Record
from engine.rummy import Commit, Draw, GameState, Knock, Pass, player_view
from engine.rummy.ai import choose_action

PREFIX = "rt:"


class Bot(Protocol):
    """What the harness offers: the fake, and the adapter of the running process."""

    fake: FakeDiscord
    channel_id: int

    async def idle(self) -> None: ...


def controls(fake: FakeDiscord, message: FakeMessage) -> list[Control]:
    return [c for row in fake.components(message) for c in row]


def version_of(fake: FakeDiscord, message: FakeMessage) -> int | None:
    """The state version the message's components were made for (`rt:game:version:…`)."""
    for control in controls(fake, message):
        if control.custom_id and control.custom_id.startswith(PREFIX):
            return int(control.custom_id[len(PREFIX):].removeprefix("L:").split(":")[1])
    return None


def find(fake: FakeDiscord, message: FakeMessage, predicate: Callable[[Control], bool]
         ) -> Control | None:
    return next((c for c in controls(fake, message) if predicate(c)), None)


def live_table(fake: FakeDiscord, channel_id: int) -> FakeMessage | None:
    """The newest public message in the channel with game components (the live table)."""
    for message in reversed(fake.channel_messages(channel_id)):
        if message.attachments and version_of(fake, message) is not None:
            return message
    return None


async def act(bot: Bot, interaction: FakeInteraction) -> list[str]:
    """Wait for the bot to acknowledge and finish; the texts it answered with, if any."""
    with contextlib.suppress(AssertionError):  # an expired token is never acknowledged
        await interaction
    await bot.idle()
    return [m.content for m in interaction.followups]


@dataclass
class Person:
    bot: Bot
    id: int
    name: str
    dm_open: bool = True
    store: Any = None
    game_id: int = 0
    refreshes: int = 0  # times the view was stale and the person had to press something
    # press -> this person's own view changed, in seconds (SLOW when it didn't within 1.5 s)
    waits: list[float] = field(default_factory=list)
    # seconds a person looks at their new view before the next press (seeded by their id)
    think: tuple[float, float] = (0.0, 0.0)
    rng: random.Random = field(init=False)

    def __post_init__(self) -> None:
        self.rng = random.Random(self.id)

    @property
    def fake(self) -> FakeDiscord:
        return self.bot.fake

    def private_message(self) -> FakeMessage | None:
        """The bot's newest private view for this person: by DM, or ephemeral in the channel."""
        if self.dm_open:
            messages = self.fake.dm_messages(self.id)
        else:
            messages = self.fake.ephemeral_for(self.id, self.bot.channel_id)
        for message in reversed(messages):
            if message.attachments and version_of(self.fake, message) is not None:
                return message
        return None

    async def click(self, message: FakeMessage, predicate: Callable[[Control], bool],
                    what: str) -> list[str]:
        control = find(self.fake, message, predicate)
        shown = [c.label for c in controls(self.fake, message)]
        assert control is not None, f"{self.name}: no control for {what} in {shown}"
        return await act(self.bot, await self.fake.click(message, control.custom_id, self.id))

    async def pick(self, message: FakeMessage, control: Control, values: list[str]) -> list[str]:
        return await act(self.bot, await self.fake.select(message, control.custom_id, values,
                                                          self.id))

    async def show_my_hand(self) -> None:
        """What someone with closed DMs does: My cards on the table (or Show my hand)."""
        table = live_table(self.fake, self.bot.channel_id)
        assert table is not None
        await self.click(table, lambda c: "My cards" in (c.label or ""), "My cards")

    async def version(self) -> int:
        row = await self.store.get_game(self.game_id)
        return int(row.record["state"]["version"])

    async def screen(self, *, my_turn: bool = True) -> FakeMessage:
        """Wait until this person's view shows the game's current version (a person looks at
        the screen once it has updated). Closed DMs: refresh by pressing a button when the
        ephemeral view can no longer be edited for them (after a restart)."""
        version = await self.version()

        def current() -> bool:
            message = self.private_message()
            if message is None or version_of(self.fake, message) != version:
                return False
            return not my_turn or message.content.startswith("Your turn")

        for attempt in range(3):
            try:
                await self.fake.wait_until(current, timeout=4 if not self.dm_open else 20,
                                           what=f"{self.name}'s view at version {version}")
                break
            except TimeoutError:
                if self.dm_open or attempt == 2:
                    message = self.private_message()
                    seen = message and (version_of(self.fake, message), message.content[:80])
                    calls = "\n".join(f"{c} {str(c.json)[:150]}"
                                      for c in self.fake.requests[-12:])
                    raise AssertionError(
                        f"{self.name} sees {seen}, not version {version}\n{calls}") from None

                self.refreshes += 1
                old = self.private_message()
                sort = old and find(self.fake, old, lambda c: "⇅" in (c.label or ""))
                if old is not None and sort:
                    await self.click(old, lambda c: "⇅" in (c.label or ""), "refresh")
                else:
                    await self.show_my_hand()
        message = self.private_message()
        assert message is not None
        return message

    def _looks(self) -> tuple:
        message = self.private_message()
        if message is None:
            return ()
        return (message.id, message.edited_at, message.content, str(message.components))

    async def _timed(self, act_: Any) -> list[str]:
        """Run a press; note how long until this person's own view changed."""
        before, pressed = self._looks(), time.monotonic()
        task = asyncio.ensure_future(act_)
        try:
            await self.fake.wait_until(lambda: self._looks() != before, timeout=SLOW,
                                       what="the view to change")
            self.waits.append(time.monotonic() - pressed)
        except TimeoutError:
            self.waits.append(SLOW)
        return await task

    async def _look(self) -> FakeMessage:
        message = await self.screen()
        if self.think[1]:
            await self.fake.clock.sleep(self.rng.uniform(*self.think))
            message = await self.screen()
        return message

    async def press(self, predicate: Callable[[Control], bool], what: str) -> None:
        message = await self._look()
        answers = await self._timed(self.click(message, predicate, what))
        assert not any("out of date" in a for a in answers), f"{what}: stale button ({answers})"

    async def select(self, tokens: list[str]) -> None:
        """Pick these hand cards in the card menu, paging (▶) through a long hand."""
        wanted = set(tokens)
        for _ in range(6):
            message = await self._look()
            menu = find(self.fake, message, lambda c: (c.custom_id or "").split(":")[-1]
                        .startswith("@cards"))
            assert menu is not None, f"{self.name}: no card menu"
            shown = {o.value for o in menu.options if o.default}
            values = [o.value for o in menu.options if o.default or o.value in wanted]
            if set(values) != shown:
                answers = await self._timed(self.pick(message, menu, values))
                assert not any("out of date" in a for a in answers), answers
            wanted -= {o.value for o in menu.options}
            if not wanted:
                return
            await self.press(lambda c: c.label == "▶", "next page")
        raise AssertionError(f"{sorted(wanted)} never showed on any page")

    async def take_turn(self, store: Any, game_id: int, seat: int) -> str:
        """Decide like a medium computer, then do it with components: the card menu,
        Auto-place, Done — or Draw / Pass."""
        self.store, self.game_id = store, game_id
        row = await store.get_game(game_id)
        state = GameState.from_dict(Record.from_dict(row.record).state)
        action = await asyncio.to_thread(choose_action, player_view(state, seat), "medium")
        if isinstance(action, Commit | Knock) and action.arrangement is not None:
            hand_ids = {c.ident for c in state.hands[seat]}
            placed = [c.token for g in action.arrangement for c in g if c.ident in hand_ids]
            await self.select(placed)
            await self.press(lambda c: "Auto-place" in (c.label or ""), "auto")
            finish = "Knock" if isinstance(action, Knock) else "Done"
            await self.press(lambda c, f=finish: f in (c.label or ""), finish)
            return "lay"
        if isinstance(action, Knock):
            await self.press(lambda c: "Knock" in (c.label or ""), "knock")
            return "knock"
        label = "Draw" if isinstance(action, Draw) else "Pass" if isinstance(action, Pass) else None
        assert label, f"unexpected action {action}"
        await self.press(lambda c, lb=label: c.label == lb, label)
        return label.lower()
