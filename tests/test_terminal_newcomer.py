"""The terminal as a newcomer meets it (issue 44): no "OK" line after every move in any
language, a second `hint` answers, a computer's many draws are one line, `rules` reads as text,
and a Rummikub rack shows its colours as the log does."""

from __future__ import annotations

import itertools
import re
import shutil

import pytest
from test_console import Player

from bot.adapters.console import Setup, play, scripted
from bot.games import default_games
from bot.i18n import every


@pytest.fixture
def url(sqlite_template, tmp_path):
    path = tmp_path / "terminal.db"
    shutil.copy(sqlite_template, path)
    return f"sqlite+aiosqlite:///{path}"


async def typed(url: str, lines: list[str], *, lang: str = "en", rulebook: str = "machiavelli",
                options: dict | None = None) -> list[str]:
    """Ada types `lines` against a medium computer (seed 3): the lines she saw."""
    out: list[str] = []
    await play(Setup(rulebook, options or {}, ["medium"]), url=url, seed=3, name="Ada",
               read=scripted(lines), write=lambda x: out.extend(str(x).splitlines()),
               games=default_games(), lang=lang)
    return out


@pytest.mark.parametrize("lang", ["en", "he", "ru"])
async def test_no_ok_line_after_a_move_in_any_language(url, lang):
    out = await typed(url, ["lay 1 2 3", "reset", "sort", "lay 4 5 6", "quit"], lang=lang)
    ok = every("OK")
    assert len(ok) == 3  # the check knows the word in each language
    said = [x for x in out if x.strip() in ok]
    assert not said, (lang, said)


async def test_a_second_hint_answers_too(url):
    """Seed 3's Manipulation hand has no move: each `hint` says so, the second one too."""
    out: list[str] = []
    await play(Setup("manipulation", {}, ["medium", "medium"]), url=url, seed=3, name="Ada",
               read=scripted(["hint", "hint", "hint", "quit"]),
               write=lambda x: out.extend(str(x).splitlines()), games=default_games())
    assert out.count("No card of yours can be played now.") == 3, out[-20:]


async def test_a_computers_draws_in_one_turn_are_one_line(url):
    """Manipulation: a computer that can't lay draws one card at a time — 'drew 7 cards' once,
    not 'drew 1 card' seven times (seed 1 has such turns)."""
    player = Player(limit=40)
    await play(Setup("manipulation", {"must_lay": "trust"}, ["easy", "easy"]), url=url, seed=1,
               name="Ada", read=player.read, write=player.write, games=default_games())
    lines = player.out
    repeated = [a for a, b in itertools.pairwise(lines)
                if a == b and re.search(r"Computer \d drew", a)]
    assert not repeated, repeated[:3]
    folded = [x for x in lines if re.search(r"🤖 Computer \d drew ([3-9]|\d\d) cards", x)]
    assert folded, "\n".join(lines[-60:])
