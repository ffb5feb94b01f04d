"""The Manipulation lesson end to end: the real Telegram Application against the fake Bot API,
played by pressing the buttons the bot sent (and one typed wrong try)."""

from __future__ import annotations

import pytest
from fakes.telegram_server import FakeTelegram
from telegram.ext import AIORateLimiter

from bot.adapters.telegram import TelegramAdapter
from bot.app import build_services
from bot.store import Store
from engine.cards import parse_cards
from lessons import LESSONS

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


async def test_manipulation_lesson_by_telegram(tmp_path):
    # Without flood control on either side (why: a scripted learner presses as fast as the
    # fake answers, 100+ presses in one private chat, and its checks read the screen right after
    # each press; the real limits are played by tests/test_telegram_pace_e2e.py and the group
    # games of tests/test_telegram_e2e.py).
    async with FakeTelegram(flood=None) as tg:
        store = await Store.open(f"sqlite+aiosqlite:///{tmp_path / 'r.db'}")
        # built as `rummy run` builds them: one lesson service, handed to the adapter
        service, lessons = build_services(store, computer_delay=0.0, tick=0.05)
        adapter = TelegramAdapter(
            service,
            tg.token,
            base_url=tg.base_url,
            base_file_url=tg.base_file_url,
            rate_limiter=AIORateLimiter(overall_max_rate=0, group_max_rate=0, max_retries=3),
            poll_timeout=1,
            lessons=lessons,
        )
        assert adapter.lessons is lessons
        await adapter.start()
        await service.start()
        try:
            ada = tg.user(31, "Ada", started=True)
            chat = tg.private_chat(ada)

            def screen():
                for m in reversed(tg.messages(chat)):
                    if m.from_bot and m.buttons:
                        return m
                return None

            async def fresh():
                row = await store.active_game("telegram", str(chat.id))
                if row is None:
                    return
                ver = str(row.record["lesson"]["ver"])
                await tg.wait_until(
                    lambda: (
                        screen() is not None and tg.buttons(screen())[-1][0][1].split(":")[2] == ver
                    ),
                    timeout=20,
                )

            async def press(pred, what):
                await fresh()
                m = screen()
                found = [(t, d) for row in tg.buttons(m) for t, d in row if pred(t, d)]
                assert found, f"{what}: {tg.buttons(m)}"
                q = await tg.press(chat, m.message_id, found[0][1], ada)
                await tg.wait_until(lambda: q in tg.answers, timeout=20)
                await tg.settle(quiet=0.05, timeout=20)
                return tg.answers[q].get("text") or ""

            async def select(faces):
                for c in parse_cards(faces):
                    await press(lambda t, d, c=c: ":s1:" in d and t.strip("()") == c.pretty(), c)

            async def say(text):
                await tg.send_text(chat, ada, text)
                await tg.wait_for(
                    lambda r: r.method not in ("getUpdates", "sendChatAction"), timeout=20
                )
                await tg.settle(quiet=0.2, timeout=20)

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
            await tg.settle(quiet=0.5, timeout=20)
            row = await store.active_game("telegram", str(chat.id))
            assert row is not None and row.record["state"] is not None
        finally:
            await adapter.stop()
            await service.stop()
            await store.close()
