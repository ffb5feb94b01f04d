"""Hebrew addresses the player in the plural/neutral form (לחצו, כתבו, בחרו, שלכם), never in the
masculine singular (לחץ, כתוב, בחר, אתה, שלך): in the catalog (games, lessons, help) and on the
Hebrew rules page. The check can fail: a planted masculine sentence is found."""

from __future__ import annotations

import re

import pytest
from babel.messages.pofile import read_po

from bot import i18n
from bot.i18n import rules

# The singular "you": the pronoun (also as "you m/f", את/ה) and its suffixed forms (yours, to
# you, with you…), which read the same in either gender but speak to one person.
PRONOUNS = (
    "אתה",
    "את/ה",
    "אתה/את",
    "שלך",
    "לך",
    "אותך",
    "עליך",
    "ממך",
    "אליך",
    "איתך",
    "בשבילך",
    "במקומך",
    "לעצמך",
)
# Masculine singular imperatives of the game's verbs (press, choose, write, send, tap, add, take,
# draw, pass, try, put, wait, give, leave, open, play, look, use, check, go on, type).
IMPERATIVES = (
    "לחץ",
    "בחר",
    "כתוב",
    "שלח",
    "הקש",
    "הוסף",
    "קח",
    "משוך",
    "דלג",
    "נסה",
    "שים",
    "חכה",
    "תן",
    "עזוב",
    "פתח",
    "שחק",
    "ראה",
    "השתמש",
    "בדוק",
    "המשך",
    "הקלד",
    "הנח",
)
# Second person singular past and future of the same verbs ("you joined", "you drew", "you will
# be able").
VERB_FORMS = (
    "הצטרפת",
    "עזבת",
    "ניצחת",
    "משכת",
    "בחרת",
    "לחצת",
    "שלחת",
    "כתבת",
    "דילגת",
    "ויתרת",
    "נקשת",
    "רוקנת",
    "שיחקת",
    "תפסת",
    "הפסדת",
    "הוספת",
    "תוכל",
    "תרצה",
    "תבחר",
    "תלחץ",
    "תכתוב",
    "תשלח",
    "תשחק",
    "תמשוך",
    "תניח",
    "תראה",
    "תקבל",
    "תצטרך",
)
# Words that are also something else: "הוספת" is "the adding of" (הוספת הקלפים), a noun.
NOT_ADDRESS = {"הוספת הקלפים"}


def _word(words: tuple[str, ...]) -> re.Pattern[str]:
    return re.compile(r"(?<![\u0590-\u05ff])(" + "|".join(words) + r")(?![\u0590-\u05ff])")


CATALOG_CHECK = _word(PRONOUNS + IMPERATIVES + VERB_FORMS)
# Prose may use an imperative's letters as another word (בחר "chose", כתוב "written"): the page
# is checked for the pronouns and the second-person verb forms.
PAGE_CHECK = _word(PRONOUNS + VERB_FORMS)


def masculine(text: str, pattern: re.Pattern[str] = CATALOG_CHECK) -> list[str]:
    for phrase in NOT_ADDRESS:
        text = text.replace(phrase, " ")
    return pattern.findall(text)


def test_the_hebrew_catalog_speaks_to_everyone():
    with i18n.po_path("he").open("rb") as handle:
        catalog = read_po(handle, locale="he")
    found = {}
    for message in catalog:
        if not message.id:
            continue
        forms = message.string if isinstance(message.string, tuple) else (message.string,)
        words = [w for form in forms for w in masculine(form)]
        if words:
            found[str(message.id)[:60]] = words
    assert len(catalog) > 500
    assert not found, found


@pytest.mark.parametrize("key", rules.keys())
def test_the_hebrew_rules_page_speaks_to_everyone(key):
    assert not masculine(rules.section(key, "he"), PAGE_CHECK), key


def test_the_check_finds_the_masculine_singular():
    assert masculine("לחץ על „משוך” כדי לקבל את הקלף שלך") == ["לחץ", "משוך", "שלך"]
    assert masculine("אתה יכול לכתוב") == ["אתה"]
    assert masculine("נועה (את/ה)") == ["את/ה"]
    assert masculine("הצטרפת. אשלח לך את הקלפים") == ["הצטרפת", "לך"]
    assert not masculine("לחצו על „למשוך” כדי לקבל את הקלף שלכם; הצטרפתם")
    assert not masculine("הוספת הקלפים שנבחרו לקבוצה")  # a noun, not "you added"


# -- narration about a player is neutral (issue 28) ----------------------------------------------
# An entry narrates a player when it puts a player in the sentence, or is a short sentence
# about the host.
PLAYER_FIELDS = ("{name}", "{names}", "{who}", "{winners}", "{target}", "{won}", "{first}")
HOST = "the host"
# Third-person past and present forms of the game's verbs, masculine or feminine or both with a
# slash: a player of either gender reads them about themselves (laid, drew, won, knocked,
# passed, gave up, left, emptied, played, discards, ends, shifts, swaps, gets, starts). משחק
# ("plays") is left out: it is also the noun "game"; its slash form משחק/ת is caught.
GENDERED_VERBS = (
    "הניח", "הניחה", "משך", "משכה", "ניצח", "ניצחה", "נקש", "נקשה", "דילג", "דילגה",
    "ויתר", "ויתרה", "עזב", "עזבה", "רוקן", "ריקן", "שיחק", "שיחקה", "מנצח",
    "מנצחת", "מוריד", "מורידה", "משחקת", "מסיים", "מסיימת", "מזיז", "מזיזה",
    "מחליף", "מחליפה", "מקבל", "מקבלת", "מתחיל", "מתחילה", "הוא", "היא", "סיים", "סיימה",
    "סגר", "סגרה", "בוחר", "בוחרת", "מוסיף", "מוסיפה", "מרוקן", "מרוקנת",
)
GENDERED = re.compile(
    r"[\u0590-\u05ff]+/[הת](?![\u0590-\u05ff])"  # a slash form: מוריד/ה, מסיים/ת
    r"|(?<![\u0590-\u05ff])(?:" + "|".join(GENDERED_VERBS) + r")(?![\u0590-\u05ff])"
)
# The computer is a noun of the sentence, not a player: "the computer played the turn".
NOT_A_PLAYER = ("המחשב שיחק",)


def gendered(text: str) -> list[str]:
    for phrase in NOT_A_PLAYER:
        text = text.replace(phrase, " ")
    return [m.group(0) for m in GENDERED.finditer(text)]


def narration(lang: str) -> dict[str, list[str]]:
    """The translations (every plural form) of the entries that narrate a player, by msgid."""
    with i18n.po_path(lang).open("rb") as handle:
        catalog = read_po(handle, locale=lang)
    found = {}
    for message in catalog:
        ids = message.id if isinstance(message.id, tuple) else (message.id,)
        if message.id and any(f in i or (HOST in i.lower() and len(i) < 120) for i in ids
                              for f in PLAYER_FIELDS):
            forms = message.string if isinstance(message.string, tuple) else (message.string,)
            found[str(message.id)] = list(forms)
    assert len(found) > 40  # the selection itself works
    return found


def test_hebrew_narration_is_neutral():
    found = {k[:60]: words for k, forms in narration("he").items()
             if (words := [w for form in forms for w in gendered(form)])}
    assert not found, found


def test_the_check_finds_a_gendered_verb_about_a_player():
    assert gendered("{name} הניח {cards}") == ["הניח"]
    assert gendered("{who} מוריד/ה {card}") == ["מוריד/ה"]
    assert gendered("{winners} ריקן את היד") == ["ריקן"]
    assert not gendered("{name}: הונחו {cards}")
    assert not gendered("⏰ {name}: הזמן נגמר — המחשב שיחק את התור.")
