"""Finished games: results, ratings ("standings") and the leaderboard/stats queries.

A finished game updates four ladders for every rated seat: (this chat, this rulebook),
(this chat, all rulebooks), (all chats, this rulebook), (all chats, all rulebooks). Each
ladder keeps its own openskill rating plus games / wins / points totals, so a leaderboard is
one indexed query and needs no replay of history.
"""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Sequence
from datetime import datetime
from typing import Any

from sqlalchemy import bindparam, insert, select, update
from sqlalchemy.ext.asyncio import AsyncConnection

from . import models as db
from .models import ALL
from .ratings import DEFAULT_MU, DEFAULT_SIGMA, display_rating, merge, rate_match
from .rows import LeaderRow, PlayerStats, ResultSeat, RulebookStats
from .sql import insert_for

COMPUTER_PREFIX = "computer:"  # pseudo-player user ids: "computer:medium"
CURVE_GAMES = 30  # /stats' rating curve: the newest games
RULEBOOK_ROWS = 8  # /stats' rows per rulebook, most played first


def computer_name(level: str) -> str:
    return f"🤖 {level}"


async def record_result(
    conn: AsyncConnection, game_id: int, rulebook: str, seats: Sequence[ResultSeat], *,
    higher_is_better: bool = False,
) -> bool:
    """Write the result and update the ladders; False (and no change) if already recorded."""
    _validate(rulebook, seats)
    game = (
        await conn.execute(
            select(db.games.c.platform, db.games.c.chat_id).where(db.games.c.id == game_id)
        )
    ).one_or_none()
    if game is None:
        raise LookupError(f"no game {game_id}")
    now = db.utcnow()
    claim = (
        insert_for(conn, db.results)
        .values(game_id=game_id, platform=game.platform, chat_id=game.chat_id,
                rulebook=rulebook, finished_at=now)
        .on_conflict_do_nothing()
        .returning(db.results.c.game_id)
    )
    if (await conn.execute(claim)).first() is None:
        return False  # recorded before: a retry must not count the game twice

    competitors = await _competitors(conn, game.platform, seats)
    # Lock the players in id order before touching their standings: two games finishing at
    # once then queue instead of losing an update or deadlocking (PostgreSQL; SQLite's
    # BEGIN IMMEDIATE already serialises writers and ignores FOR UPDATE).
    rated = sorted({player for player in competitors if player is not None})
    if rated:
        await conn.execute(
            select(db.players.c.id)
            .where(db.players.c.id.in_(rated))
            .order_by(db.players.c.id)
            .with_for_update()
        )
    overall = await _update_ladders(conn, game.chat_id, rulebook, seats, competitors, now,
                                    higher_is_better)
    await conn.execute(
        insert(db.result_seats),
        [
            {"game_id": game_id, "seat_no": seat.seat_no, "player_id": player,
             "name": seat.name[: db.NAME_MAX], "computer_level": seat.computer_level,
             "points": int(seat.points), "won": float(seat.won), "rank": int(seat.rank),
             "rating": overall.get(player) if player is not None else None}
            for seat, player in zip(seats, competitors, strict=True)
        ],
    )
    return True


def _validate(rulebook: str, seats: Sequence[ResultSeat]) -> None:
    if not rulebook or rulebook == ALL or len(rulebook) > 32:
        raise ValueError(f"bad rulebook name {rulebook!r}")
    if not seats:
        raise ValueError("a result needs at least one seat")
    numbers = [seat.seat_no for seat in seats]
    if len(set(numbers)) != len(numbers):
        raise ValueError(f"duplicate seat numbers: {numbers}")
    for seat in seats:
        if seat.rank < 1 or not 0 <= seat.won <= 1:
            raise ValueError(f"seat {seat.seat_no}: rank must be >= 1 and won in 0..1")


async def _competitors(
    conn: AsyncConnection, platform: str, seats: Sequence[ResultSeat]
) -> list[int | None]:
    """Who each seat rates as: its player, else its computer level's pseudo-player, else None.

    A human seat the computer finished for (turn timer) keeps its player_id and rates as them.
    """
    levels = sorted({s.computer_level for s in seats if s.player_id is None and s.computer_level})
    # Sorted inserts, DO NOTHING (no row lock on existing rows): no lock-order cycles.
    ids = {level: await _computer_player(conn, platform, level) for level in levels}
    return [
        seat.player_id if seat.player_id is not None else ids.get(seat.computer_level or "")
        for seat in seats
    ]


async def _computer_player(conn: AsyncConnection, platform: str, level: str) -> int:
    user_id = COMPUTER_PREFIX + level
    now = db.utcnow()
    await conn.execute(
        insert_for(conn, db.players)
        .values(platform=platform, user_id=user_id, name=computer_name(level),
                is_computer=True, created_at=now, updated_at=now)
        .on_conflict_do_nothing()
    )
    found = await conn.execute(
        select(db.players.c.id).where(
            db.players.c.platform == platform, db.players.c.user_id == user_id
        )
    )
    return found.scalar_one()


async def _update_ladders(
    conn: AsyncConnection,
    chat_id: str,
    rulebook: str,
    seats: Sequence[ResultSeat],
    competitors: Sequence[int | None],
    now: datetime,
    higher_is_better: bool = False,
) -> dict[int, float]:
    """Rate the game in its four ladders; guests (None) play at the default rating, unsaved.
    Returns each rated player's overall rating (all chats, all games) after it.

    Three round trips whatever the seat count: create missing rows, read, update (executemany).
    """
    rated = sorted({player for player in competitors if player is not None})
    if not rated:
        return {}
    ladders = [(chat_id, rulebook), (chat_id, ALL), (ALL, rulebook), (ALL, ALL)]
    rows = await _ladder_rows(conn, rated, ladders, chat_id, rulebook, now)
    changes = _ladder_changes(ladders, rows, seats, competitors, higher_is_better)
    s = db.standings.c
    await conn.execute(
        update(db.standings)
        .where(
            s.player_id == bindparam("k_player"),
            s.scope == bindparam("k_scope"),
            s.rulebook == bindparam("k_book"),
        )
        .values(
            mu=bindparam("v_mu"),
            sigma=bindparam("v_sigma"),
            rating=bindparam("v_rating"),
            games=s.games + bindparam("v_games"),
            wins=s.wins + bindparam("v_wins"),
            points=s.points + bindparam("v_points"),
            best_round=bindparam("v_best"),
            updated_at=now,
        ),
        changes,
    )
    return {c["k_player"]: c["v_rating"] for c in changes
            if c["k_scope"] == ALL and c["k_book"] == ALL}


async def _ladder_rows(conn: AsyncConnection, rated: list[int], ladders: list[tuple[str, str]],
                       chat_id: str, rulebook: str, now: datetime) -> dict[tuple, Any]:
    """The players' standing in each ladder (made at the default rating where missing)."""
    s = db.standings.c
    default = (DEFAULT_MU, DEFAULT_SIGMA)
    await conn.execute(
        insert_for(conn, db.standings).on_conflict_do_nothing(),
        [
            {"player_id": player, "scope": scope, "rulebook": book, "mu": DEFAULT_MU,
             "sigma": DEFAULT_SIGMA, "rating": display_rating(*default), "games": 0,
             "wins": 0.0, "points": 0, "updated_at": now}
            for player in rated
            for scope, book in ladders
        ],
    )
    return {
        (row.player_id, row.scope, row.rulebook): row
        for row in await conn.execute(
            select(s.player_id, s.scope, s.rulebook, s.mu, s.sigma, s.best_round).where(
                s.player_id.in_(rated),
                s.scope.in_([chat_id, ALL]),
                s.rulebook.in_([rulebook, ALL]),
            )
        )
    }


def _ladder_changes(ladders: list[tuple[str, str]], rows: dict[tuple, Any],
                    seats: Sequence[ResultSeat], competitors: Sequence[int | None],
                    higher_is_better: bool) -> list[dict[str, Any]]:
    """Each rated player's new standing in each ladder (a player in several seats: merged)."""
    default = (DEFAULT_MU, DEFAULT_SIGMA)
    current = {key: (row.mu, row.sigma) for key, row in rows.items()}
    best = max if higher_is_better else min
    seats_of: dict[int, list[int]] = defaultdict(list)
    for index, player in enumerate(competitors):
        if player is not None:
            seats_of[player].append(index)
    ranks = [seat.rank for seat in seats]
    changes = []
    for scope, book in ladders:
        priors = [
            default if player is None else current.get((player, scope, book), default)
            for player in competitors
        ]
        posteriors = rate_match(priors, ranks)
        for player, indexes in seats_of.items():
            mu, sigma = merge([posteriors[i] for i in indexes])
            changes.append({
                "k_player": player, "k_scope": scope, "k_book": book,
                "v_mu": mu, "v_sigma": sigma, "v_rating": display_rating(mu, sigma),
                "v_games": len(indexes),
                "v_wins": sum(float(seats[i].won) for i in indexes),
                "v_points": sum(int(seats[i].points) for i in indexes),
                # a rulebook's ladder keeps its best round (the all-rulebooks one has no way)
                "v_best": None if book == ALL else best(
                    (b for b in (rows[player, scope, book].best_round,
                                 *(seats[i].best_round for i in indexes)) if b is not None),
                    default=None),
            })
    return changes


async def leaderboard(
    conn: AsyncConnection, platform: str, chat_id: str | None, rulebook: str | None, limit: int
) -> list[LeaderRow]:
    s, p = db.standings.c, db.players.c
    rows = await conn.execute(
        select(p.name, p.is_computer, s.rating, s.games, s.wins, s.points)
        .join_from(db.standings, db.players, s.player_id == p.id)
        .where(
            p.platform == platform,
            s.scope == (ALL if chat_id is None else chat_id),
            s.rulebook == (rulebook or ALL),
            s.games > 0,
        )
        # Ties broken by wins, then experience, then name: a stable order for equal ratings.
        .order_by(s.rating.desc(), s.wins.desc(), s.games.desc(), p.name, p.id)
        .limit(limit)
    )
    return [
        LeaderRow(
            name=row.name, rating=row.rating, games=row.games, wins=row.wins,
            win_rate=row.wins / row.games, avg_points=row.points / row.games,
            is_computer=row.is_computer,
        )
        for row in rows
    ]


async def stats(
    conn: AsyncConnection, platform: str, user_id: str, rulebook: str | None, recent: int
) -> PlayerStats | None:
    """The player's totals (their standing: aggregates kept by `record_result`) and their
    `recent` newest games; None for no such player. Reads no more history than it returns."""
    p, s, r, rs = db.players.c, db.standings.c, db.results.c, db.result_seats.c
    player = (
        await conn.execute(
            select(p.id, p.name).where(p.platform == platform, p.user_id == user_id)
        )
    ).one_or_none()
    if player is None:
        return None
    standing = (
        await conn.execute(
            select(s.rating, s.games, s.wins, s.points).where(
                s.player_id == player.id, s.scope == ALL, s.rulebook == (rulebook or ALL)
            )
        )
    ).one_or_none()
    # the newest games, once: the history's `recent` and the curve's ratings (with a rulebook
    # asked for, the history is that rulebook's and the curve still every game's)
    newest = (
        select(r.finished_at, r.rulebook, rs.points, rs.won, rs.rating)
        .join_from(db.result_seats, db.results, rs.game_id == r.game_id)
        .where(rs.player_id == player.id)
        .order_by(r.finished_at.desc(), r.game_id.desc(), rs.seat_no)
    )
    rows = list(await conn.execute(newest.limit(max(recent, CURVE_GAMES))))
    curve = rows
    if rulebook:
        rows = list(await conn.execute(newest.where(r.rulebook == rulebook).limit(recent)))
    history = [(row.finished_at, row.rulebook, row.points, row.won) for row in rows[:recent]]
    ratings = [(row.finished_at, row.rating) for row in curve if row.rating is not None][::-1]
    games = standing.games if standing else 0
    wins = standing.wins if standing else 0.0
    return PlayerStats(
        name=player.name,
        games=games,
        wins=wins,
        win_rate=wins / games if games else 0.0,
        avg_points=standing.points / games if standing and games else 0.0,
        rating=standing.rating if standing else display_rating(DEFAULT_MU, DEFAULT_SIGMA),
        history=history,
        ratings=ratings,
        by_rulebook=await _by_rulebook(conn, player.id),
    )


async def _by_rulebook(conn: AsyncConnection, player: int) -> list[RulebookStats]:
    """The player's standing in each rulebook (over all chats), most played first, with the
    best round the ladder keeps: one indexed read, whatever their history."""
    s = db.standings.c
    standings = await conn.execute(
        select(s.rulebook, s.games, s.wins, s.points, s.best_round)
        .where(s.player_id == player, s.scope == ALL, s.rulebook != ALL, s.games > 0)
        .order_by(s.games.desc(), s.rulebook)
        .limit(RULEBOOK_ROWS)
    )
    return [RulebookStats(row.rulebook, row.games, row.wins, row.points / row.games,
                          row.best_round)
            for row in standings]
