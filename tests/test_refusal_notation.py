"""Refusals name cards as the screens show them (issue 44): 2♠ 2♥ 7♦ in English too, not the
typed letters 2S 2H 7D; a tile by its colour's mark as the log does (7🟥); and the ace rule only
when the ace is the reason."""

from __future__ import annotations

import re

import pytest

from bot.games.rummy.refusals import refusal
from bot.i18n import using
from engine.rummy import IllegalAction, check_move, get_rulebook, parse_cards

LETTERS = re.compile(r"\b(10|[2-9AJQK])[SHDC]\b")


def refused(name: str, group: str, lang: str) -> str:
    """The sentence a reader in `lang` gets for laying `group` alone on an empty table."""
    rules = get_rulebook(name)
    pieces = parse_cards(group, rules)
    check = check_move(rules, [], pieces, [pieces])
    assert not check.ok
    error = IllegalAction(check.reason or "", code=check.code or "illegal", **check.params)
    with using(lang):
        return refusal(error, rules.tiles)


@pytest.mark.parametrize("lang", ["en", "he", "ru"])
def test_a_refusal_names_the_cards_as_the_screen_shows_them(lang):
    text = refused("manipulation", "2S 2H 7D", lang)
    assert not LETTERS.search(text), text
    assert all(card in text for card in ("2♠", "2♥", "7♦")), text


@pytest.mark.parametrize("lang", ["en", "he", "ru"])
def test_a_tile_refusal_names_tiles_by_their_colour_marks(lang):
    text = refused("rummikub", "9K 9B 10O", lang)
    assert not re.search(r"\b\d+[KRBO]\b", text), text
    assert "9⬛" in text and "9🟦" in text, text


@pytest.mark.parametrize("lang", ["en", "he", "ru"])
def test_the_ace_rule_is_said_in_every_language_when_it_is_the_reason(lang):
    from bot.games.rummy.refusals import ACE_RULES
    from bot.i18n import _

    with using(lang):
        rule = _(ACE_RULES["high"])
    assert rule in refused("manipulation", "AH 2H 3H", lang)
    assert rule not in refused("manipulation", "AH 2H 3D", lang)  # mixed suits: not the ace
