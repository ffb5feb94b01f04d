"""bot/store results: exact leaderboard numbers, ratings, stats history, idempotency.

A small scripted season on Telegram (chats A and B) plus one Discord game in a chat that
happens to have the same id "A". Runs on SQLite and PostgreSQL (see store_fixtures.py).
"""

from __future__ import annotations

import asyncio
from collections import defaultdict
from dataclasses import dataclass

import pytest
from openskill.models import PlackettLuce

from bot.store import LeaderRow, ResultSeat, Store

pytest_plugins = ["store_fixtures"]

# (name, points, won, rank) per seat; "medium" is a computer seat.
SEASON = [
    ("A", "manipulation", [("Alice", 0, 1, 1), ("Bob", 30, 0, 2), ("medium", 45, 0, 3)]),
    ("A", "manipulation", [("Bob", 5, 1, 1), ("Alice", 20, 0, 2)]),
    ("A", "manipulation", [("Alice", 10, 0.5, 1), ("Bob", 10, 0.5, 1), ("Carol", 50, 0, 3)]),
    ("B", "tahiti", [("Carol", 0, 1, 1), ("Alice", 40, 0, 2)]),
]


@dataclass
class Season:
    store: Store
    ids: dict[str, int]


async def finish(
    store: Store, platform: str, chat: str, rulebook: str, seats: list[ResultSeat]
) -> int:
    """What the core does at the end of a game: record the result, mark the game finished."""
    game = await store.create_game(platform, chat, {"rulebook": rulebook})
    await store.record_result(game.id, rulebook, seats)
    await store.save_game(game.id, game.record, expected_version=1, status="finished")
    return game.id


def seat(no: int, player: int | None, name: str, points: int, won: float, rank: int,
         level: str | None = None) -> ResultSeat:
    return ResultSeat(no, player, name, level, points, won, rank)


@pytest.fixture
async def season(store: Store) -> Season:
    ids = {name: await store.player("telegram", name.lower(), name)
           for name in ("Alice", "Bob", "Carol")}
    for chat, rulebook, rows in SEASON:
        seats = [
            seat(no, None, "🤖 Computer", pts, won, rank, "medium") if name == "medium"
            else seat(no, ids[name], name, pts, won, rank)
            for no, (name, pts, won, rank) in enumerate(rows)
        ]
        await finish(store, "telegram", chat, rulebook, seats)
    dave = await store.player("discord", "d", "Dave")
    erin = await store.player("discord", "e", "Erin")
    await finish(store, "discord", "A", "manipulation",
                 [seat(0, dave, "Dave", 0, 1, 1), seat(1, erin, "Erin", 25, 0, 2)])
    return Season(store, ids)


def numbers(rows: list[LeaderRow]) -> dict[str, tuple[int, float, float, float]]:
    return {r.name: (r.games, r.wins, r.win_rate, r.avg_points) for r in rows}


def oracle(chats: set[str], rulebook: str | None) -> dict[str, float]:
    """Replay the season's games in one ladder with openskill directly: name -> ordinal."""
    model = PlackettLuce()
    ratings = defaultdict(model.rating)
    for chat, book, rows in SEASON:
        if chat not in chats or rulebook not in (None, book):
            continue
        names = ["🤖 medium" if row[0] == "medium" else row[0] for row in rows]
        rated = model.rate([[ratings[n]] for n in names], ranks=[row[3] for row in rows])
        for name, team in zip(names, rated, strict=True):
            ratings[name] = team[0]
    return {name: rating.ordinal() for name, rating in ratings.items()}


def assert_ratings(rows: list[LeaderRow], expected: dict[str, float]) -> None:
    assert [r.name for r in rows] == sorted(expected, key=expected.__getitem__, reverse=True)
    for row in rows:
        assert row.rating == pytest.approx(expected[row.name], abs=1e-9)


async def test_leaderboard_in_one_chat(season: Season) -> None:
    rows = await season.store.leaderboard("telegram", "A", "manipulation")
    assert numbers(rows) == {
        "Alice": (3, 1.5, 0.5, 10.0),
        "Bob": (3, 1.5, 0.5, 15.0),
        "Carol": (1, 0.0, 0.0, 50.0),
        "🤖 medium": (1, 0.0, 0.0, 45.0),
    }
    assert [r.is_computer for r in rows if r.name == "🤖 medium"] == [True]
    assert_ratings(rows, oracle({"A"}, "manipulation"))
    # Chat A only ever played manipulation: its all-rulebooks board has the same numbers.
    every = await season.store.leaderboard("telegram", "A", None)
    assert numbers(every) == numbers(rows)
    assert_ratings(every, oracle({"A"}, None))


async def test_leaderboard_overall_and_per_rulebook(season: Season) -> None:
    overall = await season.store.leaderboard("telegram", None, None)
    assert numbers(overall) == {
        "Alice": (4, 1.5, 0.375, 17.5),
        "Bob": (3, 1.5, 0.5, 15.0),
        "Carol": (2, 1.0, 0.5, 25.0),
        "🤖 medium": (1, 0.0, 0.0, 45.0),
    }
    assert_ratings(overall, oracle({"A", "B"}, None))

    tahiti = await season.store.leaderboard("telegram", None, "tahiti")
    assert numbers(tahiti) == {"Carol": (1, 1.0, 1.0, 0.0), "Alice": (1, 0.0, 0.0, 40.0)}
    assert_ratings(tahiti, oracle({"B"}, "tahiti"))
    assert numbers(await season.store.leaderboard("telegram", "B", "tahiti")) == numbers(tahiti)

    assert await season.store.leaderboard("telegram", "B", "manipulation") == []
    assert await season.store.leaderboard("telegram", "nowhere", None) == []
    assert [r.name for r in await season.store.leaderboard("telegram", None, None, limit=2)] == [
        r.name for r in overall[:2]
    ]


async def test_platforms_do_not_mix(season: Season) -> None:
    """Discord chat "A" is not Telegram chat "A"."""
    rows = await season.store.leaderboard("discord", "A", None)
    assert numbers(rows) == {"Dave": (1, 1.0, 1.0, 0.0), "Erin": (1, 0.0, 0.0, 25.0)}
    assert numbers(await season.store.leaderboard("discord", None, "manipulation")) == numbers(rows)


async def test_stats_and_history(season: Season) -> None:
    stats = await season.store.stats("telegram", "alice")
    assert (stats.name, stats.games, stats.wins, stats.win_rate, stats.avg_points) == (
        "Alice", 4, 1.5, 0.375, 17.5
    )
    assert stats.rating == pytest.approx(oracle({"A", "B"}, None)["Alice"])
    assert [entry[1:] for entry in stats.history] == [
        ("tahiti", 40, 0.0), ("manipulation", 10, 0.5), ("manipulation", 20, 0.0),
        ("manipulation", 0, 1.0),
    ]
    times = [entry[0] for entry in stats.history]
    assert times == sorted(times, reverse=True) and all(t.tzinfo for t in times)

    manipulation = await season.store.stats("telegram", "alice", "manipulation")
    assert (manipulation.games, manipulation.wins, manipulation.avg_points) == (3, 1.5, 10.0)
    assert [entry[1:] for entry in manipulation.history] == [
        ("manipulation", 10, 0.5), ("manipulation", 20, 0.0), ("manipulation", 0, 1.0),
    ]
    assert await season.store.stats("telegram", "nobody") is None
    assert await season.store.stats("discord", "alice") is None

    await season.store.player("telegram", "new", "Newcomer")
    fresh = await season.store.stats("telegram", "new")
    assert (fresh.games, fresh.wins, fresh.win_rate, fresh.rating, fresh.history) == (
        0, 0.0, 0.0, 0.0, []
    )


async def test_stats_rating_curve_and_each_rulebook_best_round(season: Season) -> None:
    """/stats' picture: the rating after each game (the overall ladder's, oldest first) and,
    per rulebook, games, wins and the best round the game's own way (Carousel counts up)."""
    store, alice, bob = season.store, season.ids["Alice"], season.ids["Bob"]
    stats = await store.stats("telegram", "alice")
    curve = [rating for _, rating in stats.ratings]
    assert len(curve) == 4 and curve[-1] == pytest.approx(stats.rating)  # the season's games
    for best in (12, 3, 7):  # penalty points: the lowest is the best
        await finish(store, "telegram", "C", "vatican",
                     [ResultSeat(0, alice, "Alice", None, best, 0, 2, best),
                      ResultSeat(1, bob, "Bob", None, 0, 1, 1, 0)])
        curve.append((await store.stats("telegram", "alice")).rating)
    game = await store.create_game("telegram", "C", {"rulebook": "carousel"})
    await store.record_result(game.id, "carousel", [
        ResultSeat(0, alice, "Alice", None, 40, 1, 1, 25),
        ResultSeat(1, bob, "Bob", None, 10, 0, 2, 10)], higher_is_better=True)
    stats = await store.stats("telegram", "alice")
    curve.append(stats.rating)
    assert [rating for _, rating in stats.ratings] == pytest.approx(curve)
    times = [when for when, _ in stats.ratings]
    assert times == sorted(times)
    books = {row.rulebook: row for row in stats.by_rulebook}
    assert (books["vatican"].games, books["vatican"].best_round) == (3, 3)
    assert (books["carousel"].wins, books["carousel"].best_round) == (1.0, 25)
    assert (books["manipulation"].games, books["manipulation"].best_round) == (3, None)
    assert [row.rulebook for row in stats.by_rulebook][:2] == ["manipulation", "vatican"]
    bobs = {row.rulebook: row.best_round for row in (await store.stats("telegram", "bob"))
            .by_rulebook}
    assert (bobs["vatican"], bobs["carousel"]) == (0, 10)


async def test_stats_reads_only_the_games_it_shows(season: Season) -> None:
    """Issue 31: /stats read a player's whole history to show 5 rows. The store returns the
    newest `recent` games (newest first) and the totals over all of them."""
    store, alice, bob = season.store, season.ids["Alice"], season.ids["Bob"]
    for points in range(8):
        await finish(store, "telegram", "C", "vatican",
                     [seat(0, alice, "Alice", points, 0, 2), seat(1, bob, "Bob", 0, 1, 1)])
    stats = await store.stats("telegram", "alice")
    assert [entry[1:] for entry in stats.history] == [
        ("vatican", points, 0.0) for points in (7, 6, 5, 4, 3)
    ]
    assert (stats.games, stats.wins) == (12, 1.5)  # the totals still count every game
    assert len((await store.stats("telegram", "alice", recent=2)).history) == 2
    vatican = await store.stats("telegram", "alice", "vatican", recent=20)
    assert [entry[2] for entry in vatican.history] == list(range(7, -1, -1))


async def test_results_are_recorded_once(season: Season) -> None:
    store, alice, bob = season.store, season.ids["Alice"], season.ids["Bob"]
    before = await store.leaderboard("telegram", None, None)
    game = await store.create_game("telegram", "C", {})
    seats = [seat(0, alice, "Alice", 0, 1, 1), seat(1, bob, "Bob", 9, 0, 2)]
    await asyncio.gather(*(store.record_result(game.id, "manipulation", seats) for _ in range(3)))
    await store.record_result(game.id, "tahiti", list(reversed(seats)))  # ignored: recorded
    assert numbers(await store.leaderboard("telegram", "C", None)) == {
        "Alice": (1, 1.0, 1.0, 0.0), "Bob": (1, 0.0, 0.0, 9.0)
    }
    after = numbers(await store.leaderboard("telegram", None, None))
    assert after["Alice"][0] == numbers(before)["Alice"][0] + 1
    with pytest.raises(LookupError):
        await store.record_result(game.id + 100, "manipulation", seats)
    with pytest.raises(ValueError):
        await store.record_result(game.id, "*", seats)


async def test_games_finishing_at_once_update_the_same_players(store: Store) -> None:
    """Rating updates for shared players queue up (row locks) instead of losing a game."""
    alice = await store.player("telegram", "a", "Alice")
    bob = await store.player("telegram", "b", "Bob")
    games = [await store.create_game("telegram", f"chat{n}", {}) for n in range(4)]
    seats = [
        seat(0, alice, "Alice", 0, 1, 1), seat(1, bob, "Bob", 10, 0, 2),
        seat(2, None, "🤖", 20, 0, 3, "easy"), seat(3, None, "🤖", 30, 0, 4, "hard"),
    ]
    await asyncio.gather(
        *(store.record_result(g.id, "manipulation", seats[n % 2:] + seats[:n % 2])
          for n, g in enumerate(games))
    )
    rows = numbers(await store.leaderboard("telegram", None, None))
    assert rows["Alice"][0] == rows["Bob"][0] == rows["🤖 easy"][0] == rows["🤖 hard"][0] == 4
    assert rows["Alice"][1] == 4.0


async def test_computer_seats_rate_as_one_pseudo_player_per_level(store: Store) -> None:
    alice = await store.player("telegram", "a", "Alice")
    bob = await store.player("telegram", "b", "Bob")
    await finish(store, "telegram", "chat", "manipulation", [
        seat(0, None, "🤖 Computer 1", 20, 0, 3, "medium"),
        seat(1, alice, "Alice", 0, 1, 1),
        seat(2, None, "🤖 Computer 2", 8, 0, 2, "medium"),
        seat(3, bob, "Bob (timed out)", 30, 0, 4, "hard"),  # the computer finished for Bob
        seat(4, None, "Guest", 35, 0, 5),  # no account: plays, but is not rated
    ])
    rows = await store.leaderboard("telegram", "chat", None)
    assert numbers(rows) == {
        "Alice": (1, 1.0, 1.0, 0.0),
        "🤖 medium": (2, 0.0, 0.0, 14.0),
        "Bob": (1, 0.0, 0.0, 30.0),
    }
    assert {r.name: r.is_computer for r in rows} == {
        "Alice": False, "🤖 medium": True, "Bob": False
    }
    assert rows[0].name == "Alice"
