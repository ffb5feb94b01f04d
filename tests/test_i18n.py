"""Every player in their own language: the catalogs are complete and keep their placeholders,
Russian plurals, every engine refusal has its sentence, and a whole game's screens in Hebrew
and in Russian hold no English word."""

from __future__ import annotations

import ast
import random
import re
import string
from pathlib import Path

import pytest
from babel.messages.extract import extract_from_dir
from babel.messages.pofile import read_po
from random_player import decide

from bot import i18n
from bot.core import narrate as core_narrate
from bot.core.lobby import lobby_screen
from bot.core.record import Record, SeatInfo
from bot.games.rummy import RummyGame
from bot.games.rummy import narrate as rummy_narrate
from bot.games.rummy.refusals import SENTENCES, SPECIAL, refusal
from bot.games.rummy.screens import private_screen, score_screen, table_screen
from bot.i18n import tn, using
from engine.rummy import (
    ALL_RULEBOOKS,
    Draw,
    Finish,
    IllegalAction,
    NextRound,
    Pass,
    Reset,
    apply,
    get_rulebook,
    new_game,
)
from engine.rummy.reasons import REASONS

ROOT = Path(__file__).resolve().parents[1]
KEYWORDS = {"_": None, "N_": None, "ngettext": (1, 2), "t": None, "tn": (1, 2)}
OTHERS = [lang for lang in i18n.LANGUAGES if lang != i18n.DEFAULT]


def _code_msgids() -> set[str | tuple[str, str]]:
    """Every msgid the code marks (what `make locale` extracts, with the same keywords)."""
    found: set = set()
    for top in ("bot",):  # babel.cfg's map
        for _file, _line, message, _comments, _context in extract_from_dir(
            str(ROOT / top), method_map=[("**.py", "python")], keywords=KEYWORDS
        ):
            found.add(message if isinstance(message, str) else tuple(message))
    return found


def _catalog(lang: str):
    with i18n.po_path(lang).open("rb") as handle:
        return read_po(handle, locale=lang)


def _fields(text: str) -> set[str]:
    return {name for _, name, _, _ in string.Formatter().parse(text) if name is not None}


@pytest.mark.parametrize("lang", OTHERS)
def test_every_message_is_translated_and_every_entry_is_used(lang):
    """Fails when a msgid exists in the code and not in this language (or untranslated,
    or fuzzy), and when the catalog holds an entry the code no longer says."""
    code = _code_msgids()
    catalog = _catalog(lang)
    entries = {(m.id if isinstance(m.id, str) else tuple(m.id)): m for m in catalog if m.id}
    missing = sorted(map(str, code - entries.keys()))
    unused = sorted(map(str, entries.keys() - code))
    untranslated = sorted(
        str(k) for k, m in entries.items()
        if not all(m.string if isinstance(m.string, tuple) else (m.string,)) or m.fuzzy
    )
    assert not missing, f"{lang}: msgids without a translation entry (run make locale): {missing}"
    assert not unused, f"{lang}: entries the code no longer uses: {unused}"
    assert not untranslated, f"{lang}: untranslated or fuzzy: {untranslated}"
    assert len(code) > 250  # the extraction itself works


@pytest.mark.parametrize("lang", OTHERS)
def test_translations_keep_the_placeholders(lang):
    catalog = _catalog(lang)
    one_is_alone = catalog.plural_expr.replace(" ", "").startswith("(n==1?0")
    problems = []
    for m in catalog:
        if not m.id:
            continue
        if isinstance(m.id, str):
            if _fields(m.string) != _fields(m.id):
                problems.append((m.id, m.string))
            continue
        wanted = _fields(m.id[0]) | _fields(m.id[1])
        for form, text in enumerate(m.string):
            have = _fields(text)
            # Hebrew's first form is n == 1 alone: "קלף אחד" says the count in words
            dropped = wanted - have
            if have - wanted or (dropped and not (form == 0 and one_is_alone and dropped
                                                  <= {"n", "limit", "count"})):
                problems.append((m.id, text))
    assert not problems


def test_the_catalogs_plural_forms():
    assert _catalog("ru").num_plurals == 3 and _catalog("he").num_plurals == 3


def test_russian_plurals():
    with using("ru"):
        cards = [tn("{n} card", "{n} cards", n) for n in (1, 2, 4, 5, 11, 12, 21, 22, 25, 101, 111)]
        drew = [rummy_narrate.log_lines([_event("drew", 0, {"count": n})], {0: "Аня"})[0]
                for n in (1, 3, 5)]
        full = core_narrate.full(5)
    assert cards == [
        "1 карта", "2 карты", "4 карты", "5 карт", "11 карт", "12 карт", "21 карта", "22 карты",
        "25 карт", "101 карта", "111 карт",
    ]
    assert drew == ["Аня: взята 1 карта", "Аня: взято 3 карты", "Аня: взято 5 карт"]
    assert full == "Стол полон (5 мест)."


def test_hebrew_plurals_and_bidi_isolation():
    with using("he"):
        assert tn("{n} card", "{n} cards", 1) == "קלף אחד"
        assert tn("{n} card", "{n} cards", 7) == f"{i18n.LRI}7{i18n.PDI} קלפים"  # (issue 44)
        line = rummy_narrate.log_lines([_event("laid", 0, {"placed": ["5H#0", "6H#0", "7H#0"]})],
                                       {0: "Alice"})[0]
    # the Latin name and the cards keep their own direction inside the Hebrew sentence: a name
    # by its first letter, a card run left to right
    assert line == f"{i18n.FSI}Alice{i18n.PDI}: הונחו {i18n.LRI}5♥ 6♥ 7♥{i18n.PDI}"
    with using("en"):  # English stays as it was: no marks at all
        assert i18n.isolate("Alice") == "Alice"


def test_languages_from_clients():
    assert [i18n.normalize(c) for c in ("he-IL", "iw", "ru_RU.UTF-8", "en-GB", "fr", None)] == [
        "he", "he", "ru", "en", "en", "en"
    ]
    assert [i18n.supported(w) for w in ("ru", "עברית", "English", "klingon")] == [
        "ru", "he", "en", None
    ]


def test_every_engine_refusal_has_a_sentence():
    """A new IllegalAction code without a sentence would reach Hebrew readers in English."""
    assert set(REASONS) <= set(SENTENCES) | set(SPECIAL)
    with using("ru"):
        error = IllegalAction("You can knock only with 5 points or fewer in hand (you have 9)",
                              code="knock_limit", limit=5, left=9)
        assert refusal(error) == "Стучать можно, только если на руке не больше 5 очков (у вас 9)"
        error = IllegalAction("There is no group C", code="no_such_group", group=2)
        assert refusal(error) == "Нет комбинации C"
    with using("en"):
        assert refusal(error) == "There is no group C"  # English: the engine's own sentence


# -- a whole game's screens, in Hebrew and in Russian --------------------------------------

# Latin words a Hebrew or Russian screen may hold: card notation and group labels (one or two
# capitals), the seats' names, commands and their arguments (/leaderboard tahiti), the rules'
# file name.
NAMES = ("Alice", "Bob", "Carol")
ALLOWED = {*NAMES, *ALL_RULEBOOKS, *i18n.LANGUAGES, "docs", "rules", "md"}
_LATIN = re.compile(r"[A-Za-z]{2,}")
_COMMAND = re.compile(r"/[a-z]+(?: [a-z]+)?")


def _english_words(text: str) -> list[str]:
    text = re.sub(r"\{[^}]*\}", " ", _COMMAND.sub(" ", text))  # a picture's {n} templates
    words = _LATIN.findall(text)
    return [w for w in words if w not in ALLOWED and not re.fullmatch("[A-Z]{1,2}", w)]


def _event(kind, seat, data):
    from engine.rummy import Event

    return Event(kind, seat, data)


def _screen_words(screen) -> list[str]:
    parts = [screen.text, screen.detail, screen.notice]
    parts += [b.label for row in screen.buttons for b in row] + [b.label for b in screen.cards]
    return _english_words("\n".join(parts))


def _picture_words(screen) -> list[str]:
    """The words the picture draws (its view's strings: titles, legends, tabs)."""
    view = screen.painter.__closure__[0].cell_contents if screen.painter else None
    texts: list[str] = []
    for key, value in vars(view).items() if view is not None else ():
        if isinstance(value, str) and key != "sort":  # sort: "suit" | "rank", a setting
            texts.append(value)
    if view is not None:
        texts += [v for v in vars(view.words).values() if isinstance(v, str)]
    return _english_words("\n".join(texts))


@pytest.mark.parametrize("lang", OTHERS)
@pytest.mark.parametrize(("name", "seats"), [
    # two rulebooks' whole games in the quick loop, the other three in `make test` (e2e)
    pytest.param("carousel", 3, marks=pytest.mark.e2e), ("machiavelli", 2),
    pytest.param("manipulation", 2, marks=pytest.mark.e2e), ("tahiti", 2),
    pytest.param("rummikub", 3, marks=pytest.mark.e2e)])
def test_a_whole_game_has_no_english_word(lang, name, seats):
    rules = get_rulebook(name)
    record = Record(rulebook=name, options=dict(rules.options), lang=lang,
                    seats=[SeatInfo(NAMES[i], str(i), lang=lang) for i in range(seats)])
    game = RummyGame()
    found: dict[str, list[str]] = {}

    def look(where: str, words: list[str]) -> None:
        if words:
            found.setdefault(where, []).extend(words)

    look("lobby", _screen_words(lobby_screen(game, 1, record)))
    with using(lang):
        look("/help", _english_words(game.help_text()))
        look("/rules", _english_words(game.rules_text(None) + game.rules_text(name)))
    state = new_game(rules, seats, 7)
    record.state = state.to_dict()
    rng = random.Random(3)
    screens_seen = steps = 0
    labels = {i: NAMES[i] for i in range(seats)}
    while state.phase != "game_over" and steps < 3000:
        if state.phase == "round_over":
            look("scores", _screen_words(score_screen(1, record, state)))
            look("scores picture", _picture_words(score_screen(1, record, state)))
            batch = [Finish(0) if rules.length == "open" else NextRound(0)]
        else:
            batch = decide(state, rng)
            if rng.random() < 0.1:  # refusals: a pass with cards in the stock, a reset
                batch = [Pass(state.turn), Reset(state.turn), *batch]
        for action in batch:
            try:
                state, events = apply(state, action)
            except IllegalAction as error:
                with using(lang):
                    look(f"refusal {error.code}", _english_words(refusal(error)))
                continue
            steps += 1
            with using(lang):
                lines = rummy_narrate.log_lines(events, labels, rules.tiles)
                lines += [x for e in events if (x := rummy_narrate.notice(e, rules))]
            look("log and notices", _english_words("\n".join(lines)))
            record.state = state.to_dict()
            if lines:
                record.log = [*record.log[-5:], *lines]
            if steps % 5 == 0 or state.phase != "play":
                for seat in range(seats):
                    screen = private_screen(1, record, state, seat)
                    look(f"private {state.phase}", _screen_words(screen))
                    look("private picture", _picture_words(screen))
                table = table_screen(1, record, state)
                look(f"table {state.phase}", _screen_words(table))
                look("table picture", _picture_words(table))
                screens_seen += 1
            if state.phase != "play":
                break
    look("final scores", _screen_words(score_screen(1, record, state)))
    assert state.phase == "game_over" and screens_seen > 10
    assert not found, {k: sorted(set(v)) for k, v in found.items()}


def test_english_words_are_found():
    """The check can fail: an English screen is full of English words."""
    rules = get_rulebook("tahiti")
    record = Record(rulebook="tahiti", options=dict(rules.options),
                    seats=[SeatInfo("Alice", "0"), SeatInfo("Bob", "1")])
    state = new_game(rules, 2, 7)
    record.state = state.to_dict()
    assert {"Your", "turn", "Draw"} <= set(_screen_words(private_screen(1, record, state, 0)))
    state, _ = apply(state, Draw(0))
    assert _screen_words(table_screen(1, record, state))


# -- pictures ------------------------------------------------------------------------------


def test_pictures_lay_hebrew_out_right_to_left():
    from PIL import features

    from render import fonts

    assert features.check("raqm") == fonts.RAQM
    # without raqm the renderer orders a line itself: Hebrew runs reversed, numbers kept
    assert fonts.visual_order("סיבוב 2") == "2 בוביס"
    assert fonts.visual_order("abc") == "abc"
    segments = (fonts.ROBOT, "מחשב 1")
    assert fonts.right_to_left(segments)[-1] == fonts.ROBOT  # the icon goes to the right side
    assert fonts.right_to_left(("Alice",)) == ("Alice",)


def test_without_raqm_hebrew_still_draws(monkeypatch):
    """A Pillow without libraqm: the same picture, ordered by hand (no error, nothing cut)."""
    import io

    from PIL import Image

    from render import fonts
    from render.rummy import samples
    from render.rummy.table import render_table
    from render.views import PictureWords

    monkeypatch.setattr(fonts, "RAQM", False)
    fonts.text_length.cache_clear()
    fonts.text_mask.cache_clear()
    try:
        view = samples.demo_table()
        from dataclasses import replace

        png = render_table(replace(view, title="מניפולציה · סיבוב 2", words=PictureWords(rtl=True)))
        assert Image.open(io.BytesIO(png)).size[0] > 0
    finally:
        fonts.text_length.cache_clear()
        fonts.text_mask.cache_clear()


async def test_language_choices_are_stored(store):
    """/language: a person's choice with the player, a group's with the chat (migration 0003)."""
    assert await store.language("telegram", "7") is None
    await store.set_language("telegram", "7", "Ivan", "ru")
    await store.set_language("telegram", "7", "Ivan", "he")  # changed again
    assert await store.language("telegram", "7") == "he"
    assert await store.chat_language("telegram", "-5") is None
    await store.set_chat_language("telegram", "-5", "ru")
    await store.set_chat_language("telegram", "-5", "en")
    assert await store.chat_language("telegram", "-5") == "en"
    assert await store.language("discord", "7") is None  # per platform


async def test_discord_localisations_fit_discord():
    """Discord takes 1-100 characters for a description or choice name in any locale."""
    from types import SimpleNamespace

    import discord
    from discord import app_commands

    from bot.adapters.discord_commands import CatalogTranslator, add_commands
    from bot.games import default_games

    client = discord.Client(intents=discord.Intents.none())
    tree = app_commands.CommandTree(client)
    games = default_games()  # every hosted game's variants are choices (Build-to-Ten's too)
    service = SimpleNamespace(games=games, default_game=next(iter(games.values())))
    add_commands(tree, adapter=SimpleNamespace(service=service))  # callbacks never run here
    await tree.set_translator(CatalogTranslator())
    payloads = [await c.get_translated_payload(tree, tree.translator) for c in tree.get_commands()]
    found = []

    def walk(node: dict) -> None:
        for key in ("description_localizations", "name_localizations"):
            for text in (node.get(key) or {}).values():
                found.append(text)
                assert 1 <= len(text) <= 100, text
        for child in node.get("options", []) + node.get("choices", []):
            walk(child)

    for payload in payloads:
        walk(payload)
    assert any(CYRILLIC_WORD.search(x) for x in found) and len(found) > 15


CYRILLIC_WORD = re.compile(r"[\u0400-\u04ff]{3,}")


# -- Build-to-Ten, in Hebrew and in Russian ------------------------------------------------

# typed words a Build-to-Ten help text names as they are typed (/play stock new, /joker shift Lia)
BT_TYPED = {"build", "to", "ten", "lesson", "new", "stock", "shift", "swap", "Lia", "qc"}


def _bt_picture_words(screen) -> list[str]:
    """The words a Build-to-Ten picture draws: its title, status, seat names and its words."""
    picture = screen.painter.__closure__[0].cell_contents
    texts = [picture.title, picture.status, *(s.name for s in picture.seats)]
    texts += [v for v in vars(picture.words).values() if isinstance(v, str)]
    return _english_words("\n".join(texts))


@pytest.mark.parametrize("lang", OTHERS)
@pytest.mark.parametrize("seats", [2, 3])
def test_a_whole_build_to_ten_game_has_no_english_word(lang, seats):
    from types import SimpleNamespace

    from bot.games.buildten import BuildTenGame
    from bot.games.buildten import narrate as bt_narrate
    from bot.games.buildten import screens as bt_screens
    from bot.games.buildten.host import hint_line
    from engine.buildten import Discard as BtDiscard
    from engine.buildten import Joker as BtJoker
    from engine.buildten import Pass as BtPass
    from engine.buildten import Play as BtPlay
    from engine.buildten import apply as bt_apply
    from engine.buildten import new_game as bt_new_game
    from engine.buildten import player_view as bt_view
    from engine.buildten.ai import choose_action

    game = BuildTenGame()
    record = Record(rulebook="buildten", game_name="build-to-ten", lang=lang,
                    seats=[SeatInfo(NAMES[i], str(i), lang=lang) for i in range(seats)])
    found: dict[str, list[str]] = {}

    def look(where: str, words: list[str]) -> None:
        if words:
            found.setdefault(where, []).extend(words)

    look("lobby", _screen_words(lobby_screen(game, 1, record)))
    with using(lang):
        help_words = _english_words(game.help_text() + game.rules_text(None)
                                    + game.rules_text("lesson"))
        look("/help and /rules", [w for w in help_words if w not in BT_TYPED])
        look("variants", _english_words(" ".join(v.title for v in game.variants())))
    state = bt_new_game(seats, 11)
    record.state = state.to_dict()
    rng = random.Random(5)
    labels = {i: NAMES[i] for i in range(seats)}
    steps = screens_seen = refusals = 0
    while not state.over and steps < 4000:
        me = state.turn
        view = bt_view(state, me)
        action = choose_action(view, "medium")
        with using(lang):
            look("hint", _english_words(hint_line(action, record)))
        if rng.random() < 0.15 and view.hand:  # refusals: a pass with cards, a wrong pile …
            wrong = rng.choice([BtPass(me), BtPlay(me, view.hand[0], 3),
                                BtJoker(me, view.hand[0], me), BtDiscard(me, view.hand[0], 3),
                                BtPlay(me, view.hand[0], len(view.builds))])
            try:
                bt_apply(state, wrong)
            except IllegalAction as error:
                refusals += 1
                with using(lang):
                    look(f"refusal {error.code}", _english_words(bt_narrate.refusal(error)))
        state, events = bt_apply(state, action)
        steps += 1
        with using(lang):
            lines = bt_narrate.log_lines(events, labels)
            lines += [x for e in events if (x := bt_narrate.notice(e))]
        look("log and notices", _english_words("\n".join(lines)))
        record.state = state.to_dict()
        if lines:
            record.log = [*record.log[-5:], *lines]
        if steps % 4 == 0 or state.over:
            for seat in range(seats):
                ui = record.seat_ui(seat)
                ui.selected = [action.card] if getattr(action, "card", None) else []
                screen = bt_screens.private_screen(1, record, state, seat)
                look("private (a card chosen)", _screen_words(screen))
                ui.selected = []
                screen = bt_screens.private_screen(1, record, state, seat)
                look("private", _screen_words(screen))
                look("private picture", _bt_picture_words(screen))
            table = bt_screens.table_screen(1, record, state)
            look("table", _screen_words(table))
            look("table picture", _bt_picture_words(table))
            screens_seen += 1
    result = game._result_screen(SimpleNamespace(record=record, game_id=1), state)
    look("result", _screen_words(result))
    assert state.over and screens_seen > 10 and refusals > 3
    assert not found, {k: sorted(set(v)) for k, v in found.items()}


def test_build_to_ten_refusal_codes_are_sentences():
    """Every bt_ code reads as a sentence of its own in Hebrew and Russian (not English)."""
    from bot.games.buildten.narrate import refusal as bt_refusal
    from engine.buildten.reasons import REASONS

    params = {"card": "7H", "pile": 2, "needed": 4, "target": 1}
    for code in [c for c in REASONS if c.startswith("bt_")] + ["card_not_available",
                                                              "card_not_in_hand"]:
        error = IllegalAction("English", code=code, **params)
        for lang in OTHERS:
            with using(lang):
                text = bt_refusal(error)
            assert text != "English" and not _english_words(text), (code, lang, text)
    with using("en"):  # the catalog's sentence in English too, never the engine's own
        assert bt_refusal(IllegalAction("English", code="bt_no_free_pile")) == (
            "There are 4 build piles already: wait for one to reach 10.")
        assert bt_refusal(IllegalAction("English", code="no_such_code")) == (
            "That is not a legal move")


def test_build_to_ten_hebrew_picture_is_right_to_left():
    from bot.games.buildten import screens as bt_screens
    from engine.buildten import new_game as bt_new_game

    record = Record(rulebook="buildten", game_name="build-to-ten", lang="he",
                    seats=[SeatInfo(NAMES[i], str(i), lang="he") for i in range(2)])
    state = bt_new_game(2, 3)
    record.state = state.to_dict()
    screen = bt_screens.private_screen(1, record, state, 0)
    picture = screen.painter.__closure__[0].cell_contents
    assert picture.words.rtl and picture.title == "בונים עד עשר"
    assert screen.painter()[:8] == b"\x89PNG\r\n\x1a\n" and screen.lang == "he"
    record.lang = "ru"
    assert not bt_screens.table_screen(1, record, state).painter.__closure__[0] \
        .cell_contents.words.rtl


# what a person reads from these calls' first argument: a log line, a refusal
SAID_BY = {"add_log", "fold_log", "Refusal", "Refused"}


def test_nothing_a_person_reads_is_an_untranslated_literal():
    """A log line or a refusal written as a bare English literal reaches a Hebrew or Russian
    chat in English (Build-to-Ten's lesson said its first log line so): each goes through the
    catalogs."""
    root = Path(__file__).resolve().parent.parent / "bot"
    bare = []
    for path in sorted(root.rglob("*.py")):
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if not isinstance(node, ast.Call) or not node.args:
                continue
            name = getattr(node.func, "attr", getattr(node.func, "id", ""))
            first = node.args[0]
            if name in SAID_BY and isinstance(first, ast.Constant | ast.JoinedStr) and (
                    re.search("[A-Za-z]", ast.unparse(first))):
                bare.append(f"{path.relative_to(root.parent)}:{node.lineno}")
    assert bare == []
