"""Games by their titles in every language, end to end on Telegram (the real library against
the fake Bot API server): `/rules` and `/newgame` take each variant's title in English, Hebrew
and Russian (typed in any case, with niqqud), and a newcomer's private chat greets, offers the
lesson and a game against the computer (issue 28, items 3 and 7)."""

from __future__ import annotations

import pytest
from test_telegram_e2e import GROUP, Harness, harness  # noqa: F401 (the fixture)

from bot.core.titles import fold
from bot.i18n import LANGUAGES, using

pytestmark = pytest.mark.e2e

READERS = {"en": 51, "he": 52, "ru": 53}


def _titles(service) -> list[tuple[str, str, str]]:
    """(language, title, variant) for every variant of every game, in every language."""
    found = []
    for lang in LANGUAGES:
        with using(lang):
            found += [(lang, v.title, v.name) for g in service.games.values()
                      for v in g.variants()]
    return found


def _text(message) -> str:
    return (message.text or message.caption or "") if message else ""


async def test_rules_take_every_title_in_every_language(harness: Harness):
    tg, service = harness.tg, harness.service
    titles = _titles(service)
    assert len({title for _lang, title, _v in titles}) == len(titles)  # every one its own
    readers = {lang: tg.user(uid, f"R{lang}", language_code=lang, started=True)
               for lang, uid in READERS.items()}
    for i, (lang, title, variant) in enumerate(titles):
        reader_lang = LANGUAGES[i % len(LANGUAGES)]  # a title typed by another language's reader
        typed = title.upper() if i % 2 else title  # any case
        chat = tg.private_chat(readers[reader_lang])
        await harness.say(chat, readers[reader_lang], f"/rules {typed}")
        game, _words = service.game_named(variant)
        with using(reader_lang):
            expected = game.rules_text(variant)
        assert _text(tg.last_message(chat, from_bot=True)) == expected, (lang, title)


async def test_unknown_title_lists_titles_not_keys(harness: Harness):
    tg = harness.tg
    ivan = tg.user(READERS["ru"], "Ivan", language_code="ru", started=True)
    chat = tg.private_chat(ivan)
    await harness.say(chat, ivan, "/rules канаста")
    said = _text(tg.last_message(chat, from_bot=True))
    assert "канаста" in said and "Руммикуб" in said and "Строим до десяти" in said
    assert "rummikub" not in said and "Unknown" not in said  # titles, not the engine's words


@pytest.mark.parametrize("lang", LANGUAGES)
async def test_newgame_takes_every_title(harness: Harness, lang):
    """Each title of `lang` opens its game in a group of its own (each group its own budget)."""
    tg, service = harness.tg, harness.service
    host = tg.user(READERS[lang], "Host", language_code=lang, started=True)
    titles = [(title, variant) for code, title, variant in _titles(service) if code == lang]
    for i, (title, variant) in enumerate(titles):
        chat_id = GROUP - 1 - i
        group = tg.group(chat_id, f"group {i}")
        await harness.say(group, host, f"/newgame {title}")
        row = await service.store.active_game("telegram", str(chat_id))
        assert row is not None, (title, _text(tg.last_message(group, from_bot=True)))
        assert row.record["rulebook"] == variant, title


async def test_newgame_reads_niqqud_and_yo(harness: Harness):
    tg, service = harness.tg, harness.service
    dana = tg.user(READERS["he"], "Dana", language_code="he", started=True)
    for i, words in enumerate(("רַמִּיקוּב", "Строим до десяти", "СТРОИМ ДО ДЕСЯТИ")):
        group = tg.group(GROUP - 50 - i, f"g{i}")
        await harness.say(group, dana, f"/newgame {words}")
        row = await service.store.active_game("telegram", str(GROUP - 50 - i))
        assert row is not None and fold(row.record["rulebook"]) in ("rummikub", "buildten")
    assert fold("Ёлка") == fold("елка")


async def test_a_newcomers_private_chat(harness: Harness):
    tg, service = harness.tg, harness.service
    dana = tg.user(READERS["he"], "Dana", language_code="he", started=True)
    chat = tg.private_chat(dana)
    await harness.say(chat, dana, "/start")
    hello = _text(tg.last_message(chat, from_bot=True))
    assert "/lesson" in hello and "/newgame" in hello
    assert "https://t.me/rummy_table_bot?startgroup=" in hello
    assert "\u2068" not in hello.partition("https://")[2]  # no bidi mark inside the link
    await harness.say(chat, dana, "/help")
    assert "/lesson" in _text(tg.last_message(chat, from_bot=True))
    # Build-to-Ten is played in a group: the greeting says how
    await harness.say(chat, dana, "/newgame בונים עד עשר")
    assert "startgroup=" in _text(tg.last_message(chat, from_bot=True))
    assert await service.store.active_game("telegram", str(chat.id)) is None
    # a rummy title: a real game against the computer, here
    await harness.say(chat, dana, "/newgame רמיקוב")
    row = await service.store.active_game("telegram", str(chat.id))
    assert row is not None and row.record["rulebook"] == "rummikub"
    assert row.status == "playing" and len(row.record["seats"]) == 2


async def test_leaderboard_takes_a_title(harness: Harness):
    tg = harness.tg
    ivan = tg.user(READERS["ru"], "Ivan", language_code="ru", started=True)
    group = tg.group(GROUP, "клуб")
    await harness.say(group, ivan, "/leaderboard руммикуб")
    said = _text(tg.last_message(group, from_bot=True))
    assert "Руммикуб" in said and "rummikub" not in said, said
    await harness.say(group, ivan, "/leaderboard канаста")
    assert "Игры «канаста» у меня нет" in _text(tg.last_message(group, from_bot=True))
