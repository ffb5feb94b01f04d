"""The terminal game goes through the game service like a chat: scripted lines in, text out."""

from __future__ import annotations

import re
import shutil

import pytest

from bot.adapters.console import (
    GROUP_CHAT,
    PLATFORM,
    Setup,
    parse_seats,
    play,
    scripted,
)
from bot.core.record import Record
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
            cards += [notation(c.lstrip("✓")) for c in re.findall(r"\] (\S+)", line)]
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
            hint = re.search(r"💡 You can play (\S+) — (as a new group)?", text)
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
    )
    out = "\n".join(player.out)
    assert "Traceback" not in out
    assert "Seats: Ada (host), 🤖 Computer 1 (easy), 🤖 Computer 2 (medium)" in out
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
    out: list[str] = []
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
    await play(
        Setup("machiavelli", {}, ["medium"]),
        url=url,
        seed=3,
        name="Ada",
        read=scripted(lines),
        write=out.append,
    )
    text = "\n".join(out)
    assert "Traceback" not in text and "Something went wrong" not in text
    assert "✗ Unknown command 'frobnicate'" in text
    assert "'9X' is not a card" in text
    assert "There is no card number 99 in your hand" in text
    assert "There is no button [77]" in text
    assert "Write it as: /move B:QS A" in text
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
    )
    row, store = await game_row(url)
    try:
        assert row is not None and row.status == "playing"
        state = Record.from_dict(row.record).game()
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
    )
    text = "\n".join(second)
    assert "resuming your unfinished game: Machiavelli" in text
    assert f"Ada {hand}" in text  # the status line counts the same hand
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
    )
    text = "\n".join(out)
    assert "play to: 300" in text
    assert "🤖 Computer 1 (hard), 🤖 Computer 2 (easy)" in text
    assert (tmp_path / "pics" / "table.png").read_bytes()[:4] == b"\x89PNG"
    assert (tmp_path / "pics" / "hand.png").exists()


def test_parse_seats():
    assert parse_seats("you,cpu,cpu:hard") == (["medium", "hard"], True)
    assert parse_seats("cpu:easy,you") == (["easy"], False)
    for bad in ("cpu,cpu", "you,you,cpu", "you", "you,cpu:genius", "you,dog"):
        with pytest.raises(ValueError):
            parse_seats(bad)


def test_cli_play_rejects_bad_settings(capsys):
    from bot.cli import main

    assert main(["play", "--seats", "you,you"]) == 2
    assert "exactly one 'you'" in capsys.readouterr().err
    assert main(["play", "--option", "nonsense=1"]) == 2
    assert "nonsense" in capsys.readouterr().err


async def test_numbers_press_the_buttons_cards_first(url):
    """Tap flow: card buttons are numbered as the hand; then New group, then Done."""
    out: list[str] = []
    # Machiavelli deals 13: buttons [1]..[13] are the cards, [14] is New group.
    await play(
        Setup("machiavelli", {}, ["medium"]),
        url=url,
        seed=3,
        name="Ada",
        read=scripted(["1", "2", "3", "14", "done", "quit"]),
        write=out.append,
    )
    text = "\n".join(out)
    assert re.search(r"Hand: \[1\] \S+ \[2\] \S+", text)
    assert "[14] New group" in text
    assert re.search(r"Hand: \[1\] ✓\S+ \[2\] ✓\S+ \[3\] ✓\S+ \[4\] \S+", text)  # selected
    assert re.search(r" ✗ A  \S+ \S+ \S+", text)  # the new group, not valid yet
    assert "✗ Group A is not a set or a run" in text
