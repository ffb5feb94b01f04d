"""`rummy` — the command line: play in the terminal, simulate computer games."""

from __future__ import annotations

import argparse
import contextlib
import os
import select
import signal
import sys
import textwrap
from collections.abc import Callable, Iterator
from typing import Any

from engine.rummy import ALL_RULEBOOKS
from engine.rummy.rulebooks import option_choices


def _options(pairs: list[str]) -> dict[str, str]:
    out = {}
    for pair in pairs:
        key, sep, value = pair.partition("=")
        if not sep:
            raise SystemExit(f"--option takes key=value, like must_lay=trust (got {pair!r})")
        out[key.strip()] = value.strip()
    return out


RULEBOOK_HELP = "the rulebook: %(choices)s (default: %(default)s; docs/rules.md has them all)"
OPTION_HELP = ("a rulebook's option, KEY=VALUE; repeat it for several "
               "(the keys and values of each rulebook are listed below)")


def _options_epilog() -> str:
    """Each rulebook's --option keys and values (the first value is the default), from the
    rulebooks themselves."""
    lines = ["rulebook options (--option KEY=VALUE; the first value is the default):"]
    for name in ALL_RULEBOOKS:
        choices = option_choices(name)
        said = "; ".join(f"{key}={'|'.join(map(str, values))}" for key, values in choices.items())
        lines += textwrap.wrap(said or "no options", 78, initial_indent=f"  {name + ':':<14} ",
                               subsequent_indent=" " * 17)
    return "\n".join(lines)


def _parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(
        prog="rummy", description="Rummy Table: rearrangement rummy in the terminal, and the "
        "Telegram/Discord bot. `rummy COMMAND --help` tells each command's flags.")
    sub = parser.add_subparsers(dest="command", required=True, metavar="COMMAND")
    epilog = _options_epilog()
    _play_parser(sub, epilog)
    _simulate_parser(sub, epilog)
    _room_parsers(sub)
    return parser


def _play_parser(sub: Any, epilog: str) -> None:
    play = sub.add_parser("play", help="play in the terminal against computer players",
                          epilog=epilog, formatter_class=argparse.RawDescriptionHelpFormatter)
    play.add_argument("--game", default="rummy", choices=("rummy", "build-to-ten"),
                      help="which game (--rulebook and --option are the rummy family's)")
    play.add_argument("--rulebook", default="manipulation", choices=ALL_RULEBOOKS,
                      metavar="NAME", help=RULEBOOK_HELP)
    play.add_argument("--option", action="append", default=[], metavar="KEY=VALUE",
                      help=OPTION_HELP)
    play.add_argument("--seats", default="you,cpu,cpu", help="e.g. you,cpu:easy,cpu:medium")
    play.add_argument("--seed", type=int, default=None, metavar="N",
                      help="shuffle with this seed: the same deal again (default: random)")
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
    play.add_argument("--party", action="store_true",
                      help="host a game for a room instead: the same as `rummy party`")
    play.add_argument("--host", default=None,
                      help="--party: the address to listen on (default: every interface)")
    play.add_argument("--pictures", default=None, metavar="DIR",
                      help="also write the newest pictures (table.png, hand.png…) here")


def _simulate_parser(sub: Any, epilog: str) -> None:
    sim = sub.add_parser("simulate", help="play computer-only games and check every rule",
                         epilog=epilog, formatter_class=argparse.RawDescriptionHelpFormatter)
    sim.add_argument("--game", default="rummy", choices=("rummy", "build-to-ten"),
                     help="which game (--rulebook and --option are the rummy family's)")
    sim.add_argument("--rulebook", default="manipulation", choices=ALL_RULEBOOKS,
                     metavar="NAME", help=RULEBOOK_HELP)
    sim.add_argument("--option", action="append", default=[], metavar="KEY=VALUE",
                     help=OPTION_HELP)
    sim.add_argument("--players", type=int, default=None, metavar="N",
                     help="how many computer seats, all medium (default: 2; or name them "
                     "with --seats)")
    sim.add_argument("--seats", default=None, help="levels, e.g. medium,easy,easy")
    sim.add_argument("--games", type=int, default=100, metavar="N",
                     help="how many games to play (default: %(default)s)")
    sim.add_argument("--seed", type=int, default=1, metavar="N",
                     help="the first game's seed; game i plays seed N+i (default: %(default)s)")
    sim.add_argument("--jobs", type=int, default=1, help="play games in this many processes")
    sim.add_argument("--clock", default="wall", choices=("wall", "cpu"),
                     help="time decisions on the wall clock or the process's CPU clock")
    sim.add_argument("--json", action="store_true", help="also print one JSON object, last")


def _room_parsers(sub: Any) -> None:
    """lesson, party, migrate and run."""
    les = sub.add_parser("lesson", help="a guided lesson in the terminal")
    les.add_argument("--rulebook", default=None, choices=ALL_RULEBOOKS, metavar="NAME",
                     help="which lesson: %(choices)s (default: the unfinished one, else "
                     "manipulation)")
    les.add_argument("--data", default="data", metavar="DIR",
                     help="where the terminal keeps its games and lessons (DIR/terminal.db)")
    les.add_argument("--name", default=None, help="your name")
    les.add_argument("--lang", default=None, choices=("en", "he", "ru"),
                     help="the language (default: the environment's locale, LC_ALL/LANG)")

    party = sub.add_parser(
        "party", help="host a game for a room: each player on their own phone, on this "
        "network (no internet, no bot token); prints the address and a QR code")
    party.add_argument("--host", default="0.0.0.0",
                       help="the address to listen on (default: every interface)")
    party.add_argument("--port", type=int, default=8765, help="the port (0: any)")
    party.add_argument("--data", default="data", metavar="DIR",
                       help="where the party keeps its games (DIR/party.db)")

    mig = sub.add_parser("migrate", help="bring the database to the newest schema")
    mig.add_argument("--url", default=None, help="database URL (default: DATABASE_URL or SQLite)")

    run = sub.add_parser("run", help="run the bot (TELEGRAM_TOKEN and/or DISCORD_TOKEN)")
    run.add_argument("--url", default=None, help="database URL (default: DATABASE_URL or SQLite)")


def main(argv: list[str] | None = None) -> int:
    args = _parser().parse_args(argv)
    if args.command == "lesson":
        return _lesson(args)
    if args.command == "party" or (args.command == "play" and args.party):
        return _party(args)
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

    from bot.adapters.console import BYE, Setup, parse_seats, play, store_url
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
    lang = args.lang or _environment_language()
    try:
        if args.web:
            from bot.web.local import play_web

            asyncio.run(play_web(setup, url=store_url(data), seed=args.seed, new=args.new,
                                 name=args.name or _your_name(lang), port=args.port, lang=lang,
                                 data=data))
            return 0
        with _one_ctrl_c() as read:
            asyncio.run(
                play(
                    setup,
                    read=read,
                    url=store_url(data),
                    games=games,
                    seed=args.seed,
                    new=args.new,
                    name=args.name or _your_name(lang),
                    pictures=Path(args.pictures) if args.pictures else None,
                    lang=lang,
                )
            )
    except KeyboardInterrupt:  # pressed while the computers moved: every move is saved
        _say_bye(BYE, lang)
    except Exception as error:  # the log file has the details
        logging.getLogger("rummy").exception("rummy play failed")
        print(f"rummy: {error} (details in {data / 'terminal.log'})", file=sys.stderr)
        return 1
    return 0


@contextlib.contextmanager
def _one_ctrl_c() -> Iterator[Callable[[str], str]]:
    """Ctrl-C raises KeyboardInterrupt while a line is read, at once; yields that reading
    function. asyncio.run's own handler would only cancel the main task — which waits for a
    line — so a first press did nothing and quitting took two (issue 44); with a handler of
    our own, asyncio.run leaves SIGINT alone. A signal goes to any thread that does not block
    it (aiosqlite's, the executor's), where it would wait for the main thread's next line: so
    SIGINT stays blocked in the main thread — every thread started meanwhile inherits that —
    and is let in only while it reads a line (a press while the computers move: at the next
    prompt). The line is read by select() on the terminal and the signal's wakeup pipe, not by
    input(): a press landing after input() printed its prompt but before it blocked in read()
    was handled in C and left the read waiting for Enter (1 run in 12 under load)."""

    def interrupt(_signum: int, _frame: object) -> None:
        raise KeyboardInterrupt

    masks = hasattr(signal, "pthread_sigmask")  # (not on Windows: there, as asyncio.run does)
    sigint = {signal.SIGINT}
    before = signal.signal(signal.SIGINT, interrupt)
    if not masks:
        try:
            yield input
        finally:
            signal.signal(signal.SIGINT, before)
        return
    wake_r, wake_w = os.pipe()
    os.set_blocking(wake_r, False)
    os.set_blocking(wake_w, False)
    old_wake = signal.set_wakeup_fd(wake_w)
    pending = bytearray()  # what the terminal sent past the last line read

    def read(prompt: str) -> str:
        signal.pthread_sigmask(signal.SIG_UNBLOCK, sigint)  # a press waiting: raised here
        try:
            if not sys.stdin.isatty():  # a pipe or a test's input: nobody presses Ctrl-C there
                return input(prompt)
            print(prompt, end="", flush=True)
            while b"\n" not in pending:
                ready, _w, _x = select.select([sys.stdin.fileno(), wake_r], [], [])
                if wake_r in ready and signal.SIGINT in os.read(wake_r, 64):
                    raise KeyboardInterrupt  # (the handler raises the same, if it runs first)
                if sys.stdin.fileno() in ready:
                    chunk = os.read(sys.stdin.fileno(), 4096)
                    if not chunk:  # end of input: the last line, else EOFError as input()
                        if pending:
                            break
                        raise EOFError
                    pending.extend(chunk)
            line, _nl, rest = bytes(pending).partition(b"\n")
            pending[:] = rest
            return line.decode("utf-8", "replace").rstrip("\r")
        finally:
            signal.pthread_sigmask(signal.SIG_BLOCK, sigint)

    signal.pthread_sigmask(signal.SIG_BLOCK, sigint)
    try:
        yield read
    finally:
        signal.pthread_sigmask(signal.SIG_UNBLOCK, sigint)
        signal.set_wakeup_fd(old_wake)
        signal.signal(signal.SIGINT, before)
        os.close(wake_r)
        os.close(wake_w)


def _party(args: argparse.Namespace) -> int:
    """`rummy party` (and `rummy play --party`): the lobby and the web table for a room, on
    this machine's network, until Ctrl-C (every action is saved: a restart carries on)."""
    import asyncio
    import logging
    from pathlib import Path

    from bot.web.party import run_party

    data = Path(args.data)
    data.mkdir(parents=True, exist_ok=True)
    logging.basicConfig(filename=data / "party.log", level=logging.WARNING,
                        format="%(asctime)s %(levelname)s %(name)s: %(message)s")
    host = getattr(args, "host", None) or "0.0.0.0"
    try:
        asyncio.run(run_party(data=data, host=host, port=args.port))
    except KeyboardInterrupt:
        print("\nBye — the party is saved; `make play ARGS=--party` carries on where it was.")
    except OSError as error:  # the port taken, an address not this machine's
        print(f"rummy party: {error}", file=sys.stderr)
        return 1
    return 0


def _say_bye(msgid: str, lang: str) -> None:
    from bot.i18n import _, using

    with using(lang):
        print("\n" + _(msgid))


def _environment_language() -> str:
    """The terminal's language from the locale variables, as gettext reads them."""
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
    from bot.adapters.console_lesson import LESSON_BYE, run_lesson
    from bot.games import default_games

    data = Path(args.data)
    data.mkdir(parents=True, exist_ok=True)
    logging.basicConfig(
        filename=data / "terminal.log",
        level=logging.WARNING,
        format="%(asctime)s %(levelname)s %(name)s: %(message)s",
    )
    lang = args.lang or _environment_language()
    try:
        with _one_ctrl_c() as read:
            run_lesson(args.rulebook, read=read, url=store_url(data),
                       name=args.name or _your_name(), lang=lang, games=default_games())
    except KeyboardInterrupt:
        _say_bye(LESSON_BYE, lang)
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
