"""A corpus of screens → each adapter's widgets, for many states of every game and phase: the
lobby (every game, variant, menu and language, options cycled), seeded games of every rummy
rulebook (Rummikub's paged racks), Build-to-Ten, the toy game, score screens and reviews. A
person's seat presses buttons of its own screens at random (seeded), so the modes (Add to ▸,
Take from ▸, a group's cards, a joker's meaning, pages, a card's targets) all show up.

    .venv/bin/python scripts/screen_corpus.py --save /tmp/corpus_before.json
    ... change the screens or the adapters ...
    .venv/bin/python scripts/screen_corpus.py --check /tmp/corpus_before.json

Recorded per screen: Telegram's keyboard (each button's label and callback data, exactly as
sent) and Discord's components (bot/adapters/discord_layout.py). --check fails when any
Telegram keyboard differs, and counts the Discord layouts that changed (they may, where the
layout improves: --show prints them). tests/test_screen_parts.py runs a small corpus both
ways.
"""

from __future__ import annotations

import argparse
import contextlib
import dataclasses
import hashlib
import json
import random
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "tests"))

from bot.adapters.discord_layout import layout  # noqa: E402
from bot.adapters.telegram import keyboard  # noqa: E402
from bot.core import buttons  # noqa: E402
from bot.core.buttons import Press  # noqa: E402
from bot.core.hosting import Refusal, Table, hosted  # noqa: E402
from bot.core.lobby import MENUS, lobby_screen  # noqa: E402
from bot.core.record import Record, SeatInfo  # noqa: E402
from bot.core.views import Screen  # noqa: E402
from bot.games import default_games  # noqa: E402
from bot.i18n import LANGUAGES  # noqa: E402

RUMMY = ("manipulation", "machiavelli", "shanghai", "guadeloupe", "carousel", "vatican",
         "tahiti", "rummikub")


def wire(screen: Screen) -> dict:
    """What the adapters send for a screen: Telegram's keyboard, Discord's components."""
    markup = keyboard(screen)
    tg = [] if markup is None else [[[b.text, b.callback_data] for b in row]
                                    for row in markup.inline_keyboard]
    dc = [[dataclasses.asdict(spec) | {"type": type(spec).__name__} for spec in row]
          for row in layout(screen)]
    return {"text": screen.text, "telegram": tg, "discord": dc}


def _games() -> dict:
    try:  # every game the tests host: the bot's and the third game's (tests/all_games.py)
        from all_games import GAMES
    except ImportError:  # (tests/ not on the path)
        GAMES = default_games()
    games = dict(GAMES)
    for game in games.values():  # as the service does: every game's button verbs
        buttons.register(game.vocabulary)
    return games


def lobbies(out: list) -> None:
    for name, game in _games().items():
        for variant in game.variants():
            for lang in LANGUAGES:
                record = Record(rulebook=variant.name, host="1", lang=lang, game_name=name,
                                seats=[SeatInfo("Dana", "1", 1)])
                for menu in MENUS:
                    out.append((f"lobby/{name}/{variant.name}/{lang}/{menu}",
                                lobby_screen(game, 7, record, menu)))
                # every option's every value, one at a time, and each timer
                settings = game.settings(variant.name, {})
                for key, values in variant.options.items():
                    for value in values[1:]:
                        try:
                            s = game.settings(variant.name, {**settings.options, key: value})
                        except ValueError:
                            continue
                        rec = dataclasses.replace(record, options=dict(s.options),
                                                  turn_seconds=180)
                        out.append((f"lobby/{name}/{variant.name}/{lang}/opt/{key}={value}",
                                    lobby_screen(game, 7, rec, "options")))


def _actions(screen: Screen) -> list[str]:
    seen = [b.action for row in screen.buttons for b in row] + [b.action for b in screen.cards]
    return [a for a in dict.fromkeys(seen)  # (each once: the hand's page is in both)
            if a not in ("noop", "cards") and not a.startswith("review")]


def play(out: list, name: str, variant: str, seed: int, lang: str, steps: int) -> None:
    game = _games()[name]
    rng = random.Random(seed * 7919 + len(variant))
    record = Record(rulebook=variant, seed=seed, game_name=name, lang=lang,
                    options={"turn_timer": 60} if variant == "rummikub" else {},
                    seats=[SeatInfo("Dana", user="u0", lang=lang),
                           SeatInfo("C1", computer="easy"), SeatInfo("C2", computer="medium")])
    table = Table(9, record, lambda: 0.0)
    tag = f"game/{name}/{variant}/{seed}/{lang}"
    n = 0

    def keep(outcome, where: str) -> None:
        nonlocal n
        if outcome is None:
            return
        for kind, screen in (("group", outcome.group), *(("private", s) for s in
                                                          outcome.private.values()),
                             *(("note", s) for s in outcome.notes)):
            if screen is not None:
                out.append((f"{tag}/{n}/{where}/{kind}", screen))
        n += 1

    keep(game.start(table), "start")
    presses = 0
    for _step in range(steps):
        if game.is_over(record.state):
            break
        mover = game.to_move(record.state)
        version = record.state["version"]
        if mover is None:  # between rounds: a review, then on
            rnd = record.state.get("round", 1)
            with contextlib.suppress(Exception):
                out.append((f"{tag}/{n}/review", game.review(table, 0, rnd)))
            keep(game.press(table, 0, "u0", Press(9, version, "next", ())), "next")
            continue
        if record.seats[mover].is_computer:
            keep(game.computer_step(table), "cpu")
            continue
        screen = game.private_screen(table, mover)
        out.append((f"{tag}/{n}/mine", screen))
        actions = _actions(screen)
        presses += 1
        if not actions or presses > 25:
            presses = 0
            keep(game.play_for(table, mover), "for")
            continue
        press = buttons.parse_action(rng.choice(actions))
        assert press is not None, actions
        try:
            keep(game.press(table, mover, "u0", Press(9, version, press.verb, press.args)),
                 "press")
        except Refusal as refusal:  # (the platform answers it: its outcome's screens)
            keep(refusal.outcome, "refused")
    if game.is_over(record.state):
        with contextlib.suppress(Exception):
            out.append((f"{tag}/end/review", game.review(table, 0, None)))


def lessons(out: list, seed: int, steps: int, lang: str = "en") -> None:
    """Every rummy lesson, its learner pressing its own screen's buttons at random (seeded)."""
    game = _games()["rummy"]
    if not hasattr(game, "lesson"):  # (before lessons were a variant of the hosted game)
        return
    from bot.games.rummy.lessons import LESSONS

    for name in LESSONS:
        rng = random.Random(seed * 31 + len(name))
        record = Record(rulebook="rummy", game_name="rummy", lang=lang,
                        seats=[SeatInfo("Dana", user="u0", lang=lang)])
        table = Table(5, record, lambda: 0.0)
        tag = f"lesson/{name}/{seed}" + ("" if lang == "en" else f"/{lang}")
        outcome = game.lesson(table, game.lesson_options(name))
        game = hosted(_games()["rummy"], record)  # the lesson variant, as the platform finds it
        for n in range(steps):
            for user, screen in outcome.private.items():
                out.append((f"{tag}/{n}/{user}", screen))
            screen = game.private_screen(table, 0)
            actions = [a for a in _actions(screen) if a not in ("quit", "play")]
            if not actions:
                break
            press = buttons.parse_action(rng.choice(actions))
            assert press is not None, actions
            try:
                outcome = game.press(table, 0, "u0", Press(5, screen.version, press.verb,
                                                           press.args))
            except Refusal as refusal:
                outcome = refusal.outcome or type(outcome)()


def corpus(small: bool = False) -> list[tuple[str, Screen]]:
    out: list[tuple[str, Screen]] = []
    lobbies(out)
    seeds = (1,) if small else (1, 2, 3)
    steps = 150 if small else 600
    for variant in RUMMY:
        for seed in seeds:
            play(out, "rummy", variant, seed, "en", steps)
    play(out, "rummy", "rummikub", 5, "he", steps)
    play(out, "rummy", "manipulation", 5, "ru", steps)
    for seed in seeds:
        play(out, "build-to-ten", "buildten", seed, "en", steps)
    play(out, "build-to-ten", "buildten", 5, "he", steps)
    lessons(out, 1, 40 if small else 150)
    for name, game in _games().items():  # the tests' own games: each one's last variant
        if name not in default_games():
            played = [v.name for v in game.variants() if v.options]
            play(out, name, played[-1], 1, "en", steps)
    return out


def record_all(small: bool = False) -> dict[str, dict]:
    seen: dict[str, dict] = {}
    for key, screen in corpus(small):
        seen[key] = wire(screen)
    return seen


def main() -> int:
    parser = argparse.ArgumentParser()
    parser.add_argument("--save")
    parser.add_argument("--check")
    parser.add_argument("--small", action="store_true")
    parser.add_argument("--show", type=int, default=0, help="print this many Discord changes")
    args = parser.parse_args()
    now = json.loads(json.dumps(record_all(args.small), ensure_ascii=False))  # as saved
    digest = hashlib.sha256(json.dumps(
        {k: v["telegram"] for k, v in now.items()}, sort_keys=True).encode()).hexdigest()[:12]
    keyboards = sum(1 for v in now.values() if v["telegram"])
    print(f"screens {len(now)} · with a keyboard {keyboards} · telegram digest {digest}")
    if args.save:
        Path(args.save).write_text(json.dumps(now, ensure_ascii=False))
    if not args.check:
        return 0
    before = json.loads(Path(args.check).read_text())
    missing = sorted(set(before) ^ set(now))
    tg = [k for k in before if k in now and before[k]["telegram"] != now[k]["telegram"]]
    text = [k for k in before if k in now and before[k]["text"] != now[k]["text"]]
    dc = [k for k in before if k in now and before[k]["discord"] != now[k]["discord"]]
    print(f"screens only on one side {len(missing)} · telegram differs {len(tg)} · "
          f"text differs {len(text)} · discord differs {len(dc)}")
    for k in (missing + tg + text)[:10]:
        print("  ", k)
        if k in before and k in now:
            print("    before", before[k]["telegram"])
            print("    now   ", now[k]["telegram"])
    for k in dc[: args.show]:
        print("discord", k, "\n  before", before[k]["discord"], "\n  now   ", now[k]["discord"])
    return 1 if missing or tg or text else 0


if __name__ == "__main__":
    raise SystemExit(main())
