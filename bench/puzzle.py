"""The puzzle of the day (issue 41 item 5: "cutting a day's puzzle from 100 finished rounds ≤ 2 s").

    .venv/bin/python bench/puzzle.py            # 100 finished rounds, every seat a person
    .venv/bin/python bench/puzzle.py --json     # ... and one JSON object last

Seeded computer games of four rulebooks are played until they hold ROUNDS finished rounds.
Measured (CPU clock, one process):
- the cut of each game (engine/rummy/puzzle.py through the wing: one replay, the solver at
  every decision of every seat), per finished round and for all of them at once;
- the day's post as the sweep makes it once the games are cut (bot/core/puzzles.py: the best
  cut of the chat's week read from the store, the claim, the picture) — median of 20 days.
The sweep cuts a game once, when it has finished, so a day's post pays only the second.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import statistics
import sys
import tempfile
import time
from datetime import UTC, datetime
from pathlib import Path

sys.path[0] = str(Path(__file__).resolve().parents[1])  # the repository's bot, not bench/bot.py

from bot.core.puzzles import Puzzles  # noqa: E402
from bot.core.record import Record, SeatInfo  # noqa: E402
from bot.core.views import Outcome  # noqa: E402
from bot.games import default_games  # noqa: E402
from bot.store import ResultSeat, Store  # noqa: E402
from bot.store.puzzles import Uncut  # noqa: E402
from engine.rummy.playout import play_game  # noqa: E402
from engine.rummy.puzzle import finished_rounds  # noqa: E402
from engine.rummy.rulebooks import get_rulebook  # noqa: E402

RULEBOOKS = ("manipulation", "rummikub", "tahiti", "carousel")
DAY = datetime(2026, 12, 7, 9, tzinfo=UTC).timestamp()


def games(rounds: int) -> list[Record]:
    """Finished three-seat games, every seat a person, until they hold `rounds` rounds."""
    out: list[Record] = []
    held, seed = 0, 0
    while held < rounds:
        seed += 1
        rulebook = RULEBOOKS[seed % len(RULEBOOKS)]
        state = play_game(get_rulebook(rulebook), ["easy", "medium", "hard"], seed,
                          check=False).state
        seats = [SeatInfo(n, user=str(i)) for i, n in enumerate(("Ann", "Ben", "Cy"))]
        out.append(Record(rulebook=rulebook, seats=seats, state=state.to_dict(), seed=seed))
        held += len(finished_rounds(state))
    return out


async def post_days(records: list[Record], days: int) -> list[float]:
    """The sweep's post of a day (cuts already stored), CPU seconds each."""
    hosted = default_games()
    with tempfile.TemporaryDirectory() as tmp:
        store = await Store.open(f"sqlite+aiosqlite:///{tmp}/bench.db")
        try:
            await store.set_puzzle("telegram", "g", True)
            rummy = hosted["rummy"]
            for record in records:
                game = await store.create_game("telegram", "g", record.to_dict(),
                                               status="playing")
                await store.record_result(game.id, record.rulebook, [
                    ResultSeat(k, None, s.name, None, 0, 0, 1) for k, s in enumerate(record.seats)])
                await store.save_game(game.id, record.to_dict(), expected_version=1,
                                      status="finished")
                cut = rummy.puzzle_cut(record)
                await store.claim_cut(Uncut(game.id, "telegram", "g",
                                            datetime.fromtimestamp(DAY - 3600, UTC), {}), "rummy")
                if cut is not None:
                    await store.save_cut(game.id, *cut)
            posted: list[Outcome] = []

            async def post(outcome: Outcome) -> None:
                for note in outcome.notes:
                    note.painter()  # the picture is drawn as the adapter would
                posted.append(outcome)

            now = [DAY]
            puzzles = Puzzles(store, post, lambda: now[0], "bench", hosted,
                              lambda record: hosted[record.game_name], no_try)
            times = []
            for day in range(days):
                now[0] = DAY + day * 86400
                started = time.process_time()
                await puzzles.sweep()
                times.append(time.process_time() - started)
            assert len(posted) == min(days, sum(1 for r in records if rummy.puzzle_cut(r)))
            return times
        finally:
            await store.close()


async def no_try(*_args: object) -> Outcome:
    raise AssertionError("the bench presses no [Solve]")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--rounds", type=int, default=100)
    parser.add_argument("--days", type=int, default=5)
    parser.add_argument("--json", action="store_true")
    args = parser.parse_args()
    records = games(args.rounds)
    rummy = default_games()["rummy"]
    per_round: list[float] = []
    total = 0.0
    found = 0
    for record in records:
        started = time.process_time()
        found += rummy.puzzle_cut(record) is not None
        spent = time.process_time() - started
        total += spent
        rounds = len(finished_rounds(rummy.load(record)))
        per_round.extend([spent / rounds] * rounds)
    rounds = len(per_round)
    days = asyncio.run(post_days(records, args.days))
    post_ms = statistics.median(days) * 1000
    rows = [
        ("finished rounds / games", f"{rounds} / {len(records)}"),
        ("games giving a puzzle", f"{found}"),
        ("cut per round, median", f"{statistics.median(per_round) * 1000:.0f} ms"),
        ("cut per round, slowest game's", f"{max(per_round) * 1000:.0f} ms"),
        (f"cut of all {rounds} rounds at once", f"{total:.2f} s"),
        ("a day's post from the cuts (median)", f"{post_ms:.0f} ms  (target ≤ 2,000 ms)"),
    ]
    width = max(len(k) for k, _ in rows)
    print(f"{'puzzle of the day':<{width}}  value")
    for key, value in rows:
        print(f"{key:<{width}}  {value}")
    if args.json:
        print(json.dumps({
            "rounds": rounds, "games": len(records), "puzzles": found,
            "cut_per_round_ms": round(statistics.median(per_round) * 1000, 1),
            "cut_all_s": round(total, 2), "post_day_ms": round(post_ms, 1),
        }))


if __name__ == "__main__":
    main()
