"""A third game touches its wing and one registry line: the toy race (tests/toy_game — its rules
behind the game contract, its host with its screens) keeps the contract, and goes lobby →
moves → result → leaderboard on the terminal and on a fake Telegram chat, the same platform,
adapters and store as rummy and Build-to-Ten, with nothing of theirs changed for it.

The people decide from what the bot sent them (the screen's total and buttons), never from the
bot's database."""

from __future__ import annotations

import re
import shutil

import pytest
from fakes.telegram_server import FakeTelegram
from test_contract import play, replay
from test_telegram_e2e import GROUP, Harness
from toy_game import RaceGame, RaceRules

from bot.adapters.console import ConsoleGame, Setup
from bot.adapters.telegram import TelegramAdapter
from bot.core.fair_use import FairUse
from bot.core.service import GameService
from bot.games import default_games
from bot.store import Store

GAMES = {**default_games(), "race": RaceGame()}  # the one registry line the toy game needs
TOTAL = re.compile(r"total (\d+) of (\d+)")
STEP = 3  # the race is set to step 3 in the lobby: the winning line leaves a multiple of 4


def best(text: str) -> int:
    """The winning addition for the total a screen shows (against an easy computer's 1s)."""
    found = TOTAL.search(text)
    assert found, text
    total, target = map(int, found.groups())
    return (target - total) % (STEP + 1) or 1


@pytest.mark.parametrize("trial", range(len(RaceRules.trials)))
def test_the_toy_game_keeps_the_contract(trial: int):
    rules = RaceRules()
    case = rules.trials[trial]
    game = play(rules, case, seed=7)
    assert rules.result(game.state) is not None
    assert rules.state_to_json(replay(rules, case, 7, game.actions)) == rules.state_to_json(
        game.state)


@pytest.fixture
def url(sqlite_template, tmp_path):
    path = tmp_path / "toy.db"
    shutil.copy(sqlite_template, path)
    return f"sqlite+aiosqlite:///{path}"


async def test_the_toy_game_from_lobby_to_leaderboard_in_the_terminal(url):
    store = await Store.open(url)
    service = GameService(store, computer_delay=0, clock=lambda: 0.0, games=GAMES)
    unlimited = float("inf")  # one person at their keyboard, as `rummy play` sets it
    service.fair_use = FairUse(user_rate=unlimited, user_burst=unlimited,
                               chat_rate=unlimited, chat_burst=unlimited)
    out: list[str] = []
    console: ConsoleGame

    def read(_prompt: str) -> str:
        """Ada reads her screen and presses the winning addition's button by its number."""
        assert console.private is not None
        n = best(console.private.text)
        labels = [b.label for b in console.listed]
        return str(labels.index(f"+{n}") + 1)

    console = ConsoleGame(service, name="Ada", read=read, write=out.append)
    await service.start()
    try:
        opened = await console.open(Setup("twenty", {"step": str(STEP)}, ["easy"]))
        assert opened, out
        await console.run()
        await console.handle("leaderboard twenty")
        played = len(out)
        # a game that does not offer a review (the contract's `offers_review`) is told so
        await console.handle("review")
    finally:
        await service.stop()
        await store.close()
    text = "\n".join(out[:played])
    assert "Traceback" not in text and "✗" not in text, text
    assert out[played:] == ["✗ This game has no review yet."], out[played:]
    assert "Players: Ada (host), 🤖 Computer 1 (easy)" in text
    assert "🏁 Ada wins the race" in text and "Thanks for playing!" in text
    board = text.rpartition("Thanks for playing!")[2]
    assert "Race to twenty" in board and "Ada" in board and "1 game" in board, board


class RaceHarness(Harness):
    """The Telegram harness (on the fake's clock) with the toy game registered."""

    async def up(self) -> None:
        self.store = await Store.open(self.url)
        self.service = GameService(self.store, computer_delay=0.0, tick=0.05, clock=self.clock,
                                   games=GAMES)
        self.adapter = TelegramAdapter(self.service, self.tg.token, base_url=self.tg.base_url,
                                       base_file_url=self.tg.base_file_url, poll_timeout=1)
        await self.adapter.start()
        await self.service.start()


async def press_data(harness: Harness, chat, user, action: str) -> None:
    """Press the bot's button in `chat` whose callback carries `action`, once it shows."""
    tg = harness.tg

    def found():
        message = tg.last_message(chat, from_bot=True)
        data = [d for row in tg.buttons(message) for _label, d in row
                if d and d.endswith(":" + action)] if message else []
        return (message, data[0]) if data else None

    await tg.wait_until(lambda: found() is not None, timeout=20)
    message, data = found()
    query = await tg.press(chat, message.message_id, data, user)
    await tg.wait_until(lambda: query in tg.answers, timeout=20)
    await tg.settle(quiet=0.1, timeout=20)


@pytest.mark.e2e
async def test_the_toy_game_from_lobby_to_leaderboard_on_telegram(tmp_path, clock):
    async with FakeTelegram(clock=clock) as tg:
        harness = RaceHarness(tg, tmp_path / "race.db")
        await harness.up()
        try:
            group = tg.group(GROUP, "Race night")
            alice = tg.user(41, "Alice", started=True)
            await harness.say(group, alice, "/newgame ten")
            await harness.expect(group, "Race to ten")
            await harness.press_group(alice, "Options")
            await press_data(harness, group, alice, f"opt:step:{STEP}")
            await harness.press_group(alice, "Back")
            await harness.press_group(alice, "Computer")
            await harness.press_group(alice, "easy")
            await harness.press_group(alice, "Start")
            mine = tg.private_chat(alice)

            def words(m) -> str:  # (the table and the hand are pictures: their text a caption)
                return m.text or m.caption or ""

            def over() -> bool:
                return any("Alice wins the race" in words(m) for m in tg.messages(group))

            def my_turn():
                """Alice's private message with her +n buttons at a total not played yet."""
                for m in reversed(tg.messages(mine)):
                    if m.from_bot and m.buttons:
                        total = TOTAL.search(words(m))
                        return m if total and total[1] not in played else None
                return None

            played: set[str] = set()
            for _turn in range(20):
                await tg.wait_until(lambda: over() or my_turn() is not None, timeout=30)
                if over():
                    break
                message = my_turn()
                played.add(TOTAL.search(words(message))[1])
                n = best(words(message))
                data = next(d for row in tg.buttons(message) for label, d in row
                            if label == f"+{n}")
                query = await tg.press(mine, message.message_id, data, alice)
                await tg.wait_until(lambda q=query: q in tg.answers, timeout=20)
                assert not tg.answers[query].get("show_alert"), tg.answers[query]
            assert over()
            await harness.say(group, alice, "/leaderboard ten")
            await harness.expect(group, "Leaderboard")
            board = tg.last_message(group, from_bot=True).caption  # a picture (issue 41)
            assert "Race to ten" in board and "Alice" in board and "1 game" in board, board
        finally:
            await harness.down()
