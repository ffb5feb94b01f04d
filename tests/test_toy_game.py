"""A third game touches its wing and one registry line: the toy race (tests/toy_game — its rules
behind the game contract, its host with its screens) keeps the contract, and goes lobby →
moves → result → leaderboard on the terminal and on a fake Telegram chat, the same platform,
adapters and store as rummy and Build-to-Ten, with nothing of theirs changed for it.

The people decide from what the bot sent them (the screen's total and buttons), never from the
bot's database."""

from __future__ import annotations

import asyncio
import re
import shutil
import subprocess
from pathlib import Path

import pytest
from all_games import GAMES  # the bot's games and the one line the toy game needs
from fakes.telegram_server import FakeTelegram
from test_contract import play, replay
from test_telegram_e2e import GROUP, Harness
from toy_game import RaceRules

from bot.adapters.console import ConsoleGame, Setup
from bot.adapters.telegram import TelegramAdapter
from bot.core.buttons import Press, pack
from bot.core.fair_use import FairUse
from bot.core.service import Actor, GameService
from bot.store import Store

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


# -- its lesson, words, picture and files ----------------------------------------------------

ALICE = Actor("test", "-7", "71", "Alice")
BOB = Actor("test", "-7", "72", "Bob")


@pytest.fixture
async def served(url):
    store = await Store.open(url)
    service = GameService(store, computer_delay=0, tick=0.02, clock=lambda: 0.0, games=GAMES)
    service.register("test", _ignore)
    await service.start()
    try:
        yield service, store
    finally:
        await service.stop()
        await store.close()


async def _ignore(_outcome) -> None:
    return None


async def _settle(store, gid: int, until):
    for _ in range(250):
        row = await store.get_game(gid)
        if until(row):
            return row
        await asyncio.sleep(0.02)
    raise AssertionError(f"game {gid} never got there: {row.record['state']}")


async def test_the_toy_lesson_is_a_variant_judged_by_the_engine(served):
    """`/newgame race lesson`: Race to ten by 1 or 2, the learner first against a computer;
    each step says what to do, a move that misses it is not played (its nudge says why), and
    the race's own end is the lesson's."""
    service, store = served
    out = await service.new_game(ALICE, "race lesson")
    gid = out.game_id
    assert "Race lesson" in out.group.text

    async def lobby(actor: Actor, action: str):
        row = await store.get_game(gid)
        return await service.press(actor, pack(gid, row.record["lobby_version"], action))

    await lobby(BOB, "join")
    refused = await lobby(ALICE, "start")
    assert refused.alert and "one person and one computer" in refused.reply
    await lobby(BOB, "leave")
    await lobby(ALICE, "cpu:perfect")
    started = await lobby(ALICE, "start")
    mine = started.private[ALICE.user]
    assert "Add 1." in mine.text and [c.label for c in mine.parts[0].choices] == ["+1", "+2"]
    missed = await service.press(ALICE, pack(gid, 0, "plus:2"))  # leaves 8: not a multiple of 3
    assert missed.alert and "9, 6 or 3" in missed.reply
    assert (await store.get_game(gid)).record["state"]["total"] == 0  # not played
    said: list[str] = []
    for _ in range(10):
        row = await _settle(store, gid, lambda r: r.record["state"]["winner"] is not None
                            or r.record["state"]["turn"] == 0)
        state = row.record["state"]
        if state["winner"] is not None:
            break
        n = (10 - state["total"]) % 3 or 2
        out = await service.press(ALICE, pack(gid, state["version"], f"plus:{n}"))
        assert not out.alert, out.reply
        said.append(out.private[ALICE.user].text if ALICE.user in out.private else "")
    assert state["winner"] == 0
    assert "You won: always leave a multiple of (step + 1) to go." in said[-1]


@pytest.mark.parametrize("lang", ["he", "ru"])
def test_the_toy_game_speaks_three_languages(lang):
    """Every word of the race has its Hebrew and Russian; its screens, lobby title, page
    words and terminal help are said in the reader's language."""
    from toy_game.words import WORDS

    from bot.core.hosting import Table
    from bot.core.record import Record, SeatInfo
    from bot.i18n import using
    from bot.web.words import page_words

    assert all(set(langs) == {"he", "ru"} and all(langs.values()) for langs in WORDS.values())
    game = GAMES["race"]
    record = Record(rulebook="ten", options={"step": 2}, game_name="race", lang=lang, seed=1,
                    seats=[SeatInfo("Ada", "1", 1, lang=lang), SeatInfo("Bo", "2", 2)])
    table = Table(5, record, lambda: 0.0)
    game.start(table)
    texts = [game.table_screen(table).text, game.private_screen(table, 0).text]
    with using(lang):
        texts += [game.settings("ten", {}).title, game.terminal_help(None),
                  page_words(lang)["toy_game:hand"]]
    english = ["total 0 of 10", "Race to ten", "Commands: press", "Your move"]
    assert not [t for t in texts if any(e in t for e in english)], texts
    assert all(WORDS["total {total} of {target}"][lang].split("{")[0] in t for t in texts[:2])


def test_the_toy_game_draws_its_picture():
    from bot.core.hosting import Table
    from bot.core.record import Record, SeatInfo

    game = GAMES["race"]
    record = Record(rulebook="ten", options={"step": 2}, game_name="race", seed=0,
                    seats=[SeatInfo("Ada", "1", 1), SeatInfo("Bo", "2", 2)])
    table = Table(5, record, lambda: 0.0)
    game.start(table)
    first = game.table_screen(table)
    game.press(table, 0, "1", Press(5, 0, "plus", (2,)))
    after = game.table_screen(table)
    assert first.image.startswith(b"\x89PNG") and after.image.startswith(b"\x89PNG")
    assert first.image_key != after.image_key and first.image != after.image


# The toy game's names: its package, its classes, its registered name as a string
TOY_NAMES = re.compile(r"toy_game|RaceGame|RaceRules|[\"']race[\"']")
# every file that may name it: its wing, the registry line, its tests, the docs that show it
NAMES_IT = {
    "tests/all_games.py": "the registry line (the bot's games and the toy)",
    "tests/test_toy_game.py": "its tests",
    "tests/test_toy_game_web.py": "its tests (the web page in a browser)",
    "tests/test_platform.py": "its tests (the platform hosting it alone)",
    "docs/architecture.md": "'Adding a game': the toy game's files as the example",
}


def test_only_its_wing_its_registry_line_and_its_tests_name_the_toy_game():
    """A third game touches its wing and one registry line: every file of the repository that
    names the toy race is its wing (tests/toy_game/), the registry line or its tests."""
    root = Path(__file__).resolve().parent.parent
    listed = subprocess.run(["git", "ls-files", "--cached", "--others", "--exclude-standard"],
                            cwd=root, capture_output=True, text=True, check=True).stdout
    naming = set()
    for rel in listed.splitlines():
        path = root / rel
        if not path.is_file() or path.suffix in (".png", ".db", ".ttf", ".mo", ".gz"):
            continue
        text = path.read_bytes().decode("utf-8", "replace")
        if TOY_NAMES.search(text):
            naming.add(rel)
    outside = {rel for rel in naming if not rel.startswith("tests/toy_game/")}
    assert outside == set(NAMES_IT), sorted(outside ^ set(NAMES_IT))
