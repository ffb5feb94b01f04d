"""Hebrew as a phone shows it (issue 44): in a right-to-left line a bare `/help` shows as `help/`,
`1–4` as `4–1`, `(+3)` as `(3+)`, and a card run in a first-strong (FSI) isolate nested in
another reads mirrored. So in every Hebrew string — every catalog entry as the bot says it and
every screen of the screen corpus — a `/command` has an LRM before its slash or sits in an
isolate (an RLM does not help: the slash joins the right-to-left text all the same), every
number is inside an isolate, and every card or tile run is in a left-to-right one (LRI), never
an FSI."""

from __future__ import annotations

import importlib.util
import re
from pathlib import Path

import pytest
from babel.messages.pofile import read_po
from test_bidi import CARD_RUN, visual

import bot.games.rummy.lesson_host  # noqa: F401  (installs the lessons' translators)
from bot import i18n
from bot.i18n import FSI, LRI, PDI, RLI, strip_bidi, t, tn, using

LRM, RLM = "\u200e", "\u200f"
HEBREW = re.compile(r"[\u0590-\u05ff]")
COMMAND = re.compile(r"(?<![\w/])/[a-z]+")
NUMBER = re.compile(r"\d+")
OPENERS = (FSI, LRI, RLI)


def _innermost(text: str) -> list[str | None]:
    """For each character of `text`, the opener of the innermost isolate it sits in (None:
    outside every isolate)."""
    stack: list[str] = []
    where: list[str | None] = []
    for ch in text:
        if ch in OPENERS:
            where.append(stack[-1] if stack else None)
            stack.append(ch)
        elif ch == PDI and stack:
            stack.pop()
            where.append(stack[-1] if stack else None)
        else:
            where.append(stack[-1] if stack else None)
    return where


def bare(text: str) -> list[str]:
    """What a right-to-left phone would turn in a Hebrew `text`: a `/command` with neither an
    LRM before it nor an isolate around it, a number outside every isolate, a card or tile run
    not in an LRI. (A string with no Hebrew letter is laid out left to right: nothing.)"""
    if not HEBREW.search(text):
        return []
    where = _innermost(text)
    found = []
    for m in COMMAND.finditer(text):
        before = text[m.start() - 1] if m.start() else ""
        if where[m.start()] is None and before != LRM:
            found.append(f"command {text[max(0, m.start() - 1):m.end()]!r}")
    for m in NUMBER.finditer(text):
        if where[m.start()] is None:
            found.append(f"number {text[max(0, m.start() - 8):m.end() + 4]!r}")
    for m in CARD_RUN.finditer(text):
        if m.group() != "🃏" and where[m.start()] != LRI:  # (the help's heading emoji)
            found.append(f"cards {m.group()!r} in {where[m.start()] or 'no isolate'!r}")
    return found


# -- the check itself ------------------------------------------------------------------------


def test_the_check_finds_what_a_phone_turns():
    bare_help = "כתבו /help לרשימת הפקודות."
    assert "help/" in visual(bare_help)[0]  # what the issue saw
    assert bare(bare_help) == ["command ' /help'"]
    assert bare("כתבו " + RLM + "/help.") == ["command '\\u200f/help'"]  # RLM: still turned
    assert "help/" in visual("כתבו " + RLM + "/help.")[0]
    for fine in ("כתבו " + LRM + "/help.", "כתבו " + LRI + "/help" + PDI + "."):
        assert bare(fine) == [] and "/help" in visual(fine)[0], fine
    assert len(bare("ערימות 1–4 או חדשה")) == 2  # both numbers
    assert "4–1" in visual("ערימות 1–4 או חדשה")[0]  # the phone shows it turned
    assert bare("ערימות " + LRI + "1–4" + PDI + " או חדשה") == []
    assert bare("יד: " + FSI + "5♥ 6♥" + PDI) == ["cards '5♥ 6♥' in '\\u2068'"]
    assert "cards '7🟥 8🟥' in 'no isolate'" in bare("יד: 7🟥 8🟥")
    nested = "הנחו " + FSI + "רמז " + LRI + "5♥ 6♥ 7♥" + PDI + " כאן" + PDI
    assert bare(nested) == []  # an LRI card run inside a sentence's FSI is fine
    assert bare("/help 5♥ 3") == []  # no Hebrew: a left-to-right line


# -- every catalog entry ---------------------------------------------------------------------

PLACEHOLDER = re.compile(r"\{[^{}]*\}")


def _as_said(msgid: str | tuple[str, str]) -> list[str]:
    """Each form of a Hebrew entry as the bot says it, every placeholder an isolated value
    (fill isolates them; a lesson's `{5H 6H 7H}` is a card run in an LRI)."""
    with using("he"):
        if isinstance(msgid, tuple):
            forms = [i18n.ngettext(*msgid, n) for n in (1, 2, 3, 11, 20)]
        else:
            forms = [i18n._(msgid)]
    return [PLACEHOLDER.sub(FSI + "X" + PDI, form) for form in dict.fromkeys(forms)]


def test_every_hebrew_catalog_entry_keeps_commands_numbers_and_cards_whole():
    with i18n.po_path("he").open("rb") as handle:
        catalog = read_po(handle, locale="he")
    ids = [m.id for m in catalog if m.id]
    assert len(ids) > 900
    said = {str(i)[:60]: [f for form in _as_said(i) for f in bare(form)] for i in ids}
    assert sum(bool(COMMAND.search(f)) for i in ids for f in _as_said(i)) > 40  # they're there
    broken = {k: v for k, v in said.items() if v}
    assert not broken, f"{len(broken)} entries: {broken}"
    turned = {str(i)[:60]: m.group() for i in ids for form in _as_said(i)
              for m in COMMAND.finditer(strip_bidi(form))
              if m.group() not in "\n".join(visual(form))}
    assert not turned, turned  # and through the bidi algorithm each reads as typed


def test_the_laid_out_entries_read_as_typed():
    """Through the bidi algorithm, the commands and numbers of a few entries read as typed."""
    with using("he"):
        cases = {
            "Type /discard 9c 1 (a hand card, then your discard pile 1–4 or new).":
                ["/discard 9c 1", "1–4"],
            "You won. The computer pays 11 + 30 + 9 = 50 points.": ["11 + 30 + 9 = 50"],
            "Give up (+3)": ["+3"],
            "Use /review for the last round, or /review 2 for round 2.": ["/review 2"],
        }
        for msgid, runs in cases.items():
            shown = visual(i18n._(msgid))[0]
            assert all(run in shown for run in runs), (msgid, shown)


def test_the_layout_keeps_sentences_columns_and_markup_apart():
    """What goes into one left-to-right isolate: a command with its arguments, a run of
    numbers — not two sentences' numbers, two columns, half a parenthesis or Markdown."""
    from bot.i18n.layout import lay_out

    L, P = LRI, PDI
    assert lay_out("שווה 33. 3-4-5 שחור") == f"שווה {L}33{P}. {L}3-4-5{P} שחור"
    assert lay_out("לקבוצה A     take A 5S   להוציא") == f"לקבוצה A     {L}take A 5S{P}   להוציא"
    assert lay_out("עד 10 (Q/K נחשבים)") == f"עד {L}10{P} (Q/K נחשבים)"
    assert lay_out("לוותר (+3)") == f"לוותר ({L}+3{P})"
    assert lay_out("🃏 **שולחן רמי**") == "🃏 **שולחן רמי**"
    assert lay_out("נשארו {minutes}:{seconds:02d} לתור") == (
        f"נשארו {L}{{minutes}}:{{seconds:02d}}{P} לתור")
    assert lay_out("עם {n} קלפים: {5H 6H 7H}") == "עם {n} קלפים: {5H 6H 7H}"  # fill's values
    assert lay_out("כתבו \u200f/discard {card} 1.") == f"כתבו \u200f{L}/discard {{card}} 1{P}."
    assert lay_out(f"כבר {L}/help{P} כאן") == f"כבר {L}/help{P} כאן"  # laid out once


def test_the_hebrew_rules_page_keeps_its_commands_and_cards_whole():
    from bot.i18n import rules

    lines = [line for key in rules.keys() for line in rules.section(key, "he").split("\n")]  # noqa: SIM118
    commands = sum(bool(COMMAND.search(line)) for line in lines)
    found = [f for line in lines for f in bare(line) if not f.startswith("number")]
    assert commands > 10 and not found, found


# -- what fill puts into a sentence ----------------------------------------------------------


def test_numbers_and_card_values_are_left_to_right_isolates():
    with using("he"):
        drew = tn("{name} drew {n} card", "{name} drew {n} cards", 3, name="דנה")
        cards = t("You drew {cards}.", cards="5♥ 6♥ 7♥")
    assert bare(drew) == [] and LRI + "3" + PDI in drew
    assert bare(cards) == [] and LRI + "5♥ 6♥ 7♥" + PDI in cards
    with using("en"):  # English is untouched
        assert tn("{name} drew {n} card", "{name} drew {n} cards", 3, name="Dana") == (
            "Dana drew 3 cards")


def test_the_opening_draw_isolates_each_name_and_each_tile():
    from bot.games.rummy import narrate

    who = {0: "Dana", 1: "🤖 מחשב 1", 2: "🤖 מחשב 2"}
    with using("he"):
        line = narrate.starting_draw([["8R"], ["13R"], ["5B", "11K"]], who, 1)
    assert bare(line) == [], line
    [shown] = visual(line)
    # read from the right: Dana, her 8, then computer 1 with its whole name, then its 13
    assert "13🟥 1 בשחמ 🤖 · 8🟥 Dana" in shown, shown
    assert "11⬛ 5🟦 2 בשחמ 🤖" in shown, shown


def test_a_computer_seat_name_is_plain_text():
    """A seat's name is data (typed back to name a player, stored, drawn): no bidi marks in it;
    it is isolated whole where a sentence shows it."""
    from bot.core import narrate as core_narrate

    with using("he"):
        name = core_narrate.computer_name(2)
        line = t("{name} passed", name="🤖 " + name)
    assert name == strip_bidi(name) == "מחשב 2"
    assert bare(line) == [] and "2 בשחמ 🤖" in visual(line)[0]


def test_the_hands_left_at_a_rounds_end_read_in_seat_order():
    """Found playing Tahiti in the terminal: one isolate around the whole `Left in the hands`
    list took its direction from a Latin first name, and `🤖 מחשב 1: 3♠` split."""
    from bot.core.hosting import Table
    from bot.core.record import Record, SeatInfo
    from bot.games.rummy import RummyGame
    from engine.rummy import get_rulebook
    from engine.rummy.scenario import deal_scenario

    record = Record(rulebook="rummikub", host="u0", lang="he",
                    seats=[SeatInfo("Ada", "u0", lang="he"), SeatInfo("Lia", None, None, "easy"),
                           SeatInfo("מחשב 2", None, None, "easy")])
    game, table = RummyGame(), Table(1, record, lambda: 1000.0)
    game.start(table)
    table.record.state = deal_scenario(get_rulebook("rummikub"),
                                       ["10R 11R 12R", "1K 4R", "13O 2B"]).to_dict()
    game.typed(table, 0, "u0", "lay", "10R 11R 12R")
    with using("he"):
        out = game.typed(table, 0, "u0", "done", "")
    [line] = [x for n in out.notes for x in n.text.split("\n") if "Lia" in x and "🟥" in x]
    assert bare(line) == [], line
    [shown] = visual(line)  # from the right: Lia and her tiles, then computer 2 and its tiles
    assert "2🟦 13🟧 :2 בשחמ 🤖 · 1⬛ 4🟥 :🤖 Lia :" in shown, shown


def test_a_hint_inside_a_reminder_keeps_its_runs_left_to_right():
    from bot.games.rummy import narrate
    from engine.rummy import Event

    hint = {"card": "5H#0", "placed": ["5H#0", "6H#0", "7H#0"], "lay": [["5H#0", "6H#0", "7H#0"]]}
    with using("he"):
        line = narrate.notice(Event("reminder", 0, {}, private={"hint": hint}))
    assert line and bare(line) == [], line
    assert "5♥ 6♥ 7♥" in visual(line)[0]


# -- every Hebrew screen of the corpus -------------------------------------------------------


def _corpus_module():
    path = Path(__file__).resolve().parents[1] / "scripts" / "screen_corpus.py"
    spec = importlib.util.spec_from_file_location("screen_corpus", path)
    assert spec and spec.loader
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


@pytest.fixture(scope="module")
def hebrew_screens():
    """The corpus's Hebrew screens: every lobby and option, Rummikub and Build-to-Ten played
    in Hebrew as the corpus plays them, each other rulebook and every lesson too — the player
    speaking Hebrew, as the service sets it for their commands. (The test's toy game has no
    translations.)"""
    corpus = _corpus_module()
    out: list = []
    corpus.lobbies(out)
    out = [(key, screen) for key, screen in out if "/he/" in key and "/race/" not in key]
    with using("he"):
        for variant in corpus.RUMMY:
            corpus.play(out, "rummy", variant, 5, "he", 600 if variant == "rummikub" else 150)
        corpus.play(out, "build-to-ten", "buildten", 5, "he", 600)
        corpus.lessons(out, 1, 60, lang="he")
    return out


def test_every_hebrew_screen_keeps_commands_numbers_and_cards_whole(hebrew_screens):
    kinds = {key.split("/")[0] for key, _ in hebrew_screens}
    assert kinds == {"lobby", "game", "lesson"} and len(hebrew_screens) > 3000
    broken = {}
    for key, screen in hebrew_screens:
        texts = [screen.text, *(b.label for row in screen.buttons for b in row),
                 *(b.label for b in screen.cards)]
        found = [f for text in texts for f in bare(text)]
        if found:
            broken[key] = found[:3]
    assert not broken, f"{len(broken)} screens: {dict(list(broken.items())[:20])}"

