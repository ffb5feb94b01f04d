"""Build-to-Ten end to end on Telegram: the real python-telegram-bot Application against the
fake Bot API server, the real core and store. One person and two computers finish a game by
the buttons the bot sent (a source card, then a target), with a restart of the bot mid-game."""

from __future__ import annotations

import asyncio

import pytest
from fakes.telegram_server import FakeTelegram
from test_telegram_e2e import GROUP, Harness

from bot.core.record import Record
from bot.games.buildten import screens
from engine.buildten import BuildState, Discard, Joker, Pass, Play, player_view
from engine.buildten.actions import NEW_PILE
from engine.buildten.ai import choose_action

pytestmark = pytest.mark.e2e
PACE = 0.13  # s between taps: a person's pace, inside the fair-use limit (8 a second)


@pytest.fixture
async def harness(tmp_path, clock):
    async with FakeTelegram(clock=clock) as tg:
        h = Harness(tg, tmp_path / "buildten.db")
        await h.up()
        try:
            yield h
        finally:
            await h.down()


def taps(state: BuildState, action) -> list[str]:
    """The callback actions a person taps for an engine action."""
    if isinstance(action, Pass):
        return ["bpass"]
    view = player_view(state, action.seat)
    if action.card == view.face_up[action.seat]:
        source = screens.STOCK_SOURCE
    elif action.card in view.hand:
        source = screens.HAND_SOURCE + view.hand.index(action.card)
    else:
        tops = [p[-1] if p else None for p in view.discards[action.seat]]
        source = screens.DISCARD_SOURCE + tops.index(action.card)
    if isinstance(action, Joker):
        return [f"bsrc:{source}", f"bjk:{action.target}"]
    assert isinstance(action, (Play, Discard))
    target = screens.NEW if action.pile == NEW_PILE else action.pile
    return [f"bsrc:{source}", f"{'bpile' if isinstance(action, Play) else 'bdisc'}:{target}"]


async def tap(harness: Harness, user, version: int, action: str) -> None:
    """Press the button of the person's private message that carries `action`, once the
    message shows it (the bot edits the message after each press)."""
    tg = harness.tg
    chat = tg.private_chat(user)
    suffix = f":{version}:{action}"

    def found():
        for message in reversed(tg.messages(chat)):
            if message.from_bot and message.buttons:
                for row in tg.buttons(message):
                    for _text, data in row:
                        if data and data.endswith(suffix):
                            return message, data
                return None
        return None

    await tg.wait_until(lambda: found() is not None, timeout=20)
    message, data = found()
    await harness.tg.clock.sleep(PACE)
    query = await tg.press(chat, message.message_id, data, user)
    await tg.wait_until(lambda: query in tg.answers, timeout=20)
    answer = tg.answers[query].get("text") or ""
    assert "out of date" not in answer and "✗" not in answer, answer


async def test_a_person_and_two_computers_finish_a_game_by_buttons(harness: Harness):
    tg = harness.tg
    group = tg.group(GROUP, "Friday cards")
    alice = tg.user(31, "Alice", started=True)
    await harness.say(group, alice, "/newgame build-to-ten")
    await harness.expect(group, "Build-to-Ten")
    for level in ("hard", "easy"):
        await harness.press_group(alice, "Computer")
        await harness.press_group(alice, level)
    await harness.press_group(alice, "Start")
    row = await harness.game()
    assert row.status == "playing" and Record.from_dict(row.record).game_name == "build-to-ten"
    restarted = False
    for step in range(12000):
        row = await harness.store.get_game(row.id)
        if row.status != "playing":
            break
        state = BuildState.from_dict(row.record["state"])
        if state.turn != 0:
            await asyncio.sleep(0.05)  # computers move at the pace of the people's screens
            continue
        if not restarted and step > 5:
            await harness.down()  # kill the bot mid-game; the same database brings it back
            await harness.up()
            restarted = True
            row = await harness.store.get_game(row.id)
            assert BuildState.from_dict(row.record["state"]) == state
        action = choose_action(player_view(state, 0), "medium")
        for data in taps(state, action):
            await tap(harness, alice, state.version, data)
        await tg.settle(quiet=0.05, timeout=20)
    row = await harness.store.get_game(row.id)
    assert row.status == "finished" and restarted
    await harness.expect(group, "Game over")
    await harness.say(group, alice, "/leaderboard build-to-ten")
    await harness.expect(group, "Leaderboard")
    board = tg.last_message(group, from_bot=True).caption  # a picture (issue 41)
    assert "Alice" in board and "1 game" in board
    # nothing of Alice's hand ever appeared in the group: its screens carry no "your hand"
    for message in tg.messages(group, include_deleted=True):
        assert "your hand" not in (message.caption or "") + (message.text or "")
