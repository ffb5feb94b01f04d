"""/notify (issue 41 item 2) without a chat platform: the flag per person and chat, on and off;
a lobby opened calls every subscriber but the opener privately, in their language, with
[Join]; one round per chat every NOTIFY_EVERY seconds on the service's clock; [Join] in the
private chat joins the lobby of a chat one subscribed in, and nobody else's."""

from __future__ import annotations

import shutil

import pytest

from bot.core import narrate
from bot.core.notify import NOTIFY_EVERY
from bot.core.record import Record
from bot.core.service import Actor, GameService, pack
from bot.games import default_games
from bot.i18n import strip_bidi, using
from bot.store import Store

ALICE = Actor("test", "-1", "1", "Alice", chat_name="Friday rummy")
BOB = Actor("test", "-1", "2", "Bob", chat_name="Friday rummy")
CAROL = Actor("test", "-1", "3", "Carol", chat_name="Friday rummy")
EVE = Actor("test", "-1", "4", "Eve", chat_name="Friday rummy")


def dm(actor: Actor) -> Actor:
    return Actor(actor.platform, actor.user, actor.user, actor.name, private=True)


class Clock:
    def __init__(self) -> None:
        self.now = 1_000_000.0

    def __call__(self) -> float:
        return self.now


@pytest.fixture
async def env(sqlite_template, tmp_path):
    path = tmp_path / "notify.db"
    shutil.copy(sqlite_template, path)
    store = await Store.open(f"sqlite+aiosqlite:///{path}")
    clock = Clock()
    service = GameService(store, games=default_games(), clock=clock, computer_delay=0, tick=0.02)
    await service.start()
    try:
        yield service, store, clock
    finally:
        await service.stop()
        await store.close()


async def test_notify_toggles_per_person_and_chat(env):
    service, store, _clock = env
    on = await service.command(BOB, "notify")
    assert (on.reply, on.alert) == (narrate.NOTIFY_ON, False)
    assert await store.subscribers("test", "-1") == [BOB.user]
    assert await store.subscribers("test", "-9") == []
    off = await service.command(BOB, "notify")
    assert off.reply == narrate.NOTIFY_OFF and await store.subscribers("test", "-1") == []
    private = await service.command(dm(BOB), "notify")
    assert private.reply == narrate.NOTIFY_GROUP_ONLY
    assert await store.subscribers("test", BOB.user) == []


async def test_a_lobby_calls_the_subscribers_once_per_round(env):
    service, store, clock = env
    for actor in (ALICE, BOB, CAROL):
        await service.command(actor, "notify")
    await service.command(dm(CAROL), "language", "he")  # Carol reads Hebrew
    out = await service.new_game(ALICE, "rummikub")
    assert set(out.private_extras) == {BOB.user, CAROL.user} == out.called  # not the opener
    (call,) = out.private_extras[BOB.user]
    assert strip_bidi(call.text) == "🃏 A game of Rummikub is starting in Friday rummy."
    assert [b.action for row in call.buttons for b in row] == ["join"]
    assert call.game_id == out.game_id
    (hebrew,) = out.private_extras[CAROL.user]
    with using("he"):
        assert strip_bidi(hebrew.text) == strip_bidi(narrate.NOTIFY_PING.format(
            title="רמיקוב", chat="Friday rummy")), hebrew.text
    assert out.reply and out.group is not None  # the lobby as ever

    # [Join] in Bob's private chat: a seat in the group's lobby; Eve's forged press: refused
    joined = await service.press(dm(BOB), pack(out.game_id, 0, "join"))
    assert joined.alert is False and joined.group is not None
    record = Record.from_dict((await store.get_game(out.game_id)).record)
    assert [s.user for s in record.seats] == [ALICE.user, BOB.user]
    forged = await service.press(dm(EVE), pack(out.game_id, 0, "join"))
    assert (forged.reply, forged.alert) == (narrate.PLAYERS_ONLY, True)

    # the lobby closed and another opened within NOTIFY_EVERY: no more calls
    await service.command(ALICE, "endgame")
    clock.now += NOTIFY_EVERY - 1
    again = await service.new_game(BOB, "machiavelli")
    assert again.game_id and again.private_extras == {}
    await service.command(BOB, "endgame")
    clock.now += 1  # a round's time later: called again (Bob opened it: Alice and Carol)
    later = await service.new_game(BOB, "machiavelli")
    assert set(later.private_extras) == {ALICE.user, CAROL.user}

    # in the game, [Join] of an old call says the game started
    await service.press(BOB, pack(later.game_id, 0, "cpu:easy"))
    row = await store.get_game(later.game_id)
    await service.press(BOB, pack(later.game_id, row.record["lobby_version"], "start"))
    late = await service.press(dm(CAROL), pack(later.game_id, 0, "join"))
    assert late.reply == narrate.STARTED_JOIN_NEXT


async def test_no_subscribers_no_round_spent(env):
    service, _store, _clock = env
    await service.command(ALICE, "notify")
    out = await service.new_game(ALICE, "machiavelli")  # only the opener: nobody to call
    assert out.private_extras == {}
    await service.command(ALICE, "endgame")
    await service.command(BOB, "notify")
    assert set((await service.new_game(ALICE, "machiavelli")).private_extras) == {BOB.user}
