"""↻ Rematch as one platform action (issue 41 item 1), without a chat platform: the finished
game's result offers it; each person's press is recorded in the finished game's record; the new
game starts when all are in or when the host starts it with those who are; a non-player is
refused, a double press changes nothing, and the call lapses on the service's clock — also
after a restart (the finished game's row is due)."""

from __future__ import annotations

import asyncio
import shutil

import pytest
from rematch_games import record_near_end

from bot.core import narrate
from bot.core.record import Record
from bot.core.rematch import REMATCH_SECONDS
from bot.core.service import Actor, GameService, pack
from bot.games import default_games
from bot.store import Store

ALICE = Actor("test", "-1", "1", "Alice")
BOB = Actor("test", "-1", "2", "Bob")
EVE = Actor("test", "-1", "3", "Eve")


class Clock:
    def __init__(self) -> None:
        self.now = 1_000_000.0

    def __call__(self) -> float:
        return self.now


def service_of(store: Store, clock: Clock, delivered: list) -> GameService:
    service = GameService(store, games=default_games(), clock=clock, computer_delay=0, tick=0.02)

    async def deliver(outcome):
        delivered.append(outcome)

    service.register("test", deliver)
    return service


@pytest.fixture
async def env(sqlite_template, tmp_path):
    path = tmp_path / "rematch.db"
    shutil.copy(sqlite_template, path)
    store = await Store.open(f"sqlite+aiosqlite:///{path}")
    clock = Clock()
    delivered: list = []
    service = service_of(store, clock, delivered)
    await service.start()
    try:
        yield service, store, clock, delivered
    finally:
        await service.stop()
        await store.close()


async def finished_game(service: GameService, store: Store, delivered: list,
                        people=((ALICE.user, "Alice"), (BOB.user, "Bob"))) -> int:
    """A game whose computer ends it now; returns once it is finished."""
    seats = [(user, name, await store.player("test", user, name)) for user, name in people]
    record = record_near_end(seats)
    row = await store.create_game("test", "-1", record.to_dict(), status="playing")
    service.scheduler.after_save(row.id, Record.from_dict(row.record))
    for _ in range(500):
        if (await store.get_game(row.id)).status == "finished":
            return row.id
        await asyncio.sleep(0.01)
    raise AssertionError("the computer did not end the game")


async def press(service: GameService, actor: Actor, game: int, verb: str = "rematch"):
    return await service.press(actor, pack(game, 0, verb))


async def record(store: Store, game: int) -> Record:
    return Record.from_dict((await store.get_game(game)).record)


async def settle(delivered: list, until, seconds: float = 5.0) -> None:
    for _ in range(int(seconds / 0.01)):
        if until():
            return
        await asyncio.sleep(0.01)
    raise AssertionError("not delivered")


def actions(screen) -> list[str]:
    return [b.action for row in screen.buttons for b in row]


async def test_the_result_offers_a_rematch_and_all_in_starts_it(env):
    service, store, clock, delivered = env
    game = await finished_game(service, store, delivered)
    await settle(delivered, lambda: any(o.game_id == game and o.notes for o in delivered))
    result = next(n for o in delivered if o.game_id == game for n in o.notes
                  if n.phase == "game_over")
    assert "rematch" in actions(result)

    out = await press(service, ALICE, game)
    assert (out.reply, out.alert) == (narrate.REMATCH_YOU_IN, False)
    call = out.notes[0]
    assert "Alice" in call.text and "Waiting for: Bob" in call.text
    assert actions(call) == ["rematch", "rmstart"]
    row = await store.get_game(game)
    assert row.status == "finished" and row.due_at == clock.now + REMATCH_SECONDS
    assert (await record(store, game)).rematch_call["in"] == [ALICE.user]

    again = await press(service, ALICE, game)  # a double press: the same, nothing new
    assert again.reply == narrate.REMATCH_ALREADY_IN and not again.notes
    assert (await store.get_game(game)).version == row.version
    stranger = await press(service, EVE, game)
    assert (stranger.reply, stranger.alert) == (narrate.PLAYERS_ONLY, True)

    started = await press(service, BOB, game)
    new = started.game_id
    assert new not in (None, game) and started.group is not None and started.group_new
    old, fresh = await record(store, game), await record(store, new)
    assert old.rematch == new and (await store.get_game(new)).status == "playing"
    assert [(s.user, s.computer) for s in fresh.seats] == [
        (ALICE.user, None), (BOB.user, None), (None, "medium")]
    assert (fresh.rulebook, fresh.options, fresh.turn_seconds, fresh.host) == (
        old.rulebook, old.options, old.turn_seconds, old.host)
    assert fresh.seed != old.seed
    assert (await store.get_game(game)).due_at is None  # nothing will lapse now
    late = await press(service, ALICE, game)
    assert late.reply == narrate.REMATCH_STARTED and late.game_id in (None, game)
    assert (await store.active_game("test", "-1")).id == new


async def test_the_host_starts_with_those_in(env):
    service, store, _clock, delivered = env
    game = await finished_game(service, store, delivered)
    refused = await press(service, BOB, game, "rmstart")  # Bob is no host
    assert (refused.reply, refused.alert) == (narrate.HOST_ONLY, True)
    assert (await record(store, game)).rematch_call is None
    await press(service, BOB, game)
    started = await press(service, ALICE, game, "rmstart")  # Alice: in, and starts it
    fresh = await record(store, started.game_id)
    assert [(s.user, s.computer) for s in fresh.seats] == [
        (ALICE.user, None), (BOB.user, None), (None, "medium")]

    # the next game over: only Alice is in when she starts it: Bob's seat is dropped
    second = started.game_id
    row = await store.get_game(second)
    await store.save_game(second, row.record, expected_version=row.version, status="finished")
    third = await press(service, ALICE, second, "rmstart")
    assert [(s.user, s.computer) for s in (await record(store, third.game_id)).seats] == [
        (ALICE.user, None), (None, "medium")]


async def test_one_person_against_the_computer_starts_at_the_press(env):
    service, store, _clock, delivered = env
    game = await finished_game(service, store, delivered, people=((ALICE.user, "Alice"),))
    started = await press(service, ALICE, game)
    assert started.game_id not in (None, game)
    assert (await store.get_game(started.game_id)).status == "playing"


async def test_the_call_lapses_on_the_clock_and_after_a_restart(env, tmp_path):
    service, store, clock, delivered = env
    game = await finished_game(service, store, delivered)
    await press(service, ALICE, game)
    clock.now += REMATCH_SECONDS - 1
    await asyncio.sleep(0.1)  # the ticker looks: not yet
    assert not (await record(store, game)).rematch_call.get("lapsed")
    clock.now += 2
    await settle(delivered, lambda: any(
        n.text == narrate.REMATCH_LAPSED for o in delivered for n in o.notes))
    assert (await record(store, game)).rematch_call["lapsed"]
    assert (await store.get_game(game)).due_at is None
    late = await press(service, BOB, game)
    assert (late.reply, late.alert) == (narrate.REMATCH_LAPSED, True)
    assert await store.active_game("test", "-1") is None

    # a call open when the service stops lapses when a new one runs (the row is due)
    other = await finished_game(service, store, delivered)
    await press(service, BOB, other)
    await service.stop()
    again: list = []
    restarted = service_of(store, clock, again)
    await restarted.start()
    try:
        clock.now += REMATCH_SECONDS + 1
        await settle(again, lambda: any(o.game_id == other and o.notes for o in again))
        assert (await record(store, other)).rematch_call["lapsed"]
    finally:
        await restarted.stop()


async def test_not_before_the_end_nor_in_another_chat(env):
    service, store, _clock, _delivered = env
    out = await service.new_game(ALICE, "machiavelli")
    early = await press(service, ALICE, out.game_id)
    assert (early.reply, early.alert) == (narrate.NOT_OVER_YET, True)
    game = out.game_id
    row = await store.get_game(game)
    await store.save_game(game, row.record, expected_version=row.version, status="ended")
    elsewhere = await press(service, Actor("test", "-2", "1", "Alice"), game)
    assert elsewhere.reply == narrate.OTHER_CHAT


async def test_the_call_lapses_by_a_claimed_job_on_postgresql(postgres_url, tmp_path):
    """Many workers: the finished game's jobs row (written with the call's save) is claimed
    by a worker when the call lapses, and the lapse is said once."""
    from sqlalchemy.engine import make_url
    from store_fixtures import _pg_truncate

    await _pg_truncate(make_url(postgres_url))
    store = await Store.open(postgres_url)
    clock, delivered = Clock(), []
    service = service_of(store, clock, delivered)
    await service.start()
    try:
        people = [(u, n, await store.player("test", u, n)) for u, n in (("1", "Alice"),
                                                                       ("2", "Bob"))]
        row = await store.create_game("test", "-1", record_near_end(people).to_dict(),
                                      status="playing")
        await store.save_game(row.id, row.record, expected_version=row.version,
                              due_at=clock.now, job="computer")  # the computer's job row
        for _ in range(500):
            if (await store.get_game(row.id)).status == "finished":
                break
            await asyncio.sleep(0.01)
        await press(service, ALICE, row.id)
        assert [(j.game_id, j.due_at) for j in await store.jobs()] == [
            (row.id, clock.now + REMATCH_SECONDS)]
        clock.now += REMATCH_SECONDS + 1
        await settle(delivered, lambda: any(
            n.text == narrate.REMATCH_LAPSED for o in delivered for n in o.notes))
        assert (await record(store, row.id)).rematch_call["lapsed"]
        assert await store.jobs() == []
        assert sum(n.text == narrate.REMATCH_LAPSED for o in delivered for n in o.notes) == 1
    finally:
        await service.stop()
        await store.close()


@pytest.mark.parametrize(("lang", "names"), [("he", ("דנה", "יוסי")), ("ru", ("Даша", "Юра"))])
def test_the_call_speaks_the_groups_language(lang, names):
    """The call and the result's button in the group's language: no English word in them."""
    import re

    from bot.core.record import SeatInfo
    from bot.core.rematch import call_screen, result_buttons
    from bot.i18n import strip_bidi

    record = Record(host="1", lang=lang, seats=[
        SeatInfo(names[0], "1", 1), SeatInfo(names[1], "2", 2), SeatInfo("🤖", None, None, "easy")],
        rematch_call={"in": ["1"], "until": 0.0, "lapsed": False})
    screen = call_screen(7, record)
    words = strip_bidi(screen.text) + " ".join(
        b.label for row in screen.buttons for b in row) + result_buttons(record).actions[0].label
    assert names[0] in screen.text and names[1] in screen.text
    assert not re.findall(r"[A-Za-z]{2,}", words), words
