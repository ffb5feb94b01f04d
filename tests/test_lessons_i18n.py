"""Lessons in Hebrew and Russian (issue 17): every lesson played start to end through the lesson
service — wrong tries, "Show me", the demo by buttons, the finished screen — finds no untranslated
English word in anything the learner reads (the same check as a whole game's, test_i18n.py); the
lesson speaks the learner's /language choice; the terminal lesson speaks its language too; every
lesson text has a translation of its own."""

from __future__ import annotations

import asyncio
import re
import shutil
from pathlib import Path

import pytest
from lesson_driver import LessonDriver
from test_bidi import misshown_runs
from test_buildten_hosted import hosted, settle  # noqa: F401  (the fixture)
from test_i18n import OTHERS, _english_words, _picture_words
from test_lessons import ACTOR, WRONG, Learner

from bot import i18n
from bot.adapters.console_lesson import run_lesson
from bot.core.service import Actor
from bot.core.views import Outcome
from bot.games import default_games
from bot.games.buildten import lesson as bt_lesson
from bot.games.rummy.lesson_host import VERBS
from bot.games.rummy.lessons import LESSONS, tile_words
from bot.games.rummy.lessons.runner import _ACE_NUDGES, _MISS_LEADS, BUTTONS, DEFAULT_NUDGES
from bot.games.rummy.lessons.words import _ as lesson_text
from bot.i18n import _, t, using
from bot.store import Store

HEBREW = re.compile(r"[\u0590-\u05ff]")
CYRILLIC = re.compile(r"[\u0400-\u04ff]")
SCRIPT = {"he": HEBREW, "ru": CYRILLIC}


@pytest.fixture
async def sqlite_store(sqlite_template: Path, tmp_path: Path):
    path = tmp_path / "lessons.db"
    shutil.copyfile(sqlite_template, path)
    store = await Store.open(f"sqlite+aiosqlite:///{path}")
    try:
        yield store
    finally:
        await store.close()


class ReadingLearner(Learner):
    """Presses buttons by their actions (the labels are in the learner's language) and keeps
    every word it was shown."""

    def __init__(self, service: LessonDriver, actor: Actor) -> None:
        super().__init__(service, actor)
        self.words: dict[str, list[str]] = {}
        self.texts: list[str] = []  # everything shown, for the bidi check

    def take(self, outcome: Outcome) -> Outcome:
        super().take(outcome)
        where = self.screen.text.partition("\n")[0] if self.screen else "reply"
        screen = outcome.private.get(self.actor.user)
        texts = [outcome.reply or ""]
        if screen is not None:
            texts += [screen.text, screen.detail, screen.notice]
            texts += [b.label for row in screen.buttons for b in row]
            self.words.setdefault(where + " (picture)", []).extend(_picture_words(screen))
        self.words.setdefault(where, []).extend(_english_words("\n".join(texts)))
        # the bidi check: what a phone shows (not `detail`, the terminal's whole-picture text)
        self.texts += [x for x in texts if x and (screen is None or x != screen.detail)]
        return outcome

    async def demo(self, line: str) -> Outcome:
        verb, _sep, rest = line.partition(" ")
        label, _sep, tail = rest.partition(" ")
        group = ord(label[:1] or "A") - 65
        if verb == "lay":
            await self.select(rest)
            return await self.press(action="new")
        if verb == "add":
            await self.select(tail)
            await self.press(action="addm")
            return await self.press(action=f"add:{group}")
        if verb == "take":
            await self.press(action="takem")
            await self.press(action=f"take:{group}")
            button = next(
                b
                for b in self.buttons()
                if b.action.startswith(f"tc:{group}:{tail.replace('*', '')}")
            )
            return self.take(await self.service.press(self.actor, self.data(button)))
        if verb == "split":
            await self.press(action="splm")
            await self.press(action=f"spl:{group}")
            return await self.press(action=f"spa:{group}:{tail}")
        if verb == "choose":
            return await self.press(action=f"jk:{group}:{tail}")
        return await self.press(action=verb)

    def english(self) -> dict[str, list[str]]:
        return {k: sorted(set(v)) for k, v in self.words.items() if v}


@pytest.mark.parametrize("lang", OTHERS)
@pytest.mark.parametrize("name", list(LESSONS))
async def test_a_whole_lesson_has_no_english_word(sqlite_store, name, lang):
    actor = Actor("telegram", "601", "601", "Noa", private=True, lang=lang)
    service = LessonDriver(sqlite_store)
    learner = ReadingLearner(service, actor)
    learner.take(await service.start(actor, name))
    lesson = LESSONS[name]
    for step in lesson.steps:
        with using(lang):
            instruction = lesson_text(step.text)
        assert instruction != step.text and instruction in learner.screen.text
        assert SCRIPT[lang].search(learner.screen.text)
        for moves, _key in WRONG[(name, step.id)]:  # the engine's reason and the nudge
            for line in moves:
                verb, _sep, args = line.partition(" ")
                out = learner.take(await service.command(actor, verb, args))
            assert out.alert
            learner.take(await service.command(actor, "restart"))
        await learner.press(action="show")  # "Show me": the demo as button presses
        for line in step.demo:
            out = await learner.demo(line)
            assert not out.alert, (name, step.id, line, out.reply)
    assert learner.screen.text.startswith("🎓")
    await learner.press(action="more")
    await learner.press(action="cancel")
    assert not learner.english(), learner.english()
    if lang == "he":  # every caption, message and button as a right-to-left phone lays it out
        misshown = {x[:60]: misshown_runs(x) for x in learner.texts if misshown_runs(x)}
        assert not misshown, misshown


async def test_the_check_finds_an_english_lesson(sqlite_store):
    """The check can fail: an English learner's lesson is full of English words."""
    service = LessonDriver(sqlite_store)
    learner = ReadingLearner(service, ACTOR)
    learner.take(await service.start(ACTOR, "carousel"))
    await learner.demo("draw")
    assert {"Carousel", "Draw", "Show"} <= {w for v in learner.words.values() for w in v}


async def test_a_lesson_speaks_the_learners_language(sqlite_store):
    """The learner's /language choice wins over the client's; the adapter's context is left
    as it was."""
    learner = Actor("telegram", "77", "77", "Yael", private=True, lang="en")
    await sqlite_store.set_language("telegram", "77", "Yael", "he")
    with using("ru"):  # as an adapter leaves it after reading the member's locale
        # (an adapter handles each update in its own task: the service's language stays there)
        out = await asyncio.create_task(LessonDriver(sqlite_store).start(learner, "tahiti"))
        assert i18n.current() == "ru"
    screen = out.private["77"]
    assert screen.lang == "he" and HEBREW.search(screen.text)
    assert not CYRILLIC.search(screen.text + " ".join(b.label for r in screen.buttons for b in r))


# Typed commands a terminal lists and its help explains: the words a learner types.
TYPED = {*VERBS, "help", "quit", "rummy", "play", "rulebook", "lesson", "new", "group", "make",
         "args"}


@pytest.mark.parametrize("lang", OTHERS)
def test_the_terminal_lesson_speaks_its_language(lang):
    lines = [line for step in LESSONS["vatican"].steps for line in step.demo]
    out: list[str] = []
    state = run_lesson("vatican", _feed(["help", "lay 99", *lines]), out.append, lang=lang,
                       games=default_games())
    assert state is not None and state["finished"]
    text = "\n".join(out)
    assert SCRIPT[lang].search(text)
    english = [w for w in _english_words(text) if w.lower() not in TYPED]
    assert not english, sorted(set(english))


@pytest.mark.parametrize("lang", OTHERS)
def test_the_terminal_lesson_names_its_rulebook_in_the_learners_words(lang):
    """Its first line named the lesson by the rulebook's id ("שיעור vatican"), found by playing."""
    out: list[str] = []
    run_lesson("vatican", _feed([]), out.append, lang=lang, games=default_games())
    game = default_games()["rummy"]
    with using(lang):
        title = next(v.title for v in game.variants() if v.name == "vatican")
    assert title in out[0] and "vatican" not in out[0], out[0]


def _feed(lines: list[str]):
    feed = iter(lines)

    def read(prompt: str) -> str:
        try:
            return next(feed)
        except StopIteration:
            raise EOFError from None

    return read


def _lesson_texts() -> list[str]:
    """Every sentence the lessons hold as data (what `N_` marks in bot/games/*/lesson*)."""
    texts: list[str] = []
    for lesson in LESSONS.values():
        texts += [lesson.title, lesson.intro, lesson.outro]
        for step in lesson.steps:
            texts += [step.title, step.text, step.show, step.success, *step.nudges.values()]
    texts += [*DEFAULT_NUDGES.values(), *_ACE_NUDGES.values(), *_MISS_LEADS.values()]
    texts += [*BUTTONS.values(), bt_lesson.TITLE, bt_lesson.INTRO, bt_lesson.DONE]
    texts += [*tile_words.TILE_NUDGES.values(), *tile_words.TILE_MISS_LEADS.values(),
              *tile_words.TILE_BUTTONS.values(), tile_words.SPLIT_AFTER_TILE,
              tile_words.POOL_EMPTY, tile_words.GIVE_UP_ONE]
    for step in bt_lesson.STEPS:
        texts += [step.text, step.success, step.nudge]
    return [x for x in texts if x]


@pytest.mark.parametrize("lang", OTHERS)
def test_every_lesson_text_is_translated(lang):
    """Each one in the catalog, in the language's own script, with no English word left (card
    notation like 7H and group letters are no words); the card faces it names are kept."""
    faces = re.compile(r"(?:10|[2-9AJQK])[♠♥♦♣]|🃏")
    problems = []
    with using(lang):
        for text in _lesson_texts():
            translated = _(text)
            if (
                translated == text
                or not SCRIPT[lang].search(translated)
                or _english_words(translated)
                or sorted(faces.findall(translated)) != sorted(faces.findall(text))
            ):
                problems.append((text, translated))
    assert len(_lesson_texts()) > 200
    assert not problems, problems


@pytest.mark.parametrize("lang", OTHERS)
async def test_the_build_to_ten_lesson_speaks_the_learners_language(hosted, lang):
    """The worked example in a real game, in Hebrew and in Russian: every step's instruction,
    nudge and success in the learner's language, no English word on the learner's screen."""
    from dataclasses import replace as with_

    from test_buildten_hosted import ALICE

    from bot.core.buttons import pack
    from bot.core.record import Record
    from engine.buildten import BuildState
    from engine.buildten.cards import face

    alice = with_(ALICE, lang=lang)
    service = hosted["service"]
    gid = (await service.new_game(alice, "build-to-ten lesson")).game_id
    await service.press(alice, pack(gid, 0, "menu:computer"))
    version = Record.from_dict((await service.store.get_game(gid)).record).lobby_version
    await service.press(alice, pack(gid, version, "cpu:medium"))
    version = Record.from_dict((await service.store.get_game(gid)).record).lobby_version
    seen: list[str] = []

    def look(out: Outcome) -> None:
        seen.append(out.reply or "")
        screen = out.private.get("alice")
        if screen is not None:
            seen.extend([screen.text, *(b.label for row in screen.buttons for b in row)])

    look(await service.press(alice, pack(gid, version, "start")))

    async def tap(*actions: str) -> None:
        row = await service.store.get_game(gid)
        for action in actions:
            look(
                await service.press(
                    alice, pack(gid, row.record["state"]["version"], action), metered=False
                )
            )

    async def index(card: str) -> int:
        row = await service.store.get_game(gid)
        state = BuildState.from_dict(
            {k: v for k, v in row.record["state"].items() if k != "lesson"}
        )
        return 1 + [face(c) for c in state.hands[0]].index(card)

    await tap("bsrc:1", "bdisc:4")  # a move of another kind: the step's nudge
    await tap("bsrc:0", "bpile:0")
    for card in ("3D", "KC", "5H"):
        await tap(f"bsrc:{await index(card)}", "bpile:0")
    await tap("bsrc:0", "bpile:0")
    await tap(f"bsrc:{await index('9C')}", "bdisc:4")
    await settle(service.store, gid, lambda r: r.record["state"]["turn"] == 0)
    await tap(f"bsrc:{await index('SHIFT')}", "bjk:0")
    text = "\n".join(seen)
    with using(lang):
        expected = [
            lesson_text(bt_lesson.INTRO),
            lesson_text(bt_lesson.DONE),
            lesson_text(bt_lesson.STEPS[0].nudge),
            *(lesson_text(s.success) for s in bt_lesson.STEPS),
        ]
    missing = [x for x in expected if x not in text]
    assert not missing, missing
    english = [w for w in _english_words(text) if w != "Alice"]
    assert not english, sorted(set(english))


def _label(msgid: str) -> str:
    """A line's label in the current language, its values left out ("Rack: ")."""
    return _(msgid).partition("{")[0]


def _lines(screen) -> list[str]:
    return [*screen.text.splitlines(), *screen.detail.splitlines()]


@pytest.mark.parametrize("lang", ["en", *OTHERS])
async def test_the_rummikub_lesson_speaks_of_tiles_as_the_game_does(sqlite_store, lang):
    """The Rummikub lesson's screens say what the game's screens say for a tile rulebook:
    Rack / Draw a tile / loose tiles, and the game's tile refusals, never Hand / Draw / cards;
    a card lesson keeps the card words (so the check tells the two apart)."""
    actor = Actor("telegram", "602", "602", "Noa", private=True, lang=lang)
    service = LessonDriver(sqlite_store)
    learner = ReadingLearner(service, actor)
    learner.take(await service.start(actor, "rummikub"))
    await learner.press(action="skip")  # step 2: the run 3R 4R 5R 6R on the table
    learner.take(await service.command(actor, "take", "A 6R"))
    out = learner.take(await service.command(actor, "done"))  # the 6R is still loose
    with using(lang):
        card_words = [
            _label(m)
            for m in (
                "Hand: {cards}",
                "Your hand: {cards}",
                "Loose (place before Done): {cards}",
                "loose (place these before done): {cards}",
            )
        ]
        rack, your_rack = _label("Rack: {tiles}"), _label("Your rack: {tiles}")
        loose = _label("Loose tiles (place before Done): {tiles}")
        detail_loose = "  " + _label("loose tiles (place before Done): {tiles}")
        refused = _label("Place the loose tiles first: {cards}")
        draw_a_tile, draw = _("Draw a tile"), _("Draw")
    lines = _lines(learner.screen)
    assert out.alert and refused in out.reply, out.reply
    assert any(x.startswith(rack) for x in lines) and any(x.startswith(loose) for x in lines)
    assert any(x.startswith(your_rack) for x in lines), lines
    assert any(x.startswith(detail_loose) for x in lines), lines
    assert not [x for x in lines for w in card_words if x.lstrip().startswith(w)], lines
    learner.take(await service.command(actor, "restart"))  # the table as dealt: Draw is legal
    labels = [b.label for b in learner.buttons()]
    assert draw_a_tile in labels and draw not in labels, labels

    tahiti = ReadingLearner(service, actor)  # a card lesson: Hand and Draw
    tahiti.take(await service.start(actor, "tahiti"))
    with using(lang):
        hand = _label("Hand: {cards}")
    assert any(x.startswith(hand) for x in _lines(tahiti.screen))
    assert not any(x.startswith(rack) for x in _lines(tahiti.screen))
    assert draw in [b.label for b in tahiti.buttons()]


@pytest.mark.parametrize("lang", ["en", *OTHERS])
def test_a_tile_lessons_joker_choice_names_tiles(lang):
    """Done asking what a joker stands for, in a tile lesson: one button per tile in tile
    notation (11O), as the game's screen has it (a card's faces would not parse a tile)."""
    from dataclasses import replace

    from bot.games.rummy.lesson_view import LessonSeat, lesson_screen
    from bot.games.rummy.lessons import skip_step, start_lesson

    progress = start_lesson("rummikub")
    for _step in range(3):  # the joker step
        progress, _feedback = skip_step(progress)
    waiting = replace(progress, joker={"group": 1, "options": [["1B"], ["4B"]]})
    with using(lang):
        screen = lesson_screen(7, LessonSeat(waiting))
        asked = _("Joker in {group} stands for:").partition("{")[0]
    labels = [i18n.strip_bidi(b.label) for row in screen.buttons for b in row]
    assert labels[0].startswith(asked) and labels[1:3] == ["1B", "4B"], labels


def test_the_terminal_rummikub_lesson_shows_the_rack_once():
    """The terminal prints the detail (Your rack: 1:2K …) and leaves the caption's own rack
    and loose-tile lines out, as it does a card lesson's hand."""
    lines = [line for step in LESSONS["rummikub"].steps for line in step.demo]
    out: list[str] = []
    state = run_lesson("rummikub", _feed(lines), out.append, games=default_games())
    assert state is not None and state["finished"]
    printed = "\n".join(out).splitlines()
    assert any(x.startswith("Your rack: ") for x in printed)
    assert not [x for x in printed if x.startswith(("Rack: ", "Loose tiles", "Hand: "))]


@pytest.mark.parametrize("lang", ["en", *OTHERS])
def test_the_rummikub_lessons_own_words_speak_of_tiles(lang):
    """The runner's own words in a tile lesson — Show me's demo, the default nudges and the
    button names — are the tile words the game's screens use for a tile rulebook, never cards
    or the hand ("✂ Split ▸ A after card 3" was said); a card lesson keeps its card words."""
    from bot.games.rummy.lessons import lesson_act, parse_move, show_me, skip_step, start_lesson

    def wrong(name: str, *moves: str) -> str:
        progress = start_lesson(name)
        for line in moves:
            progress, feedback = lesson_act(progress, parse_move(line))
        assert feedback.result == "wrong", feedback
        return feedback.text

    split = start_lesson("rummikub")
    for _step in range(2):  # the split step: its demo splits group A after its 3rd tile
        split, _feedback = skip_step(split)
    with using(lang):
        shown = show_me(split)
        assert t("✂ Split ▸ {group} after tile {n}", group="A", n="3") in shown, shown
        assert t("✂ Split ▸ {group} after card {n}", group="A", n="3") not in shown
        too_few = wrong("rummikub", "lay 3K 4K", "done")
        assert _("A group or a run needs at least 3 tiles.") in too_few, too_few
        no_tile = wrong("rummikub", "lay 9R 10R 11R")
        assert _("Check the tiles on your rack and the group letters on the picture.") in no_tile
        cards = wrong("manipulation", "lay 2C 3C 4C")
        assert _("Check the cards in your hand and the group letters on the picture.") in cards
        if lang != "en":  # the tile sentences have translations of their own
            for msgid in ("✂ Split ▸ {group} after tile {n}",
                          "A group or a run needs at least 3 tiles."):
                assert _(msgid) != msgid


def test_hebrew_rummikub_calls_a_run_no_group():
    """Rummikub's Hebrew words (GLOSSARY.md, issue 28): any combination is a צירוף, a קבוצה is
    only a set of one number. Every "קבוצה A" in the Rummikub lesson names a table group that
    is a set of one number; the tile refusals, whose group may be a run, never say קבוצה {group}."""
    from engine.rummy.tiles import parse_tiles

    named = re.compile(r"קבוצה ([A-Z])(?![A-Za-z])")
    wrong = []
    with using("he"):
        for step in LESSONS["rummikub"].steps:
            table = [parse_tiles(g.replace("*", "")) for g in step.position.table]
            for msgid in (step.text, step.show, step.success, *step.nudges.values()):
                for label in named.findall(lesson_text(msgid)):
                    group = table[ord(label) - 65]
                    if len({t.rank for t in group}) != 1:
                        wrong.append((step.id, label, msgid[:50]))
        refusals = [_("Group {group} can't be split after tile {at}"),
                    _("Group {group} has fewer than 3 tiles: a group or a run needs at least 3"),
                    _("Group {group} is neither 3–4 tiles of one number in different colours nor "
                      "a run of one colour")]
    wrong += [r for r in refusals if "קבוצה {group}" in r]
    assert not wrong, wrong
