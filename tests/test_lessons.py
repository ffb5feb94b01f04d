"""Guided lessons (issue 8): every lesson played to the end through the pure runner, through
the game service on a SQLite store (a lesson is a variant of the hosted game: buttons and typed
moves) and in the terminal; wrong moves at every step get the engine's reason plus the step's
own nudge; progress survives a JSON round trip and a reopened store."""

from __future__ import annotations

import shutil
import signal
from collections.abc import Iterator
from dataclasses import replace
from pathlib import Path

import pytest
from lesson_driver import LessonDriver, action_of, lesson_ui, progress_of
from sqlalchemy import func, select

from bot.adapters.console_lesson import run_lesson
from bot.core.service import Actor, GameService
from bot.core.views import Outcome, Screen
from bot.games import default_games
from bot.games.rummy.lessons import (
    DEFAULT_NUDGES,
    LEARNER,
    LESSONS,
    BrokenDemo,
    LessonState,
    classify,
    get_lesson,
    lesson_act,
    lesson_game,
    lesson_step,
    outline,
    parse_move,
    play_demo,
    show,
    show_me,
    skip_step,
    start_lesson,
    step_label,
)
from bot.games.rummy.lessons.tile_words import TILE_NUDGES
from bot.games.rummy.lessons.words import fill_cards
from bot.i18n import strip_bidi
from bot.store import Store
from bot.store import models as db
from engine.cards import parse_cards
from engine.rummy import ALL_RULEBOOKS, IllegalAction, check_move, conservation_errors, get_rulebook
from engine.rummy.tiles import parse_cards_or_tiles

# Wrong tries, step by step: (moves, what went wrong). All moves but the last are fine on the way.
WRONG: dict[tuple[str, str], list[tuple[tuple[str, ...], str]]] = {
    ("manipulation", "run"): [
        (("lay 5H 6H", "done"), "too_few"),
        (("lay 5H 6H 9C", "done"), "not_meld"),
        (("done",), "nothing_added"),
    ],
    ("manipulation", "set"): [(("lay 7H 7H 8H", "done"), "not_meld")],
    ("manipulation", "ace"): [(("lay AS 2S 3S", "done"), "ace"), (("lay KS AS 2S", "done"), "ace")],
    ("manipulation", "add"): [(("add B 8H", "done"), "not_meld"), (("lay 8H", "done"), "too_few")],
    ("manipulation", "split"): [
        (("add A 7H", "done"), "not_meld"),
        (("split A 3", "done"), "nothing_added"),
    ],
    ("manipulation", "move"): [
        (("lay 5D", "done"), "too_few"),
        (("take A 5S", "lay 5S 5D", "done"), "too_few"),
        (("take A 2S", "done"), "loose"),
    ],
    ("manipulation", "copy"): [(("reset",), "unchanged"), (("add A 9C KC", "done"), "legal_other")],
    ("manipulation", "must"): [(("draw", "draw"), "drew")],
    ("manipulation", "draw"): [(("done",), "nothing_added"), (("pass",), "pass_stock")],
    ("manipulation", "pass"): [(("draw",), "stock_empty")],
    ("manipulation", "out"): [(("add A QH", "done"), "legal_other")],
    ("manipulation", "score"): [(("lay QD KD AD", "done"), "legal_other")],
    ("machiavelli", "ace"): [(("lay KH AH 2H", "done"), "ace")],
    ("machiavelli", "draw"): [(("done",), "nothing_added")],
    ("machiavelli", "giveup"): [
        (("split A 3", "reset"), "reset_is_give_up"),
        (("split A 3", "draw"), "give_up_first"),
        (("giveup",), "nothing_to_give_up"),
    ],
    ("machiavelli", "out"): [(("add A QD KD", "done"), "legal_other")],
    ("shanghai", "ace"): [(("lay QC KC AC", "done"), "ace")],
    ("shanghai", "draw"): [(("done",), "nothing_added")],
    ("shanghai", "out"): [(("add A 8C", "done"), "legal_other")],
    ("shanghai", "finish"): [(("next",), "legal_other")],
    ("guadeloupe", "drawtwo"): [(("done",), "nothing_added")],
    ("guadeloupe", "playone"): [(("add A 8S", "done"), "legal_other")],
    ("guadeloupe", "ace"): [
        (("add A AH", "done"), "legal_other"),
        (("add A AH 2H 3H", "done"), "ace"),
    ],
    ("carousel", "drawfirst"): [(("lay 9S 9H *", "done"), "draw_first")],
    ("carousel", "joker"): [(("lay 9S *", "done"), "too_few")],
    ("carousel", "freed"): [(("add A 8H", "done"), "legal_other")],
    ("carousel", "three"): [(("draw", "done"), "nothing_added")],
    ("carousel", "knock"): [(("lay 5H 6H 7H", "done"), "legal_other"), (("knock",), "knock_limit")],
    ("vatican", "first"): [
        (("lay 5H 5S 5D", "done"), "first_lay"),
        (("lay 6H 7H 8H", "done"), "legal_other"),
    ],
    ("vatican", "draw"): [(("done",), "nothing_added")],
    ("vatican", "stays"): [(("take A *", "lay 3C 4C *", "done"), "joker_immobile")],
    ("vatican", "free"): [(("take A *", "add A 5C", "done"), "loose")],
    ("tahiti", "singles"): [(("lay 6H 7H", "done"), "too_few")],
    ("tahiti", "onejoker"): [(("lay 9S * *", "done"), "two_jokers")],
    ("tahiti", "locked"): [(("take A 8H", "lay 8H 9H 10H", "done"), "locked")],
    ("tahiti", "free"): [(("take A *", "lay 9S 9D *", "done"), "too_few")],
    ("tahiti", "score"): [(("lay KS", "done"), "too_few")],
    ("rummikub", "meld"): [  # three 2s and three 3s are only 15; one run alone is 12
        (("lay 2K 2R 2B", "lay 3R 3B 3O", "done"), "illegal"),
        (("lay 3K 4K 5K", "done"), "illegal"),
    ],
    ("rummikub", "rearrange"): [
        (("lay 6B 6K", "done"), "too_few"),
        (("take A 6R", "done"), "loose"),
    ],
    ("rummikub", "split"): [  # without the 8B, 6B 7B is too short
        (("split A 3", "take B 5B", "lay 5B 5R 5K", "done"), "too_few"),
    ],
    ("rummikub", "joker"): [
        (("take A *", "lay * 12O 13O", "done"), "too_few"),  # A is left 7K 7R
        (("take A *", "add A 7O", "add B *", "done"), "illegal"),  # no new combination
    ],
}


def nudge_for(name: str, step_id: str, key: str) -> str:
    step = next(s for s in get_lesson(name).steps if s.id == step_id)
    tiles = TILE_NUDGES if get_rulebook(name).tiles else {}
    return fill_cards(step.nudges.get(key) or tiles.get(key) or DEFAULT_NUDGES.get(key, ""))


def step_starts(name: str) -> Iterator[LessonState]:
    """The progress at the start of every step, reached by playing the demos (a broken demo
    raises BrokenDemo: it would leave the step where it was)."""
    state = start_lesson(name)
    while not state.finished:
        yield state
        state, _ = play_demo(state)


def skip_to(name: str, step_id: str) -> LessonState:
    """The progress at the step `step_id`, the steps before it skipped (bounded: a step id
    the lesson doesn't have fails instead of skipping on at the finished lesson)."""
    state = start_lesson(name)
    for _step in get_lesson(name).steps:
        if lesson_step(state).id == step_id and not state.finished:
            return state
        state, _ = skip_step(state)
    pytest.fail(f"{name} has no step {step_id!r}")


# -- the lessons as data ------------------------------------------------------------------


def test_one_lesson_per_rulebook_with_the_right_length():
    assert set(LESSONS) == set(ALL_RULEBOOKS)
    assert 9 <= len(LESSONS["manipulation"].steps) <= 12
    for name, lesson in LESSONS.items():
        if name != "manipulation":
            assert 3 <= len(lesson.steps) <= 6, name
        assert lesson.steps[0].position is not None
        assert len({s.id for s in lesson.steps}) == len(lesson.steps)


def test_manipulation_teaches_the_common_rules_in_order():
    ids = [s.id for s in LESSONS["manipulation"].steps]
    assert ids == [
        "run",
        "set",
        "ace",
        "add",
        "split",
        "move",
        "copy",
        "must",
        "draw",
        "pass",
        "out",
        "score",
    ]


def test_every_step_has_wrong_tries_in_this_file():
    for name, lesson in LESSONS.items():
        for step in lesson.steps:
            assert WRONG.get((name, step.id)), f"no wrong try for {name}/{step.id}"


def test_every_step_starts_with_the_learner_to_act_and_cards_conserved():
    for name in LESSONS:
        for state in step_starts(name):
            game = lesson_game(state)
            assert conservation_errors(game) == []
            if game.phase == "play":
                assert game.turn == LEARNER, (name, state.step)
            else:
                assert lesson_step(state).goal.kind == "finish"


# -- the pure runner ------------------------------------------------------------------------


@pytest.mark.parametrize("name", list(LESSONS))
def test_pure_runner_plays_every_lesson_to_the_end(name):
    state = start_lesson(name)
    steps = len(LESSONS[name].steps)
    for index in range(steps):
        assert state.step == index and not state.finished
        step = lesson_step(state)
        assert step_label(state).startswith(f"Lesson {index + 1}/{steps} · {step.title}")
        for n, line in enumerate(step.demo):
            state, feedback = lesson_act(state, parse_move(line))
            state = LessonState.from_json(state.to_json())  # progress is plain JSON
            assert conservation_errors(lesson_game(state)) == []
            last = n == len(step.demo) - 1
            assert feedback.result in (("correct",) if last else ("progress", "choose")), (
                name,
                step.id,
                line,
                feedback,
            )
        assert feedback.correct and feedback.text.startswith("✓")
    assert state.finished and state.mistakes == 0
    state, feedback = lesson_act(state, parse_move("done"))
    assert feedback.result == "finished"


@pytest.mark.parametrize("name", list(LESSONS))
def test_wrong_moves_get_the_engine_reason_and_the_step_nudge(name):
    for start in step_starts(name):
        step = lesson_step(start)
        for moves, key in WRONG[(name, step.id)]:
            state = start
            for n, line in enumerate(moves):
                before = state
                state, feedback = lesson_act(state, parse_move(line))
                if n < len(moves) - 1:
                    assert feedback.result == "progress", (name, step.id, line, feedback)
            assert feedback.result == "wrong" and feedback.key == key, (name, step.id, feedback)
            assert not feedback.correct
            assert state.game == before.game  # nothing changes: illegal, or taken back
            assert state.step == start.step and state.attempts == before.attempts + 1
            nudge = nudge_for(name, step.id, key)
            assert nudge and nudge in feedback.text, (name, step.id, key)
            if feedback.reason:
                assert feedback.reason in feedback.text  # the engine's own words come first
            else:
                assert "taken back" in feedback.text or key == "unchanged"


def test_engine_reasons_are_sorted_into_keys():
    """By the refusal's code (engine/rummy/reasons.py), not its words; the words stay the
    engine's."""
    rules = get_rulebook("manipulation")

    def refusal(hand: str, *groups: str) -> IllegalAction:
        new = [parse_cards(g) for g in groups]
        return check_move(rules, [], parse_cards(hand), new).error()

    too_few = refusal("5H 6H 7H 5S 5D", "5H 6H 7H", "5S 5D")
    assert str(too_few) == "Group B has only 2 cards (5S 5D): a set or run needs at least 3"
    assert classify(too_few) == "too_few" == classify("group_too_small")
    ace = refusal("AS 2S 3S", "AS 2S 3S")
    assert str(ace) == "Group A is not a set or a run: AS 2S 3S (the ace is high only (Q-K-A))"
    assert classify(ace) == "ace"
    not_meld = refusal("7H 7H 8H", "7H 7H 8H")
    assert str(not_meld) == "Group A is not a set or a run: 7H 7H 8H"
    assert classify(not_meld) == "not_meld"
    assert classify(IllegalAction("Something new")) == "illegal"  # no code: the words alone
    assert classify("no_such_code") == "illegal"


def test_second_wrong_try_points_to_show_me_and_show_me_explains():
    state = start_lesson("manipulation")
    state, first = lesson_act(state, parse_move("done"))
    state, second = lesson_act(state, parse_move("done"))
    assert "Show me" not in first.text and "Show me" in second.text
    assert state.attempts == 2 and state.mistakes == 2
    assert "/lay 5H 6H 7H" in show_me(state) and "New group" in show_me(state)
    cards, groups = outline(state)
    assert len(cards) == 3 and groups == frozenset()
    state, feedback = show(state)
    assert state.shown and feedback.result == "progress"


def test_show_me_outlines_the_groups_of_the_step():
    state = skip_to("manipulation", "move")
    cards, groups = outline(state)
    assert groups == frozenset()
    assert len(cards) == 3  # 5♦ in hand, 5♠ and 5♣ on the table
    state, _ = show(state)
    assert outline(state)[1] == frozenset({0, 1})


def test_reminder_is_progress_and_outlines_the_engine_hint():
    state = skip_to("manipulation", "must")
    state, feedback = lesson_act(state, parse_move("draw"))
    assert feedback.result == "progress" and feedback.key == "reminder"
    assert "You must lay cards if you can" in feedback.text and "8♠" in feedback.text
    assert outline(state)[1] == frozenset({0})  # the hint's group, before any "Show me"


def test_computers_reply_and_the_round_is_scored():
    state = skip_to("manipulation", "score")
    for line in ("lay AS AH AD", "done"):
        state, feedback = lesson_act(state, parse_move(line))
    assert "🤖 Computer laid 9♣" in feedback.text
    assert "Points: You 20 · Computer 0" in feedback.text
    game = lesson_game(state)
    assert game.scores == [20, 0] and state.finished


def test_a_step_can_go_on_from_the_last_one():
    state = start_lesson("carousel")
    state, _ = lesson_act(state, parse_move("draw"))
    assert lesson_step(state).position is None
    assert lesson_game(state).draws == 1  # the same game: the draw stands


@pytest.mark.parametrize("name", list(LESSONS))
def test_skip_plays_every_step_for_the_learner(name):
    state = start_lesson(name)
    state, _ = lesson_act(state, parse_move("lay " + lesson_game(state).hands[0][0].face))
    while not state.finished:
        index = state.step
        state, feedback = skip_step(state)
        assert feedback.result == "skipped" and feedback.correct
        assert "Skipped" in feedback.text
        assert state.finished or state.step == index + 1
    assert state.skipped == list(range(len(LESSONS[name].steps)))


def test_a_broken_demo_fails_fast_and_says_where(monkeypatch):
    """A demo move that misses (here: 9♣ in a run of hearts) used to leave the step where it
    was, and `step_starts` yielded that step again for ever (a test spun for 10 minutes)."""
    lesson = LESSONS["manipulation"]
    first = replace(lesson.steps[0], demo=("lay 5H 6H 9C", "done"))
    monkeypatch.setitem(LESSONS, "manipulation", replace(lesson, steps=(first, *lesson.steps[1:])))

    def too_long(*_args):
        raise TimeoutError("the broken demo looped for a second")

    previous = signal.signal(signal.SIGALRM, too_long)
    signal.alarm(1)
    try:
        failed = r"manipulation step 1 \(run\): the demo move 'done' failed"
        with pytest.raises(BrokenDemo, match=failed) as err:
            list(step_starts("manipulation"))
    finally:
        signal.alarm(0)
        signal.signal(signal.SIGALRM, previous)
    assert "9♣" in str(err.value)  # the lesson's own answer, to see what went wrong


def test_unknown_lesson_and_wrong_seat():
    with pytest.raises(ValueError, match="Lessons: manipulation"):
        start_lesson("bridge")
    with pytest.raises(ValueError):
        lesson_act(start_lesson("manipulation"), parse_move("draw", seat=1))


# -- lessons through the game service on a SQLite store ------------------------------------


@pytest.fixture
def sqlite_url(sqlite_template: Path, tmp_path: Path) -> str:
    path = tmp_path / "lessons.db"
    shutil.copyfile(sqlite_template, path)
    return f"sqlite+aiosqlite:///{path}"


@pytest.fixture
async def sqlite_store(sqlite_url: str):
    store = await Store.open(sqlite_url)
    try:
        yield store
    finally:
        await store.close()


ACTOR = Actor("telegram", "501", "501", "Ada", private=True)
LABELS = {
    "done": "✔ Done",
    "reset": "↺ Reset",
    "draw": "Draw",
    "pass": "Pass",
    "knock": "✊ Knock",
    "giveup": "Give up (+3)",
    "next": "▶ Next round",
    "finish": "■ Finish",
}


class Learner:
    """Drives lessons only by the buttons of the last screen it was sent."""

    def __init__(self, service: LessonDriver, actor: Actor = ACTOR) -> None:
        self.service = service
        self.actor = actor
        self.screen: Screen | None = None
        self.seen: list[str] = []

    def take(self, outcome: Outcome) -> Outcome:
        screen = outcome.private.get(self.actor.user)
        if screen is not None:
            self.screen = screen
            for row in screen.buttons:
                for button in row:
                    data = LessonDriver.data(screen, button)
                    assert len(data.encode()) <= 64 and action_of(data) == button.action
        if outcome.reply:
            self.seen.append(outcome.reply)
        return outcome

    def buttons(self):
        assert self.screen is not None
        return [b for row in self.screen.buttons for b in row]

    def find(self, label: str | None = None, action: str | None = None):
        for button in self.buttons():
            act = button.action
            if (label is None or button.label == label) and (action is None or act == action):
                return button
        raise AssertionError(
            f"no button {label or action!r}; screen shows {[b.label for b in self.buttons()]}"
        )

    async def press(self, label: str | None = None, action: str | None = None) -> Outcome:
        button = self.find(label, action)
        return self.take(await self.service.press(self.actor, self.data(button)))

    def data(self, button) -> str:
        assert self.screen is not None
        return LessonDriver.data(self.screen, button)

    async def select(self, faces: str) -> None:
        for card in parse_cards_or_tiles(faces):
            pretty = card.pretty()
            button = next(
                b
                for b in self.buttons()
                if b.action.startswith("s1:")
                and (strip_bidi(b.label).strip("()") == pretty
                     or (card.is_joker and not card.designated and "🃏" in b.label))  # any joker
            )
            self.take(await self.service.press(self.actor, self.data(button)))

    async def demo(self, line: str) -> Outcome:
        """One demo move, by pressing buttons as a person would."""
        verb, _, rest = line.partition(" ")
        label, _, tail = rest.partition(" ")
        group = ord(label[:1] or "A") - 65
        if verb == "lay":
            await self.select(rest)
            return await self.press("New group")
        if verb == "add":
            await self.select(tail)
            await self.press("Add to ▸")
            return await self.press(action=f"add:{group}")
        if verb == "take":
            await self.press("Take from ▸")
            await self.press(action=f"take:{group}")
            card = parse_cards_or_tiles(tail)[0]
            button = next(
                b
                for b in self.buttons()
                if b.action.startswith(f"tc:{group}:")
                and (b.label == card.pretty() or (card.is_joker and "🃏" in b.label))
            )
            return self.take(await self.service.press(self.actor, self.data(button)))
        if verb == "split":
            await self.press("✂ Split ▸")
            await self.press(action=f"spl:{group}")
            return await self.press(action=f"spa:{group}:{tail}")
        if verb == "choose":
            return await self.press(action=f"jk:{group}:{tail}")
        return await self.press(LABELS[verb])

    def lesson_ui(self, row) -> dict:
        return lesson_ui(row.record)


@pytest.mark.parametrize("name", list(LESSONS))
async def test_service_plays_every_lesson_by_buttons(sqlite_store, name):
    service = LessonDriver(sqlite_store)
    learner = Learner(service)
    out = learner.take(await service.start(ACTOR, name))
    assert out.private_new == {ACTOR.user} and out.game_id is not None
    game_id = out.game_id
    steps = len(LESSONS[name].steps)
    for index, step in enumerate(LESSONS[name].steps):
        assert learner.screen.text.startswith(f"Lesson {index + 1}/{steps} · {step.title}\n")
        assert fill_cards(step.text) in learner.screen.text
        for line in step.demo:
            out = await learner.demo(line)
            assert not out.alert, (name, step.id, line, out.reply)
        assert out.reply == "✓ Correct!"
    row = await sqlite_store.get_game(game_id)
    assert row.status == "finished" and progress_of(row.record)["finished"]
    assert await sqlite_store.active_game("telegram", ACTOR.chat_id) is None
    assert learner.screen.text.startswith("🎓")
    await learner.press("📚 Another lesson")
    assert {b.label for b in learner.buttons()} >= {"Manipulation", "Tahiti"}
    await learner.press("◀ Back")
    out = await learner.press("▶ Play a real game")
    real = await sqlite_store.active_game("telegram", ACTOR.chat_id)  # a real game, here
    assert not out.alert and out.game_id == real.id != game_id
    assert real.record["rulebook"] == name and not real.record.get("lesson")
    assert [s["user"] for s in real.record["seats"]] == [ACTOR.user, None]


async def test_service_wrong_moves_at_every_step_are_explained(sqlite_store):
    service = LessonDriver(sqlite_store)
    for name in LESSONS:
        learner = Learner(service)
        out = learner.take(await service.start(ACTOR, name))
        game_id = out.game_id
        for index, step in enumerate(LESSONS[name].steps):
            for moves, key in WRONG[(name, step.id)]:
                for line in moves:
                    verb, _, args = line.partition(" ")
                    out = learner.take(await service.command(ACTOR, verb, args))
                assert out.alert, (name, step.id, moves)
                row = await sqlite_store.get_game(game_id)
                assert learner.lesson_ui(row)["last"] == {"result": "wrong", "key": key}
                assert nudge_for(name, step.id, key) in learner.screen.text
                await service.command(ACTOR, "restart")  # the step is dealt again
            for line in step.demo:
                verb, _, args = line.partition(" ")
                out = learner.take(await service.command(ACTOR, verb, args))
            assert out.reply == "✓ Correct!", (name, step.id, out.reply)
            row = await sqlite_store.get_game(game_id)
            progress = progress_of(row.record)
            assert progress["finished"] or progress["step"] == index + 1


async def test_resume_after_reopening_the_store(sqlite_url):
    store = await Store.open(sqlite_url)
    service = LessonDriver(store)
    learner = Learner(service)
    learner.take(await service.start(ACTOR, "manipulation"))
    for line in ("lay 5H 6H 7H", "done", "lay 9S 9H"):
        await learner.demo(line)
    await store.close()

    store = await Store.open(sqlite_url)
    try:
        service = LessonDriver(store)
        # The game service's resume loop leaves lesson rows alone.
        games = GameService(store, games=default_games(), tick=3600)
        await games.start()
        await games.stop()
        learner = Learner(service)
        out = learner.take(await service.start(ACTOR))  # /lesson again: where you left off
        assert out.private_new == {ACTOR.user}
        assert learner.screen.text.startswith("Lesson 2/12 · Sets — and what is neither")
        assert "Welcome back" in learner.screen.text
        assert "9♠9♥" in learner.screen.text  # the half-built group survived too
        await learner.select("9D")
        await learner.press("Add to ▸")
        await learner.press(action="add:0")
        out = await learner.press("✔ Done")
        assert out.reply == "✓ Correct!"
        assert learner.screen.text.startswith("Lesson 3/12 · Ace high only")
    finally:
        await store.close()


async def test_stale_and_foreign_buttons(sqlite_store):
    service = LessonDriver(sqlite_store)
    learner = Learner(service)
    learner.take(await service.start(ACTOR, "manipulation"))
    await learner.select("5H 6H 7H")
    new_group = learner.find("New group")
    await service.press(ACTOR, learner.data(new_group))
    out = await service.press(ACTOR, learner.data(new_group))  # a double tap acts once
    assert "out of date" in out.reply and not out.alert
    row = await sqlite_store.get_game(out.game_id)
    assert len(progress_of(row.record)["game"]["draft"]["groups"]) == 1
    other = Actor("telegram", "501", "999", "Eve", private=True)
    out = await service.press(other, learner.data(learner.find("✖ Quit")))
    assert out.alert and "someone else" in out.reply
    out = await service.press(ACTOR, "12:3:done")
    assert out.alert


async def test_lesson_needs_a_private_chat_and_a_free_one(sqlite_store):
    service = LessonDriver(sqlite_store)
    group = Actor("telegram", "-100", "501", "Ada", private=False)
    out = await service.start(group)
    assert "private chat" in out.reply and not out.private
    out = await service.start(ACTOR, "bridge")
    assert out.alert and "Lessons:" in out.reply
    await sqlite_store.create_game("telegram", ACTOR.chat_id, {"rulebook": "manipulation"})
    out = await service.start(ACTOR)
    assert out.alert and "game running" in out.reply
    out = await service.command(ACTOR, "done")  # the chat's game reads it, not a lesson
    assert out.alert and await service.active(ACTOR) is None


async def test_quit_skip_show_and_switching_lessons(sqlite_store):
    service = LessonDriver(sqlite_store)
    learner = Learner(service)
    out = learner.take(await service.start(ACTOR, "tahiti"))
    first = out.game_id
    assert await service.active(ACTOR) == first
    await learner.press("💡 Show me")
    assert "Do this: select 5♥ 6♥ 7♥ → New group → ✔ Done" in learner.screen.text
    await learner.press("⏭ Skip")
    assert learner.screen.text.startswith("Lesson 2/5 · One joker per group")
    out = learner.take(await service.command(ACTOR, "lesson", "vatican"))  # switch lessons
    assert out.game_id == first  # the learner's row, reused (issue 31)
    assert learner.screen.text.startswith("Lesson 1/")
    assert (await sqlite_store.get_game(first)).record["options"] == {"lesson": "vatican"}
    out = await learner.press("✖ Quit")
    assert out.reply == "Lesson stopped." and learner.screen.buttons == []
    assert await service.active(ACTOR) is None


async def test_joker_choice_by_button_and_typed(sqlite_store):
    service = LessonDriver(sqlite_store)
    learner = Learner(service)
    learner.take(await service.start(ACTOR, "carousel"))
    await learner.demo("draw")
    await learner.demo("lay 9S 9H *")
    out = await learner.press("✔ Done")
    assert "Choose what the joker" in out.reply
    labels = [b.label for b in learner.buttons()]
    assert "9♣" in labels and "9♦" in labels
    await learner.press("Cancel")
    out = learner.take(await service.command(ACTOR, "done"))
    out = learner.take(await service.command(ACTOR, "choose", "9D"))
    assert out.reply == "✓ Correct!"
    assert learner.screen.text.startswith("Lesson 3/5 · Freeing a joker")


async def test_lesson_screen_has_a_picture_with_the_step_cards_outlined(sqlite_store):
    service = LessonDriver(sqlite_store)
    learner = Learner(service)
    learner.take(await service.start(ACTOR, "manipulation"))
    screen = learner.screen
    assert screen.image and screen.image[:8] == b"\x89PNG\r\n\x1a\n"
    labels = [b.label for b in learner.buttons()]
    assert labels[:4] == ["5♥", "6♥", "7♥", "9♣"]
    assert {"New group", "✔ Done", "↺ Reset", "Draw", "💡 Show me", "⏭ Skip", "✖ Quit"} <= set(
        labels
    )
    row = await sqlite_store.get_game(learner.take(await service.start(ACTOR)).game_id)
    assert row.record["lesson"] and row.record["rulebook"] == "lesson"
    assert progress_of(row.record)["lesson"] == "manipulation"  # the hosted state


# -- the terminal ---------------------------------------------------------------------------


def scripted(lines: list[str]):
    feed = iter(lines)

    def read(prompt: str) -> str:
        try:
            return next(feed)
        except StopIteration:
            raise EOFError from None

    return read


@pytest.mark.parametrize("name", ["manipulation", "carousel", "tahiti"])
def test_terminal_lesson_to_the_end(name):
    lines = [line for step in LESSONS[name].steps for line in step.demo]
    out: list[str] = []
    state = run_lesson(name, scripted(lines), out.append, games=default_games())
    assert state["finished"]
    text = "\n".join(out)
    assert f"Lesson 1/{len(LESSONS[name].steps)}" in text
    assert f'make play ARGS="--rulebook {name}"' in text  # as README says
    assert text.count("✓") == len(LESSONS[name].steps)


def test_terminal_wrong_move_show_skip_and_quit(sqlite_url):
    out: list[str] = []
    state = run_lesson(
        "manipulation",
        scripted(["help", "lay 5H 6H 9C", "done", "reset", "show", "skip", "lay 99", "quit"]),
        out.append,
        url=sqlite_url,
        games=default_games(),
    )
    text = "\n".join(out)
    assert "9♣ is a club" in text  # the step's own nudge
    assert "Do this:" in text and "Skipped" in text
    assert "There is no card number 99" in text
    assert "[9♠]" in text  # step 2 outlines its set
    assert state["step"] == 1 and not state["finished"]
    resumed = run_lesson(  # the same store: the lesson goes on where it stopped
        None,
        scripted(["lay 9S 9H 9D", "done"]),
        out.append,
        url=sqlite_url,
        games=default_games(),
    )
    assert resumed["step"] == 2


async def lesson_rows(store: Store) -> int:
    async with store._engine.connect() as conn:
        return (await conn.execute(select(func.count()).select_from(db.games))).scalar_one()


async def test_switching_lessons_reuses_the_learners_row(store):
    """Issue 31: every switch (/lesson other, Quit then /lesson, 📚 Another lesson) used to
    insert a game row kept 30 days; now the learner's one lesson row is reused, its old
    buttons are out of date, and the lesson plays on by buttons."""
    service = LessonDriver(store)
    learner = Learner(service)
    out = learner.take(await service.start(ACTOR, "tahiti"))
    first, stale_data = out.game_id, learner.data(learner.find("⏭ Skip"))
    names = list(LESSONS)
    for i in range(40):
        name = names[i % len(names)]
        if i % 4 == 1:
            await learner.press("✖ Quit")
            out = learner.take(await service.command(ACTOR, "lesson", name))
        elif i % 4 == 2:  # a finished lesson's [📚 Another lesson] → a lesson's button
            await learner.press("⏭ Skip")
            while not learner.screen.text.startswith("🎓"):
                await learner.press("⏭ Skip")
            await learner.press("📚 Another lesson")
            out = await learner.press(get_lesson(name).title)
        else:
            out = learner.take(await service.command(ACTOR, "lesson", name))
        assert out.game_id == first and not out.alert, (i, out.reply)
        assert learner.screen.text.startswith("Lesson 1/"), learner.screen.text
    assert await lesson_rows(store) == 1
    out = await service.press(ACTOR, stale_data)  # a button of the first lesson
    assert "out of date" in out.reply
    learner.take(await service.command(ACTOR, "lesson", "manipulation"))
    assert learner.screen.text.startswith("Lesson 1/12")
    for line in LESSONS["manipulation"].steps[0].demo:
        out = await learner.demo(line)
    assert out.reply == "✓ Correct!"
    assert learner.screen.text.startswith("Lesson 2/12")
    assert await lesson_rows(store) == 1


async def test_a_card_menu_change_is_one_save(sqlite_store):
    """Issue 31: Discord's card menu of a lesson changed up to 16 cards as 16 presses and 16
    saves; now its selects and deselects are one change."""
    from counting_store import CountingStore

    counted = CountingStore(sqlite_store)
    service = LessonDriver(counted)
    learner = Learner(service)
    out = learner.take(await service.start(ACTOR, "manipulation"))
    cards = [b.action[3:] for b in learner.buttons() if b.action.startswith("s1:")]
    counted.reset()
    out = learner.take(await service.select(ACTOR, out.game_id, 1, cards[:3], []))
    assert counted.calls["save_game"] == 1 and not out.alert
    row = await sqlite_store.get_game(out.game_id)
    assert learner.lesson_ui(row)["selected"] == cards[:3]
    counted.reset()
    out = learner.take(await service.select(ACTOR, out.game_id, 1, cards[2:4], cards[:3]))
    assert counted.calls["save_game"] == 1
    row = await sqlite_store.get_game(out.game_id)
    assert learner.lesson_ui(row)["selected"] == cards[2:4]
    row = await sqlite_store.get_game(out.game_id)
    out = await service.select(ACTOR, out.game_id, 1, ["ZZ#0"], [])
    assert (await sqlite_store.get_game(out.game_id)).record == row.record  # no such card
