"""Build-to-Ten's lesson inside a real game (bot/games/buildten/lesson.py, hosted by
bot/games/buildten): the worked example step by step through the real service and store,
each step judged by the engine's events, moves of another kind nudged, then the game goes on
to its result. Also the pure steps on their own."""

from __future__ import annotations

import re

import pytest
from test_buildten_hosted import (  # noqa: F401  (the fixture)
    ALICE,
    alice_turn,
    hosted,
    play_to_the_end,
    settle,
)

from bot.core.buttons import pack
from bot.core.hosting import Table
from bot.core.hosting import hosted as variant_of
from bot.core.record import Record, SeatInfo
from bot.games import default_games
from bot.games.buildten import lesson as lesson
from bot.games.buildten.host import LESSON
from engine.buildten import BuildState, Discard, Play, apply, state_errors
from engine.buildten.actions import NEW_PILE
from engine.buildten.cards import face


def tok(state: BuildState, f: str) -> str:
    mine = [*state.stocks[0][:1], *state.hands[0]]
    return next(c for c in mine if face(c) == f)


def test_the_steps_are_met_by_the_worked_example():
    state = lesson_state = lesson.lesson_position(3)
    assert state_errors(state) == []
    moves = [("stock", Play(0, tok(state, "2H"), 0))]
    i = 0
    state, events = apply(state, moves[0][1])
    assert lesson.met(lesson.STEPS[i], state, events)
    i = 1
    for f in ("3D", "KC"):
        state, events = apply(state, Play(0, tok(state, f), 0))
        assert not lesson.met(lesson.STEPS[i], state, events)
    state, events = apply(state, Play(0, tok(state, "5H"), 0))
    assert lesson.met(lesson.STEPS[i], state, events)
    state, events = apply(state, Play(0, tok(state, "6S"), 0))
    assert lesson.met(lesson.STEPS[2], state, events)
    assert not lesson.STEPS[3].allows(Play(0, "x", 0))
    state, events = apply(state, Discard(0, tok(state, "9C"), NEW_PILE))
    assert lesson.met(lesson.STEPS[3], state, events)
    assert lesson_state.turn == 0  # the position itself was not changed


def test_a_spent_wild_card_passes_the_chain_step_over():
    state = lesson.lesson_position(3)
    state, _ = apply(state, Play(0, tok(state, "2H"), 0))
    state, _ = apply(state, Play(0, tok(state, "KC"), 0))  # the K as the 3: no 4 is left
    assert lesson.settle(1, state) == 3  # on to the discard


async def test_the_lesson_in_a_real_game(hosted):
    service = hosted["service"]
    out = await service.new_game(ALICE, "build-to-ten lesson")
    assert "Build-to-Ten lesson" in out.reply
    gid = out.game_id
    refused = await service.press(ALICE, pack(gid, 0, "start"))
    assert refused.alert  # alone: the lobby wants two seats
    await service.press(ALICE, pack(gid, 0, "menu:computer"))
    row = await service.store.get_game(gid)
    version = Record.from_dict(row.record).lobby_version
    await service.press(ALICE, pack(gid, version, "cpu:medium"))
    row = await service.store.get_game(gid)
    version = Record.from_dict(row.record).lobby_version
    started = await service.press(ALICE, pack(gid, version, "start"))
    screen = started.private["alice"]
    assert screen.text.startswith("📘 Lesson 1/5") and lesson.INTRO in screen.text

    async def tap(*actions: str):
        row = await service.store.get_game(gid)
        v = row.record["state"]["version"]
        out = None
        for a in actions:
            out = await service.press(ALICE, pack(gid, v, a), metered=False)
        return out

    async def state_now() -> tuple[BuildState, int | None]:
        row = await service.store.get_game(gid)
        s = {k: v for k, v in row.record["state"].items() if k != "lesson"}
        return BuildState.from_dict(s), row.record["state"]["lesson"]

    state, step = await state_now()
    assert step == 0
    hand = [face(c) for c in state.hands[0]]
    # a move of another kind is nudged, not played
    out = await tap("bsrc:1", "bdisc:4")
    assert not out.alert and "2♥" in out.reply
    state2, step = await state_now()
    assert step == 0 and state2 == state
    out = await tap("bsrc:0", "bpile:0")  # ⬆ 2♥ onto the A
    assert "One stock card gone" in out.private["alice"].text
    for f in ("3D", "KC", "5H"):
        state, step = await state_now()
        i = [face(c) for c in state.hands[0]].index(f)
        out = await tap(f"bsrc:{1 + i}", "bpile:0")
    state, step = await state_now()
    assert step == 2 and "📘 Lesson 3/5" in out.private["alice"].text
    await tap("bsrc:0", "bpile:0")  # the 6♠
    state, step = await state_now()
    assert step == 3 and face(state.face_up(0)) == "10C"
    i = [face(c) for c in state.hands[0]].index("9C")
    await tap(f"bsrc:{1 + i}", "bdisc:4")
    row = await settle(service.store, gid, lambda r: r.record["state"]["turn"] == 0)
    state, step = await state_now()
    assert step == 4 and any(face(c) == "SHIFT" for c in state.hands[0])
    i = [face(c) for c in state.hands[0]].index("SHIFT")
    out = await tap(f"bsrc:{1 + i}", "bjk:0")  # the shift joker on herself
    state, step = await state_now()
    assert step is None and face(state.stocks[0][-1]) == "10C"
    text = out.private["alice"].text
    assert lesson.DONE in text and "📘 Lesson" not in text
    assert hand == ["3D", "KC", "5H", "9C", "8D"]
    # from here a real game: played out to its result
    row = await play_to_the_end(hosted, gid)
    assert row.status == "finished" and row.record["rulebook"] == "buildten_lesson"


@pytest.mark.parametrize("computers", [0, 2])
async def test_the_lesson_is_for_one_person_and_one_computer(hosted, computers):
    service = hosted["service"]
    gid = (await service.new_game(ALICE, "build-to-ten lesson")).game_id
    version = 0
    for _ in range(computers):
        await service.press(ALICE, pack(gid, version, "menu:computer"))
        row = await service.store.get_game(gid)
        version = Record.from_dict(row.record).lobby_version
        await service.press(ALICE, pack(gid, version, "cpu:easy"))
        row = await service.store.get_game(gid)
        version = Record.from_dict(row.record).lobby_version
    out = await service.press(ALICE, pack(gid, version, "start"))
    assert out.alert
    row = await service.store.get_game(gid)
    assert row.status == "lobby"


@pytest.mark.parametrize("lang", ["he", "ru"])
def test_the_lesson_s_first_log_line_is_in_the_group_s_language(lang):
    """The table's "Last:" line shows the log's newest line: at the lesson's start it is the
    lesson's own, in the group's language like every other line (no Latin letter in it)."""
    record = Record(rulebook=LESSON, seed=3, lang=lang,
                    seats=[SeatInfo("Alice", user="alice"), SeatInfo("🤖", computer="medium")])
    game = variant_of(default_games()["build-to-ten"], record)
    game.start(Table(1, record, lambda: 0.0))
    assert record.log and not re.search("[A-Za-z]", record.log[-1]), record.log
