"""The layers (DESIGN.md's picture; the rules and the checker are tests/layer_rules.py, which
reads the source with `ast` and prints the import table: `python tests/layer_rules.py`):

- the engine's root (shared pieces: the card type, the one illegal-action error) is pure and
  imports no game's wing; each game's engine (`engine/<game>/`) imports only itself and the root;
- the render root (fonts, palette, sprites, widgets, the lobby picture) imports no wing and
  nothing from bot; a game's pictures (`render/<game>/`) the engine and the render root;
- a game's chat parts (`bot/games/<game>/`) import no chat library, no store, no adapter, and no
  other game's wing; its lessons are pure like the engine;
- the platform (`bot/core/`) names no game (no wing, no registry, no engine), imports no chat
  library and no adapter; adapters import the platform, no wing and no engine;
- the store imports no engine, platform, render or adapter;
- no import loops (a module graph with every import, also those inside functions and
  TYPE_CHECKING blocks).

- the platform's code text (bot/core, bot/web with its scripts and style sheet, bot/adapters,
  bot/store) names no game and says no game's word (layer_rules.game_words: identifiers and
  string literals, not comments or docstrings); what it still says is in `WORDS_DEBT`.

What the tree still breaks is in `TODO`, one entry per (file, imported module) with its reason:
each one is a to-do, and an entry that no longer matches fails the test (remove it). The
planted-violation tests show that each rule fires.

Also here: the guard that makes the PostgreSQL store cases fail, not skip, under `CI=true`.
"""

from __future__ import annotations

import functools
import re
import sys
from pathlib import Path

import pytest
import store_fixtures
from layer_rules import (
    ENGINE_STDLIB,
    GAME_NAMES,
    RULES,
    Tree,
    Violation,
    game_words,
    games,
    layer_of,
    loops,
    read_tree,
    report,
    single_game_roots,
)

ROOT = Path(__file__).resolve().parent.parent

# Named so the planted tests can show each is refused; none may ever be in ENGINE_STDLIB.
FORBIDDEN_IN_ENGINE = (
    "os", "sys", "io", "pathlib", "socket", "time", "datetime", "asyncio", "secrets",
    "subprocess", "logging", "importlib", "sqlalchemy", "PIL", "telegram", "discord", "httpx",
    "aiohttp", "bot", "render",
)

# What today's tree still breaks: (file, imported module — it covers the names in it) -> why.
# Each entry is a to-do; keep the reasons honest and remove an entry with its break.
TODO: dict[tuple[str, str], str] = {
}


def _todo(v: Violation) -> tuple[str, str] | None:
    for path, module in TODO:
        if v.path == path and (v.name == module or v.name.startswith(module + ".")):
            return (path, module)
    return None


# -- the repository ---------------------------------------------------------------------------


@functools.cache
def _repo() -> Tree:
    """The checkout, read once per test process (reading it takes seconds)."""
    return read_tree(ROOT)


def test_every_layer_is_scanned():
    tree = _repo()
    assert games(ROOT) >= {"rummy", "buildten"}
    expect = {
        "engine.cards": "engine",
        "engine.errors": "engine",
        "engine.rummy.game": "engine:rummy",
        "engine.rummy.solver.fast": "engine:rummy",
        "engine.buildten.rules": "engine:buildten",
        "render.widgets": "render",
        "render.lobby": "render",
        "render.rummy.table": "render:rummy",
        "render.buildten": "render:buildten",
        "bot.games.rummy.lessons.content.tahiti": "games:rummy",
        "bot.games.rummy.screens": "games:rummy",
        "bot.games.buildten.lesson": "games:buildten",
        "bot.games": "registry",
        "bot.core.lobby": "platform",
        "bot.adapters.console": "adapters",
        "bot.store.repository": "store",
        "bot.app": "bot",
    }
    assert {m: tree.layers.get(m) for m in expect} == expect


def test_the_layers_hold():
    found = _repo().violations
    new = [v for v in found if _todo(v) is None]
    assert not new, "layer rules broken (fix, or list in TODO with a reason):\n" + "\n".join(
        map(str, new)
    )
    stale = set(TODO) - {_todo(v) for v in found}
    assert not stale, f"TODO entries no longer needed, remove them: {sorted(stale)}"


def test_no_import_loops():
    assert loops(_repo().edges) == []


def test_no_game_sits_at_a_shared_root():
    """The shared roots hold what more than one game (or the platform: the lobby picture)
    uses: no module at the root of engine/ or render/ serves one game's wing alone."""
    assert single_game_roots(_repo()) == {}


def test_a_game_piece_at_a_shared_root_is_found(tmp_path):
    _plant(tmp_path, {
        "engine/cards.py": "",
        "engine/melds.py": "from .cards import Card\n",  # only the rummy wing uses it
        "engine/rummy/game.py": "from engine.melds import arrange\n",
        "engine/buildten/rules.py": "from engine.cards import Card\n",
    })
    assert single_game_roots(read_tree(tmp_path)) == {"engine.melds": ["engine:rummy"]}


def test_the_engine_allow_list_is_pure_stdlib():
    assert ENGINE_STDLIB.issubset(sys.stdlib_module_names | {"__future__"})
    assert not ENGINE_STDLIB & set(FORBIDDEN_IN_ENGINE)


def test_the_import_table_prints(capsys):
    import layer_rules

    table = report(ROOT, _repo())
    layer_rules.print_table(table)
    out = capsys.readouterr().out
    assert "files per layer" in out and f"import loops: {len(table['loops'])}" in out
    assert table["rules"] == len(RULES)


# -- the platform's code text names no game ---------------------------------------------------

# Where the platform's code text still names a game or says a game's word: (file, word) -> (how
# many times, why). Two kinds: the product's own name where it is a bare "rummy" (not debt), and
# issue 43's known debt — game knowledge that belongs in a game's wing. The count is exact: a new
# use fails the test, and so does one removed (lower the count, or remove the entry).
PRODUCT_NAME = "the product's name (Rummy Table), not the game's"
WORDS_DEBT: dict[tuple[str, str], tuple[int, str]] = {
    ("bot/web/server.py", "rummy"): (1, PRODUCT_NAME + ": the WebSocket subprotocol"),
    ("bot/web/static/socket.js", "rummy"): (1, PRODUCT_NAME + ": the WebSocket subprotocol"),
    ("bot/web/party.py", "rummy"): (3, PRODUCT_NAME + ": 'Rummy party', the party page's title"),
    ("bot/adapters/discord_commands.py", "rummy"): (1, PRODUCT_NAME + ": the /rummy command group"),
}


def test_the_platform_code_names_no_game():
    """No game's name or word in the code text of bot/core, bot/web (its scripts and style
    included), bot/adapters, bot/store beyond WORDS_DEBT, which must be exact."""
    found: dict[tuple[str, str], list[str]] = {}
    for word in game_words(ROOT):
        found.setdefault((word.path, word.word), []).append(str(word))
    new = [line for key, lines in found.items() if key not in WORDS_DEBT for line in lines]
    assert not new, ("a game's name or word in the platform's code (move it to the game's "
                     "wing, or list it in WORDS_DEBT with a reason):\n" + "\n".join(new))
    changed = {key: f"{len(found.get(key, []))} now, {listed} listed"
               for key, (listed, _) in WORDS_DEBT.items() if len(found.get(key, [])) != listed}
    assert not changed, ("WORDS_DEBT's counts are off (a new use, or one removed: update the "
                         f"entry): {changed}")
    assert all(why.startswith((PRODUCT_NAME, "issue 43")) for _, why in WORDS_DEBT.values())


def test_every_rulebook_and_game_is_a_game_name():
    from engine.rummy.rulebooks import RULEBOOKS

    assert set(RULEBOOKS) <= set(GAME_NAMES) and set(games(ROOT)) <= set(GAME_NAMES)


GAME_TEXT_CASES = [  # (file, its text, the words found)
    ("bot/core/x.py", "def knock(): pass\n", ["knock"]),
    ("bot/core/x.py", "class RummikubView: pass\n", ["rummikub"]),
    ("bot/core/x.py", "def draw_tiles(): pass\n", ["tile"]),
    ("bot/core/x.py", "x = 'the Jokers'\n", ["joker"]),
    ("bot/core/x.py", "x = f'{n} melds'\n", ["meld"]),
    ("bot/store/x.py", "GAME = 'build-to-ten'\n", ["build-to-ten"]),
    ("bot/store/x.py", "from x import buildten\n", ["buildten"]),
    ("bot/adapters/x.py", "drawTile = 1\n", ["tile"]),
    ("bot/web/static/x.js", "const s = v.suits; // a tile\n", ["suit"]),
    ("bot/web/static/x.js", "/* Rummikub */ let a = 'shanghai';\n", ["shanghai"]),
    ("bot/web/static/x.css", ".tile { color: red } /* joker */\n", ["tile"]),
    # comments, docstrings, the product's name and words that only contain a game word: none
    ("bot/core/x.py", '"""Rummikub: a tile game."""\n# a joker\nx = 1\n', []),
    ("bot/core/x.py", 'def f():\n    """knock"""\n    return "Rummy Table"\n', []),
    ("bot/core/x.py", "URL = 'sqlite:///data/rummy.db'\nCHANNEL = 'rummy_web'\n", []),
    ("bot/adapters/x.py", "HELP = '/rummy new'\nclass RummyClient: pass\n", []),
    ("bot/core/x.py", "x = 'suitable stockings, knockout'\n", []),
    ("bot/web/static/x.js", "const u = 'https://x.org/a'; // rummy\n", []),
    ("bot/web/static/telegram-web-app.js", "var joker = 1;\n", []),  # not ours
]


@pytest.mark.parametrize(("rel", "source", "words"), GAME_TEXT_CASES,
                         ids=[f"{c[0]}:{c[1][:24]}" for c in GAME_TEXT_CASES])
def test_game_words_are_found_in_code_not_in_comments(tmp_path, rel, source, words):
    path = tmp_path / rel
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(source, encoding="utf-8")
    assert [w.word for w in game_words(tmp_path)] == words


# -- the checker reports planted violations ---------------------------------------------------

WINGS = {  # a tree needs its games' folders to know them
    "bot/games/rummy/__init__.py": "",
    "bot/games/buildten/__init__.py": "",
}


def _plant(root: Path, files: dict[str, str]) -> list[Violation]:
    for rel, text in {**WINGS, **files}.items():
        path = root / rel
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(text, encoding="utf-8")
    return read_tree(root).violations


PLANTED = [  # (file, source, the import reported, the rule)
    ("engine/x.py", "from engine.rummy import game\n", "engine.rummy.game", "engine-root-no-wing"),
    ("engine/rummy/x.py", "from engine.buildten import rules\n", "engine.buildten.rules",
     "engine-wing"),
    ("engine/buildten/x.py", "from ..rummy.melds import arrange\n", "engine.rummy.melds.arrange",
     "engine-wing"),
    ("engine/x.py", "from bot.games.rummy import lessons\n", "bot.games.rummy.lessons",
     "engine-pure"),
    ("engine/rummy/x.py", "import render\n", "render", "engine-pure"),
    ("engine/x.py", "from ..bot.core import screens\n", "bot.core.screens", "engine-pure"),
    ("engine/sub/x.py", "from ...render import views\n", "render.views", "engine-pure"),
    ("render/x.py", "from render.rummy import table\n", "render.rummy.table", "render-root"),
    ("render/x.py", "from engine.rummy import Card\n", "engine.rummy.Card", "render-root"),
    ("render/x.py", "from bot.core import screens\n", "bot.core.screens", "render-root"),
    ("render/x.py", "import bot\n", "bot", "render-root"),
    ("render/x.py", "import telegram\n", "telegram", "render-root"),
    ("render/rummy/x.py", "from bot.i18n import _\n", "bot.i18n._", "render-wing"),
    ("render/rummy/x.py", "from engine.buildten import BuildView\n", "engine.buildten.BuildView",
     "wing-no-other-wing"),
    ("render/buildten/x.py", "from render.rummy import layout\n", "render.rummy.layout",
     "wing-no-other-wing"),
    ("bot/games/buildten/x.py", "from bot.games.rummy.refusals import refusal\n",
     "bot.games.rummy.refusals.refusal", "wing-no-other-wing"),
    ("bot/games/rummy/x.py", "import engine.buildten\n", "engine.buildten", "wing-no-other-wing"),
    ("bot/games/rummy/x.py", "import telegram\n", "telegram", "wing-no-io"),
    ("bot/games/rummy/x.py", "from bot.store import Store\n", "bot.store.Store", "wing-no-io"),
    ("bot/games/buildten/x.py", "import sqlalchemy\n", "sqlalchemy", "wing-no-io"),
    ("bot/games/rummy/x.py", "from bot.adapters.intake import Intake\n",
     "bot.adapters.intake.Intake", "wing-no-io"),
    ("bot/games/rummy/lessons/x.py", "import time\n", "time", "engine-pure"),
    ("bot/games/buildten/lesson.py", "from bot.i18n import _\n", "bot.i18n._", "engine-pure"),
    ("bot/core/lobby.py", "from engine.rummy import get_rulebook\n",
     "engine.rummy.get_rulebook", "platform-no-wing"),
    ("bot/core/unit.py", "from bot.games.rummy import RummyGame\n", "bot.games.rummy.RummyGame",
     "platform-no-wing"),
    ("bot/core/x.py", "from bot.games import default_games\n", "bot.games.default_games",
     "platform-no-wing"),
    ("bot/core/x.py", "from render.rummy import render_table\n", "render.rummy.render_table",
     "platform-no-wing"),
    ("bot/core/x.py", "from engine.cards import Card\n", "engine.cards.Card",
     "platform-no-engine"),
    ("bot/core/x.py", "from engine.errors import IllegalAction\n",
     "engine.errors.IllegalAction", "platform-no-engine"),
    ("bot/core/x.py", "import discord\n", "discord", "platform-no-chat"),
    ("bot/core/x.py", "from telegram.ext import Application\n", "telegram.ext.Application",
     "platform-no-chat"),
    ("bot/core/x.py", "import httpx\n", "httpx", "platform-no-chat"),
    ("bot/core/x.py", "from ..adapters import discord_ui\n", "bot.adapters.discord_ui",
     "platform-no-chat"),
    ("bot/core/x.py", "from bot import adapters\n", "bot.adapters", "platform-no-chat"),
    ("bot/adapters/x.py", "from bot.games.rummy.typed import parse_typed\n",
     "bot.games.rummy.typed.parse_typed", "adapters-no-wing"),
    ("bot/adapters/x.py", "from render.buildten import render_buildten\n",
     "render.buildten.render_buildten", "adapters-no-wing"),
    ("bot/adapters/x.py", "from engine.cards import Card\n", "engine.cards.Card",
     "adapters-no-engine"),
    ("bot/store/x.py", "from engine.rummy import GameState\n", "engine.rummy.GameState", "store"),
    ("bot/store/x.py", "from bot.core.record import Record\n", "bot.core.record.Record", "store"),
    ("bot/store/x.py", "from ..core import screens\n", "bot.core.screens", "store"),
    ("bot/store/__init__.py", "from ..core import screens\n", "bot.core.screens", "store"),
    ("bot/store/x.py", "import render\n", "render", "store"),
    ("bot/store/x.py", "from bot.adapters import delivery\n", "bot.adapters.delivery", "store"),
    # the engine's and the lessons' purity
    ("engine/x.py", "import telegram\n", "telegram", "engine-pure"),
    ("engine/x.py", "import secrets\n", "secrets", "engine-pure"),
    ("engine/x.py", "from datetime import datetime\nnow = datetime.now()\n", "datetime.datetime",
     "engine-pure"),
    ("engine/rummy/x.py", "def f():\n    import time\n    return time.time()\n", "time",
     "engine-pure"),
    ("engine/x.py", "import os.path\n", "os.path", "engine-pure"),
    ("engine/x.py", "from sqlalchemy import select\n", "sqlalchemy.select", "engine-pure"),
    ("engine/buildten/x.py", "from PIL import Image\n", "PIL.Image", "engine-pure"),
    ("engine/x.py", "from random import shuffle\n", "random.shuffle",
     "randomness only as random.Random(seed)"),
    ("engine/rummy/x.py", "import random\nrandom.shuffle([])\n", "random.shuffle",
     "randomness only as random.Random(seed)"),
    ("engine/x.py", "import random as r\nx = r.randint(1, 6)\n", "random.randint",
     "randomness only as random.Random(seed)"),
    ("engine/x.py", "import random\nrng = random.Random()\n", "random.Random() without a seed",
     "randomness only as random.Random(seed)"),
    ("engine/x.py", "from random import Random\nrng = Random()\n",
     "random.Random() without a seed", "randomness only as random.Random(seed)"),
    ("engine/x.py", "def f(path):\n    return open(path).read()\n", "open()",
     "the engine does no I/O"),
    ("bot/games/rummy/lessons/x.py", "print('debug')\n", "print()", "the engine does no I/O"),
    ("bot/store/x.py", "import importlib\nm = importlib.import_module('engine')\n",
     "import_module()", "no dynamic imports"),
]


@pytest.mark.parametrize(
    ("rel", "source", "name", "rule"), PLANTED, ids=[f"{p[2]}@{p[0]}" for p in PLANTED]
)
def test_a_planted_violation_is_reported(tmp_path, rel, source, name, rule):
    found = _plant(tmp_path, {rel: source})
    assert (rel, name, rule) in {(v.path, v.name, v.rule) for v in found}, found


def test_every_rule_has_a_planted_violation():
    assert set(RULES) <= {p[3] for p in PLANTED}


@pytest.mark.parametrize("module", FORBIDDEN_IN_ENGINE)
def test_each_forbidden_module_is_refused_in_the_engine(tmp_path, module):
    found = _plant(tmp_path, {"engine/x.py": f"import {module}\n"})
    assert [v.key for v in found] == [("engine/x.py", module)]


def test_a_clean_tree_reports_nothing(tmp_path):
    found = _plant(tmp_path, {
        "engine/__init__.py": "",
        "engine/cards.py": "from __future__ import annotations\nimport random\nimport re\n"
                           "from collections import Counter\n"
                           "def deal(seed: int, rng: random.Random | None = None):\n"
                           "    return (rng or random.Random(seed)).random()\n",
        "engine/errors.py": "class IllegalAction(Exception):\n    pass\n",
        "engine/rummy/__init__.py": "from engine.cards import Card\nfrom ..errors import "
                                    "IllegalAction\nfrom .melds import arrange\n",
        "engine/rummy/melds.py": "from engine import cards\n",
        "render/x.py": "from PIL import Image\nfrom engine.cards import Card\n"
                       "from engine import cards\nfrom .views import TableView\n",
        "render/rummy/x.py": "from PIL import Image\nfrom engine.rummy import GameState\n"
                             "from render import widgets\nfrom ..fonts import font\n",
        "bot/games/rummy/screens.py": "from bot.core.views import Screen\nfrom bot.i18n import _"
                                      "\nfrom engine.rummy import player_view\n"
                                      "from render.rummy import render_table\n"
                                      "from .lessons import runner\n",
        "bot/games/rummy/lessons/runner.py": "from engine.rummy import apply\nimport json\n",
        "bot/games/__init__.py": "from .rummy import RummyGame\nfrom .buildten import B\n",
        "bot/core/x.py": "import asyncio\nfrom render.lobby import render_lobby\n"
                         "from bot.store import Store\nfrom ..store import rows\n",
        "bot/store/x.py": "import sqlalchemy\nfrom .rows import Row\nfrom bot.store import urls\n",
        "bot/adapters/x.py": "import telegram\nimport discord\nfrom bot.core import service\n",
        "bot/app.py": "from bot.games import default_games\nfrom bot.adapters import x\n",
    })
    assert found == []


def test_layers_of_names():
    wings = frozenset({"rummy", "buildten"})
    assert layer_of("engine.rummy.solver._c", wings) == "engine:rummy"
    assert layer_of("engine.cards.Card", wings) == "engine"
    assert layer_of("render.buildten", wings) == "render:buildten"
    assert layer_of("bot.games.toy.host", wings | {"toy"}) == "games:toy"
    assert layer_of("bot.games", wings) == "registry"
    assert layer_of("telegram", wings) is None


def test_a_planted_loop_is_found(tmp_path):
    _plant(tmp_path, {
        "engine/rummy/cards.py": "from typing import TYPE_CHECKING\nif TYPE_CHECKING:\n"
                                 "    from .rulebooks import Rulebook\n",
        "engine/rummy/rulebooks.py": "from .melds import AcePolicy\n",
        "engine/rummy/melds.py": "def f():\n    from .cards import Card\n",
        "bot/core/a.py": "from . import b\n",
        "bot/core/b.py": "from .a import x\n",
        "bot/core/c.py": "from . import a\n",  # imports into a loop: not in it
    })
    found = loops(read_tree(tmp_path).edges)
    assert found == [
        ["bot.core.a", "bot.core.b"],
        ["engine.rummy.cards", "engine.rummy.melds", "engine.rummy.rulebooks"],
    ]


def test_a_built_module_is_no_loop(tmp_path):
    """`from . import _c` in a package's module is the C extension (built from `_c.c`), not
    the package's `__init__` importing that module back."""
    _plant(tmp_path, {
        "engine/rummy/solver/__init__.py": "from .fast import solve\n",
        "engine/rummy/solver/fast.py": "from . import _c\n",
        "engine/rummy/solver/_c.c": "/* C */\n",
    })
    assert loops(read_tree(tmp_path).edges) == []


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
