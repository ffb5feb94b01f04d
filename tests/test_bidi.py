"""Hebrew as a phone shows it: each Hebrew line is laid out by a UAX #9 implementation with
isolates (python-bidi, the algorithm Telegram's clients follow) and read back in visual order.
A card run must show as on the buttons and pictures (`5♥ 6♥ 7♥`, not `♥7 ♥6 ♥5`), a list's items
in seat order from the right, a negative score as `-190`. Covered: every sentence of every lesson
(instructions, Show me, nudges, successes, intros and outros, Build-to-Ten's too) and the log,
hint and score lines a game says."""

from __future__ import annotations

import re

import pytest
from bidi import get_display

import bot.games.rummy.lesson_host  # noqa: F401  (installs the catalogs and Hebrew's isolation for lessons)
from bot import i18n
from bot.core.lobby import lobby_screen
from bot.core.record import Record, SeatInfo
from bot.games import default_games
from bot.games.buildten import lesson as bt_lesson
from bot.games.rummy import narrate as rummy_narrate
from bot.games.rummy.lessons import LESSONS
from bot.games.rummy.lessons.words import _ as lesson_text
from bot.i18n import strip_bidi, t, using
from engine.rummy import Event

_TOKEN = (
    r"(?:(?:10|[2-9AKQJ])[♠♥♦♣]|🃏(?:(?:10|[2-9AKQJ])[♠♥♦♣])?|(?:1[0-3]|[1-9])[⬛🟥🟦🟧]"
    r"|(?<![\w])(?:1[0-3]|[1-9])[KRBO](?![\w]))"  # a tile as typed: 7R
)
CARD_RUN = re.compile(_TOKEN + r"(?: " + _TOKEN + r")*")


def visual(text: str) -> list[str]:
    """Each line as a right-to-left paragraph shows it, left to right, without the controls."""
    return [strip_bidi(get_display(line, base_dir="R")) for line in text.split("\n")]


def misshown_runs(text: str) -> list[str]:
    """The card runs of `text` that its visual lines don't show as typed."""
    shown = "\n".join(visual(text))
    return [run for run in CARD_RUN.findall(strip_bidi(text)) if run not in shown]


def _lesson_sentences() -> list[str]:
    texts = []
    for lesson in LESSONS.values():
        texts += [lesson.intro, lesson.outro]
        for step in lesson.steps:
            texts += [step.text, step.show, step.success, *step.nudges.values()]
    texts += [bt_lesson.INTRO, bt_lesson.DONE]
    for step in bt_lesson.STEPS:
        texts += [step.text, step.success, step.nudge]
    return [x for x in texts if x]


def test_every_lesson_sentence_shows_its_cards_as_typed():
    with using("he"):
        shown = {msgid: lesson_text(msgid) for msgid in _lesson_sentences()}
    assert sum(bool(CARD_RUN.search(text)) for text in shown.values()) > 60  # runs are there
    broken = {msgid[:50]: misshown_runs(text) for msgid, text in shown.items()}
    broken = {k: v for k, v in broken.items() if v}
    assert not broken, broken


def _laid(seat: int, tokens: list[str]) -> Event:
    return Event("laid", seat, {"placed": tokens, "groups": [0], "rearranged": False})


@pytest.mark.parametrize("name", ["Alice", "דנה", "🤖 מחשב 1"])
def test_the_log_shows_laid_cards_as_the_group_does(name):
    with using("he"):
        lines = rummy_narrate.log_lines(
            [_laid(0, ["QS#0", "KS#0", "AS#0"]), _laid(1, ["10R#0", "11R#0", "12R#0"])],
            {0: name, 1: name},
        )
    assert misshown_runs("\n".join(lines)) == []
    shown = visual("\n".join(lines))
    assert "Q♠ K♠ A♠" in shown[0] and "10🟥 11🟥 12🟥" in shown[1]


def test_lists_keep_seat_order_and_signs():
    from bot.i18n import and_list, listing, scored

    seats = [("Alice", 12), ("דנה", -190), ("🤖 מחשב 1", 30)]
    with using("he"):
        line = t("This round: {points}", points=listing([scored(n, p) for n, p in seats], " · "))
        seated = t("Players: {names}", names=listing([n for n, _ in seats]))
        won = t("{names} win!", names=and_list([n for n, _ in seats]))
    for text in (line, seated, won):
        [shown] = visual(text)
        # read from the right: Alice, then Dana, then computer 1
        places = [shown.rfind("Alice"), shown.rfind("הנד"), shown.rfind("בשחמ")]
        assert places == sorted(places, reverse=True) and -1 not in places, shown
    [shown] = visual(line)
    assert "-190" in shown and "190-" not in shown
    assert "12 Alice" in shown  # each item reads name, then score, from the right
    assert i18n.FSI in line  # the values are isolates, not just laid out by luck


def test_tiles_in_sentences_carry_colour_marks_not_letters():
    """A tile in a sentence shows its colour (7🟥); letters are for typing. (English refusals
    are the engine's own sentences, which still write 7R: the log does not.)"""
    from bot.games.rummy.refusals import refusal
    from engine.rummy.actions import IllegalAction

    for lang in ("en", "he", "ru"):
        with using(lang):
            said = refusal(IllegalAction("You have no 7R", code="card_not_available", card="7R"),
                           tiles=True)
            log = rummy_narrate.log_lines([_laid(0, ["7R#0", "8R#0", "9R#0"])], {0: "Dana"}, True)
        if lang != "en":
            assert "7🟥" in said and "7R" not in said, said
        assert "7🟥 8🟥 9🟥" in strip_bidi(log[0]) and "7R" not in log[0], log


def test_the_hebrew_rules_page_shows_its_cards_as_typed():
    from bot.i18n import rules

    sections = rules.keys()  # every section of the page, in order
    pages = {key: rules.section(key, "he") for key in sections}
    assert sum(len(CARD_RUN.findall(page)) for page in pages.values()) > 30
    broken = {key: misshown_runs(page) for key, page in pages.items() if misshown_runs(page)}
    assert not broken, broken


def test_hebrew_help_and_rules_texts_show_their_cards_as_typed():
    """Help and rules texts are prose a translator wrote whole: their card runs (Build-to-Ten's
    `7♥`, Rummikub's typed `7R 13O`) are isolated when shown."""
    from bot.games.buildten import texts as buildten_texts
    from bot.games.rummy import texts as rummy_texts
    from engine.rummy import ALL_RULEBOOKS

    with using("he"):
        shown = [buildten_texts.help_text(), buildten_texts.rules_text(None),
                 rummy_texts.help_text(), rummy_texts.rules_text(None)]
        shown += [rummy_texts.rules_text(name) for name in ALL_RULEBOOKS]
    assert sum(len(CARD_RUN.findall(text)) for text in shown) >= 2
    broken = [misshown_runs(text) for text in shown if misshown_runs(text)]
    assert not broken, broken


@pytest.mark.parametrize("lang", ["he", "ru"])
def test_no_card_is_typed_into_a_help_or_rules_translation(lang):
    """Translators never type a card (issue 28): Build-to-Ten's help names its `{7H}` and
    Rummikub's rules their typed example `{typed}` as placeholders the code fills."""
    from bot.games.buildten import texts as buildten_texts
    from bot.games.rummy import texts as rummy_texts

    msgids = [buildten_texts.HELP, buildten_texts.RULES, rummy_texts.HELP, rummy_texts.COMMON,
              rummy_texts.MORE, *rummy_texts.RULES.values()]
    with using(lang):
        translated = [i18n._(msgid) for msgid in msgids]
    typed = [run for text in translated for run in CARD_RUN.findall(text)
             if run != "🃏"]  # the help's heading emoji, no card
    assert typed == [], typed
    with using(lang):  # and they are shown, each as a player sees it
        shown = buildten_texts.help_text() + rummy_texts.rules_text("rummikub")
    assert "7♥" in shown and "7R 13O" in shown


# A Hebrew name in an English or Russian sentence: as a phone lays out the line (its direction
# from its first strong letter), the name keeps its place and the numbers after it theirs
# (without an isolate `שרה: 10 cards` shows as `10 :שרה cards`, and a line that starts with the
# name turns right to left as a whole).
@pytest.mark.parametrize("lang", ["en", "ru"])
def test_a_hebrew_name_keeps_its_place_in_a_left_to_right_sentence(lang):
    name = "שרה"

    def shown(text: str) -> str:  # the visual line with the name's letters read back
        return strip_bidi(get_display(text)).replace(name[::-1], name)

    with using(lang):
        said = [
            t("{name}: {card} · stock {n}", name=name, card="5♥", n=11),
            i18n.listing([t("{name}: {n}", name=name, n=10), t("{name}: {n}", name="Bob", n=7)],
                         " · "),
            *rummy_narrate.log_lines([Event("drew", 0, {"count": 2})], {0: name}),
            rummy_narrate.starting_draw([["7R"], ["5B"]], {0: name, 1: "Bob"}, 0),
            i18n.scored(name, -12),
        ]
    record = Record(rulebook="manipulation", lang=lang, game_name="rummy", host="a", seats=[
        SeatInfo(name, "a", lang=lang), SeatInfo("Bob", "b"), SeatInfo("C1", computer="easy")])
    said += lobby_screen(default_games()["rummy"], 1, record).text.split("\n")[:2]
    for text in said:
        assert shown(text) == strip_bidi(text), (text, shown(text))
