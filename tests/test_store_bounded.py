"""bot/store keeps rows bounded: the action log in game_actions (appended, never rewritten),
games.due_at for background work, idle games, pruning old games and lessons, migration 0002.
Each test runs on SQLite and on local PostgreSQL (see store_fixtures.py)."""

from __future__ import annotations

import asyncio
from datetime import UTC, datetime, timedelta

import pytest
from sqlalchemy import func, insert, select, text, update

from bot.store import (
    GameResult,
    GameRow,
    ResultSeat,
    RoundRow,
    SeatRow,
    StaleGame,
    Store,
    repository,
)
from bot.store import models as db
from bot.store.engine import make_engine, writer
from bot.store.migrate import downgrade, upgrade
from bot.store.urls import database_url

pytest_plugins = ["store_fixtures"]


def _action(n: int) -> dict:
    return {"kind": "play", "seat": n % 3, "cards": ["5H", "6H", "7H"], "n": n, "note": "é✨"}


async def _age(store: Store, game_id: int, days: float) -> None:
    """Pretend the game was last saved `days` ago."""
    async with writer(store.engine).begin() as conn:
        await conn.execute(
            update(db.games)
            .where(db.games.c.id == game_id)
            .values(updated_at=db.utcnow() - timedelta(days=days))
        )


async def _count_actions(store: Store, game_id: int | None = None) -> int:
    query = select(func.count()).select_from(db.game_actions)
    if game_id is not None:
        query = query.where(db.game_actions.c.game_id == game_id)
    async with store.engine.connect() as conn:
        return (await conn.execute(query)).scalar_one()


# -- the action log --------------------------------------------------------------------------


async def test_actions_are_appended_in_order_across_saves(store: Store) -> None:
    game = await store.create_game("telegram", "chat", {"n": 0})
    other = await store.create_game("telegram", "other", {"n": 0})
    assert await store.game_actions(game.id) == []

    row = await store.save_game(game.id, {"n": 1}, expected_version=1, actions=[_action(0)])
    row = await store.save_game(game.id, {"n": 2}, expected_version=row.version)  # none
    await store.save_game(other.id, {"n": 1}, expected_version=1, actions=[_action(100)])
    row = await store.save_game(
        game.id, {"n": 3}, expected_version=row.version, actions=[_action(1), _action(2)]
    )
    row = await store.save_game(
        game.id, {"n": 4}, expected_version=row.version, actions=(_action(3),)
    )

    assert await store.game_actions(game.id) == [_action(n) for n in range(4)]
    assert await store.game_actions(other.id) == [_action(100)]
    assert (row.version, row.record) == (5, {"n": 4})  # the record does not carry the log
    async with store.engine.connect() as conn:
        seqs = (
            await conn.execute(
                select(db.game_actions.c.seq)
                .where(db.game_actions.c.game_id == game.id)
                .order_by(db.game_actions.c.seq)
            )
        ).scalars().all()
    assert seqs == [0, 1, 2, 3]  # seq = the action's index in the game's log


async def test_a_stale_or_failed_save_writes_no_actions(store: Store) -> None:
    game = await store.create_game("telegram", "chat", {"n": 0})
    await store.save_game(game.id, {"n": 1}, expected_version=1, actions=[_action(0)])
    with pytest.raises(StaleGame):
        await store.save_game(game.id, {"n": 2}, expected_version=1, actions=[_action(9)])
    bad = GameResult("tahiti", [ResultSeat(0, None, "a", "easy", 0, 1, 1)] * 2)  # seat 0 twice
    with pytest.raises(ValueError):
        await store.save_game(
            game.id, {"n": 2}, expected_version=2, actions=[_action(8)], result=bad
        )
    with pytest.raises(LookupError):
        await store.save_game(game.id + 99, {}, expected_version=1, actions=[_action(7)])
    assert await store.game_actions(game.id) == [_action(0)]
    assert await _count_actions(store) == 1


async def test_concurrent_saves_only_the_winner_appends(store: Store) -> None:
    game = await store.create_game("telegram", "dice", {"n": 0})
    outcomes = await asyncio.gather(
        *(
            store.save_game(game.id, {"n": n}, expected_version=1, actions=[_action(n)] * 2)
            for n in range(1, 6)
        ),
        return_exceptions=True,
    )
    winners = [o for o in outcomes if isinstance(o, GameRow)]
    assert len(winners) == 1
    assert all(isinstance(o, StaleGame) for o in outcomes if o is not winners[0])
    n = winners[0].record["n"]
    assert await store.game_actions(game.id) == [_action(n), _action(n)]


async def test_deleting_a_game_deletes_its_actions(store: Store) -> None:
    game = await store.create_game("telegram", "chat", {})
    await store.save_game(game.id, {}, expected_version=1, actions=[_action(0), _action(1)])
    async with writer(store.engine).begin() as conn:
        await conn.execute(db.games.delete().where(db.games.c.id == game.id))
    assert await _count_actions(store) == 0  # ON DELETE CASCADE


# -- due_at ----------------------------------------------------------------------------------


async def test_due_at_is_set_kept_and_cleared(store: Store) -> None:
    game = await store.create_game("telegram", "chat", {}, status="playing")
    assert game.due_at is None
    row = await store.save_game(game.id, {"a": 1}, expected_version=1, due_at=1000.5)
    assert row.due_at == 1000.5
    row = await store.save_game(game.id, {"a": 2}, expected_version=row.version)  # refs-only
    assert row.due_at == 1000.5 and (await store.get_game(game.id)).due_at == 1000.5
    row = await store.save_game(game.id, {"a": 3}, expected_version=row.version, due_at=2000)
    assert row.due_at == 2000.0
    row = await store.save_game(game.id, {"a": 4}, expected_version=row.version, due_at=None)
    assert row.due_at is None and (await store.get_game(game.id)).due_at is None

    row = await store.save_game(game.id, {"a": 5}, expected_version=row.version, due_at=3000)
    with pytest.raises(StaleGame):  # a stale save changes nothing
        await store.save_game(game.id, {}, expected_version=1, due_at=None)
    assert (await store.get_game(game.id)).due_at == 3000
    # A game that finishes has nothing left to do, unless the save says otherwise.
    row = await store.save_game(game.id, {"a": 6}, expected_version=row.version, status="ended")
    assert row.due_at is None


async def test_due_scheduled_and_idle_games(store: Store) -> None:
    a = await store.create_game("telegram", "a", {}, status="playing")
    b = await store.create_game("telegram", "b", {}, status="playing")
    c = await store.create_game("telegram", "c", {}, status="playing")
    lobby = await store.create_game("telegram", "lobby", {})
    done = await store.create_game("telegram", "done", {}, status="playing")
    await store.save_game(a.id, {}, expected_version=1, due_at=200.0)
    await store.save_game(b.id, {}, expected_version=1, due_at=100.0)
    await store.save_game(lobby.id, {}, expected_version=1, due_at=50.0)  # not playing
    await store.save_game(done.id, {}, expected_version=1, due_at=60.0)
    await store.save_game(done.id, {}, expected_version=2, status="finished")  # due cleared
    # a finished game whose ↻ Rematch call will lapse is scheduled (bot/core/rematch.py)
    call = await store.create_game("telegram", "call", {}, status="playing")
    await store.save_game(call.id, {}, expected_version=1, status="finished", due_at=150.0)

    assert await store.due_games(99.9) == []
    assert await store.due_games(100.0) == [b.id]
    assert await store.due_games(1e12) == [b.id, a.id]  # soonest first
    assert await store.scheduled_games() == [(b.id, 100.0), (call.id, 150.0), (a.id, 200.0)]
    assert c.id not in dict(await store.scheduled_games())

    await _age(store, a.id, 3)
    await _age(store, lobby.id, 2)
    await _age(store, done.id, 9)  # finished: not idle, whatever its age
    cutoff = datetime.now(UTC) - timedelta(days=1)
    assert await store.idle_games(cutoff) == [a.id, lobby.id]  # stalest first
    assert await store.idle_games(cutoff, limit=1) == [a.id]
    assert await store.idle_games(datetime.now(UTC) - timedelta(days=5)) == []
    assert set(await store.idle_games(datetime.now(UTC) + timedelta(seconds=5))) == {
        a.id, b.id, c.id, lobby.id
    }


# -- pruning ---------------------------------------------------------------------------------


def _long_record(names: list[str], lesson: dict | None = None) -> dict:
    return {
        "rulebook": "tahiti",
        "options": {"target": 100},
        "seats": [{"name": n, "user": str(i), "player_id": None} for i, n in enumerate(names)],
        "state": {"table": [["5H", "6H", "7H"]] * 20, "actions": []},
        "ui": {"0": {"selected": ["5H"]}},
        "log": ["line"] * 20,
        "refs": {"table": 1},
        "lesson": lesson,
    }


async def _finished_game(store: Store, chat: str, users: list[str], points: list[int]) -> int:
    ids = [await store.player("telegram", u, f"P{u}") for u in users]
    record = _long_record([f"P{u}" for u in users])
    game = await store.create_game("telegram", chat, record, status="playing")
    seats = [
        SeatRow(i, pid, f"P{u}", None) for i, (pid, u) in enumerate(zip(ids, users, strict=True))
    ]
    row = await store.save_game(
        game.id, record, expected_version=1, seats=seats,
        actions=[_action(n) for n in range(30)],
    )
    best = min(points)
    result = GameResult("tahiti", [
        ResultSeat(i, pid, f"P{u}", None, p, 1.0 if p == best else 0.0, 1 if p == best else 2)
        for i, (pid, u, p) in enumerate(zip(ids, users, points, strict=True))
    ])
    await store.save_game(
        game.id, record, expected_version=row.version, status="finished",
        rounds=[RoundRow(1, points, points)], result=result, actions=[_action(30)],
    )
    return game.id


async def _lesson(store: Store, chat: str, status: str) -> int:
    lesson = {"progress": {"lesson": "basics", "step": 3}, "ui": {}}
    game = await store.create_game("telegram", chat, {**_long_record(["Learner"], lesson),
                                                      "state": None})
    await store.save_game(game.id, game.record, expected_version=1, status=status)
    return game.id


async def _boards(store: Store) -> list:
    return [
        await store.leaderboard("telegram", None, None),
        await store.leaderboard("telegram", "old", "tahiti"),
        await store.leaderboard("telegram", "new", None),
        await store.stats("telegram", "1"),
        await store.stats("telegram", "2", "tahiti"),
        await store.stats("telegram", "3"),
    ]


async def test_prune_shrinks_old_games_keeps_boards_and_deletes_old_lessons(
    store: Store,
) -> None:
    old = await _finished_game(store, "old", ["1", "2"], [0, 40])
    old2 = await _finished_game(store, "old2", ["2", "3"], [12, 0])
    new = await _finished_game(store, "new", ["1", "3"], [5, 0])
    ended = await store.create_game("telegram", "ended", _long_record(["x"]), status="playing")
    await store.save_game(ended.id, ended.record, expected_version=1, actions=[_action(0)])
    await store.save_game(ended.id, ended.record, expected_version=2, status="ended")
    playing = await store.create_game("telegram", "playing", _long_record(["y"]),
                                      status="playing")
    await store.save_game(playing.id, playing.record, expected_version=1, actions=[_action(0)])
    old_lesson = await _lesson(store, "lesson-old", "finished")
    mid_lesson = await _lesson(store, "lesson-mid", "ended")
    new_lesson = await _lesson(store, "lesson-new", "finished")
    active_lesson = await _lesson(store, "lesson-active", "playing")
    for game_id, days in [(old, 40), (old2, 35), (ended.id, 31), (playing.id, 60), (old_lesson, 20),
                          (mid_lesson, 10), (active_lesson, 90)]:
        await _age(store, game_id, days)
    before = await _boards(store)
    assert before[0] and before[3] is not None and before[3].history
    kept = {g: await store.get_game(g) for g in (new, playing.id, mid_lesson, new_lesson)}
    rounds = await store.rounds(old)
    seats = await store.seats(old)

    now = datetime.now(UTC)
    counts = await store.prune(now - timedelta(days=30), now - timedelta(days=14))
    assert counts == {"games_pruned": 3, "actions_deleted": 31 + 31 + 1, "lessons_deleted": 1}

    assert await _boards(store) == before  # leaderboards and /stats unchanged
    assert await store.rounds(old) == rounds and await store.seats(old) == seats
    stub = await store.get_game(old)
    assert stub.record == {
        "rulebook": "tahiti", "seats": [{"name": "P1"}, {"name": "P2"}], "pruned": True
    }
    assert stub.status == "finished"
    assert (await store.get_game(ended.id)).record["pruned"] is True
    for game_id in (old, old2, ended.id):
        assert await store.game_actions(game_id) == []
    assert await store.get_game(old_lesson) is None  # deleted outright
    for game_id, row in kept.items():  # recent or active: untouched
        assert await store.get_game(game_id) == row
    assert len(await store.game_actions(new)) == 31
    assert len(await store.game_actions(playing.id)) == 1
    assert (await store.get_game(active_lesson)).record["lesson"]

    again = await store.prune(now - timedelta(days=30), now - timedelta(days=14))
    assert again == {"games_pruned": 0, "actions_deleted": 0, "lessons_deleted": 0}
    assert await _boards(store) == before


async def test_prune_leaves_a_lesson_whole_until_lessons_before(store: Store) -> None:
    """Lessons kept longer than games: an old lesson is not stubbed, it waits to be deleted."""
    lesson = await _lesson(store, "lesson", "finished")
    game = await store.create_game("telegram", "g", _long_record(["a"]), status="playing")
    await store.save_game(game.id, game.record, expected_version=1, status="ended")
    for game_id in (lesson, game.id):
        await _age(store, game_id, 10)
    row = await store.get_game(lesson)
    now = datetime.now(UTC)
    counts = await store.prune(now - timedelta(days=1), now - timedelta(days=60))
    assert counts == {"games_pruned": 1, "actions_deleted": 0, "lessons_deleted": 0}
    assert await store.get_game(lesson) == row
    counts = await store.prune(now - timedelta(days=1), now - timedelta(days=5))
    assert counts == {"games_pruned": 0, "actions_deleted": 0, "lessons_deleted": 1}
    assert await store.get_game(lesson) is None


async def test_prune_works_in_batches(store: Store, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(repository, "PRUNE_BATCH", 2)
    games = []
    for n in range(5):
        game = await store.create_game("discord", f"c{n}", _long_record(["a"]), status="playing")
        await store.save_game(game.id, game.record, expected_version=1, status="ended",
                              actions=[_action(n)])
        await _age(store, game.id, 100)
        games.append(game.id)
    lessons = [await _lesson(store, f"l{n}", "ended") for n in range(3)]
    for game_id in lessons:
        await _age(store, game_id, 100)
    now = datetime.now(UTC)
    counts = await store.prune(now, now)
    assert counts == {"games_pruned": 5, "actions_deleted": 5, "lessons_deleted": 3}
    assert [(await store.get_game(g)).record["pruned"] for g in games] == [True] * 5
    assert await _count_actions(store) == 0


# -- migration 0002 --------------------------------------------------------------------------


async def test_migration_0002_moves_actions_out_of_old_rows(empty_store_url: str) -> None:
    url = empty_store_url
    assert await upgrade(url, "0001") == "0001"
    actions = [_action(n) for n in range(7)]
    old_shape = {"rulebook": "tahiti", "state": {"version": 9, "actions": actions}, "n": 1}
    no_log = {"rulebook": "tahiti", "state": {"version": 1, "actions": []}}
    lobby = {"rulebook": "tahiti", "state": None}
    engine = make_engine(database_url(url))
    try:  # (these INSERTs name only columns 0001 has)
        async with writer(engine).begin() as conn:
            now = db.utcnow()
            await conn.execute(insert(db.chats).values(platform="t", chat_id="1", created_at=now))
            ids = []
            for n, (record, status) in enumerate(
                [(old_shape, "playing"), (no_log, "finished"), (lobby, "ended"),
                 ({**old_shape, "n": 2}, "finished")]
            ):
                ids.append(
                    (
                        await conn.execute(
                            insert(db.games)
                            .values(platform="t", chat_id="1", status=status, record=record,
                                    version=n + 1, created_at=now, updated_at=now)
                            .returning(db.games.c.id)
                        )
                    ).scalar_one()
                )
    finally:
        await engine.dispose()

    assert await upgrade(url, "0002") == "0002"
    store = await Store.open(url)
    try:
        first = await store.get_game(ids[0])
        assert first.record == {**old_shape, "state": {"version": 9, "actions": []}}
        assert (first.version, first.due_at) == (1, None)
        assert await store.game_actions(ids[0]) == actions
        assert (await store.get_game(ids[1])).record == no_log
        assert (await store.get_game(ids[2])).record == lobby
        assert await store.game_actions(ids[1]) == await store.game_actions(ids[2]) == []
        assert await store.game_actions(ids[3]) == actions
        # and the log goes on from there
        await store.save_game(ids[0], first.record, expected_version=1, actions=[_action(7)])
        assert await store.game_actions(ids[0]) == [*actions, _action(7)]
    finally:
        await store.close()

    # Downgrade puts the logs back into the records.
    assert await downgrade(url, "0001") == "0001"
    engine = make_engine(database_url(url))
    try:
        async with engine.connect() as conn:
            records = dict(
                (await conn.execute(select(db.games.c.id, db.games.c.record))).all()
            )
            tables = await conn.run_sync(lambda sync: sync.dialect.get_table_names(sync))
            game_columns = (await conn.execute(text("SELECT * FROM games WHERE 1 = 0"))).keys()
    finally:
        await engine.dispose()
    assert records[ids[0]]["state"]["actions"] == [*actions, _action(7)]
    assert records[ids[3]]["state"]["actions"] == actions
    assert records[ids[1]] == no_log and records[ids[2]] == lobby
    assert "game_actions" not in tables and "due_at" not in list(game_columns)
    assert await upgrade(url, "0002") == "0002"  # and up again
