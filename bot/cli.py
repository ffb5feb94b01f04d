"""`rummy` — the command line: play in the terminal, simulate computer games."""

from __future__ import annotations

import argparse
import contextlib
import sys

from engine.rummy import ALL_RULEBOOKS


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
    play.add_argument("--game", default="rummy", choices=("rummy", "build-to-ten"),
                      help="which game (--rulebook and --option are the rummy family's)")
    play.add_argument("--rulebook", default="manipulation", choices=ALL_RULEBOOKS)
    play.add_argument("--option", action="append", default=[], metavar="KEY=VALUE")
    play.add_argument("--seats", default="you,cpu,cpu", help="e.g. you,cpu:easy,cpu:medium")
    play.add_argument("--seed", type=int, default=None)
    play.add_argument("--new", action="store_true",
                      help="end the unfinished terminal game (if any) and start a new one")
    play.add_argument("--data", default="data", metavar="DIR",
                      help="where the terminal keeps its games (DIR/terminal.db)")
    play.add_argument("--name", default=None, help="your name at the table")
    play.add_argument("--lang", default=None, choices=("en", "he", "ru"),
                      help="the language (default: the environment's locale, LC_ALL/LANG)")
    play.add_argument("--web", action="store_true",
                      help="play on a web page served on 127.0.0.1 (prints its address)")
    play.add_argument("--port", type=int, default=8765, help="the --web page's port (0: any)")
    play.add_argument("--pictures", default=None, metavar="DIR",
                      help="also write the newest pictures (table.png, hand.png…) here")

    sim = sub.add_parser("simulate", help="play computer-only games and check every rule")
    sim.add_argument("--game", default="rummy", choices=("rummy", "build-to-ten"),
                     help="which game (--rulebook and --option are the rummy family's)")
    sim.add_argument("--rulebook", default="manipulation", choices=ALL_RULEBOOKS)
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
    les.add_argument("--rulebook", default=None, choices=ALL_RULEBOOKS,
                     help="which lesson (default: the unfinished one, else manipulation)")
    les.add_argument("--data", default="data", metavar="DIR",
                     help="where the terminal keeps its games and lessons (DIR/terminal.db)")
    les.add_argument("--name", default=None, help="your name")
    les.add_argument("--lang", default=None, choices=("en", "he", "ru"),
                     help="the language (default: the environment's locale, LC_ALL/LANG)")

    mig = sub.add_parser("migrate", help="bring the database to the newest schema")
    mig.add_argument("--url", default=None, help="database URL (default: DATABASE_URL or SQLite)")

    run = sub.add_parser("run", help="run the bot (TELEGRAM_TOKEN and/or DISCORD_TOKEN)")
    run.add_argument("--url", default=None, help="database URL (default: DATABASE_URL or SQLite)")

    args = parser.parse_args(argv)
    if args.command == "lesson":
        return _lesson(args)
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
    """The terminal game: a console platform over the same game service as the chats."""
    import asyncio
    import logging
    from pathlib import Path

    from bot.adapters.console import Setup, parse_seats, play, store_url
    from bot.games import default_games
    from engine.rummy import get_rulebook

    games = default_games()
    game = games[args.game]  # --game's choices are the registry's names
    computers, you_first = parse_seats(args.seats, game.levels, game.max_seats)
    if args.game == "build-to-ten":
        args.rulebook = "build-to-ten"  # the game's name: the core opens that game
    else:
        get_rulebook(args.rulebook, **options)  # unknown options: a clear error before any game
    data = Path(args.data)
    data.mkdir(parents=True, exist_ok=True)
    # Problems go to a log file, never as a traceback across the table.
    logging.basicConfig(
        filename=data / "terminal.log",
        level=logging.WARNING,
        format="%(asctime)s %(levelname)s %(name)s: %(message)s",
    )
    setup = Setup(args.rulebook, options, computers, you_first)
    try:
        if args.web:
            from bot.web.local import play_web

            lang = args.lang or _environment_language()
            asyncio.run(play_web(setup, url=store_url(data), seed=args.seed, new=args.new,
                                 name=args.name or _your_name(lang), port=args.port, lang=lang,
                                 data=data))
            return 0
        asyncio.run(
            play(
                setup,
                url=store_url(data),
                games=games,
                seed=args.seed,
                new=args.new,
                name=args.name or _your_name(args.lang or _environment_language()),
                pictures=Path(args.pictures) if args.pictures else None,
                lang=args.lang or _environment_language(),
            )
        )
    except KeyboardInterrupt:
        print("\nBye — the game is saved; `rummy play` picks it up again.")
    except Exception as error:  # the log file has the details
        logging.getLogger("rummy").exception("rummy play failed")
        print(f"rummy: {error} (details in {data / 'terminal.log'})", file=sys.stderr)
        return 1
    return 0


def _environment_language() -> str:
    """The terminal's language from the locale variables, as gettext reads them."""
    import os

    from bot.i18n import normalize

    for var in ("LANGUAGE", "LC_ALL", "LC_MESSAGES", "LANG"):
        value = os.environ.get(var, "").split(":")[0]
        if value and value not in ("C", "POSIX"):
            return normalize(value)
    return "en"


def _lesson(args: argparse.Namespace) -> int:
    """The terminal lesson: the game service on the console platform, kept in the same
    store as `rummy play` (an unfinished lesson is picked up again)."""
    import logging
    from pathlib import Path

    from bot.adapters.console import store_url
    from bot.adapters.console_lesson import run_lesson
    from bot.games import default_games

    data = Path(args.data)
    data.mkdir(parents=True, exist_ok=True)
    logging.basicConfig(
        filename=data / "terminal.log",
        level=logging.WARNING,
        format="%(asctime)s %(levelname)s %(name)s: %(message)s",
    )
    try:
        run_lesson(args.rulebook, url=store_url(data), name=args.name or _your_name(),
                   lang=args.lang or _environment_language(), games=default_games())
    except KeyboardInterrupt:
        print("\nBye — the lesson is saved; `rummy lesson` picks it up again.")
    except Exception as error:  # the log file has the details
        logging.getLogger("rummy").exception("rummy lesson failed")
        print(f"rummy: {error} (details in {data / 'terminal.log'})", file=sys.stderr)
        return 1
    return 0


def _your_name(lang: str = "") -> str:
    """The local seat's name: the login's, else "Player" in the player's language."""
    import getpass

    from bot.i18n import _, using

    with contextlib.suppress(Exception):
        name = getpass.getuser().strip()
        if name and name != "root":
            return name.title()
    with using(lang or "en"):
        return _("Player")


def _simulate(args: argparse.Namespace, options: dict) -> int:
    from bot.simulate import print_summary, simulate

    if args.seats:
        seats = [s.strip() for s in args.seats.split(",")]
    else:
        seats = ["medium"] * (args.players or 2)
    if args.players and len(seats) != args.players:
        raise ValueError("--players and --seats disagree")
    if args.game == "build-to-ten":
        from bot import simulate_buildten

        summary = simulate_buildten.simulate(
            seats, args.games, args.seed, jobs=args.jobs, clock=args.clock
        )
        print_summary(summary, args.json)
        return 1 if summary.violations else 0
    summary = simulate(
        args.rulebook, seats, args.games, args.seed, options, jobs=args.jobs, clock=args.clock
    )
    print_summary(summary, args.json)
    return 1 if summary.violations else 0


if __name__ == "__main__":
    sys.exit(main())
