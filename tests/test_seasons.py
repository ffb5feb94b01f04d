"""A chat's seasons (issue 41 item 3): the calendar, the standings' points, /season, and a
season's end posted exactly once by several workers (three stores on one database, each its own
connections, racing; a claim let lapse is taken over). Runs on SQLite and PostgreSQL."""

from __future__ import annotations

import asyncio
from datetime import UTC, datetime, timedelta

import pytest

from bot.core.actor import Actor
from bot.core.hosting import Refusal
from bot.core.seasons import LEASE, MONTHS, WEEKS, WIN_POINTS, Seasons, season_of
from bot.core.views import Outcome
from bot.store import ResultSeat, Store

pytest_plugins = ["store_fixtures"]

NOV = datetime(2026, 11, 14, 18, 0, tzinfo=UTC)
DEC = datetime(2026, 12, 1, 0, 0, 30, tzinfo=UTC)  # just after November's end


def test_months_and_weeks() -> None:
    dec = season_of(datetime(2026, 12, 31, 23, 59, tzinfo=UTC))
    assert (dec.key, dec.start, dec.end) == (
        "2026-12", datetime(2026, 12, 1, tzinfo=UTC), datetime(2027, 1, 1, tzinfo=UTC))
    assert dec.previous().key == "2026-11" and season_of(dec.end).key == "2027-01"
    # ISO weeks: 2027-01-01 is a Friday of 2026's week 53
    week = season_of(datetime(2027, 1, 1, 12, tzinfo=UTC), WEEKS)
    assert (week.key, week.start.weekday(), week.end - week.start) == (
        "2026-W53", 0, timedelta(days=7))
    assert week.previous().key == "2026-W52"
    assert season_of(week.end, WEEKS).key == "2027-W01"


async def _finish(store: Store, chat: str, when: datetime, seats: list[tuple]) -> None:
    """A finished game in `chat` at `when`: seats (player id or None, name, level, won)."""
    game = await store.create_game("telegram", chat, {"rulebook": "vatican"})
    await store.record_result(game.id, "vatican", [
        ResultSeat(k, pid, name, level, 10 * k, won, 1 if won else 2)
        for k, (pid, name, level, won) in enumerate(seats)])
    await store.save_game(game.id, game.record, expected_version=1, status="finished")
    async with store._write() as conn:  # the game finished then (the store stamps now)
        from sqlalchemy import update

        from bot.store import models as db
        await conn.execute(update(db.results).where(db.results.c.game_id == game.id)
                           .values(finished_at=when))


async def _november(store: Store) -> dict[str, int]:
    ids = {n: await store.player("telegram", n.lower(), n) for n in ("Ann", "Ben", "Cy")}
    ann, ben, cy = ids["Ann"], ids["Ben"], ids["Cy"]
    await _finish(store, "g", NOV, [(ann, "Ann", None, 1), (ben, "Ben", None, 0)])
    await _finish(store, "g", NOV, [(ann, "Ann", None, 0), (ben, "Ben", None, 1),
                                    (None, "🤖", "hard", 0)])
    await _finish(store, "g", NOV, [(ann, "Ann", None, 0.5), (cy, "Cy", None, 0.5)])
    october = NOV - timedelta(days=30)
    await _finish(store, "g", october, [(cy, "Cy", None, 1), (ann, "Ann", None, 0)])
    await _finish(store, "other", NOV, [(cy, "Cy", None, 1), (ben, "Ben", None, 0)])
    return ids


async def test_standings_count_a_game_and_more_a_win(store: Store) -> None:
    await _november(store)
    nov = season_of(NOV)
    rows = await store.season_standings("telegram", "g", nov.start, nov.end, WIN_POINTS)
    # Ann: 3 games + 1.5 wins x 2 = 6; Ben: 2 + 2 = 4; Cy: 1 + 1 = 2; no computer, no other chat,
    # no October
    assert [(r.name, r.points, r.games, r.wins) for r in rows] == [
        ("Ann", 6.0, 3, 1.5), ("Ben", 4.0, 2, 1.0), ("Cy", 2.0, 1, 0.5)]


class Posts:
    def __init__(self) -> None:
        self.outcomes: list[Outcome] = []

    async def __call__(self, outcome: Outcome) -> None:
        await asyncio.sleep(0)  # another worker may run meanwhile
        self.outcomes.append(outcome)


async def test_a_seasons_end_is_posted_once_by_three_workers(store_url: str) -> None:
    stores = [await Store.open(store_url) for _ in range(3)]
    try:
        await _november(stores[0])
        posts = Posts()
        now = DEC.timestamp()
        workers = [Seasons(s, posts, lambda: now, owner=f"w{k}")
                   for k, s in enumerate(stores)]
        done = await asyncio.gather(*(w.sweep(now) for w in workers))
        assert sum(done) == 2  # chats "g" and "other", each once
        assert sorted(o.chat_id for o in posts.outcomes) == ["g", "other"]
        posted = next(o for o in posts.outcomes if o.chat_id == "g")
        (note,) = posted.notes
        assert "2026-11" in note.text and "Ann" in note.text and note.painter is not None
        # later sweeps (any worker, the next day too) post nothing again
        assert sum(await asyncio.gather(*(w.sweep(now + 86400) for w in workers))) == 0
        assert len(posts.outcomes) == 2
        # kept: /season last, and the hall of fame
        last = await workers[1].command(Actor("telegram", "g", "u", "Ann"), "last")
        assert "2026-11" in last.reply and last.picture is not None
        hall = await workers[2].command(Actor("telegram", "g", "u", "Ann"), "hall")
        assert "2026-11: Ann" in hall.reply
    finally:
        for s in stores:
            await s.close()


async def test_a_claim_let_lapse_is_taken_over(store: Store) -> None:
    """A worker killed between its claim and its post: after the lease, another posts."""
    await _november(store)
    nov = season_of(NOV)
    rows = await store.season_standings("telegram", "g", nov.start, nov.end, WIN_POINTS)
    now = DEC.timestamp()
    assert await store.claim_season("telegram", "g", nov.key, rows, "dead", now, LEASE)
    posts = Posts()
    other = Seasons(store, posts, lambda: now, owner="alive")
    assert await other.sweep(now + 1) == 1  # only "other": "g" is still the dead one's
    assert [o.chat_id for o in posts.outcomes] == ["other"]
    assert await other.sweep(now + LEASE + 1) == 1  # the lease ran out: "g" now
    assert [o.chat_id for o in posts.outcomes] == ["other", "g"]
    assert await other.sweep(now + 2 * LEASE + 2) == 0


async def test_season_command_and_who_chooses_weeks(store: Store) -> None:
    await _november(store)
    now = (NOV + timedelta(hours=2)).timestamp()  # a Saturday of ISO week 46
    seasons = Seasons(store, Posts(), lambda: now, owner="w")
    ann = Actor("telegram", "g", "ann", "Ann")
    current = await seasons.command(ann, "")
    assert "2026-11" in current.reply and "Ann" in current.reply
    assert current.picture is not None and current.picture.image.startswith(b"\x89PNG")
    with pytest.raises(Refusal):
        await seasons.command(ann, "weeks")  # not an admin
    await seasons.command(Actor("telegram", "g", "boss", "Boss", admin=True), "weeks")
    assert await store.season_kind("telegram", "g") == WEEKS
    weekly = await seasons.command(ann, "")
    assert "2026-W46" in weekly.reply
    assert (await seasons.command(ann, "nonsense")).reply.startswith("/season takes")
    empty = await seasons.command(Actor("telegram", "quiet", "ann", "Ann"), "")
    assert empty.picture is None and "No finished games" in empty.reply
    with pytest.raises(Refusal):
        await seasons.command(Actor("telegram", "ann", "ann", "Ann", private=True), "")
    assert MONTHS == "months"
