"""What a newcomer reads first (issue 28, item 7): every help mentions /lesson and no
repository path, and every Hebrew help line opens with a Hebrew word, so that its paragraph
is right to left (UAX #9 P2: the first strong character outside isolates decides; a line
starting with `/command` or an LRM becomes a left-to-right paragraph)."""

from __future__ import annotations

import unicodedata
from types import SimpleNamespace

import discord
import pytest
from discord import app_commands

from bot.adapters.discord_commands import add_commands
from bot.adapters.discord_commands import help_text as discord_help
from bot.adapters.telegram import COMMANDS as TELEGRAM_MENU
from bot.core import narrate
from bot.games import default_games
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
    return {"rummy": rummy_help(), "buildten": buildten_help(),
            "discord": discord_help(default_games().values()),
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


# "a whole move you can make", as each catalog says it (issue 27: a hint is a whole move)
WHOLE_MOVE = {"en": "whole move", "he": "מהלך שלם", "ru": "полный ход"}
ONE_CARD = {"en": "card I can play", "he": "קלף שאפשר לשחק", "ru": "карту, которую можно сыграть"}


def discord_hint_description() -> str:
    """The /rummy hint command's description, as the command tree holds it (English)."""
    client = discord.Client(intents=discord.Intents.none())
    tree = app_commands.CommandTree(client)
    games = default_games()
    service = SimpleNamespace(games=games, default_game=next(iter(games.values())))
    add_commands(tree, adapter=SimpleNamespace(service=service))  # callbacks never run here
    return tree.get_command("rummy").get_command("hint").description


@pytest.mark.parametrize("lang", LANGUAGES)
def test_every_hint_description_names_a_whole_move(lang):
    """Issue 27: Hint shows a whole move (and in Rummy 💡 Show me lays it), not one card — in
    the /help texts, Telegram's command menu and Discord's /rummy hint description."""
    with using(lang):
        texts = helps()
        menu = _(dict(TELEGRAM_MENU)["hint"])
        slash = _(discord_hint_description())
        show_me = _("💡 Show me")
    lines = {name: next(line for line in texts[name].split("\n") if "hint" in line.lower()
                        or "💡" in line) for name in ("rummy", "discord", "buildten")}
    lines["menu"], lines["slash"] = menu, slash
    for name, line in lines.items():
        assert WHOLE_MOVE[lang] in line.lower(), (lang, name, line)
        assert ONE_CARD[lang] not in line.lower(), (lang, name, line)
    assert show_me in lines["rummy"], (lang, lines["rummy"])
