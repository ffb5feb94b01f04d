"""The terminal as a newcomer meets it (issue 44): no "OK" line after every move in any
language, a second `hint` answers, a computer's many draws are one line, `rules` reads as text,
and a Rummikub rack shows its colours as the log does."""

from __future__ import annotations

import itertools
import re
import shutil
import unicodedata

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


class Learner:
    """A learner at the terminal lesson who reads what it printed: a line may be a function of
    the output so far (the number of a button by its label)."""

    def __init__(self, lines: list) -> None:
        self.lines = list(lines)
        self.out: list[str] = []

    def write(self, text: str) -> None:
        self.out.extend(str(text).splitlines())

    def read(self, _prompt: str) -> str:
        if not self.lines:
            raise EOFError
        line = self.lines.pop(0)
        return line(self) if callable(line) else line

    def number(self, label: str) -> str:
        for line in reversed(self.out):
            found = re.search(r"\[(\d+)\] " + re.escape(label), line)
            if found:
                return found.group(1)
        raise AssertionError(f"no [n] {label} in {self.out[-8:]}")


@pytest.mark.parametrize("lang", ["en", "he", "ru"])
def test_the_lesson_takes_numbers_as_the_game_does(tmp_path, lang):
    """Step 1 says: select 5♥ 6♥ 7♥, tap New group, then Done — `1` `2` `3`, New group's
    number, Done's number do it (not 'Unknown command /1')."""
    from bot.adapters.console_lesson import run_lesson
    from bot.i18n import _, using

    with using(lang):
        new_group, done = _("New group"), _("✔ Done")
    learner = Learner(["1", "2", "3", lambda p: p.number(new_group),
                       lambda p: p.number(done), "quit"])
    state = run_lesson("manipulation", learner.read, learner.write, games=default_games(),
                       url=f"sqlite+aiosqlite:///{tmp_path / 'lesson.db'}", lang=lang)
    text = "\n".join(learner.out)
    assert state["step"] == 1, text[-1500:]  # step 1 done by numbers
    assert "✓" in text  # selected, then correct
    assert "Unknown command" not in text


def test_terminal_hints_name_moves_without_a_slash(tmp_path):
    from bot.adapters.console_lesson import run_lesson

    learner = Learner(["show", "frobnicate", "quit"])
    run_lesson("manipulation", learner.read, learner.write, games=default_games(),
               url=f"sqlite+aiosqlite:///{tmp_path / 'lesson.db'}")
    text = "\n".join(learner.out)
    assert "lay 5H 6H 7H · done" in text, text
    assert not re.search(r"(?<![\w:/])/[a-z]", text), text


async def test_the_games_refusals_in_the_terminal_name_moves_without_a_slash(url):
    out = await typed(url, ["move A", "quit"])
    text = "\n".join(out)
    assert "Write it as: move B:QS A" in text, text[-800:]


@pytest.mark.parametrize("lang", ["en", "he", "ru"])
@pytest.mark.parametrize("name", ["", "manipulation", "rummikub"])
async def test_rules_in_the_terminal_read_as_text_not_markdown(url, lang, name):
    marks: list[int] = []

    def at(line: str):
        def read(learner: Learner) -> str:
            marks.append(len(learner.out))
            return line
        return read

    learner = Learner([at(f"rules {name}".strip()), at("quit")])
    await play(Setup("machiavelli", {}, ["medium"]), url=url, seed=3, name="Ada",
               read=learner.read, write=learner.write, games=default_games(), lang=lang)
    text = "\n".join(learner.out[marks[0]:marks[1]])  # what `rules` printed
    assert len(text) > 500, text  # the section itself
    assert not re.search(r"\]\(#|^#+ |\|---|^\|.*\|$|\*\*|`", text, re.M), text[:3000]
    shown = [[c for c in x if unicodedata.category(c) != "Cf"] for x in text.splitlines()]
    assert max(map(len, shown)) <= 100  # wrapped to the terminal (bidi marks take no room)


async def test_a_rummikub_table_and_rack_show_colours_as_the_log_does(url):
    """Not `9K 9B 9O`: the tiles with their colours' marks (9⬛ 9🟦 9🟧), as the log names
    them, on the table lines and the rack's numbered buttons."""
    out = await typed(url, ["lay 1 2 3", "quit"], rulebook="rummikub")
    rack = next(x for x in out if x.startswith("Rack: ["))
    assert re.search(r"\[1\] \u2066?\d+[⬛🟥🟦🟧]", rack), rack
    shown = "\n".join(x for x in out if not x.startswith(("Commands", "  lay", "  add")))
    assert not re.search(r"(?<![\w*])(1[0-3]|[1-9])[KRBO]\b", shown), shown[-1500:]
    group = next(x for x in out if re.match(r"^ [*✗+ ] +A  ", x))
    assert re.search(r"\d+[⬛🟥🟦🟧]", group), group


def test_a_lessons_second_show_or_hint_answers_too(tmp_path):
    from bot.adapters.console_lesson import run_lesson

    learner = Learner(["show", "hint", "show", "quit"])
    run_lesson("manipulation", learner.read, learner.write, games=default_games(),
               url=f"sqlite+aiosqlite:///{tmp_path / 'lesson.db'}")
    assert sum(x.startswith("Do this:") for x in learner.out) == 3, learner.out
