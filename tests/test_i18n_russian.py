"""Russian narration never genders a player: a sentence about a player puts the name before a
colon and says what happened with a noun or an impersonal form ("{name}: выложено 5♥ 6♥ 7♥",
"Победа: {name}"), never a past tense that agrees with the player's gender ("Маша выложил"),
and never a case the name would have to be declined into ("Время {name} вышло")."""

from __future__ import annotations

import re

from test_i18n_hebrew import narration  # the entries about a player, by the same selection

# Past-tense forms of the game's verbs, masculine and feminine: laid, drew, took, won, knocked,
# passed, gave up, left, went out, played, discarded, shifted, swapped, got, started, joined.
GENDERED_VERBS = (
    "выложил", "выложила", "взял", "взяла", "победил", "победила", "выиграл", "выиграла",
    "постучал", "постучала", "пасовал", "пасовала", "спасовал", "спасовала", "сдался",
    "сдалась", "ушёл", "ушел", "ушла", "вышел", "вышла", "сыграл", "сыграла", "сбросил",
    "сбросила", "сдвинул", "сдвинула", "поменял", "поменяла", "получил", "получила", "начал",
    "начала", "присоединился", "присоединилась", "опустошил", "опустошила", "вытянул",
    "вытянула", "закончил", "закончила", "закрыл", "закрыла",
)
GENDERED = re.compile(r"(?<![а-яё])(" + "|".join(GENDERED_VERBS) + r")(?![а-яё])", re.I)
# A name after a noun it belongs to ("Время {name}") or a preposition that governs a case
# ("у {first}", "с {target}") would have to be declined.
DECLINED = re.compile(
    r"(?<![а-яё])(?:[Вв]ремя|[Хх]од|у|с|к|от|для|про|о|за) \{(?:name|who|target|won|first)\}"
)
# The computer is a noun of the sentence, not a player: "компьютер сыграл ход".
NOT_A_PLAYER = ("компьютер сыграл", "сыграл компьютер")


def gendered(text: str) -> list[str]:
    for phrase in NOT_A_PLAYER:
        text = text.replace(phrase, " ")
    return [m.group(0) for m in GENDERED.finditer(text)] + DECLINED.findall(text)


def test_russian_narration_is_neutral():
    found = {k[:60]: words for k, forms in narration("ru").items()
             if (words := [w for form in forms for w in gendered(form)])}
    assert not found, found


def test_the_check_finds_a_gendered_verb_about_a_player():
    assert gendered("{name} выложил {cards}") == ["выложил"]
    assert gendered("после стука выиграл {winners}") == ["выиграл"]
    assert gendered("⏰ Время {name} вышло") == ["Время {name}"]
    assert gendered("у {first} старшая карта") == ["у {first}"]
    assert not gendered("{name}: выложено {cards}")
    assert not gendered("⏱ {name}: время вышло — ход сыграл компьютер.")
