"""What a newcomer reads first (issue 28, item 7): every help mentions /lesson and no
repository path, and every Hebrew help line opens with a Hebrew word, so that its paragraph
is right to left (UAX #9 P2: the first strong character outside isolates decides; a line
starting with `/command` or an LRM becomes a left-to-right paragraph)."""

from __future__ import annotations

import unicodedata

import pytest

from bot.adapters.discord_commands import HELP as DISCORD_HELP
from bot.core import narrate
from bot.games.buildten.texts import help_text as buildten_help
from bot.games.rummy.texts import MORE, rules_text
from bot.games.rummy.texts import help_text as rummy_help
from bot.i18n import LANGUAGES, _, using

ISOLATES, PDI = "\u2066\u2067\u2068", "\u2069"


def paragraph_direction(line: str) -> str | None:
    """"R" or "L" by UAX #9 rules P2–P3 (None: no strong character)."""
    depth = 0
    for ch in line:
        if ch in ISOLATES:
            depth += 1
        elif ch == PDI:
            depth = max(0, depth - 1)
        elif depth == 0:
            kind = unicodedata.bidirectional(ch)
            if kind in ("R", "AL"):
                return "R"
            if kind == "L":
                return "L"
    return None


def helps() -> dict[str, str]:
    return {"rummy": rummy_help(), "buildten": buildten_help(), "discord": _(DISCORD_HELP),
            "welcome": narrate.WELCOME_PRIVATE, "rules": rules_text(None)}


def test_hebrew_help_lines_read_right_to_left():
    with using("he"):
        texts = helps()
    wrong = [(name, line) for name, text in texts.items() for line in text.split("\n")
             if line.strip() and paragraph_direction(line) != "R"]
    assert not wrong, wrong


@pytest.mark.parametrize("lang", LANGUAGES)
def test_every_help_offers_the_lesson_and_no_repository_path(lang):
    with using(lang):
        texts = helps()
        more = _(MORE)
    for name in ("rummy", "discord", "welcome"):
        assert "/lesson" in texts[name] or "/rummy lesson" in texts[name], (lang, name)
    assert "/lesson" in more
    for name, text in texts.items():
        assert "docs/" not in text and ".md" not in text, (lang, name)
