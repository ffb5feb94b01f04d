"""`rummy` — the command line: play in the terminal, simulate computer games."""

from __future__ import annotations

import argparse
import random
import sys

from engine import RULEBOOKS


def _options(pairs: list[str]) -> dict[str, str]:
    out = {}
    for pair in pairs:
        key, sep, value = pair.partition("=")
        if not sep:
            raise SystemExit(f"--option takes key=value, like must_lay=trust (got {pair!r})")
        out[key.strip()] = value.strip()
    return out


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="rummy", description="Rummy Table")
    sub = parser.add_subparsers(dest="command", required=True)

    play = sub.add_parser("play", help="play in the terminal against computer players")
    play.add_argument("--rulebook", default="manipulation", choices=RULEBOOKS)
    play.add_argument("--option", action="append", default=[], metavar="KEY=VALUE")
    play.add_argument("--seats", default="you,cpu,cpu", help="e.g. you,cpu:easy,cpu:medium")
    play.add_argument("--seed", type=int, default=None)

    sim = sub.add_parser("simulate", help="play computer-only games and check every rule")
    sim.add_argument("--rulebook", default="manipulation", choices=RULEBOOKS)
    sim.add_argument("--option", action="append", default=[], metavar="KEY=VALUE")
    sim.add_argument("--players", type=int, default=None)
    sim.add_argument("--seats", default=None, help="levels, e.g. medium,easy,easy")
    sim.add_argument("--games", type=int, default=100)
    sim.add_argument("--seed", type=int, default=1)
    sim.add_argument("--jobs", type=int, default=1, help="play games in this many processes")
    sim.add_argument("--clock", default="wall", choices=("wall", "cpu"),
                     help="time decisions on the wall clock or the process's CPU clock")
    sim.add_argument("--json", action="store_true", help="also print one JSON object, last")

    les = sub.add_parser("lesson", help="a guided lesson in the terminal")
    les.add_argument("--rulebook", default="manipulation", choices=RULEBOOKS)

    mig = sub.add_parser("migrate", help="bring the database to the newest schema")
    mig.add_argument("--url", default=None, help="database URL (default: DATABASE_URL or SQLite)")

    run = sub.add_parser("run", help="run the bot (TELEGRAM_TOKEN and/or DISCORD_TOKEN)")
    run.add_argument("--url", default=None, help="database URL (default: DATABASE_URL or SQLite)")

    args = parser.parse_args(argv)
    if args.command == "lesson":
        from bot.adapters.console_lesson import run_lesson

        run_lesson(args.rulebook)
        return 0
    if args.command == "migrate":
        from bot.store import migrate

        print(migrate(args.url))
        return 0
    if args.command == "run":
        from bot.app import run_bots

        return run_bots(args.url)
    try:
        options = _options(args.option)
        if args.command == "play":
            return _play(args, options)
        return _simulate(args, options)
    except ValueError as error:
        print(f"rummy: {error}", file=sys.stderr)
        return 2


def _play(args: argparse.Namespace, options: dict) -> int:
    from bot.adapters.console import ConsoleGame, parse_seats

    seats = parse_seats(args.seats)
    seed = args.seed if args.seed is not None else random.SystemRandom().randrange(10**9)
    game = ConsoleGame(args.rulebook, seats, seed, options)
    game.run()
    return 0


def _simulate(args: argparse.Namespace, options: dict) -> int:
    from bot.simulate import print_summary, simulate

    if args.seats:
        seats = [s.strip() for s in args.seats.split(",")]
    else:
        seats = ["medium"] * (args.players or 2)
    if args.players and len(seats) != args.players:
        raise ValueError("--players and --seats disagree")
    summary = simulate(
        args.rulebook, seats, args.games, args.seed, options, jobs=args.jobs, clock=args.clock
    )
    print_summary(summary, args.json)
    return 1 if summary.violations else 0


if __name__ == "__main__":
    sys.exit(main())
