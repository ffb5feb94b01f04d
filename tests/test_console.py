"""The terminal game goes through the game service like a chat: scripted lines in, text out.
The terminal lesson goes through the game service, kept in the same store."""

from __future__ import annotations

import ast
import itertools
import re
import shutil
from pathlib import Path

import pytest

from bot.adapters.console import (
    GROUP_CHAT,
    PLATFORM,
    USER,
    Setup,
    parse_seats,
    play,
    scripted,
)
from bot.adapters.console_lesson import lesson
from bot.core.record import Record
from bot.games import default_games
from bot.games.rummy.records import state_of
from bot.store import Store

SUITS = {"♠": "S", "♥": "H", "♦": "D", "♣": "C"}


@pytest.fixture
def url(sqlite_template, tmp_path):
    path = tmp_path / "terminal.db"
    shutil.copy(sqlite_template, path)
    return f"sqlite+aiosqlite:///{path}"


async def game_row(url: str):
    store = await Store.open(url)
    try:
        active = await store.active_game(PLATFORM, GROUP_CHAT)
        return active, store
    except BaseException:
        await store.close()
        raise


def notation(pretty: str) -> str:
    """`10♥` -> `10H`, `🃏` -> `*` (what a person types)."""
    if pretty.startswith("🃏"):
        return "*"
    return pretty[:-1] + SUITS[pretty[-1]]


async def ada_against_medium(url: str, lines: list[str]) -> str:
    """Ada types `lines` in Machiavelli (seed 3) against a medium computer: what she saw."""
    out: list[str] = []
    await play(
        Setup("machiavelli", {}, ["medium"]),
        url=url,
        seed=3,
        name="Ada",
        read=scripted(lines),
        write=out.append,
        games=default_games(),
    )
    return "\n".join(out)


class Player:
    """A person at the keyboard who reads the screen: hint, Auto-place the hinted card, Done;
    else the Draw (or Pass / Knock) button by its number; Next round when the table offers it."""

    def __init__(self, limit: int = 600) -> None:
        self.out: list[str] = []
        self.typed: list[str] = []
        self.seen = 0
        self.plan: list[str] = []
        self.limit = limit

    def write(self, text: str) -> None:
        self.out.extend(str(text).splitlines())

    def button(self, *labels: str) -> str | None:
        """The number of the newest listed button with one of these labels."""
        for line in reversed(self.out):
            for label in labels:
                found = re.search(r"\[(\d+)\] " + re.escape(label) + r"(?:\s|$)", line)
                if found:
                    return found.group(1)
        return None

    def hand(self) -> list[str]:
        """My cards as the newest numbered card buttons show them (`Hand: [1] 2♠ …`)."""
        start = max(i for i, x in enumerate(self.out) if x.startswith("Hand: ["))
        cards = []
        for line in self.out[start:]:
            if not (line.startswith("Hand: [") or line.startswith("      [")):
                break
            cards += [
                notation(c.lstrip("✓"))
                for c in re.findall(r"\] (\S+)", line)
                if not c.lstrip("✓").startswith("(")  # a card taken out of the table
            ]
        return cards

    def new_group(self, card: str) -> list[str]:
        """A set with this card (one per suit) if the hand has one, else a run through it."""
        hand = self.hand()
        rank, suit = card[:-1], card[-1]
        same = {c[-1]: c for c in hand if c[:-1] == rank}
        if len(same) >= 3:
            return list(same.values())[:4]
        order = ["A", *map(str, range(2, 11)), "J", "Q", "K", "A"]
        mine = {c[:-1] for c in hand if c[-1] == suit}
        for start in range(len(order) - 2):
            window = order[start : start + 3]
            if rank in window and all(r in mine for r in window):
                return [r + suit for r in window]
        return [card]

    def read(self, _prompt: str) -> str:
        if len(self.typed) >= self.limit:
            raise EOFError
        new = self.out[self.seen :]
        self.seen = len(self.out)
        line = self.plan.pop(0) if self.plan else self.decide(new)
        self.typed.append(line)
        self.out.append("> " + line)
        return line

    def decide(self, new: list[str]) -> str:
        text = "\n".join(new)
        nxt = self.button("▶ Next round")
        if nxt and "▶ Next round" in text:
            return nxt
        if self.typed and self.typed[-1] == "hint":
            hint = re.search(r"💡 You can play (\S+)[^—]* — (as a new group)?", text)
            if hint:
                card = notation(hint.group(1))
                self.plan = ["done"]
                if hint.group(2):  # a new group from my hand: a set or a run with that card
                    return "lay " + " ".join(self.new_group(card))
                return "auto " + card
            return self.button("Draw", "✊ Knock", "Pass") or "pass"
        if self.typed and self.typed[-1] == "done" and "✗" in text:
            self.plan = [self.button("Draw", "✊ Knock", "Pass") or "pass"]
            return "reset"
        return "hint"


@pytest.mark.e2e  # a whole game against computers through the terminal adapter
async def test_a_whole_game_against_computers(url):
    player = Player()
    await play(
        Setup("guadeloupe", {}, ["easy", "medium"]),
        url=url,
        seed=5,
        name="Ada",
        read=player.read,
        write=player.write,
        games=default_games(),
    )
    out = "\n".join(player.out)
    assert "Traceback" not in out
    assert "Players: Ada (host), 🤖 Computer 1 (easy), 🤖 Computer 2 (medium)" in out
    assert "🏁 Game over" in out and "Thanks for playing!" in out
    assert any(t.startswith("auto ") for t in player.typed)  # typed moves were used
    assert any(t.isdigit() for t in player.typed)  # and numbered buttons
    assert "Computer 1 " in out and re.search(r"Computer \d (laid|drew)", out)
    store = await Store.open(url)
    try:
        assert await store.active_game(PLATFORM, GROUP_CHAT) is None  # finished
        assert "Ada" in await _board(store)
    finally:
        await store.close()


async def _board(store: Store) -> str:
    rows = await store.leaderboard(PLATFORM, GROUP_CHAT, None)
    return " ".join(r.name for r in rows)


async def test_bad_input_gets_the_cores_reason_not_a_traceback(url):
    lines = [
        "frobnicate",  # unknown command
        "lay 9X",  # not a card
        "lay 99",  # no such hand number
        "add Q 1",  # no such group
        "move A",  # malformed
        "77",  # no such button
        "auto 1",  # a lone card Auto-place can't place (or can: either way an answer)
        "reset",
        "lay 1 2 3",  # three cards from the hand: not a group (seed 3's hand has none)
        "done",  # -> the engine's reason for the invalid group
        "quit",
    ]
    text = await ada_against_medium(url, lines)
    assert "Traceback" not in text and "Something went wrong" not in text
    assert "✗ Unknown command 'frobnicate'" in text
    assert "'9X' is not a card" in text
    assert "There is no card number 99 in your hand" in text
    assert "There is no button [77]" in text
    assert "Write it as: move B:QS A" in text  # the terminal takes moves without a slash
    assert re.search(r"✗ Group A is not a set or a run", text)
    assert "Bye — the game is saved" in text


async def test_the_game_survives_a_restart(url):
    first: list[str] = []
    await play(
        Setup("machiavelli", {}, ["medium"]),
        url=url,
        seed=3,
        name="Ada",
        read=scripted(["draw", "quit"]),
        write=first.append,
        games=default_games(),
    )
    row, store = await game_row(url)
    try:
        assert row is not None and row.status == "playing"
        state = state_of(Record.from_dict(row.record))
        assert state is not None and state.turn == 0  # the computer played; my turn again
        hand = len(state.hands[0])
        game_id = row.id
    finally:
        await store.close()
    assert hand == 14  # 13 dealt + 1 drawn
    second: list[str] = []
    await play(
        Setup("guadeloupe", {}, ["easy"]),  # settings of a new game: not used when resuming
        url=url,
        seed=99,
        name="Ada",
        read=scripted(["quit"]),
        write=second.append,
        games=default_games(),
    )
    text = "\n".join(second)
    assert "resuming your unfinished game: Machiavelli" in text
    assert f"Ada: {hand} cards" in text  # the status line counts the same hand
    row, store = await game_row(url)
    try:
        assert row is not None and row.id == game_id
    finally:
        await store.close()
    third: list[str] = []
    await play(
        Setup("guadeloupe", {}, ["easy"]),
        url=url,
        seed=1,
        new=True,
        name="Ada",
        read=scripted(["quit"]),
        write=third.append,
        games=default_games(),
    )
    assert "Rummy Table — Guadeloupe" in "\n".join(third)
    row, store = await game_row(url)
    try:
        assert row is not None and row.id != game_id
    finally:
        await store.close()


async def test_options_and_levels_go_through_the_lobby(url, tmp_path):
    out: list[str] = []
    await play(
        Setup("manipulation", {"play_to": "300"}, ["hard", "easy"]),
        url=url,
        seed=2,
        name="Ada",
        read=scripted(["sort", "table", "quit"]),
        write=out.append,
        pictures=tmp_path / "pics",
        games=default_games(),
    )
    text = "\n".join(out)
    assert "play to: 300" in text
    assert "🤖 Computer 1 (hard), 🤖 Computer 2 (easy)" in text
    assert (tmp_path / "pics" / "table.png").read_bytes()[:4] == b"\x89PNG"
    assert (tmp_path / "pics" / "hand.png").exists()


def test_parse_seats():
    rummy = default_games()["rummy"]
    seats = (rummy.levels, rummy.max_seats)
    assert parse_seats("you,cpu,cpu:hard", *seats) == (["medium", "hard"], True)
    assert parse_seats("cpu:easy,you", *seats) == (["easy"], False)
    for bad in ("cpu,cpu", "you,you,cpu", "you", "you,cpu:genius", "you,dog",
                "you" + ",cpu" * rummy.max_seats):
        with pytest.raises(ValueError):
            parse_seats(bad, *seats)


def test_parse_seats_reads_the_games_levels_and_seats():
    """The terminal knows no game's levels: the game it plays says them."""
    assert parse_seats("you,cpu:b", ("a", "b"), 2) == (["b"], True)
    for bad in ("you,cpu:hard", "you,cpu:a,cpu:b"):
        with pytest.raises(ValueError):
            parse_seats(bad, ("a", "b"), 2)


def test_cli_play_rejects_bad_settings(capsys):
    from bot.cli import main

    assert main(["play", "--seats", "you,you"]) == 2
    assert "exactly one 'you'" in capsys.readouterr().err
    assert main(["play", "--option", "nonsense=1"]) == 2
    assert "nonsense" in capsys.readouterr().err


async def test_numbers_press_the_buttons_cards_first(url):
    """Tap flow: card buttons are numbered as the hand; then New group, then Done."""
    # Machiavelli deals 13: buttons [1]..[13] are the cards, [14] is New group.
    text = await ada_against_medium(url, ["1", "2", "3", "14", "done", "quit"])
    assert re.search(r"Hand: \[1\] \S+ \[2\] \S+", text)
    assert "[14] New group" in text
    assert re.search(r"Hand: \[1\] ✓\S+ \[2\] ✓\S+ \[3\] ✓\S+ \[4\] \S+", text)  # selected
    assert re.search(r" ✗ A  \S+ \S+ \S+", text)  # the new group, not valid yet
    assert "✗ Group A is not a set or a run" in text


async def test_resume_after_a_restart_shows_the_table_and_the_last_log_lines(url):
    await play(
        Setup("machiavelli", {}, ["easy", "medium"]),
        url=url,
        seed=3,
        name="Ada",
        read=scripted(["draw", "draw", "quit"]),
        write=[].append,
        games=default_games(),
    )
    written: list[str] = []
    await play(Setup(), url=url, name="Ada", read=scripted(["quit"]), write=written.append,
               games=default_games())
    text = "\n".join(written)
    out = text.splitlines()
    assert "resuming your unfinished game: Machiavelli" in text
    logged = [x.strip() for x in out if x.startswith("  ") and " drew " in x]
    # the last 5 lines of the game log: my second draw and the computers' moves around it
    assert "Ada drew 1 card" in logged and len(logged) >= 4
    assert any(x.startswith("🤖 Computer 2") for x in logged)
    status = next(x for x in out if x.startswith("Ada's turn · stock"))
    assert "Ada: 15 cards" in status  # 13 dealt + 2 drawn: the same table as before the restart
    assert re.search(r"Hand: \[1\] \S+", text) and "[16] New group" in text  # 15 cards, numbered


async def test_the_computers_finish_before_the_prompt_returns(url):
    """Each prompt comes after the computers' moves: the newest status line says it is my
    turn, and both computers' log lines are printed before it."""
    out: list[str] = []
    prompts: list[int] = []
    lines = iter(["draw", "draw", "draw"])

    def write(text: str) -> None:
        out.extend(str(text).splitlines())

    def read(_prompt: str) -> str:
        prompts.append(len(out))
        try:
            return next(lines)
        except StopIteration:
            raise EOFError from None

    await play(
        Setup("manipulation", {}, ["easy", "hard"]),
        url=url,
        seed=8,
        name="Ada",
        read=read,
        write=write,
        games=default_games(),
    )
    assert len(prompts) == 4
    for before, at in itertools.pairwise(prompts):
        shown = out[before:at]
        statuses = [x for x in shown if " · stock " in x]
        assert statuses and "· Ada's turn ·" in statuses[-1]
        assert any("🤖 Computer 1 " in x for x in shown)
        assert any("🤖 Computer 2 " in x for x in shown)


async def test_a_lesson_in_the_terminal_store_goes_through_its_first_steps(url):
    from bot.games.rummy.lessons import LESSONS

    steps = LESSONS["manipulation"].steps
    out: list[str] = []
    state = await lesson(
        "manipulation",
        url=url,
        name="Ada",
        read=scripted([*steps[0].demo, "lay 9S 9H 8D", "done", "reset", *steps[1].demo, "quit"]),
        write=out.append,
        games=default_games(),
    )
    text = "\n".join(out)
    assert state is not None and state["step"] == 2 and not state["finished"]
    assert f"Lesson 1/{len(steps)}" in text and f"Lesson 3/{len(steps)}" in text
    assert text.count("✓ ") == 2  # each step's feedback once
    assert "✗ " in text  # the wrong set got the engine's reason
    assert "Your hand: 1:[5♥]" in text  # the position, the step's cards outlined
    assert "Actions: done · reset · draw · show · skip · help · quit" in text
    assert "Bye — the lesson is saved" in text
    store = await Store.open(url)
    try:  # stored like a game: in the person's private chat on the console platform
        row = await store.active_game(PLATFORM, USER)
        assert row is not None and row.record["state"]["progress"]["step"] == 2
    finally:
        await store.close()
    again: list[str] = []
    state = await lesson(None, url=url, read=scripted(["skip", "quit"]), write=again.append,
                         games=default_games())
    text = "\n".join(again)
    assert "Welcome back" in text and f"Lesson 3/{len(steps)}" in text
    assert state is not None and state["step"] == 3
    game: list[str] = []  # the same store still plays games: another chat
    await play(Setup(), url=url, seed=1, name="Ada", read=scripted(["quit"]), write=game.append,
               games=default_games())
    assert "Rummy Table — Manipulation" in "\n".join(game) and "Hand: [1]" in "\n".join(game)


def test_cli_lesson_uses_the_terminal_store(tmp_path, monkeypatch, capsys):
    from bot.cli import main

    lines = iter(["lay 5H 6H 7H", "done", "quit"])

    def fake_input(_prompt: str = "") -> str:
        try:
            return next(lines)
        except StopIteration:
            raise EOFError from None

    monkeypatch.setattr("builtins.input", fake_input)
    assert main(["lesson", "--data", str(tmp_path), "--name", "Ada"]) == 0
    printed = capsys.readouterr().out
    assert "Lesson 2/" in printed and "✓ " in printed
    assert (tmp_path / "terminal.db").exists()


def test_the_terminal_adapters_go_through_the_core_only():
    """No store reads behind the core's back, no game record, no engine game logic: the
    console and the console lesson are adapters like the chats'."""
    root = Path(__file__).resolve().parent.parent / "bot" / "adapters"
    allowed_engine = {"engine.rummy": {"get_rulebook"}, "engine.cards": {"Card"}}
    for name in ("console.py", "console_lesson.py"):
        tree = ast.parse((root / name).read_text())
        for node in ast.walk(tree):
            if isinstance(node, ast.Import):
                for alias in node.names:
                    assert not alias.name.startswith(("bot.core.record", "engine")), name
            elif isinstance(node, ast.ImportFrom):
                module = node.module or ""
                assert module != "bot.core.record", f"{name} imports the game record"
                assert not (module == "bot.core" and any(a.name == "record" for a in node.names))
                if module.startswith("engine"):
                    names = {a.name for a in node.names}
                    assert names <= allowed_engine.get(module, set()), f"{name}: {module} {names}"
                if module == "bot.games.rummy.lessons" or module.startswith(
                        "bot.games.rummy.lessons."):
                    # the lesson's progress type only: the runner is the service's
                    assert {a.name for a in node.names} <= {"LessonState"}, name
            elif isinstance(node, ast.Attribute):
                assert node.attr != "store", f"{name} touches .store (line {node.lineno})"
            elif isinstance(node, ast.Name):
                assert node.id != "Record", f"{name} uses Record (line {node.lineno})"


async def test_a_unicode_digit_typed_is_no_button_number(url):
    """`'²'.isdigit()` is True but `int('²')` fails: the terminal answers, the game goes on."""
    text = await ada_against_medium(url, ["²", "١", "1", "quit"])
    assert text.count("Unknown command") == 2
    assert re.search(r"Hand: \[1\] ✓\S+ \[2\] \S+", text)  # the ASCII 1 still presses


async def test_rummikub_in_the_terminal_speaks_tiles(url):
    """Issue 27: `help` teaches tile notation in a Rummikub game and `auto 6K` reads tiles."""
    out: list[str] = []
    await play(Setup("rummikub", {}, ["medium"]), url=url, seed=3, name="Ada",
               read=scripted(["help", "quit"]), write=out.append,
               games=default_games())
    text = "\n".join(out)
    assert "lay 7R 8R 9R" in text and "7H 10S QD" not in text, text[-2000:]
    rack = next(x for x in text.splitlines() if x.startswith("Rack:"))
    tile = re.search(r"\[1\] \u2066?(\d+)([⬛🟥🟦🟧])", rack)  # the first tile: 6⬛, typed 6K
    assert tile, rack
    typed = tile.group(1) + {"⬛": "K", "🟥": "R", "🟦": "B", "🟧": "O"}[tile.group(2)]
    out.clear()
    await play(Setup("rummikub", {}, ["medium"]), url=url, seed=3, name="Ada",
               read=scripted([f"auto {typed}", "quit"]), write=out.append,
               games=default_games())
    text = "\n".join(out)
    assert "is not a card" not in text and "is not a tile" not in text, text[-1500:]


async def test_review_in_the_terminal(url):
    """`review` after a round in which Ada only drew: her turns, printed here; while a round
    is being played there is nothing to review yet."""
    out: list[str] = []
    typed: list[str] = []

    def read(_prompt: str) -> str:
        text = "\n".join(out)
        if typed and typed[-1] == "review" and "▶ Next round" in text:
            raise EOFError
        if "▶ Next round" in text:
            line = "review"
        elif not typed:
            line = "review"  # round 1 is being played
        else:
            line = "pass" if typed[-1] == "draw" and "✗" in out[-1] else "draw"
        if len(typed) > 400:
            raise EOFError
        typed.append(line)
        out.append("> " + line)
        return line

    await play(Setup("carousel", {}, ["medium"]), url=url, seed=1, name="Ada", read=read,
               games=default_games(),
               write=lambda text: out.extend(str(text).splitlines()))
    text = "\n".join(out)
    assert "Traceback" not in text
    start = out.index("> review")
    assert "nothing to review yet" in "\n".join(out[start : start + 3])
    last = len(out) - 1 - out[::-1].index("> review")
    shown = out[last + 1 :]
    assert shown[0] == "🔎 Your review · Carousel · round 1", shown[:4]
    assert re.fullmatch(r"\d+ turns? · \d+ missed( · \d+ cards? left in hand that could have "
                        r"gone)?", shown[1])
    assert any(line.startswith("Turn 1: you drew") for line in shown)
    assert "in your private chat" not in "\n".join(shown)
