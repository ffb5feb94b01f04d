"""The Manipulation lesson end to end: the real Telegram Application against the fake Bot API,
played by pressing the buttons the bot sent (and one typed wrong try)."""

from __future__ import annotations

import contextlib
from collections.abc import AsyncIterator

import pytest
from fakes.telegram_server import FakeTelegram
from sqlalchemy import func, select
from telegram.ext import AIORateLimiter

from bot.adapters.telegram import TelegramAdapter
from bot.app import build_services
from bot.games.rummy.lessons import LESSONS
from bot.store import Store
from bot.store import models as db
from engine.cards import parse_cards

pytestmark = pytest.mark.e2e  # whole games through the fake server: `make test-fast` skips

LABELS = {
    "done": "✔ Done",
    "reset": "↺ Reset",
    "draw": "Draw",
    "pass": "Pass",
    "knock": "✊ Knock",
    "giveup": "Give up (+3)",
    "next": "▶ Next round",
    "finish": "■ Finish",
}


PACE = 0.15  # seconds between two of Ada's taps


class LessonChat:
    """Ada's private chat with the bot: read the lesson screen, press its buttons, type."""

    def __init__(self, tg: FakeTelegram, store: Store) -> None:
        self.tg, self.store = tg, store
        self.ada = tg.user(31, "Ada", started=True)
        self.chat = tg.private_chat(self.ada)
        self.last = 0.0  # when Ada last tapped or typed

    async def _pace(self) -> None:
        """Ada taps no faster than fair use lets a person (8 a second, the door's meter, which
        this test keeps as in production): a script answered at once would tap 30 a second."""
        clock = self.tg.clock
        wait = self.last + PACE - clock.monotonic()
        if wait > 0:
            await clock.sleep(wait)
        self.last = clock.monotonic()

    def screen(self):
        for m in reversed(self.tg.messages(self.chat)):
            if m.from_bot and m.buttons:
                return m
        return None

    async def fresh(self) -> None:
        row = await self.store.active_game("telegram", str(self.chat.id))
        if row is None:
            return
        ver = str(row.record["state"]["ver"])
        await self.tg.wait_until(
            lambda: (
                self.screen() is not None
                and self.tg.buttons(self.screen())[-1][0][1].split(":")[1] == ver
            ),
            timeout=20,
        )

    async def press(self, pred, what) -> str:
        await self.fresh()
        m = self.screen()
        found = [(t, d) for row in self.tg.buttons(m) for t, d in row if pred(t, d)]
        assert found, f"{what}: {self.tg.buttons(m)}"
        return await self.press_data(m.message_id, found[0][1])

    async def press_data(self, message_id: int, data: str) -> str:
        await self._pace()
        q = await self.tg.press(self.chat, message_id, data, self.ada)
        await self.tg.wait_until(lambda: q in self.tg.answers, timeout=20)
        await self.tg.settle(quiet=0.05, timeout=20)
        return self.tg.answers[q].get("text") or ""

    async def select(self, faces: str) -> None:
        for c in parse_cards(faces):
            await self.press(lambda t, d, c=c: ":s1:" in d and t.strip("()") == c.pretty(), c)

    async def say(self, text: str) -> None:
        await self._pace()
        await self.tg.send_text(self.chat, self.ada, text)
        await self.tg.wait_for(
            lambda r: r.method not in ("getUpdates", "sendChatAction"), timeout=20
        )
        await self.tg.settle(quiet=0.2, timeout=20)


@contextlib.asynccontextmanager
async def lesson_bot(tmp_path, clock) -> AsyncIterator[LessonChat]:
    # Without flood control on either side (why: a scripted learner presses as fast as the
    # fake answers, 100+ presses in one private chat, and its checks read the screen right after
    # each press; the real limits are played by tests/test_telegram_pace_e2e.py and the group
    # games of tests/test_telegram_e2e.py).
    async with FakeTelegram(flood=None, clock=clock) as tg:
        store = await Store.open(f"sqlite+aiosqlite:///{tmp_path / 'r.db'}")
        # built as `rummy run` builds it: one game service, handed to the adapter
        service = build_services(store, computer_delay=0.0, tick=0.05, clock=clock)
        adapter = TelegramAdapter(
            service,
            tg.token,
            base_url=tg.base_url,
            base_file_url=tg.base_file_url,
            rate_limiter=AIORateLimiter(overall_max_rate=0, group_max_rate=0, max_retries=3),
            poll_timeout=1,
        )
        await adapter.start()
        await service.start()
        try:
            yield LessonChat(tg, store)
        finally:
            await adapter.stop()
            await service.stop()
            await store.close()


async def test_manipulation_lesson_by_telegram(tmp_path, clock):
    async with lesson_bot(tmp_path, clock) as ada:
        screen, fresh, press, select, say = ada.screen, ada.fresh, ada.press, ada.select, ada.say
        await say("/lesson")
        assert screen().caption.startswith("Lesson 1/12 · Sets and runs")
        # a wrong try, typed
        await say("/lay 5H 6H 9C")
        await say("/done")
        assert "9♣ is a club" in screen().caption, screen().caption
        await say("/reset")
        for step in LESSONS["manipulation"].steps:
            await fresh()
            assert step.title in screen().caption
            answer = ""
            for line in step.demo:
                verb, _, rest = line.partition(" ")
                label, _, tail = rest.partition(" ")
                g = ord(label[:1] or "A") - 65
                if verb == "lay":
                    await select(rest)
                    answer = await press(lambda t, d: t == "New group", "new")
                elif verb == "add":
                    await select(tail)
                    await press(lambda t, d: t == "Add to ▸", "addm")
                    answer = await press(lambda t, d, g=g: d.endswith(f":add:{g}"), "add")
                elif verb == "take":
                    await press(lambda t, d: t == "Take from ▸", "takem")
                    await press(lambda t, d, g=g: d.endswith(f":take:{g}"), "take g")
                    c = parse_cards(tail)[0]
                    answer = await press(
                        lambda t, d, c=c, g=g: f":tc:{g}:" in d and t == c.pretty(), "tc"
                    )
                elif verb == "split":
                    await press(lambda t, d: t == "✂ Split ▸", "splm")
                    await press(lambda t, d, g=g: d.endswith(f":spl:{g}"), "spl")
                    answer = await press(
                        lambda t, d, g=g, a=tail: d.endswith(f":spa:{g}:{a}"), "spa"
                    )
                else:
                    answer = await press(lambda t, d, v=verb: t == LABELS[v], verb)
            assert answer == "✓ Correct!", (step.id, answer)
        await fresh()
        assert "lesson complete" in screen().caption
        await press(lambda t, d: t == "▶ Play a real game", "play")
        await ada.tg.settle(quiet=0.5, timeout=20)
        row = await ada.store.active_game("telegram", str(ada.chat.id))
        assert row is not None and row.record["state"] is not None


async def test_switching_lessons_keeps_one_row_and_a_working_screen(tmp_path, clock):
    """Issue 31: every switch inserted a game row. Switching back and forth (and Quit, then
    /lesson) keeps Ada's one lesson row; each new lesson's screen replaces the one before, and
    its buttons work."""
    async with lesson_bot(tmp_path, clock) as ada:
        await ada.say("/lesson tahiti")
        old = ada.screen()
        old_skip = next(d for row in ada.tg.buttons(old) for t, d in row if t == "⏭ Skip")
        for name in ("vatican", "tahiti", "carousel", "manipulation"):
            await ada.say(f"/lesson {name}")
            await ada.fresh()
            assert ada.screen().caption.startswith("Lesson 1/"), ada.screen().caption
        await ada.press(lambda t, d: t == "✖ Quit", "quit")
        await ada.say("lesson tahiti")  # typed without the slash, as the lesson's moves are
        await ada.fresh()
        assert ada.screen().caption.startswith("Lesson 1/5"), ada.screen().caption
        answer = await ada.press(lambda t, d: t == "💡 Show me", "show")
        assert "Do this" in ada.screen().caption, (answer, ada.screen().caption)
        # each new lesson replaced the screen before it: one lesson screen in the chat
        shown = [m for m in ada.tg.messages(ada.chat) if m.from_bot and m.buttons]
        assert [m.message_id for m in shown] == [ada.screen().message_id]
        assert old_skip not in [d for row in ada.tg.buttons(ada.screen()) for _t, d in row]
        async with ada.store._engine.connect() as conn:
            rows = (await conn.execute(select(func.count()).select_from(db.games))).scalar_one()
        assert rows == 1
