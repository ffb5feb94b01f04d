"""What a saved move adds to the store's own tables: the seats, finished rounds, the result.

Pure functions of the record before and after the move; the store writes what they return in
the same transaction as the record itself."""

from __future__ import annotations

from bot.store import GameExists, GameResult, ResultSeat, RoundRow, SeatRow, StaleGame

__all__ = ["GameExists", "StaleGame", "new_result", "new_rounds", "seat_rows"]  # and the
# store's two refusals of a write, for the platform's own writers (a lesson's new row)

from .hosting import HostedGame
from .record import Record


def seat_rows(record: Record) -> list[SeatRow]:
    return [SeatRow(i, x.player_id, x.name, x.computer) for i, x in enumerate(record.seats)]


def new_rounds(game: HostedGame, before: dict | None, record: Record) -> list[RoundRow]:
    """The rounds this move finished, with running totals (a repeat is a no-op in the store).
    Read from the saved state's JSON: no need to rebuild the game on every save."""
    if record.state is None:
        return []
    rounds = game.rounds(record.state)
    done_before = len(game.rounds(before)) if before else 0
    seats = len(record.seats)
    return [
        RoundRow(
            i + 1,
            list(rounds[i]),
            [sum(r[k] for r in rounds[: i + 1]) for k in range(seats)],
        )
        for i in range(done_before, len(rounds))
    ]


def new_result(game: HostedGame, before: dict | None, record: Record) -> GameResult | None:
    """The game's result if this move ended it."""
    if before is not None and game.is_over(before):
        return None
    result = game.results(record)
    if result is None:
        return None
    totals, winners = list(result.totals), list(result.winners)
    higher = result.higher_is_better
    ranks = _ranks(totals, winners, higher)
    rounds = game.rounds(record.state) if record.state is not None else []
    best = max if higher else min
    return GameResult(
        record.rulebook,
        [
            ResultSeat(
                k,
                info.player_id,
                info.name,
                None if info.was_human else info.computer,
                int(totals[k]),
                (1 / len(winners)) if k in winners else 0.0,
                ranks[k],
                best((int(r[k]) for r in rounds if k < len(r)), default=None),
            )
            for k, info in enumerate(record.seats)
        ],
        higher,
    )


def _ranks(totals: list[int], winners: list[int], higher_better: bool) -> list[int]:
    """Winners rank 1; the others after them, by their totals (ties share a rank)."""
    n = len(totals)

    def better(a: int, b: int) -> bool:
        return totals[a] > totals[b] if higher_better else totals[a] < totals[b]

    return [
        1
        if k in winners
        else 1 + len(winners) + sum(1 for j in range(n) if j not in winners and better(j, k))
        for k in range(n)
    ]
