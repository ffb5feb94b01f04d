"""Issue 43: a lesson is a variant of its game — the game's own definition with the methods it
plays otherwise overridden (bot/core/hosting.py `played_variants`), found by the `rulebook` a
record carries. The platform hosts a record through its variant; the hosts hold no lesson
switch; a lesson row saved before this change (its rulebook already names the variant) loads
and goes on, and one whose state can't be read ends with a sentence, never a traceback."""

from __future__ import annotations

import re
from pathlib import Path

from lesson_driver import LessonDriver, progress_of
from test_lessons import ACTOR, Learner

from bot.core.buttons import Press
from bot.core.hosting import Refusal, Table, hosted
from bot.core.record import Record, SeatInfo
from bot.core.unit import Unit
from bot.games import default_games
from bot.games.buildten import lesson as bt_lesson
from bot.games.buildten.lesson_host import BuildTenLesson
from bot.games.rummy.lesson_host import RummyLesson
from bot.games.rummy.lessons import LESSONS, skip_step, start_lesson
from engine.buildten import Play
from engine.buildten.cards import face

pytest_plugins = ["store_fixtures"]
ROOT = Path(__file__).resolve().parent.parent


def test_a_record_is_hosted_through_the_variant_its_rulebook_names():
    games = default_games()
    rummy, buildten = games["rummy"], games["build-to-ten"]
    assert isinstance(hosted(rummy, Record(rulebook="lesson", game_name="rummy")), RummyLesson)
    assert hosted(rummy, Record(rulebook="tahiti", game_name="rummy")) is rummy
    lesson = Record(rulebook="buildten_lesson", game_name="build-to-ten")
    assert isinstance(hosted(buildten, lesson), BuildTenLesson)
    assert hosted(buildten, Record(rulebook="buildten", game_name="build-to-ten")) is buildten
    unit = Unit(None, games, lambda: 0.0, lambda _id, _record: None)
    assert isinstance(unit.game_of(Record(rulebook="lesson", game_name="rummy")), RummyLesson)
    # a variant is the game itself with some methods overridden: its name, rules and words
    variant = rummy.played_variants["lesson"]
    assert (variant.name, variant.rules, variant.vocabulary) == (
        rummy.name, rummy.rules, rummy.vocabulary)


def test_the_hosts_hold_no_lesson_switch():
    """What a lesson plays otherwise is in its variant (lesson_host.py), not asked per call."""
    rummy = (ROOT / "bot/games/rummy/host.py").read_text()
    assert not re.search(r"is_lesson|\"progress\"|lesson_host as", rummy)
    buildten = (ROOT / "bot/games/buildten/host.py").read_text()
    assert not re.search(r"rulebook == LESSON|lesson\.(STEPS|settle|met|LEARNER)", buildten)


async def test_a_lesson_saved_before_goes_on_and_an_unreadable_one_ends(store) -> None:
    progress = skip_step(start_lesson("manipulation"))[0]  # step 2 of 12
    saved = Record(rulebook="lesson", game_name="rummy", host=ACTOR.user, lesson={"form": 2},
                   options={"lesson": "manipulation"}, seats=[SeatInfo("Ada", ACTOR.user)],
                   state={"progress": progress.to_dict(), "ver": 4, "last": {}}).to_dict()
    row = await store.create_game(ACTOR.platform, ACTOR.chat_id, saved, status="playing")
    lessons = LessonDriver(store)
    learner = Learner(lessons)
    out = learner.take(await lessons.start(ACTOR))  # /lesson: where it left off
    assert out.game_id == row.id and not out.alert, out.reply
    assert learner.screen is not None and learner.screen.text.startswith("Lesson 2/12")
    for line in LESSONS["manipulation"].steps[1].demo:
        out = await learner.demo(line)
    assert out.reply == "✓ Correct!"
    assert progress_of((await store.get_game(row.id)).record)["step"] == 2

    other = ACTOR.__class__("telegram", "777", "777", "Lev", private=True)
    broken = Record.from_dict(saved)
    broken.host, broken.seats = "777", [SeatInfo("Lev", "777")]
    broken.state = {"ver": 2}  # no progress: nothing to go on from
    row = await store.create_game("telegram", "777", broken.to_dict(), status="playing")
    out = await lessons.press(other, f"{row.id}:2:skip")
    assert out.alert and out.reply == "That lesson no longer exists. Send /lesson."


def _buildten_lesson_saved(step: int) -> tuple[Table, Record]:
    """A Build-to-Ten lesson row as the host saved it before: the engine's state, its actions
    and the step under "lesson"."""
    state = bt_lesson.lesson_position(3)
    saved = {**state.to_dict(), "actions": [], "lesson": step}
    record = Record(rulebook="buildten_lesson", game_name="build-to-ten", host="u0", seed=3,
                    seats=[SeatInfo("Dana", "u0"), SeatInfo("Bot", None, computer="easy")],
                    state=saved)
    return Table(9, Record.from_dict(record.to_dict()), lambda: 0.0), record


def test_a_buildten_lesson_saved_before_is_judged_by_its_variant():
    table, _record = _buildten_lesson_saved(0)
    game = hosted(default_games()["build-to-ten"], table.record)
    state = game.load(table.record)
    card = next(c for c in [state.stocks[0][0], *state.hands[0]] if face(c) == "3D")
    out = game.move(table, state, 0, Play(0, card, 0), "u0")  # the pile needs a 2: refused
    assert out.alert and table.record.state["lesson"] == 0
    stock = state.stocks[0][0]
    game.move(table, state, 0, Play(0, stock, 0), "u0")  # the 2♥ from the stock: step 1 met
    assert table.record.state["lesson"] == 1
    assert table.record.seat_ui(0).notice.startswith("✓")
    assert [k for k in table.record.state if k in ("actions", "lesson")] == ["actions", "lesson"]


def test_a_buildten_lesson_row_is_refused_review_button_and_a_game_is_not():
    table, _record = _buildten_lesson_saved(0)
    games = default_games()
    lesson = hosted(games["build-to-ten"], table.record)
    state = lesson.load(table.record)
    assert lesson._results(table, state).parts == []
    assert games["build-to-ten"]._results(table, state).parts != []


def test_a_rummy_lesson_variant_refuses_what_a_lesson_has_not():
    record = Record(rulebook="lesson", game_name="rummy", seats=[SeatInfo("Ada", "u0")])
    lesson = hosted(default_games()["rummy"], record)
    for call in (lambda: lesson.web_view(record, 0),
                 lambda: lesson.review(Table(1, record, lambda: 0.0), 0, None)):
        try:
            call()
        except Refusal as refusal:
            assert refusal.text == "This is a lesson: /quit stops it."
        else:
            raise AssertionError("a lesson has no web table and no review")
    assert lesson.results(record) is None and lesson.to_move({"progress": {}}) is None


def test_a_lesson_plays_through_its_games_turn_flow_with_no_loop_of_its_own(monkeypatch):
    """Issue 43 item 2: a lesson's presses and typed moves take the turn flow its game's take
    (bot/core/turns.py): the variant gives hooks, never its own `press` or `typed`; a button of
    the step and a typed move each reach the flow's `move`, judged by the script, and a stale
    button gets the flow's fresh screen without reaching it."""
    from bot.core.turns import TurnFlow
    from bot.games.buildten.host import BuildTenGame
    from bot.games.rummy.host import RummyGame

    for variant, game in ((RummyLesson, RummyGame), (BuildTenLesson, BuildTenGame)):
        for flow in ("press", "typed", "play_press", "move"):
            assert flow not in vars(variant), (variant.__name__, flow)
            assert getattr(variant, flow) is getattr(game, flow)
    assert RummyLesson.press is TurnFlow.press and RummyLesson.typed is TurnFlow.typed

    judged: list = []
    judge = RummyLesson.judge
    monkeypatch.setattr(RummyLesson, "judge",
                        lambda self, state, move: judged.append(move) or judge(self, state, move))
    record = Record(rulebook="rummy", game_name="rummy", seats=[SeatInfo("Ada", "u0")])
    table = Table(5, record, lambda: 0.0)
    rummy = default_games()["rummy"]
    rummy.lesson(table, rummy.lesson_options("manipulation"))
    lesson = hosted(rummy, record)
    assert isinstance(lesson, RummyLesson)
    ver = record.state["ver"]
    out = lesson.press(table, 0, "u0", Press(5, ver, "show", ()))  # 💡 Show me: the script's own
    assert [m.own for m in judged] == ["show"] and record.state["ver"] == ver + 1
    shown = record.seat_ui(0).notice
    assert "Do this:" in shown and out.private["u0"].text.count("Do this:") == 1
    try:
        lesson.press(table, 0, "u0", Press(5, ver, "skip", ()))  # drawn before Show me
    except Refusal as refusal:
        assert "out of date" in refusal.text and refusal.outcome is not None
    else:
        raise AssertionError("a stale button must not act")
    assert len(judged) == 1
    out = lesson.typed(table, 0, "u0", "lay", "5H 6H 7H")  # progress: Show me stays shown
    assert [len(m.actions) for m in judged[1:]] == [1] and record.seat_ui(0).notice == shown
    assert out.private_new == {"u0"} and not out.alert and not out.reply
    out = lesson.typed(table, 0, "u0", "done", "")
    assert out.reply == "✓ Correct!" and record.state["progress"]["step"] == 1
