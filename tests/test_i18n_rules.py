"""The rules in the reader's language (issue 17): docs/rules.he.md and docs/rules.ru.md translate
docs/rules.md section by section — every rulebook's section is there, with the same numbers and
the same typed commands — a missing section falls back to English, /rules <rulebook> answers
in the reader's language for every rulebook, and a terminal's `rules` shows the full section."""

from __future__ import annotations

import re
from collections import Counter
from pathlib import Path

import pytest
from test_i18n import OTHERS, _english_words

from bot.adapters.console import full_rules
from bot.games.buildten.texts import rules_text as bt_rules_text
from bot.games.rummy.texts import rules_text
from bot.i18n import rules, strip_bidi, using
from engine.rummy import ALL_RULEBOOKS

SCRIPT = {"he": re.compile(r"[\u0590-\u05ff]"), "ru": re.compile(r"[\u0400-\u04ff]")}
# Every section the English page has, Rummikub's included (a section added later reads in
# English until it is translated: see the fallback test).
TRANSLATED = (
    "intro",
    "what-every-rulebook-shares",
    "manipulation",
    "machiavelli",
    "shanghai",
    "guadeloupe",
    "carousel",
    "vatican",
    "tahiti",
    "rummikub",
    "playing-in-a-chat",
    "coming-later",
    "build-to-ten-a-second-game",
)
_NUMBER = re.compile(r"(?<![\w.])\d+(?![\w])")
_CODE = re.compile(r"`([^`]+)`")


def _numbers(text: str) -> set[str]:
    return set(_NUMBER.findall(_CODE.sub(" ", text)))


@pytest.mark.parametrize("lang", OTHERS)
@pytest.mark.parametrize("key", TRANSLATED)
def test_every_section_is_translated_faithfully(lang, key):
    english, translated = rules.section(key, "en"), rules.section(key, lang)
    assert english and rules.translated(key, lang)
    assert translated != english and SCRIPT[lang].search(translated)
    # every figure (cards, points, limits) is still there, and the same typed commands and cards
    assert set(_numbers(english)) <= set(_numbers(translated)), key
    codes = Counter(_CODE.findall(strip_bidi(translated)))  # (Hebrew isolates its cards)
    assert codes == Counter(_CODE.findall(english)) or key == "playing-in-a-chat"
    assert len(translated.splitlines()) > 0.7 * len(english.splitlines())


@pytest.mark.parametrize("lang", OTHERS)
@pytest.mark.parametrize("name", [*ALL_RULEBOOKS, "build-to-ten"])  # Rummikub too
def test_every_rulebook_has_its_rules_in_the_readers_language(lang, name):
    key = rules.rulebook_key(name)
    assert key in TRANSLATED and rules.translated(key, lang)
    with using(lang):
        page = full_rules(name)  # the terminal's `rules tahiti`
        short = bt_rules_text(None) if name == "build-to-ten" else rules_text(name)  # /rules
    assert page == rules.section(key, lang) and SCRIPT[lang].search(page)
    assert SCRIPT[lang].search(short) and not _english_words(short), _english_words(short)
    # never a repository path a player can't open (issue 28): the lesson is the way on
    assert ".md" not in short and "docs/" not in short
    assert "/lesson" in short or name == "build-to-ten"


def test_the_terminal_rules_without_a_name_are_the_shared_rules():
    with using("ru"):
        text = full_rules("")
    assert text.startswith("# Правила") and "## Общие правила" in text
    assert full_rules("klingon") == ""  # the service's /rules names the rulebooks


def test_a_missing_section_falls_back_to_english(tmp_path: Path, monkeypatch):
    (tmp_path / "rules.md").write_text(
        "# The rules\n\nIntro.\n\n## Manipulation\n\nSeven cards.\n\n## Rummikub\n\nTiles.\n",
        encoding="utf-8",
    )
    (tmp_path / "rules.he.md").write_text(
        '<div dir="rtl">\n\n<a id="intro"></a>\n# החוקים\n\nפתיחה.\n\n'
        '<a id="manipulation"></a>\n## מניפולציה\n\nשבעה קלפים.\n\n</div>\n',
        encoding="utf-8",
    )
    monkeypatch.setattr(rules, "DOCS", tmp_path)
    rules.sections.cache_clear()
    try:
        assert rules.keys() == ["intro", "manipulation", "rummikub"]
        assert rules.section("manipulation", "he") == "## מניפולציה\n\nשבעה קלפים."
        assert rules.section("rummikub", "he") == "## Rummikub\n\nTiles."  # not translated yet
        assert not rules.translated("rummikub", "he")
        assert rules.section("manipulation", "ru") == "## Manipulation\n\nSeven cards."  # no page
        assert "# החוקים" in rules.document("he") and "Tiles." in rules.document("he")
        monkeypatch.setattr(rules, "DOCS", tmp_path / "nowhere")  # an install without docs/
        rules.sections.cache_clear()
        assert rules.section("manipulation", "he") == "" and full_rules("") == ""
    finally:
        rules.sections.cache_clear()
