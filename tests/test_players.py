"""The scripted players decide from what the bot sent, never from its database (issue 29): the
harness (tests/players/, bench/bot_people.py) imports nothing of the store or the saved record
and calls no store method, and no test or bench hands a store to a player. Read with `ast`;
planted sources show each check fires. Also: what a person reads off a screen."""

from __future__ import annotations

import ast
import inspect
from pathlib import Path

import pytest
from players.mind import Sight, decide, read_caption, read_table

from bot import i18n
from bot.store import Store
from engine.cards import parse_card

ROOT = Path(__file__).resolve().parents[1]
HARNESS = [*sorted((ROOT / "tests" / "players").glob("*.py")), ROOT / "bench" / "bot_people.py"]
FORBIDDEN = ("bot.store", "bot.core.record", "store_fixtures", "counting_store")
# The store's methods ("open", "close", "url" and the like are too common a word to mean it).
STORE_METHODS = frozenset(
    name for name, _ in inspect.getmembers(Store, callable)
    if (not name.startswith("_") and "_" in name) or name in ("leaderboard", "stats", "seats")
) - {"open", "close"}
# What the players offer: making one, or calling one's method, is a call to a player.
PLAYERS = frozenset({"Person", "BenchPerson", "LoadGame", "solo"})
PLAYER_METHODS = frozenset({"take_turn", "wait_turn", "look", "play", "screen", "press",
                            "select", "read_hand", "my_turn", "click", "pick"})


def harness_problems(source: str) -> list[str]:
    """Imports of the store or the record, and calls of store methods or a `store` at all."""
    problems = []
    for node in ast.walk(ast.parse(source)):
        if isinstance(node, ast.Import):
            problems += [f"imports {a.name}" for a in node.names if a.name.startswith(FORBIDDEN)]
        elif isinstance(node, ast.ImportFrom):
            module = node.module or ""
            if module.startswith(FORBIDDEN) or (module == "bot.core" and any(
                    a.name == "record" for a in node.names)):
                problems.append(f"imports {module}")
        elif (isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute)
              and node.func.attr in STORE_METHODS):
            problems.append(f"calls .{node.func.attr}()")
        if isinstance(node, ast.Name) and "store" in node.id.lower():
            problems.append(f"names {node.id}")
        elif isinstance(node, ast.Attribute) and "store" in node.attr.lower():
            problems.append(f"reads .{node.attr}")
        elif isinstance(node, ast.arg) and "store" in node.arg.lower():
            problems.append(f"takes {node.arg}")
    return problems


def _mentions_store(node: ast.AST) -> bool:
    return any((isinstance(n, ast.Name) and "store" in n.id.lower())
               or (isinstance(n, ast.Attribute) and "store" in n.attr.lower())
               for n in ast.walk(node))


def handing_problems(source: str) -> list[str]:
    """A store handed to a player: as an argument of a player's call, or set on a player."""
    problems = []
    for node in ast.walk(ast.parse(source)):
        if isinstance(node, ast.Call):
            method = isinstance(node.func, ast.Attribute)
            name = (node.func.attr if method
                    else node.func.id if isinstance(node.func, ast.Name) else "")
            if (name in PLAYERS or (method and name in PLAYER_METHODS)) and any(
                    _mentions_store(a) for a in [*node.args, *(k.value for k in node.keywords)]):
                problems.append(f"line {node.lineno}: {name}(… store …)")
        elif isinstance(node, ast.Assign):
            for target in node.targets:
                for t in ast.walk(target):
                    if (isinstance(t, ast.Attribute) and t.attr in ("store", "game_id")
                            and isinstance(t.value, ast.Name) and t.value.id not in
                            ("self", "harness", "h", "bot", "worker", "service")):
                        problems.append(f"line {node.lineno}: {t.value.id}.{t.attr} = …")
    return problems


def users() -> list[Path]:
    """Every test and bench that uses the harness."""
    found = []
    for path in [*ROOT.glob("tests/test_*.py"), *ROOT.glob("bench/*.py")]:
        text = path.read_text()
        if "players." in text or "from players" in text or "bot_people" in text:
            found.append(path)
    return found


@pytest.mark.parametrize("path", HARNESS, ids=lambda p: p.name)
def test_the_harness_never_reads_the_database(path: Path) -> None:
    assert harness_problems(path.read_text()) == []


def test_no_test_or_bench_hands_a_store_to_a_player() -> None:
    paths = users()
    assert len(paths) >= 15, paths  # the e2e tests and bench/bot.py use it
    problems = {p.name: found for p in paths if (found := handing_problems(p.read_text()))}
    assert problems == {}


def test_the_old_players_are_gone() -> None:
    for old in ("tests/tg_players.py", "tests/dc_players.py", "bench/bot_players.py"):
        assert not (ROOT / old).exists(), old
    for path in [*ROOT.glob("tests/*.py"), *ROOT.glob("bench/*.py")]:
        tree = ast.parse(path.read_text())
        for node in ast.walk(tree):
            if isinstance(node, ast.ImportFrom):
                assert node.module not in ("tg_players", "dc_players", "bot_players"), path


def test_the_checks_fire_on_planted_sources() -> None:
    planted = {
        "from bot.store import Store": "imports bot.store",
        "import bot.store.games": "imports bot.store.games",
        "from bot.core.record import Record": "imports bot.core.record",
        "from bot.core import record": "imports bot.core",
        "async def f(x):\n    await x.get_game(1)": "calls .get_game()",
        "async def f(self):\n    await self.db.active_game('t', '1')": "calls .active_game()",
        "def f(self):\n    return self.store": "reads .store",
        "def f(store):\n    return 1": "takes store",
    }
    for source, expected in planted.items():
        assert expected in harness_problems(source), source
    assert harness_problems("def f(self):\n    return self.tg.messages(1)") == []
    handed = {
        "await alice.take_turn(harness.store, row.id, 0)": "take_turn",
        "Person(tg, alice, store=harness.store)": "Person",
        "alice.store, alice.game_id = harness.store, row.id": "alice.store",
        "LoadGame(1, tg, store, pool)": "LoadGame",
        "await carol.screen(store=harness.store)": "screen",
    }
    for source, expected in handed.items():
        assert any(expected in p for p in handing_problems(source)), source
    assert handing_problems("await alice.take_turn()\nrow = await harness.store.get_game(1)\n"
                            "await play(table, store, alice)") == []  # a test's own helper


# -- what a person reads ----------------------------------------------------------------------


def test_a_person_reads_the_table_line_in_any_language() -> None:
    hand = [parse_card("7H", 0)]
    groups, singles = read_table("A 7♥8♥9♥ · B 🃏5♥5♦5♣ · singles K♦ 2♦", False, hand)
    assert [[c.token for c in g] for g in groups] == [["7H#1", "8H#0", "9H#0"],
                                                       ["*#0=5H", "5D#0", "5C#0"]]
    assert [c.token for c in singles] == ["KD#0", "2D#0"]
    with i18n.using("he"):  # each group its own isolate, the line right to left
        line = " · ".join(i18n.isolate(p) for p in ("A 7♥8♥9♥", "B 5♠5♦5♣"))
    assert "\u2066" in line  # a card run: a left-to-right isolate (issue 44)
    assert len(read_table(line, False)[0]) == 2
    assert read_table("(стол пуст)", False) == ([], [])
    # a cut line loses its partial last group; a tile table, a floating joker given a colour
    groups, _ = read_table("A 7R 8R 9R · B 5K 5R 🃏 · C 1R 2…", True)
    assert len(groups) == 2 and groups[1][2].designated and groups[1][2].as_rank == 5


def test_a_person_reads_their_caption() -> None:
    sight = Sight(hand=[], table=[])
    read_caption("Your turn · you drew 2 · first lay: a run of three from your hand · 9 cards",
                 "en", sight)
    assert (sight.draws, sight.first_lay_done, sight.final) == (2, False, False)
    with i18n.using("ru"):
        title = " · ".join([i18n._("Your turn"), i18n._("final turn: lay or pass")])
    read_caption(title, "ru", sight)
    assert (sight.draws, sight.first_lay_done, sight.final) == (0, True, True)


def test_a_person_lays_what_they_see_and_draws_otherwise() -> None:
    hand = [parse_card(f, 0) for f in ("7H", "8H", "9H", "KS")]
    sight = Sight(hand=hand, table=[], legal={"commit", "draw"})
    plan = decide(sight, "manipulation")
    assert plan.kind == "commit" and sorted(plan.tokens) == ["7H#0", "8H#0", "9H#0"]
    sight = Sight(hand=hand[2:], table=[], legal={"commit", "draw"})
    assert decide(sight, "manipulation").kind == "draw"
