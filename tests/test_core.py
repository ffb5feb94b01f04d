"""The game service without a chat platform: lobby rules, buttons, timers, leaving, ending."""

from __future__ import annotations

import asyncio
import shutil

import pytest
from counting_store import CountingStore

from bot.core.record import Record
from bot.core.service import Actor, GameService, pack, unpack
from bot.games import default_games
from bot.games.rummy.records import state_of
from bot.store import Store
from engine.rummy import GameState
from engine.rummy.state import conservation_errors

ALICE = Actor("test", "-1", "1", "Alice")
BOB = Actor("test", "-1", "2", "Bob")
EVE = Actor("test", "-1", "3", "Eve")

async def lp(service, actor, gid, action):
    """A lobby press with the lobby's current version (as its buttons carry it)."""
    row = await service.store.get_game(gid)
    return await service.press(actor, pack(gid, row.record.get("lobby_version", 0), action))



class Clock:
    def __init__(self) -> None:
        self.now = 1_000_000.0

    def __call__(self) -> float:
        return self.now


@pytest.fixture
async def env(sqlite_template, tmp_path):
    path = tmp_path / "core.db"
    shutil.copy(sqlite_template, path)
    store = await Store.open(f"sqlite+aiosqlite:///{path}")
    clock = Clock()
    # the service's store counts its calls (tests/counting_store.py): the tests of how often
    # a change reads and writes read `service.store.calls`
    service = GameService(CountingStore(store), games=default_games(), clock=clock,
                          computer_delay=0, tick=0.02)
    delivered = []

    async def deliver(outcome):
        delivered.append(outcome)

    service.register("test", deliver)
    await service.start()
    try:
        yield service, store, clock, delivered
    finally:
        await service.stop()
        await store.close()


def buttons(screen):
    return [b.action for row in screen.buttons for b in row]


async def lobby(service, rulebook="machiavelli", *extra):
    out = await service.new_game(ALICE, rulebook)
    gid = out.game_id
    for actor in extra:
        await service.press(actor, pack(gid, 0, "join"))
    return gid


async def record(store, gid) -> Record:
    return Record.from_dict((await store.get_game(gid)).record)


def test_callback_data_fits_telegram():
    data = pack(123456789, 99999, "tc:25:*#1=10H")
    assert len(data.encode()) <= 64 and unpack(data) == (123456789, 99999, "tc:25:*#1=10H")
    assert unpack("garbage") is None
    with pytest.raises(ValueError):
        pack(1, 1, "x" * 70)


async def test_lobby_host_only_and_seat_limits(env):
    service, store, _, _ = env
    gid = await lobby(service, "manipulation", BOB)
    out = await lp(service, BOB, gid, "start")
    assert out.alert and "host" in out.reply
    out = await service.press(BOB, pack(gid, 0, "join"))
    assert "already" in out.reply
    for _ in range(3):
        await lp(service, ALICE, gid, "cpu:easy")
    out = await service.press(EVE, pack(gid, 0, "join"))
    assert "full" in out.reply
    out = await lp(service, ALICE, gid, "opt:play_to:300")
    assert (await record(store, gid)).options["play_to"] == 300
    out = await lp(service, ALICE, gid, "rb:tahiti")
    rec = await record(store, gid)
    assert rec.rulebook == "tahiti" and rec.options == {"unfinished_move": "reset"}


async def test_start_needs_two_seats_and_a_person(env):
    service, _store, _, _ = env
    gid = await lobby(service)
    out = await lp(service, ALICE, gid, "start")
    assert out.alert and "2 seats" in out.reply
    await lp(service, ALICE, gid, "cpu:easy")
    out = await lp(service, ALICE, gid, "start")
    assert not out.alert and out.group_new
    assert "1" in out.private and "Your turn" in out.private["1"].text


async def test_a_busy_lobby_lags_behind_its_buttons(env):
    """In a real group the lobby's edit waits for the group's budget (Telegram: 20 a minute), so
    people press buttons of a lobby a join or two older. A join, a menu or Start means the same
    on any lobby; adding a computer twice from one picture (a double tap) does not."""
    service, store, _, _ = env
    gid = await lobby(service, "machiavelli")
    shown = (await record(store, gid)).lobby_version  # the picture everybody looks at
    await service.press(BOB, pack(gid, shown, "join"))
    await service.press(EVE, pack(gid, shown, "join"))  # the lobby has not caught up yet
    out = await service.press(ALICE, pack(gid, shown, "menu:computer"))
    assert not out.alert and "out of date" not in (out.reply or "")
    await service.press(ALICE, pack(gid, shown, "cpu:easy"))
    out = await service.press(ALICE, pack(gid, shown, "cpu:easy"))  # the same picture again
    assert "out of date" in out.reply
    out = await service.press(ALICE, pack(gid, shown, "start"))
    assert not out.alert, out.reply
    rec = await record(store, gid)
    assert [s.name for s in rec.seats][:3] == ["Alice", "Bob", "Eve"] and len(rec.seats) == 3
    assert rec.state is not None


async def test_foreign_and_stale_buttons(env):
    service, store, _, _ = env
    gid = await lobby(service, "machiavelli", BOB)
    await lp(service, ALICE, gid, "start")
    state = state_of(await record(store, gid))
    out = await service.press(EVE, pack(gid, state.version, "draw"))
    assert out.alert and "belong" in out.reply
    turn_actor = ALICE if state.turn == 0 else BOB
    other = BOB if turn_actor is ALICE else ALICE
    out = await service.press(other, pack(gid, state.version, "draw"))
    assert "not your turn" in out.reply
    out = await service.press(turn_actor, pack(gid, state.version, "draw"))
    assert not out.alert and out.group_turn  # Machiavelli: drawing ends the turn
    # The same button again (a double tap) is now stale: nothing happens twice.
    out = await service.press(turn_actor, pack(gid, state.version, "draw"))
    assert "out of date" in out.reply
    after = state_of(await record(store, gid))
    assert len(after.hands[state.turn]) == len(state.hands[state.turn]) + 1


async def test_two_taps_at_once_apply_once(env):
    service, store, _, _ = env
    gid = await lobby(service, "machiavelli", BOB)
    await lp(service, ALICE, gid, "start")
    state = state_of(await record(store, gid))
    actor = ALICE if state.turn == 0 else BOB
    outs = await asyncio.gather(*[service.press(actor, pack(gid, state.version, "draw"))
                                  for _ in range(3)])
    assert sum(1 for o in outs if "out of date" in (o.reply or "")) == 2
    after = state_of(await record(store, gid))
    assert len(after.stock) == len(state.stock) - 1


async def test_select_then_new_group_then_reset(env):
    service, store, _, _ = env
    gid = await lobby(service, "machiavelli", BOB)
    await lp(service, ALICE, gid, "start")
    state = state_of(await record(store, gid))
    actor = ALICE if state.turn == 0 else BOB
    card = state.hands[state.turn][0]
    out = await service.press(actor, pack(gid, state.version, f"s1:{card.token}"))
    screen = out.private[actor.user]
    assert f"s0:{card.token}" in buttons(screen)
    assert out.group is None  # selecting never touches the group
    out = await service.press(actor, pack(gid, state.version, "new"))
    rec = await record(store, gid)
    assert state_of(rec).draft is not None and state_of(rec).version == state.version + 1
    out = await service.press(actor, pack(gid, state.version + 1, "reset"))
    assert state_of(await record(store, gid)).draft is None


async def test_turn_timer_reminds_then_plays_then_hands_the_seat_over(env):
    service, store, clock, delivered = env
    gid = await lobby(service, "machiavelli", BOB)
    await lp(service, ALICE, gid, "start")
    rec = await record(store, gid)
    seat = state_of(rec).turn
    clock.now += rec.turn_seconds * 0.6
    await asyncio.sleep(0.2)
    notes = [o for o in delivered if o.private_notes]
    assert notes and "left for your turn" in next(iter(notes[-1].private_notes.values()))
    for expiry in range(3):
        rec = await record(store, gid)
        while state_of(rec).turn != seat:  # let the other person time out as well
            clock.now += rec.turn_seconds + 1
            await asyncio.sleep(0.2)
            rec = await record(store, gid)
        clock.now += rec.turn_seconds + 1
        await asyncio.sleep(0.2)
        rec = await record(store, gid)
        if expiry < 2:
            assert rec.seats[seat].timeouts == expiry + 1
    assert rec.seats[seat].is_computer and rec.seats[seat].was_human
    assert any("time ran out" in (o.reply or "") for o in delivered)
    told = [n.text for o in delivered for n in o.notes if "time ran out" in n.text]
    assert told and "the computer played for" in told[0], "the group is told, not only a log"


async def test_leave_mid_game_gives_the_seat_to_a_computer(env):
    service, store, _, _ = env
    gid = await lobby(service, "guadeloupe", BOB)
    await lp(service, ALICE, gid, "start")
    out = await service.command(BOB, "leave")
    assert "computer" in out.reply
    rec = await record(store, gid)
    assert rec.seats[1].is_computer


async def test_only_the_host_ends_the_game(env):
    service, store, _, _ = env
    gid = await lobby(service, "guadeloupe", BOB)
    out = await service.command(BOB, "endgame")
    assert "Only the host" in out.reply
    out = await service.command(ALICE, "endgame")
    assert (await store.get_game(gid)).status == "ended"
    out = await service.command(ALICE, "newgame", "tahiti")
    assert out.group is not None  # the chat is free again


async def test_the_last_person_leaving_ends_the_game(env):
    service, store, _, _ = env
    gid = await lobby(service, "guadeloupe")
    await lp(service, ALICE, gid, "cpu:medium")
    await lp(service, ALICE, gid, "start")
    rec = await record(store, gid)
    state = state_of(rec)
    if state.turn == 0:
        await service.press(ALICE, pack(gid, state.version, "draw"))
    # Alice leaves; nobody is left at the table, so the game ends (no computer-only games).
    out = await service.command(ALICE, "leave")
    row = await store.get_game(gid)
    assert row.status == "ended"
    assert GameState.from_dict(row.record["state"]).phase == "play"
    out = await service.command(ALICE, "newgame")
    assert out.group is not None


async def test_presses_that_change_nothing_write_nothing(env):
    """A no-op (a label button, Show my cards, a stale or refused button, an idle computer
    step) reads the game once and writes nothing; a real change reads once and writes once."""
    service, store, _, _ = env
    gid = await lobby(service, "machiavelli", BOB)
    await lp(service, ALICE, gid, "start")
    state = state_of(await record(store, gid))
    actor, other = (ALICE, BOB) if state.turn == 0 else (BOB, ALICE)
    counted = service.store
    version = (await store.get_game(gid)).version
    for who, action in [(actor, "noop"), (actor, "cards"), (other, "cards"), (other, "draw"),
                        (EVE, "draw")]:
        counted.reset()
        out = await service.press(who, pack(gid, state.version, action))
        assert counted.calls == {"get_game": 1}, (action, out.reply, counted.calls)
    out = await service.press(actor, pack(gid, state.version + 7, "draw"))
    assert "out of date" in out.reply and counted.calls["save_game"] == 0
    counted.reset()
    out = await service.unit.mutate(gid, service.scheduler._computer_step)
    assert out.reply == "idle" and counted.calls == {"get_game": 1}
    assert (await store.get_game(gid)).version == version
    counted.reset()
    card = state.hands[state.turn][0]
    await service.press(actor, pack(gid, state.version, f"s1:{card.token}"))
    assert counted.calls == {"get_game": 1, "save_game": 1}
    assert (await store.get_game(gid)).version == version + 1


async def test_outcomes_carry_the_commit_order_and_a_message_id_is_no_commit(env):
    """Adapters order screens by the row version they were built from. A message id saved
    between two presses is delivery state, not a change of the game: no version of its own
    (one SQLite process: the outcome carries no refs, the adapter's copy is the newest)."""
    service, store, _, _ = env
    gid = await lobby(service, "machiavelli", BOB)
    out = await lp(service, ALICE, gid, "start")
    assert out.revision == (await store.get_game(gid)).version and out.refs is None
    state = state_of(await record(store, gid))
    actor = ALICE if state.turn == 0 else BOB
    await service.save_refs(gid, {"table": 99})
    assert (await store.get_game(gid)).version == out.revision
    card = state.hands[state.turn][0]
    selected = await service.press(actor, pack(gid, state.version, f"s1:{card.token}"))
    assert selected.revision == out.revision + 1 and selected.refs is None
    assert await service.get_refs(gid) == {"table": 99}
    stale = await service.press(actor, pack(gid, state.version + 7, "draw"))
    assert stale.private and stale.revision == selected.revision
    same = await service.press(actor, pack(gid, state.version, "cards"))
    assert same.revision == selected.revision


async def test_a_stopped_service_starts_no_computer_turns(env):
    service, store, _, _ = env
    gid = await lobby(service, "machiavelli")
    await lp(service, ALICE, gid, "cpu:easy")
    await lp(service, ALICE, gid, "start")
    await service.stop()
    state = state_of(await record(store, gid))
    if state.turn == 0:
        await service.press(ALICE, pack(gid, state.version, "draw"))
    assert state_of(await record(store, gid)).turn == 1  # the computer's turn, not taken
    assert not service.scheduler.pending_computers()
    await asyncio.sleep(0.1)
    assert state_of(await record(store, gid)).turn == 1


async def test_a_typed_move_clears_the_last_notice(env):
    service, store, _, _ = env
    gid = await lobby(service, "machiavelli", BOB)
    await lp(service, ALICE, gid, "start")
    state = state_of(await record(store, gid))
    seat = state.turn
    actor = ALICE if seat == 0 else BOB
    await service.press(actor, pack(gid, state.version, "new"))  # nothing selected: a notice
    assert (await record(store, gid)).seat_ui(seat).notice
    card = state.hands[seat][0]
    out = await service.command(actor, "lay", card.face)
    assert not out.alert, out.reply
    assert (await record(store, gid)).seat_ui(seat).notice == ""


async def _rigged(
    service, store, faces: tuple[str, ...], rulebook: str = "machiavelli"
) -> tuple[int, Actor]:
    """A game (Machiavelli by default) where the seat to play holds just these cards (the rest
    of its hand moved to the stock, so every card is still in one place)."""
    gid = await lobby(service, rulebook, BOB)
    await lp(service, ALICE, gid, "start")
    row = await store.get_game(gid)
    rec = Record.from_dict(row.record)
    state = state_of(rec)
    seat = state.turn
    everywhere = state.stock + state.hands[0] + state.hands[1]
    cards = [next(c for c in everywhere if c.face == face) for face in faces]
    for place in [state.stock, *state.hands]:
        for card in cards:
            if card in place:
                place.remove(card)
    state.stock.extend(state.hands[seat])
    state.hands[seat] = list(cards)
    assert not conservation_errors(state)
    rec.state = state.to_dict()
    await store.save_game(gid, rec.to_dict(), expected_version=row.version)
    return gid, ALICE if seat == 0 else BOB


async def test_a_finished_game_and_its_result_are_saved_together(env, monkeypatch):
    """The game's last move, its rounds and its result are one write: if the result can't be
    written the move isn't either (the player tries again), and never a finished game that no
    leaderboard counts (the result used to follow in a second write, after the game was
    already saved as finished)."""
    service, store, _, _ = env
    gid, actor = await _rigged(service, store, ("7S", "8S", "9S"))
    out = await service.command(actor, "lay", "7S 8S 9S")
    assert not out.alert, out.reply

    from bot.store import results

    real = results.record_result

    async def broken(*args, **kwargs):
        raise RuntimeError("the database went away")

    monkeypatch.setattr(results, "record_result", broken)
    out = await service.command(actor, "done")  # answered politely, nothing saved
    assert out.alert and "try again" in out.reply and out.group is None
    row = await store.get_game(gid)
    assert row.status == "playing"
    assert await store.leaderboard("test", "-1", None) == []

    monkeypatch.setattr(results, "record_result", real)
    out = await service.command(actor, "done")
    assert (await store.get_game(gid)).status == "finished"
    board = await store.leaderboard("test", "-1", None)
    assert {r.name for r in board} == {"Alice", "Bob"} and all(r.games == 1 for r in board)
    assert len(await store.rounds(gid)) == 1


async def test_auto_place_of_a_card_that_needs_partners_names_them(env):
    """Found by playing: the hint said "You can play 10♦ — as a new group"; Auto-place of
    10♦ then said it "can't go anywhere". It can't go alone; the answer names the hand cards
    it can go with (and the working copy stays as it was)."""
    service, store, _, _ = env
    gid, actor = await _rigged(service, store, ("10D", "10C", "10H", "2C"))
    hand = state_of(await record(store, gid)).hands

    async def auto(face: str):
        state = state_of(await record(store, gid))
        card = next(c for c in state.hands[state.turn] if c.face == face)
        await service.set_selection(actor, gid, state.version, [card.token])
        return await service.press(actor, pack(gid, state.version, "auto"))

    out = await auto("10D")
    assert out.alert
    assert out.reply == (
        "10♦ can't go on the table on its own, even with rearranging — it can with 10♥ 10♣ "
        "from your hand: select them too"
    ), out.reply
    assert state_of(await record(store, gid)).hands == hand
    out = await auto("2C")
    assert out.reply == "2♣ can't go anywhere, even with rearranging"


async def test_typed_auto_selects_the_named_cards_and_auto_places_them(env):
    """`auto 10D 10C 10H` (the terminal's, and any private chat's): one typed move selects
    exactly these cards and taps Auto-place — the same answers as the buttons."""
    service, store, _, _ = env
    gid, actor = await _rigged(service, store, ("10D", "10C", "10H", "2C"))
    hand = state_of(await record(store, gid)).hands
    out = await service.command(actor, "auto", "10D")
    assert out.alert and out.reply.startswith("10♦ can't go on the table on its own"), out.reply
    out = await service.command(actor, "auto", "KS")
    assert out.alert and out.reply == "You have no K♠", out.reply
    assert state_of(await record(store, gid)).hands == hand  # nothing placed yet
    out = await service.command(actor, "auto", "10D 10C 10H")
    assert not out.alert, out.reply
    state = state_of(await record(store, gid))
    assert sorted(c.face for g in state.draft.groups for c in g if c.face.startswith("10")) == [
        "10C", "10D", "10H"]  # in the working copy: Done plays it


async def test_a_card_taken_from_the_table_can_be_placed_with_buttons(env):
    """Found while writing docs/rules.md: after "Take from ▸" the card was loose with no button
    to place it (only typing, Auto-place or Reset got it back on the table)."""
    service, store, _, _ = env
    gid, actor = await _rigged(service, store, ("JS", "QS", "KS"))
    row = await store.get_game(gid)
    rec = Record.from_dict(row.record)
    state = state_of(rec)
    seat = state.turn
    # From wherever the random deal put them (both copies of a card can be in the other hand:
    # taking them from the stock only failed a few runs in a hundred).
    table = []
    for face in ("7H", "8H", "9H", "10H"):
        place = next(p for p in [state.stock, *state.hands] if any(c.face == face for c in p))
        card = next(c for c in place if c.face == face)
        place.remove(card)
        table.append(card)
    state.table = [table]
    assert not conservation_errors(state)
    rec.state = state.to_dict()
    await store.save_game(gid, rec.to_dict(), expected_version=row.version)
    ten = table[3]
    out = await service.press(actor, pack(gid, state.version, f"tc:0:{ten.token}"))
    assert not out.alert, out.reply
    version = state_of(await record(store, gid)).version
    actions = buttons(out.private[actor.user])
    assert f"s1:{ten.token}" in actions, "the loose card has no button"
    await service.press(actor, pack(gid, version, f"s1:{ten.token}"))
    out = await service.press(actor, pack(gid, version, "add:0"))
    assert not out.alert, out.reply
    draft = state_of(await record(store, gid)).draft
    assert draft.loose == [] and ten in draft.groups[0]
    assert seat == state_of(await record(store, gid)).turn
