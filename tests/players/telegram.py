"""A scripted person on the fake Telegram (tests/fakes/telegram_server.py). They look only at
what the fake delivered to them — their private chat's newest screen (caption and buttons) and
the group's table message — and act only by pressing the buttons they were sent. What they
decide comes from players/mind.py on what they saw."""

from __future__ import annotations

import asyncio
import contextlib
import random
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from felt import SLOW

from .mind import VERBS, Plan, Sight, decide, my_turn, piece, read_caption, read_table, token_of

WAIT = 30.0  # s: a bound for the bot to show something (a lost screen fails, never a speed check)
TABLE_WAIT = 3.0  # s: for the group's table to show the turn's version (it may never: a hint)
Predicate = Callable[[str, str], bool]


def version_of(message: Any) -> int:
    """The state version a screen's buttons were made for (`<game>:<version>:<verb>`)."""
    for row in message.buttons if message is not None else ():
        for _label, data in row:
            parts = (data or "").split(":")
            if len(parts) >= 3 and parts[0].isdigit() and parts[1].isdigit():
                return int(parts[1])
    return -1


def game_of(message: Any) -> int:
    for row in message.buttons if message is not None else ():
        for _label, data in row:
            parts = (data or "").split(":")
            if len(parts) >= 3 and parts[0].isdigit() and parts[1].isdigit():
                return int(parts[0])
    return -1


@dataclass
class Person:
    tg: Any  # FakeTelegram (or bench/bot_fake.BenchTelegram)
    user: Any  # FakeUser
    lang: str = "en"  # the language the bot speaks to this person in private
    # the game they sat down to (a person knows the rules they play by)
    rulebook: str = "manipulation"
    options: dict = field(default_factory=dict)
    level: str = "medium"  # plays like the computer of this level would, on what it sees
    # press -> this person's own screen changed, in seconds (SLOW when it didn't within 1.5 s)
    waits: list[float] = field(default_factory=list)
    # seconds a person looks at their new screen before the next tap (seeded by their id);
    # (0, 0): a script tapping as fast as the bot answers
    think: tuple[float, float] = (0.0, 0.0)
    table_wait: float = TABLE_WAIT  # s a person gives the group's table to catch up
    stale: int = 0  # presses answered "out of date" (the screen moved under the finger): retried
    fallbacks: int = 0  # planned lays the bot refused (what was read was wrong): reset, drew
    acted: int = -1  # the version of the screen this person last finished a turn on
    pressed: int = -1  # the version of the screen of the last press
    notes: list[str] = field(default_factory=list)  # what went wrong, for a failing test
    seen: str = ""  # the table's line last read
    group: Any = None  # the group chat the game is played in (found from the table when None)
    rng: random.Random = field(init=False)

    def __post_init__(self) -> None:
        self.rng = random.Random(self.user.id)

    @property
    def id(self) -> int:
        return self.user.id

    @property
    def chat(self) -> Any:
        return self.tg.private_chat(self.user)

    # -- looking --------------------------------------------------------------------------------

    def private_message(self) -> Any:
        """The bot's newest message with a picture and buttons in this person's private chat."""
        for message in reversed(self.tg.messages(self.chat)):
            if message.from_bot and message.photo_bytes and message.buttons:
                return message
        return None

    def table_message(self, game: int) -> Any:
        """The newest table of this game in the group it is played in (its buttons name it)."""
        chats = [self.group] if self.group is not None else self.tg.groups()
        for chat in chats:
            for message in reversed(self.tg.messages(chat)):
                if (message.from_bot and message.caption and game_of(message) == game
                        and self.button(message, lambda _t, d: d.endswith(":cards"))):
                    self.group = chat  # where the game is: look there from now on
                    return message
        return None

    def _looks(self) -> tuple:
        message = self.private_message()
        if message is None:
            return ()
        return (message.message_id, message.caption, str(self.tg.buttons(message)))

    def trail(self) -> str:
        """The private chat's last requests (for a failing test's message)."""
        calls = self.tg.calls(chat_id=self.chat.id)[-8:]
        return " | ".join(f"{c.method} {str(c.params)[:160]}" for c in calls)

    def button(self, message: Any, predicate: Predicate) -> tuple[str, str] | None:
        for row in self.tg.buttons(message) if message is not None else ():
            for text, data in row:
                if data and predicate(text, data):
                    return text, data
        return None

    def turn_shown(self) -> bool:
        message = self.private_message()
        return (message is not None and my_turn(message.caption, self.lang)
                and version_of(message) > self.acted)

    async def until(self, condition: Callable[[], bool], timeout: float) -> None:
        """Wait until `condition()` holds, re-checked as the fake takes requests (TimeoutError
        past `timeout`). A bench with many chats waits per chat instead."""
        await self.tg.wait_until(condition, timeout=timeout)

    async def quiet(self) -> None:
        """Let the bot finish what it is sending (a person waits for the screen to settle)."""
        with contextlib.suppress(TimeoutError):  # a busy bot: look anyway
            await self.tg.settle(quiet=0.15, timeout=WAIT)

    # -- acting ---------------------------------------------------------------------------------

    async def _press_data(self, message: Any, data: str, what: str) -> dict:
        """Press one button; the answer (answerCallbackQuery's parameters)."""
        query = await self.tg.press(self.chat, message.message_id, data, self.user)
        await self.tg.wait_until(lambda: query in self.tg.answers, timeout=WAIT)
        return self.tg.answers[query]

    async def press(self, predicate: Predicate, what: str) -> dict:
        """Look at the newest screen, press the button `predicate` picks, and wait for the
        screen to change. An "out of date" answer (the screen was edited as the finger came
        down) is looked at again and pressed again, as a person would."""
        for _attempt in range(4):
            if self.think[1]:
                await self.tg.clock.sleep(self.rng.uniform(*self.think))
            message = self.private_message()
            found = self.button(message, predicate)
            assert found, (f"{self.user.first_name}: no button for {what} in "
                           f"{self.tg.buttons(message) if message else None}; "
                           f"acted {self.acted}, pressed {self.pressed}; " + self.trail())
            before, pressed = self._looks(), time.monotonic()
            self.pressed = version_of(message)
            answer_task = asyncio.ensure_future(self._press_data(message, found[1], what))
            try:
                await self.until(lambda b=before: self._looks() != b, timeout=SLOW)
                self.waits.append(time.monotonic() - pressed)
            except TimeoutError:
                self.waits.append(SLOW)
            answer = await answer_task
            if "out of date" not in (answer.get("text") or ""):
                await self.quiet()
                return answer
            self.stale += 1
            await self.quiet()
        raise AssertionError(f"{self.user.first_name}: {what} kept being out of date")

    def _cards_here(self) -> list[tuple[str, str]]:
        """(label, token) of the card buttons on the screen's page."""
        out = []
        for row in self.tg.buttons(self.private_message()):
            for text, data in row:
                token = token_of(data or "")
                if token:
                    out.append((text, token))
        return out

    def _pages(self) -> int:
        page = self.button(self.private_message(), lambda t, d: d.endswith(":noop") and "/" in t)
        return int(page[0].split("/")[1]) if page else 1

    async def read_hand(self) -> tuple[list[str], list[str]]:
        """Every card button on every page (▶ as a person pages): their own hand's tokens, and
        the table's pieces shown in brackets (Tahiti's singles)."""
        hand: list[str] = []
        table: list[str] = []
        for page in range(self._pages()):
            if page:
                await self.press(lambda t, _d: t == "▶", "next page")
            for label, token in self._cards_here():
                shelf = table if label.lstrip("✓").startswith("(") else hand
                if token not in shelf:
                    shelf.append(token)
        return hand, table

    async def select(self, token: str) -> None:
        """Tap a card, paging (◀ ▶) through a long hand to find it."""
        for _ in range(8):
            here = {t for _label, t in self._cards_here()}
            if token in here:
                shown = self.button(self.private_message(),
                                    lambda _t, d: d.endswith(f":s0:{token}"))
                if shown:
                    return  # already selected
                await self.press(lambda _t, d: d.endswith(f":s1:{token}"), f"select {token}")
                return
            await self.press(lambda t, _d: t == "▶", "next page")
        raise AssertionError(f"{self.user.first_name}: {token} never showed on any page")

    # -- a turn ---------------------------------------------------------------------------------

    async def wait_turn(self, timeout: float = WAIT) -> Any:
        """Wait until this person's screen says it is their turn (a newer one than the last
        they played), and the bot has finished sending; the screen."""
        await self.until(self.turn_shown, timeout=timeout)
        await self.quiet()
        await self.until(self.turn_shown, timeout=timeout)
        return self.private_message()

    async def look(self) -> Sight:
        """Read the turn's screen: the hand from the card buttons, the table from the group's
        table message, the rest from the caption."""
        message = self.private_message()
        version, game = version_of(message), game_of(message)
        legal = {VERBS[d.rsplit(":", 1)[1]] for row in self.tg.buttons(message)
                 for _t, d in row if d and d.rsplit(":", 1)[-1] in VERBS}
        tokens, _singles = await self.read_hand()
        hand = [piece(t) for t in tokens]
        tiles = any(c.is_tile for c in hand)
        # the group's table follows the turn's screen (a hint or a page the person asked for
        # moves only their own screen on: then the table stays a version behind; read it so)
        with contextlib.suppress(TimeoutError):
            await self.until(
                lambda: version_of(self.table_message(game)) >= version, timeout=self.table_wait)
        table = self.table_message(game)
        line = (table.caption or "").rsplit("\n", 1)[-1] if table is not None else ""
        groups, singles = read_table(line, tiles, hand)
        self.seen = line
        sight = Sight(hand, groups, singles, legal, version=version)
        read_caption(message.caption or "", self.lang, sight)
        return sight

    async def take_turn(self) -> str:
        """Wait for my turn on my screen, read it, decide, and do it with the buttons: select,
        Auto-place, Done (or Knock) — or Draw / Pass. What was done ("lay", "draw", …)."""
        await self.wait_turn()
        sight = await self.look()
        plan = await self.think_over(sight)
        done = await self.play(plan)
        self.acted = max(self.acted, self.pressed)
        return done

    async def think_over(self, sight: Sight) -> Plan:
        """Decide (in a thread: the fake server keeps answering meanwhile)."""
        return await asyncio.to_thread(decide, sight, self.rulebook, self.options, self.level)

    async def play(self, plan: Plan) -> str:
        if plan.kind in ("commit", "knock") and plan.tokens:
            for token in plan.tokens:
                await self.select(token)
            answer = await self.press(lambda _t, d: d.endswith(":auto"), "auto")
            refused = answer.get("show_alert") and answer.get("text")
            if not refused:
                finish = "knock" if plan.kind == "knock" else "done"
                answer = await self.press(lambda _t, d, f=finish: d.endswith(":" + f), finish)
                refused = answer.get("show_alert") and answer.get("text")
                message = self.private_message()
                if not refused and self.button(message, lambda _t, d: ":jk:" in d):
                    await self.press(lambda _t, d: ":jk:" in d, "joker choice")
            if refused:
                self.notes.append(f"{plan} refused: {refused}; table {self.seen}")
                await self.fall_back()
                return "fallback"
            return "lay"
        verb = {"draw": "draw", "pass": "pass", "knock": "knock", "done": "done"}.get(plan.kind)
        assert verb, f"unexpected plan {plan}"
        await self.press(lambda _t, d, v=verb: d.endswith(":" + v), verb)
        return verb

    async def fall_back(self) -> None:
        """The planned lay was refused: put the table back, then draw (or pass)."""
        self.fallbacks += 1
        message = self.private_message()
        if self.button(message, lambda _t, d: d.endswith(":cancel")):
            await self.press(lambda _t, d: d.endswith(":cancel"), "cancel")
        if self.button(self.private_message(), lambda _t, d: d.endswith(":reset")):
            await self.press(lambda _t, d: d.endswith(":reset"), "reset")
        for verb in ("draw", "pass", "giveup"):
            if self.button(self.private_message(), lambda _t, d, v=verb: d.endswith(":" + v)):
                await self.press(lambda _t, d, v=verb: d.endswith(":" + v), verb)
                return
