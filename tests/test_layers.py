"""The architecture's layers (README "How it is built"), checked on the source text with `ast`
(nothing here imports the code it checks):

- `engine/` is pure: it imports only itself and the few pure stdlib modules listed below; no
  I/O, no clock, no network, no third-party library; randomness only as `random.Random(seed)`.
- `lessons/` is pure in the same way; it may import the engine (the engine never imports it).
- `render/` takes from the engine only the card types (`engine.cards`); nothing from `bot`.
- `bot/core/` imports no chat library and nothing from `bot.adapters`.
- `bot/core/` is game-neutral: it hosts games through bot/core/hosting.py and imports neither
  `engine`, `lessons` nor `bot.games` — but for the modules in `CORE_GAME_BOUND` (each a
  to-do) and service.py's one import of the default games.
- `bot/games/` imports no chat library and no store.
- `bot/store/` imports neither `engine` nor `bot.core` nor `render`.

A rule that today's code breaks goes in `ALLOWED_TODAY` with a comment: each entry is a to-do.
The planted-violation tests below show that the checker does report what it is meant to.

Also here: the guard that makes the PostgreSQL store cases fail, not skip, under `CI=true`.
"""

from __future__ import annotations

import ast
import re
import sys
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path

import pytest
import store_fixtures

ROOT = Path(__file__).resolve().parent.parent

# What the engine may import besides itself: the pure stdlib modules it really uses.
ENGINE_STDLIB = frozenset({
    "__future__",
    "collections",
    "copy",
    "dataclasses",
    "functools",
    "gc",  # solver.py: pauses the collector during a search (no I/O)
    "itertools",
    "json",  # state/lessons: to_json/from_json on strings (no files)
    "math",
    "random",  # only as random.Random(seed): checked separately below
    "re",
    "threading",  # solver.py: locks around caches shared by worker threads (no I/O)
    "types",
    "typing",
})
# Named so the planted tests can show each is refused; none may ever be in ENGINE_STDLIB.
FORBIDDEN_IN_ENGINE = (
    "os", "sys", "io", "pathlib", "socket", "time", "datetime", "asyncio", "secrets",
    "subprocess", "logging", "importlib", "sqlalchemy", "PIL", "telegram", "discord", "httpx",
    "aiohttp", "bot", "render",
)
# Builtins that do I/O or import/run code: the engine calls none of them.
ENGINE_FORBIDDEN_CALLS = frozenset(
    {"open", "print", "input", "__import__", "exec", "eval", "compile", "breakpoint"}
)
# render/ may take from the engine only these modules (today: Card, parse_cards, rank_name,
# rank_order, suit_order, all from engine.cards); its view dataclasses are its own
# (render/views.py).
RENDER_FROM_ENGINE = frozenset({"engine.cards"})
CHAT_LIBRARIES = frozenset({"telegram", "discord", "aiohttp", "httpx"})
STORE_LIBRARIES = frozenset({"sqlalchemy", "asyncpg", "aiosqlite", "alembic"})

# Known violations, (file, imported name) -> why it is still there. Each one is a to-do.
# Today's tree breaks no rule, so it is empty; keep it that way.
ALLOWED_TODAY: dict[tuple[str, str], str] = {}

# bot/core modules that still speak rummy (to move into bot/games/rummy), and why
CORE_GAME_BOUND: dict[str, str] = {
    "bot/core/lessons.py": "the lesson service runs rummy lessons",
    "bot/core/record.py": "Record.rules and Record.game() decode a rummy state",
}
CORE_DEFAULT_GAMES = ("bot/core/service.py", "bot.games")

LAYERS = {
    "engine": "engine", "lessons": "lessons", "render": "render", "bot/games": "bot.games",
    "bot/core": "bot.core", "bot/store": "bot.store",
}


@dataclass(frozen=True)
class Violation:
    path: str  # relative to the checked root, with "/"
    line: int
    name: str  # the imported module (or module.name), or the call
    rule: str

    @property
    def key(self) -> tuple[str, str]:
        return (self.path, self.name)

    def __str__(self) -> str:
        return f"{self.path}:{self.line}: {self.name} ({self.rule})"


@dataclass(frozen=True)
class Imported:
    line: int
    name: str  # `import a.b` -> "a.b"; `from a.b import c` -> "a.b.c" (c may be a module)


def _under(name: str, package: str) -> bool:
    return name == package or name.startswith(package + ".")


def _top(name: str) -> str:
    return name.split(".", 1)[0]


def module_name(root: Path, path: Path) -> str:
    parts = list(path.relative_to(root).with_suffix("").parts)
    if parts[-1] == "__init__":
        parts.pop()
    return ".".join(parts)


def imports(tree: ast.AST, module: str, is_package: bool) -> Iterator[Imported]:
    """Every import in the file, anywhere (also inside functions and TYPE_CHECKING blocks),
    with relative imports resolved against `module`."""
    package = module.split(".") if is_package else module.split(".")[:-1]
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            for alias in node.names:
                yield Imported(node.lineno, alias.name)
        elif isinstance(node, ast.ImportFrom):
            if node.level:
                keep = len(package) - (node.level - 1)
                base = [*package[: max(keep, 0)], *([node.module] if node.module else [])]
                source = ".".join(base)
            else:
                source = node.module or ""
            for alias in node.names:
                name = source if alias.name == "*" else f"{source}.{alias.name}".lstrip(".")
                yield Imported(node.lineno, name)


def _random_misuse(tree: ast.AST) -> Iterator[tuple[int, str]]:
    """`random` used other than as `random.Random(seed)`: module functions (the global,
    unseeded generator) or a `Random()` without a seed."""
    module_aliases = {
        alias.asname or alias.name
        for node in ast.walk(tree) if isinstance(node, ast.Import)
        for alias in node.names if alias.name == "random"
    }
    class_aliases = {
        alias.asname or alias.name
        for node in ast.walk(tree)
        if isinstance(node, ast.ImportFrom) and node.module == "random" and not node.level
        for alias in node.names if alias.name == "Random"
    }
    for node in ast.walk(tree):
        if (isinstance(node, ast.Attribute) and isinstance(node.value, ast.Name)
                and node.value.id in module_aliases and node.attr != "Random"):
            yield node.lineno, f"random.{node.attr}"
        if isinstance(node, ast.Call) and not node.args and not node.keywords:
            func = node.func
            if (isinstance(func, ast.Attribute) and func.attr == "Random"
                    and isinstance(func.value, ast.Name) and func.value.id in module_aliases) or (
                    isinstance(func, ast.Name) and func.id in class_aliases):
                yield node.lineno, "random.Random() without a seed"


def _calls(tree: ast.AST) -> Iterator[tuple[int, str]]:
    """Called names: `f(...)` -> "f", `x.f(...)` -> ".f"."""
    for node in ast.walk(tree):
        if isinstance(node, ast.Call):
            if isinstance(node.func, ast.Name):
                yield node.lineno, node.func.id
            elif isinstance(node.func, ast.Attribute):
                yield node.lineno, "." + node.func.attr


def _import_rule(layer: str, name: str) -> str | None:
    """Why importing `name` breaks `layer`'s rule, or None when it may."""
    top = _top(name)
    if layer == "engine":
        if top == "engine":
            return None
        if top not in ENGINE_STDLIB:
            return "the engine imports only itself and pure stdlib modules"
        if top == "random" and name not in ("random", "random.Random"):
            return "randomness only as random.Random(seed)"
        return None
    if layer == "lessons":  # content and a pure runner on top of the rules
        if top in ("engine", "lessons"):
            return None
        return _import_rule("engine", "engine" if top == "engine" else name) and (
            "lessons import only the engine, themselves and pure stdlib modules")
    if layer == "render":
        if top == "bot":
            return "render imports nothing from bot"
        if top == "engine" and not any(_under(name, m) for m in RENDER_FROM_ENGINE):
            return f"render takes from the engine only {sorted(RENDER_FROM_ENGINE)}"
        if top in CHAT_LIBRARIES | STORE_LIBRARIES:
            return "render is pure: no chat or database library"
        return None
    if layer == "bot.core":
        if top in CHAT_LIBRARIES:
            return "bot.core imports no chat library"
        if _under(name, "bot.adapters"):
            return "bot.core imports nothing from bot.adapters"
        if top in ("engine", "lessons") or _under(name, "bot.games"):
            return "bot.core is game-neutral: games come through bot.core.hosting"
        return None
    if layer == "bot.games":
        if top in CHAT_LIBRARIES | STORE_LIBRARIES or _under(name, "bot.store"):
            return "a hosted game imports no chat library and no store"
        if _under(name, "bot.adapters"):
            return "a hosted game imports nothing from bot.adapters"
        return None
    if layer == "bot.store":
        if top in ("engine", "render") or _under(name, "bot.core") or _under(name, "bot.adapters"):
            return "bot.store imports neither engine, bot.core, render nor bot.adapters"
        return None
    raise AssertionError(layer)


def layer_files(root: Path) -> dict[str, list[Path]]:
    return {
        layer: sorted((root / folder).rglob("*.py")) if (root / folder).is_dir() else []
        for folder, layer in LAYERS.items()
    }


def _top_two(name: str) -> str:
    return ".".join(name.split(".")[:2])


def check_tree(root: Path) -> list[Violation]:
    """Every break of the layer rules in the tree at `root` (laid out like the repository)."""
    found: list[Violation] = []
    for layer, files in layer_files(root).items():
        for path in files:
            rel = path.relative_to(root).as_posix()
            tree = ast.parse(path.read_text(encoding="utf-8"), filename=rel)
            module = module_name(root, path)
            for imp in imports(tree, module, path.name == "__init__.py"):
                rule = _import_rule(layer, imp.name)
                if rule and layer == "bot.core" and (
                    rel in CORE_GAME_BOUND
                    or (rel, _top_two(imp.name)) == CORE_DEFAULT_GAMES
                ):
                    continue
                if rule:
                    found.append(Violation(rel, imp.line, imp.name, rule))
            for line, called in _calls(tree):
                if called in ("__import__", "import_module", ".import_module", ".__import__"):
                    name = called.lstrip(".") + "()"
                    found.append(Violation(rel, line, name, "no dynamic imports"))
                elif layer in ("engine", "lessons") and called in ENGINE_FORBIDDEN_CALLS:
                    found.append(Violation(rel, line, f"{called}()", "the engine does no I/O"))
            if layer in ("engine", "lessons"):
                found += [
                    Violation(rel, line, name, "randomness only as random.Random(seed)")
                    for line, name in _random_misuse(tree)
                ]
    return found


# -- the repository ---------------------------------------------------------------------------


def test_every_layer_is_scanned():
    files = layer_files(ROOT)
    assert ROOT / "engine" / "game.py" in files["engine"]
    assert ROOT / "engine" / "solver" / "fast.py" in files["engine"]
    assert ROOT / "lessons" / "content" / "tahiti.py" in files["lessons"]
    assert ROOT / "render" / "views.py" in files["render"]
    assert ROOT / "bot" / "core" / "lobby.py" in files["bot.core"]
    assert ROOT / "bot" / "games" / "rummy" / "screens.py" in files["bot.games"]
    assert ROOT / "bot" / "store" / "repository.py" in files["bot.store"]


def test_the_layers_hold():
    found = check_tree(ROOT)
    new = [v for v in found if v.key not in ALLOWED_TODAY]
    assert not new, "layer rules broken (fix, or list in ALLOWED_TODAY as a to-do):\n" + "\n".join(
        map(str, new)
    )
    stale = set(ALLOWED_TODAY) - {v.key for v in found}
    assert not stale, f"ALLOWED_TODAY entries no longer needed, remove them: {sorted(stale)}"


def test_render_takes_from_the_engine_only_the_card_types():
    """The allowed set is what render uses today; this fails if it stops using it too (then
    shrink RENDER_FROM_ENGINE rather than leave a wider door open)."""
    used = set()
    for path in layer_files(ROOT)["render"]:
        tree = ast.parse(path.read_text(encoding="utf-8"))
        for imp in imports(tree, module_name(ROOT, path), path.name == "__init__.py"):
            if _top(imp.name) == "engine":
                used.add(imp.name.rsplit(".", 1)[0])
    assert used == RENDER_FROM_ENGINE


def test_the_engine_allow_list_is_pure_stdlib():
    assert ENGINE_STDLIB.issubset(sys.stdlib_module_names | {"__future__"})
    assert not ENGINE_STDLIB & set(FORBIDDEN_IN_ENGINE)


# -- the checker reports planted violations ---------------------------------------------------


def _plant(root: Path, files: dict[str, str]) -> list[Violation]:
    for rel, text in files.items():
        path = root / rel
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(text, encoding="utf-8")
    return check_tree(root)


PLANTED = [
    ("bot/core/lobby.py", "from engine import get_rulebook\n", "engine.get_rulebook"),
    ("bot/core/unit.py", "from bot.games.rummy import RummyGame\n", "bot.games.rummy.RummyGame"),
    ("bot/core/scheduler.py", "import lessons\n", "lessons"),
    ("bot/games/x.py", "import telegram\n", "telegram"),
    ("bot/games/x.py", "from bot.store import Store\n", "bot.store.Store"),
    ("engine/x.py", "from lessons import LESSONS\n", "lessons.LESSONS"),
    ("lessons/x.py", "import bot.core\n", "bot.core"),
    ("lessons/content/x.py", "import time\n", "time"),
    ("engine/x.py", "import telegram\n", "telegram"),
    ("engine/x.py", "import secrets\n", "secrets"),
    ("engine/x.py", "from datetime import datetime\nnow = datetime.now()\n", "datetime.datetime"),
    ("engine/x.py", "def f():\n    import time\n    return time.time()\n", "time"),
    ("engine/x.py", "import os.path\n", "os.path"),
    ("engine/x.py", "from sqlalchemy import select\n", "sqlalchemy.select"),
    ("engine/x.py", "from PIL import Image\n", "PIL.Image"),
    ("engine/x.py", "from ..bot.core import screens\n", "bot.core.screens"),
    ("engine/sub/x.py", "from ...render import views\n", "render.views"),
    ("engine/x.py", "from random import shuffle\n", "random.shuffle"),
    ("engine/x.py", "import random\nrandom.shuffle([])\n", "random.shuffle"),
    ("engine/x.py", "import random as r\nx = r.randint(1, 6)\n", "random.randint"),
    ("engine/x.py", "import random\nrng = random.Random()\n", "random.Random() without a seed"),
    ("engine/x.py", "from random import Random\nrng = Random()\n",
     "random.Random() without a seed"),
    ("engine/x.py", "def f(path):\n    return open(path).read()\n", "open()"),
    ("engine/x.py", "print('debug')\n", "print()"),
    ("render/x.py", "from bot.core import screens\n", "bot.core.screens"),
    ("render/x.py", "import bot\n", "bot"),
    ("render/x.py", "from engine.game import PlayerView\n", "engine.game.PlayerView"),
    ("render/x.py", "from engine import Card\n", "engine.Card"),
    ("render/x.py", "import engine.state\n", "engine.state"),
    ("bot/core/x.py", "import discord\n", "discord"),
    ("bot/core/x.py", "from telegram.ext import Application\n", "telegram.ext.Application"),
    ("bot/core/x.py", "import httpx\n", "httpx"),
    ("bot/core/x.py", "import aiohttp\n", "aiohttp"),
    ("bot/core/x.py", "from bot.adapters.telegram import run\n", "bot.adapters.telegram.run"),
    ("bot/core/x.py", "from ..adapters import discord_ui\n", "bot.adapters.discord_ui"),
    ("bot/core/x.py", "from bot import adapters\n", "bot.adapters"),
    ("bot/store/x.py", "from engine import GameState\n", "engine.GameState"),
    ("bot/store/x.py", "from bot.core.record import Record\n", "bot.core.record.Record"),
    ("bot/store/x.py", "from ..core import screens\n", "bot.core.screens"),
    ("bot/store/__init__.py", "from ..core import screens\n", "bot.core.screens"),
    ("bot/store/x.py", "import render\n", "render"),
    ("bot/store/x.py", "import importlib\nm = importlib.import_module('engine')\n",
     "import_module()"),
]


@pytest.mark.parametrize(
    ("rel", "source", "name"), PLANTED, ids=[f"{p[2]}@{p[0]}" for p in PLANTED]
)
def test_a_planted_violation_is_reported(tmp_path, rel, source, name):
    found = _plant(tmp_path, {rel: source})
    assert (rel, name) in {v.key for v in found}, found


@pytest.mark.parametrize("module", FORBIDDEN_IN_ENGINE)
def test_each_forbidden_module_is_refused_in_the_engine(tmp_path, module):
    found = _plant(tmp_path, {"engine/x.py": f"import {module}\n"})
    assert [v.key for v in found] == [("engine/x.py", module)]


def test_a_clean_tree_reports_nothing(tmp_path):
    found = _plant(tmp_path, {
        "engine/__init__.py": "from . import cards\nfrom .cards import Card\n",
        "engine/cards.py": "from __future__ import annotations\nimport random\nimport re\n"
                           "from collections import Counter\n"
                           "def deal(seed: int, rng: random.Random | None = None):\n"
                           "    return (rng or random.Random(seed)).random()\n",
        "render/x.py": "from PIL import Image\nfrom engine.cards import Card\n"
                       "from engine import cards\nfrom .views import TableView\n",
        "bot/core/x.py": "import asyncio\nfrom render import views\n"
                         "from bot.store import Store\nfrom ..store import rows\n",
        "bot/store/x.py": "import sqlalchemy\nfrom .rows import Row\nfrom bot.store import urls\n",
        "bot/adapters/x.py": "import telegram\nimport discord\n",  # adapters: anything goes
    })
    assert found == []


# -- PostgreSQL store cases under CI ----------------------------------------------------------

UNREACHABLE = "postgresql://postgres@127.0.0.1:1/test"  # nothing listens on port 1
NO_SERVER = re.escape("no usable server at 127.0.0.1:1 (")


@pytest.mark.parametrize("ci", ["true", "1", "TRUE"])
def test_no_postgres_fails_under_ci(monkeypatch, ci):
    monkeypatch.setenv("CI", ci)
    with pytest.raises(pytest.fail.Exception, match=re.escape("cannot run under CI=true")):
        store_fixtures.create_scratch_database(UNREACHABLE, "rummy_test_unused")


@pytest.mark.parametrize("ci", [None, "", "false", "0"])
def test_no_postgres_skips_outside_ci(monkeypatch, ci):
    if ci is None:
        monkeypatch.delenv("CI", raising=False)
    else:
        monkeypatch.setenv("CI", ci)
    with pytest.raises(pytest.skip.Exception, match=NO_SERVER):
        store_fixtures.create_scratch_database(UNREACHABLE, "rummy_test_unused")
