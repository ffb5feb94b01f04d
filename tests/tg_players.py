"""Scripted people for end-to-end tests: they read their private message and press the buttons
the bot really sent (deciding what to do the way a player who knows the rules would)."""

from __future__ import annotations

import asyncio
import random
import time
from dataclasses import dataclass, field

from felt import SLOW

from bot import i18n
from bot.core.record import Record
from engine.rummy import Commit, Draw, GameState, Knock, Pass, player_view
from engine.rummy.ai import choose_action


@dataclass
class Person:
    tg: object  # FakeTelegram
    user: object  # FakeUser
    store: object = None
    game_id: int = 0
    lang: str = "en"  # the language the bot speaks to this person in private
    # press -> this person's own screen changed, in seconds (SLOW when it didn't within 1.5 s)
    waits: list[float] = field(default_factory=list)
    # seconds a person looks at their new screen before the next tap (seeded by their id);
    # (0, 0): a script tapping as fast as the bot answers
    think: tuple[float, float] = (0.0, 0.0)
    rng: random.Random = field(init=False)

    def __post_init__(self) -> None:
        self.rng = random.Random(self.user.id)

    @property
    def id(self) -> int:
        return self.user.id

    def private_message(self):
        """The bot's newest message with buttons in this person's private chat."""
        chat = self.tg.private_chat(self.user)
        for message in reversed(self.tg.messages(chat)):
            if message.from_bot and message.photo_bytes and message.buttons:
                return message
        return None

    def _looks(self) -> tuple:
        message = self.private_message()
        if message is None:
            return ()
        return (message.message_id, message.caption, str(self.tg.buttons(message)))

    def button(self, message, predicate) -> tuple[str, str] | None:
        for row in self.tg.buttons(message):
            for text, data in row:
                if predicate(text, data):
                    return text, data
        return None

    async def fresh_message(self):
        """Wait until the private message shows the game's current version (a person looks at
        the screen after it has updated)."""
        row = await self.store.get_game(self.game_id)
        version = str(row.record["state"]["version"])

        def current() -> bool:
            message = self.private_message()
            return (
                message is not None and self.tg.buttons(message)[-1][0][1].split(":")[1] == version
            )

        await self.tg.wait_until(current, timeout=20)
        return self.private_message()

    async def press(self, message, predicate, what: str) -> None:
        message = await self.fresh_message()
        if self.think[1]:
            await self.tg.clock.sleep(self.rng.uniform(*self.think))
            message = await self.fresh_message()
        found = self.button(message, predicate)
        assert found, f"{self.user.first_name}: no button for {what} in {self.tg.buttons(message)}"
        chat = self.tg.private_chat(self.user)
        before = self._looks()
        pressed = time.monotonic()
        query = await self.tg.press(chat, message.message_id, found[1], self.user)
        # Every press a scripted person makes changes their screen (a selection, an arrangement,
        # the turn passing): how long it takes is what the person feels.
        try:
            await self.tg.wait_until(lambda: self._looks() != before, timeout=SLOW)
            self.waits.append(time.monotonic() - pressed)
        except TimeoutError:
            self.waits.append(SLOW)
        await self.tg.wait_until(lambda: query in self.tg.answers, timeout=20)
        answer = self.tg.answers[query].get("text") or ""
        assert "out of date" not in answer, f"{what}: pressed a stale button"

    async def select(self, card) -> None:
        """Tap a card, paging through a long hand (◀ ▶) to find it."""
        for _ in range(8):
            message = self.private_message()
            if self.button(message, lambda _t, d, c=card: d.endswith(f":s1:{c.token}")):
                await self.press(
                    message, lambda _t, d, c=card: d.endswith(f":s1:{c.token}"), f"select {card}"
                )
                return
            await self.press(message, lambda t, _d: t == "▶", "next page")
        raise AssertionError(f"{card} never showed on any page")

    async def take_turn(self, store, game_id: int, seat: int) -> None:
        """Decide like a medium computer, then do it with buttons: select, Auto-place, Done."""
        self.store, self.game_id = store, game_id
        row = await store.get_game(game_id)
        record = Record.from_dict(row.record)
        state = GameState.from_dict(record.state)
        action = await asyncio.to_thread(choose_action, player_view(state, seat), "medium")

        def my_turn_shown() -> bool:
            # The private message is edited after the turn passes: wait for fresh buttons.
            message = self.private_message()
            with i18n.using(self.lang):
                yours = i18n._("Your turn")
            if message is None or not (message.caption or "").startswith(yours):
                return False
            return self.tg.buttons(message)[-1][0][1].split(":")[1] == str(state.version)

        await self.tg.wait_until(my_turn_shown, timeout=20)
        message = self.private_message()
        assert message is not None, "no private message with buttons"
        if isinstance(action, (Commit, Knock)) and action.arrangement is not None:
            hand_ids = {c.ident for c in state.hands[seat]}
            # A joker from the hand shows undesignated on its button.
            placed = [c.free() for g in action.arrangement for c in g if c.ident in hand_ids]
            for card in placed:
                await self.select(card)
            # buttons by what they do (their callback data): the same in every language
            await self.press(self.private_message(), lambda _t, d: d.endswith(":auto"), "auto")
            finish = "knock" if isinstance(action, Knock) else "done"
            await self.press(self.private_message(), lambda _t, d, f=finish: d.endswith(":" + f),
                             finish)
            message = self.private_message()
            if message is not None and self.button(message, lambda _t, d: ":jk:" in d):
                await self.press(message, lambda _t, d: ":jk:" in d, "joker choice")
            return
        if isinstance(action, Knock):
            await self.press(message, lambda _t, d: d.endswith(":knock"), "knock")
            return
        label = "draw" if isinstance(action, Draw) else "pass" if isinstance(action, Pass) else None
        assert label, f"unexpected action {action}"
        await self.press(message, lambda _t, d, lb=label: d.endswith(":" + lb), label)
