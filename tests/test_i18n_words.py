"""Words a native would use (issue 44): the lobby counts players, not seats; the host's label
next to a name is neutral (Dana and Olga are never "host" in the masculine); no internal word
(the solver, a working copy) reaches a player; and the native readers' wording stays."""

from __future__ import annotations

import re

import pytest
from babel.messages.pofile import read_po

from bot import i18n
from bot.core.lobby import lobby_screen
from bot.core.record import Record, SeatInfo
from bot.games import default_games
from bot.games.rummy import narrate
from bot.i18n import strip_bidi, using

# What a player must not read: the engine's "solver" and the code's "working copy".
INTERNAL = {
    "he": re.compile(r"הפותר|פותר\b|עותק עבודה|עותק העבודה"),
    "ru": re.compile(r"решател|рабоч\w* копи"),
}
PLAYERS = {"en": "Players: ", "he": "שחקנים: ", "ru": "Игроки: "}
HOST = {"en": " (host)", "he": " (מארח/ת)", "ru": " (создатель игры)"}


@pytest.mark.parametrize("lang", ["he", "ru"])
def test_no_internal_word_reaches_a_player(lang):
    with i18n.po_path(lang).open("rb") as handle:
        catalog = read_po(handle, locale=lang)
    found = {}
    for message in catalog:
        forms = message.string if isinstance(message.string, tuple) else (message.string,)
        words = [w for form in forms if form for w in INTERNAL[lang].findall(form)]
        if message.id and words:
            found[str(message.id)[:60]] = words
    assert not found, found
    with using("en"):
        assert "computer" in i18n._("Every turn was the best move the computer finds. 👏")


@pytest.mark.parametrize("lang", ["en", "he", "ru"])
def test_the_lobby_counts_players_and_names_the_host_neutrally(lang):
    game = default_games()["rummy"]
    record = Record(rulebook="manipulation", host="1", lang=lang, game_name="rummy",
                    seats=[SeatInfo("Dana", "1", 1), SeatInfo("Olga", "2", 2)])
    text = strip_bidi(lobby_screen(game, 7, record).text)
    assert PLAYERS[lang] + "Dana" + HOST[lang] + ", Olga" in text, text
    assert not re.search(r"מקומות|Места|\bseats\b", text), text


def test_the_native_readers_wording():
    with using("he"):
        said = [strip_bidi(narrate.started("רמיקוב", 3)),
                strip_bidi(i18n.t("{winners} went out", winners="דנה")),
                strip_bidi(i18n.tn("{name} drew {n} card", "{name} drew {n} cards", 1,
                                   name="דנה"))]
    assert said == ["משחק רמיקוב התחיל עם 3 שחקנים", "דנה רוקנו את היד", "דנה: משיכת קלף אחד"]
    with using("ru"):
        started = narrate.started("Руммикуб", 3)
        knock = i18n._("You knocked with 3 points against the computer's 29 and score the "
                       "difference, 26. Had the computer held fewer points, it would have won "
                       "with 10 more for the undercut. Going out scores the others' points plus "
                       "25; the game ends when someone reaches 150.")
    assert started == "«Руммикуб»: игра началась, игроков: 3"
    assert "Будь у" not in knock and "Если бы у" in knock  # said plainly
