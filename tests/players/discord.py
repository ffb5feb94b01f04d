"""A scripted member on the fake Discord (tests/fakes/discord_server.py). They look only at what
the fake gave them — their DM, or their ephemeral view in the channel when DMs are closed, and
the channel's live table — and act only through its components (clicks, menu picks). What they
decide comes from players/mind.py on what they saw."""

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

from .mind import VERBS, Plan, Sight, decide, my_turn, piece, read_caption, read_table

PREFIX = "rt:"
TABLE_WAIT = 3.0  # s: for the live table to show the turn's version (it may never: a hint)
WAIT = 30.0  # s: a bound for the bot to show something (a lost view fails, never a speed check)


class Bot(Protocol):
    """What the harness offers: the fake, the table channel, and waiting for the bot."""

    fake: FakeDiscord
    channel_id: int

    async def idle(self) -> None: ...


def controls(fake: FakeDiscord, message: FakeMessage) -> list[Control]:
    return [c for row in fake.components(message) for c in row]


def _head(control: Control) -> list[str] | None:
    if not (control.custom_id and control.custom_id.startswith(PREFIX)):
        return None
    return control.custom_id[len(PREFIX):].removeprefix("L:").split(":")


def version_of(fake: FakeDiscord, message: FakeMessage | None) -> int | None:
    """The state version the message's components were made for (`rt:game:version:…`)."""
    for control in controls(fake, message) if message is not None else ():
        head = _head(control)
        if head:
            return int(head[1])
    return None


def shown_version(fake: FakeDiscord, message: FakeMessage | None) -> int:
    """version_of, -1 for none (version 0 is a version)."""
    version = version_of(fake, message)
    return -1 if version is None else version


def game_of(fake: FakeDiscord, message: FakeMessage | None) -> int | None:
    for control in controls(fake, message) if message is not None else ():
        head = _head(control)
        if head:
            return int(head[0])
    return None


def verb_of(control: Control) -> str:
    head = _head(control)
    return ":".join(head[2:]).split("~")[0] if head else ""


def find(fake: FakeDiscord, message: FakeMessage, predicate: Callable[[Control], bool]
         ) -> Control | None:
    return next((c for c in controls(fake, message) if predicate(c)), None)


def live_table(fake: FakeDiscord, channel_id: int) -> FakeMessage | None:
    """The newest public message in the channel with game components (the live table)."""
    for message in reversed(fake.channel_messages(channel_id)):
        if message.attachments and version_of(fake, message) is not None:
            return message
    return None


def card_menu(fake: FakeDiscord, message: FakeMessage) -> Control | None:
    return find(fake, message, lambda c: (c.custom_id or "").split(":")[-1].startswith("@cards"))


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
    lang: str = "en"
    # the game they sat down to (a person knows the rules they play by)
    rulebook: str = "manipulation"
    options: dict = field(default_factory=dict)
    level: str = "medium"
    refreshes: int = 0  # times the view was left behind and the person had to press something
    # press -> this person's own view changed, in seconds (SLOW when it didn't within 1.5 s)
    waits: list[float] = field(default_factory=list)
    # seconds a person looks at their new view before the next press (seeded by their id)
    think: tuple[float, float] = (0.0, 0.0)
    stale: int = 0  # presses answered "out of date": looked at again and retried
    fallbacks: int = 0  # planned lays the bot refused: reset, drew
    acted: int = -1  # the version of the view this person last finished a turn on
    pressed: int = -1  # the version of the view of the last press
    notes: list[str] = field(default_factory=list)  # what went wrong, for a failing test
    seen: str = ""  # the table's line last read
    rng: random.Random = field(init=False)

    def __post_init__(self) -> None:
        self.rng = random.Random(self.id)

    @property
    def fake(self) -> FakeDiscord:
        return self.bot.fake

    # -- looking --------------------------------------------------------------------------------

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

    def turn_shown(self) -> bool:
        message = self.private_message()
        return (message is not None and my_turn(message.content, self.lang)
                and shown_version(self.fake, message) > self.acted)

    def _looks(self) -> tuple:
        message = self.private_message()
        if message is None:
            return ()
        return (message.id, message.edited_at, message.content, str(message.components))

    async def screen(self, *, my_turn: bool = True) -> FakeMessage:
        """The view once the bot has finished sending; with `my_turn`, once it says it is this
        person's turn (newer than the one they last played). Closed DMs: when the ephemeral view
        can no longer be edited for them (after a restart) it stays behind — they press ⇅ on it,
        or My cards on the table, as a person would."""
        await self.bot.idle()
        for attempt in range(3):
            if not my_turn:
                break
            try:
                await self.fake.wait_until(self.turn_shown, timeout=4 if not self.dm_open
                                           else WAIT, what=f"{self.name}'s turn on the view")
                break
            except TimeoutError:
                if self.dm_open or attempt == 2:
                    message = self.private_message()
                    seen = message and (version_of(self.fake, message), message.content[:80])
                    calls = "\n".join(f"{c} {str(c.json)[:150]}"
                                      for c in self.fake.requests[-12:])
                    raise AssertionError(
                        f"{self.name} sees {seen}, not their turn\n{calls}") from None
                self.refreshes += 1
                old = self.private_message()
                sort = old and find(self.fake, old, lambda c: "⇅" in (c.label or ""))
                if old is not None and sort:
                    await self.click(old, lambda c: "⇅" in (c.label or ""), "refresh")
                else:
                    await self.show_my_hand()
        message = self.private_message()
        assert message is not None, f"{self.name} has no view"
        return message

    # -- acting ---------------------------------------------------------------------------------

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
        message = await self.screen(my_turn=False)
        if self.think[1]:
            await self.fake.clock.sleep(self.rng.uniform(*self.think))
            message = await self.screen(my_turn=False)
        return message

    async def press(self, predicate: Callable[[Control], bool], what: str) -> list[str]:
        """Look at the view, click the control `predicate` picks; an "out of date" answer (the
        view changed under the finger) is looked at again and clicked again."""
        for _attempt in range(4):
            message = await self._look()
            self.pressed = shown_version(self.fake, message)
            answers = await self._timed(self.click(message, predicate, what))
            if not any("out of date" in a for a in answers):
                return answers
            self.stale += 1
        raise AssertionError(f"{self.name}: {what} kept being out of date")

    async def read_hand(self) -> list[str]:
        """Every card of their hand in the card menu, paging (▶) through a long hand; the table's
        pieces shown in brackets (Tahiti's singles) are not theirs."""
        hand: list[str] = []
        for _ in range(8):
            message = await self._look()
            menu = card_menu(self.fake, message)
            if menu is None:
                break
            new = [o.value for o in menu.options
                   if not o.label.lstrip("✓").startswith("(") and o.value not in hand]
            if not new and hand:
                break  # back on the first page
            hand += new
            if not find(self.fake, message, lambda c: c.label == "▶"):
                break
            await self.press(lambda c: c.label == "▶", "next page")
        return hand

    async def select(self, tokens: list[str]) -> None:
        """Pick these hand cards in the card menu, paging (▶) through a long hand."""
        wanted = set(tokens)
        for _ in range(8):
            message = await self._look()
            menu = card_menu(self.fake, message)
            assert menu is not None, f"{self.name}: no card menu"
            shown = {o.value for o in menu.options if o.default}
            values = [o.value for o in menu.options if o.default or o.value in wanted]
            if set(values) != shown:
                self.pressed = shown_version(self.fake, message)
                answers = await self._timed(self.pick(message, menu, values))
                if any("out of date" in a for a in answers):
                    self.stale += 1
                    continue
            wanted -= {o.value for o in menu.options}
            if not wanted:
                return
            await self.press(lambda c: c.label == "▶", "next page")
        raise AssertionError(f"{sorted(wanted)} never showed on any page")

    # -- a turn ---------------------------------------------------------------------------------

    async def look(self) -> Sight:
        """Read the turn's view: the hand from the card menu, the table from the channel's live
        table, the rest from the view's text."""
        message = await self.screen()
        version = shown_version(self.fake, message)
        game = game_of(self.fake, message)
        legal = {VERBS[verb_of(c)] for c in controls(self.fake, message) if verb_of(c) in VERBS}
        hand = [piece(t) for t in await self.read_hand()]
        tiles = any(c.is_tile for c in hand)

        def table() -> FakeMessage | None:
            shown = live_table(self.fake, self.bot.channel_id)
            return shown if shown is not None and game_of(self.fake, shown) == game else None

        # the table follows the turn's view (a hint or a page moves only the person's own)
        with contextlib.suppress(TimeoutError):
            await self.fake.wait_until(
                lambda: shown_version(self.fake, table()) >= version, timeout=TABLE_WAIT,
                what="the table at the turn's version")
        shown = table()
        line = shown.content.rsplit("\n", 1)[-1] if shown is not None else ""
        groups, singles = read_table(line, tiles, hand)
        sight = Sight(hand, groups, singles, legal, version=version)
        read_caption(message.content, self.lang, sight)
        self.seen = line
        return sight

    async def take_turn(self) -> str:
        """Wait for my turn on my view, read it, decide, and do it with components: the card
        menu, Auto-place, Done — or Draw / Pass. What was done ("lay", "draw", …)."""
        sight = await self.look()
        plan = await asyncio.to_thread(decide, sight, self.rulebook, self.options, self.level)
        done = await self.play(plan)
        self.acted = max(self.acted, self.pressed)
        return done

    async def play(self, plan: Plan) -> str:
        if plan.kind in ("commit", "knock") and plan.tokens:
            await self.select(list(plan.tokens))
            await self.press(lambda c: verb_of(c) == "auto", "auto")
            finish = "knock" if plan.kind == "knock" else "done"
            if self._has(finish):
                await self.press(lambda c, f=finish: verb_of(c) == f, finish)
                await self.choose_joker()
            if self._refused(plan):
                self.notes.append(f"{plan} refused; table {self.seen}")
                await self.fall_back()
                return "fallback"
            return "lay"
        verb = {"draw": "draw", "pass": "pass", "knock": "knock", "done": "done"}[plan.kind]
        await self.press(lambda c, v=verb: verb_of(c) == v, verb)
        return verb

    def _has(self, verb: str) -> bool:
        message = self.private_message()
        return message is not None and find(self.fake, message,
                                            lambda c: verb_of(c) == verb) is not None

    async def choose_joker(self) -> None:
        """Done asked what a joker stands for: the first choice (a button or a menu)."""
        message = self.private_message()
        if message is None:
            return
        for control in controls(self.fake, message):
            if verb_of(control).startswith("jk:"):
                await self.press(lambda c: verb_of(c).startswith("jk:"), "joker choice")
                return
            choices = [o.value for o in control.options or [] if ":jk:" in f":{o.value}"]
            if choices:
                self.pressed = shown_version(self.fake, message)
                await self._timed(self.pick(message, control, choices[:1]))
                return

    def _refused(self, plan: Plan) -> bool:
        """Still my turn with a planned card still in my hand: the lay didn't go through (a
        lay that went through took every planned card out of the hand)."""
        message = self.private_message()
        if message is None or not my_turn(message.content, self.lang):
            return False
        menu = card_menu(self.fake, message)
        return menu is not None and any(o.value in plan.tokens for o in menu.options
                                        if not o.label.lstrip("✓").startswith("("))

    async def fall_back(self) -> None:
        """The planned lay was refused: put the table back, then draw (or pass)."""
        self.fallbacks += 1
        for verb in ("cancel", "reset"):
            if self._has(verb):
                await self.press(lambda c, v=verb: verb_of(c) == v, verb)
        for verb in ("draw", "pass", "giveup"):
            if self._has(verb):
                await self.press(lambda c, v=verb: verb_of(c) == v, verb)
                return
