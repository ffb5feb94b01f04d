"""The house's layers, read from the source with `ast` (nothing here imports the code it
reads): which layer each module is in, what it imports, which rule an import breaks, and the
import loops. tests/test_layers.py holds the tree to these rules; run this file to print the
import table of any checkout (`python tests/layer_rules.py [ROOT] [--json]`).

The layers (DESIGN.md's picture):

- `engine` — the engine's root: shared pieces both games use (the card type, the one
  illegal-action error). Pure: itself and a few pure stdlib modules, no wing.
- `engine:<game>` — a game's rules, solver and computer players: itself, the engine root, pure
  stdlib.
- `render` — the renderer's root: fonts, palette, shapes, card sprites, widgets, the lobby
  picture. The engine root, Pillow; no wing, nothing from bot.
- `render:<game>` — a game's pictures: the engine (root and its own wing), the render root.
- `games:<game>` — a game's chat parts (bot/games/<game>/: screens, words, lessons): the
  engine, render and the platform's interfaces; no chat library, no store, no adapter.
- `platform` — bot/core: names no game (no wing, no engine), no chat library, no adapter.
- `adapters` — bot/adapters: the platform and the chat libraries; no wing, no engine.
- `store` — bot/store: no engine, platform, render or adapter.
- `registry` — bot/games/__init__.py, the games this bot hosts (one line per game).
- `bot` — the rest of bot/ (the composition root: app, cli, simulate; i18n, logs, metrics):
  may import anything first-party.

A game is a folder under bot/games/ (its chat parts); the top-level `lessons` package of older
trees counts as the rummy family's (its `buildten` module as Build-to-Ten's) so that an old
tree can be measured with the same rules.
"""

from __future__ import annotations

import ast
import io
import json
import re
import sys
import tokenize
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path

ROOTS = ("engine", "render", "lessons", "bot")  # first-party top-level packages

# What the engine may import besides itself: the pure stdlib modules it really uses.
ENGINE_STDLIB = frozenset({
    "__future__",
    "collections",
    "copy",
    "dataclasses",
    "functools",
    "gc",  # solver: pauses the collector during a search (no I/O)
    "itertools",
    "json",  # state/lessons: to_json/from_json on strings (no files)
    "math",
    "random",  # only as random.Random(seed): checked separately
    "re",
    "threading",  # solver: locks around caches shared by worker threads (no I/O)
    "types",
    "typing",
})
# Builtins that do I/O or import/run code: the engine calls none of them.
ENGINE_FORBIDDEN_CALLS = frozenset(
    {"open", "print", "input", "__import__", "exec", "eval", "compile", "breakpoint"}
)
CHAT_LIBRARIES = frozenset({"telegram", "discord", "aiohttp", "httpx"})
STORE_LIBRARIES = frozenset({"sqlalchemy", "asyncpg", "aiosqlite", "alembic"})

# The rules, by name: what each forbids, in words (the report counts breaks per rule).
RULES = {
    "engine-pure": "the engine imports only itself and pure stdlib modules",
    "engine-root-no-wing": "the engine's root imports no game's wing",
    "engine-wing": "a game's engine imports only itself and the engine's root",
    "render-root": "the render root imports no wing and nothing from bot",
    "render-wing": "a game's pictures import only the engine, the render root and themselves",
    "wing-no-other-wing": "a game's wing imports no other game's wing",
    "wing-no-io": "a game's chat parts import no chat library, no store and no adapter",
    "platform-no-wing": "the platform names no game: no wing",
    "platform-no-engine": "the platform imports no engine",
    "platform-no-chat": "the platform imports no chat library and no adapter",
    "adapters-no-wing": "adapters import no wing",
    "adapters-no-engine": "adapters import no engine",
    "store": "the store imports no engine, platform, render or adapter",
}


@dataclass(frozen=True)
class Violation:
    path: str  # relative to the checked root, with "/"
    line: int
    name: str  # the imported module (or module.name), or the call
    rule: str  # a key of RULES, or a purity rule's name

    @property
    def key(self) -> tuple[str, str]:
        return (self.path, self.name)

    def __str__(self) -> str:
        return f"{self.path}:{self.line}: {self.name} ({RULES.get(self.rule, self.rule)})"


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


def source_files(root: Path) -> list[Path]:
    return sorted(p for top in ROOTS if (root / top).is_dir() for p in (root / top).rglob("*.py"))


def extension_modules(root: Path) -> list[str]:
    """Modules built from C (setup.py builds `x/_c.c` as the module x._c): they import nothing."""
    return sorted(
        module_name(root, p) for top in ROOTS if (root / top).is_dir()
        for p in (root / top).rglob("*.c")
    )


def is_pure(module: str, layer: str) -> bool:
    """The engine and every game's lessons (content and runner) are pure."""
    parts = module.split(".")
    return layer.startswith("engine") or parts[0] == "lessons" or (
        parts[:2] == ["bot", "games"] and len(parts) > 3 and parts[3] in ("lesson", "lessons"))


def games(root: Path) -> frozenset[str]:
    """The games of the tree at `root`: the folders of bot/games/ (python names)."""
    folder = root / "bot" / "games"
    return frozenset(
        p.name for p in folder.iterdir() if (p / "__init__.py").is_file()
    ) if folder.is_dir() else frozenset()


def layer_of(name: str, wings: frozenset[str]) -> str | None:
    """The layer of a first-party module name (or module.name), None for anything else."""
    parts = name.split(".")
    top = parts[0]
    second = parts[1] if len(parts) > 1 else ""
    if top in ("engine", "render"):
        return f"{top}:{second}" if second in wings else top
    if top == "lessons":  # an older tree's rummy lessons (and Build-to-Ten's one module)
        return "games:buildten" if second == "buildten" else "games:rummy"
    if top != "bot":
        return None
    if second == "games":
        third = parts[2] if len(parts) > 2 else ""
        return f"games:{third}" if third in wings else "registry"
    return {"core": "platform", "adapters": "adapters", "store": "store"}.get(second, "bot")


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


def _pure(name: str) -> str | None:
    """Why a pure module (engine, lessons) may not import the non-first-party `name`."""
    top = _top(name)
    if top not in ENGINE_STDLIB:
        return "engine-pure"
    if top == "random" and name not in ("random", "random.Random"):
        return "randomness only as random.Random(seed)"
    return None


def _pure_lesson(layer: str, name: str, wings: frozenset[str]) -> str | None:
    """What a pure module may not import beyond its layer's rule: anything but pure stdlib, the
    engine and (for lessons) the game's own pure modules."""
    target = layer_of(name, wings)
    if target is None:
        return _pure(name)
    if target.startswith("engine") or is_pure(name, target):
        return None
    return "engine-pure"


def import_rule(layer: str, name: str, wings: frozenset[str]) -> str | None:
    """The rule (a key of RULES) that importing `name` from `layer` breaks, or None."""
    target = layer_of(name, wings)
    top = _top(name)
    wing = layer.split(":", 1)[1] if ":" in layer else None
    target_wing = target.split(":", 1)[1] if target and ":" in target else None
    if layer.startswith("engine"):
        if target is None:
            return _pure(name)
        if not target.startswith("engine"):
            return "engine-pure"
        if target_wing is None or target_wing == wing:
            return None
        return "engine-root-no-wing" if wing is None else "engine-wing"
    if target_wing and wing and target_wing != wing:
        return "wing-no-other-wing"
    if layer == "render":
        if target_wing or target in ("bot", "registry", "platform", "adapters", "store") or (
                target and target.startswith("games")):
            return "render-root"
        if top in CHAT_LIBRARIES | STORE_LIBRARIES:
            return "render-root"
        return None
    if layer.startswith("render:"):
        if target is None:
            return "render-wing" if top in CHAT_LIBRARIES | STORE_LIBRARIES else None
        if target in ("engine", "render") or (target_wing == wing and not target.startswith(
                "games")):
            return None
        return "render-wing"
    if layer.startswith("games:"):
        if top in CHAT_LIBRARIES | STORE_LIBRARIES or target in ("store", "adapters"):
            return "wing-no-io"
        return None
    if layer == "platform":
        if target_wing or target == "registry":
            return "platform-no-wing"
        if target == "engine":
            return "platform-no-engine"
        if top in CHAT_LIBRARIES or target == "adapters":
            return "platform-no-chat"
        return None
    if layer == "adapters":
        if target_wing:
            return "adapters-no-wing"
        if target == "engine":
            return "adapters-no-engine"
        return None
    if layer == "store":
        if target in ("engine", "platform", "render", "adapters") or target_wing:
            return "store"
        return None
    return None  # the composition root


@dataclass
class Tree:
    """A checkout's modules, their layers and their first-party import edges."""

    root: Path
    wings: frozenset[str]
    modules: dict[str, Path]  # module name -> file
    layers: dict[str, str]  # module name -> layer
    edges: dict[str, set[str]]  # module -> first-party modules it imports
    violations: list[Violation]


def _target_module(name: str, modules: dict[str, Path]) -> str | None:
    """The first-party module an imported name means: `a.b.c` is module a.b.c when that
    exists, else the module a.b (c is a name in it)."""
    while name:
        if name in modules:
            return name
        name = name.rpartition(".")[0]
    return None


def read_tree(root: Path) -> Tree:
    wings = games(root)
    files = source_files(root)
    modules = {module_name(root, p): p for p in files}
    built = {name: root for name in extension_modules(root)}  # no source to read
    layers: dict[str, str] = {}
    edges: dict[str, set[str]] = {}
    found: list[Violation] = []
    for module, path in modules.items():
        layer = layer_of(module, wings) or "?"
        layers[module] = layer
        rel = path.relative_to(root).as_posix()
        tree = ast.parse(path.read_text(encoding="utf-8"), filename=rel)
        pure = is_pure(module, layer)
        edges[module] = set()
        for imp in imports(tree, module, path.name == "__init__.py"):
            target = _target_module(imp.name, modules | built)
            if target and target != module:
                edges[module].add(target)
            rule = import_rule(layer, imp.name, wings)
            if rule is None and pure:
                rule = _pure_lesson(layer, imp.name, wings)
            if rule:
                found.append(Violation(rel, imp.line, imp.name, rule))
        for line, called in _calls(tree):
            if called in ("__import__", "import_module", ".import_module", ".__import__"):
                found.append(Violation(rel, line, called.lstrip(".") + "()", "no dynamic imports"))
            elif pure and called in ENGINE_FORBIDDEN_CALLS:
                found.append(Violation(rel, line, f"{called}()", "the engine does no I/O"))
        if pure:
            found += [
                Violation(rel, line, name, "randomness only as random.Random(seed)")
                for line, name in _random_misuse(tree)
            ]
    return Tree(root, wings, modules, layers, edges, found)


def loops(edges: dict[str, set[str]]) -> list[list[str]]:
    """The import loops: each strongly connected set of two or more modules (Tarjan), sorted.
    A package's `__init__` importing its own modules while they import a name from it is
    counted too: a loop is a loop, whichever file Python happens to run first."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    on_stack: set[str] = set()
    found: list[list[str]] = []
    counter = 0

    def visit(start: str) -> None:  # iterative: the graph is deep enough to matter
        nonlocal counter
        work = [(start, iter(sorted(edges.get(start, ()))))]
        index[start] = low[start] = counter
        counter += 1
        stack.append(start)
        on_stack.add(start)
        while work:
            node, children = work[-1]
            for child in children:
                if child not in index:
                    index[child] = low[child] = counter
                    counter += 1
                    stack.append(child)
                    on_stack.add(child)
                    work.append((child, iter(sorted(edges.get(child, ())))))
                    break
                if child in on_stack:
                    low[node] = min(low[node], index[child])
            else:
                work.pop()
                if work:
                    low[work[-1][0]] = min(low[work[-1][0]], low[node])
                if low[node] == index[node]:
                    group = []
                    while True:
                        member = stack.pop()
                        on_stack.discard(member)
                        group.append(member)
                        if member == node:
                            break
                    if len(group) > 1:
                        found.append(sorted(group))

    for module in sorted(edges):
        if module not in index:
            visit(module)
    return sorted(found)


def single_game_roots(tree: Tree) -> dict[str, list[str]]:
    """Modules at the root of engine/ or render/ that serve one game's wing alone (or nothing
    outside the root): a game's own piece sitting where all games share. A root module is
    shared when two games' wings, or the platform (the lobby picture), use it, directly or
    through other root modules."""
    roots = [m for m, layer in tree.layers.items() if layer in ("engine", "render")]
    users: dict[str, set[str]] = {}
    for module, targets in tree.edges.items():
        for target in targets:
            if tree.layers.get(target) in ("engine", "render") and (
                    tree.layers[module] != tree.layers[target]):
                users.setdefault(target, set()).add(tree.layers[module])
    alone: dict[str, list[str]] = {}
    for module in roots:
        seen, todo, outside = {module}, [module], set()
        while todo:  # the users of this module and of every root module that imports it
            current = todo.pop()
            outside |= users.get(current, set())
            for other in roots:
                if current in tree.edges.get(other, ()) and other not in seen:
                    seen.add(other)
                    todo.append(other)
        wings = {layer.split(":", 1)[1] for layer in outside if ":" in layer}
        if len(wings) < 2 and "platform" not in outside and module not in ("engine", "render"):
            alone[module] = sorted(outside)
    return alone


def report(root: Path, tree: Tree | None = None) -> dict:
    """The import table: files per layer, import loops, rule breaks (per rule and each);
    `tree`: the checkout's, read already (`read_tree(root)`)."""
    tree = tree or read_tree(root)
    per_layer: dict[str, int] = {}
    for layer in tree.layers.values():
        per_layer[layer] = per_layer.get(layer, 0) + 1
    per_rule: dict[str, int] = {}
    for v in tree.violations:
        per_rule[v.rule] = per_rule.get(v.rule, 0) + 1
    return {
        "files_per_layer": dict(sorted(per_layer.items())),
        "single_game_roots": sorted(single_game_roots(tree)),
        "loops": loops(tree.edges),
        "rules": len(RULES),
        "rules_broken": sorted(per_rule),
        "breaks_per_rule": dict(sorted(per_rule.items())),
        "breaks": [str(v) for v in tree.violations],
    }


def print_table(table: dict) -> None:
    print("files per layer")
    for layer, count in table["files_per_layer"].items():
        print(f"  {layer:<20} {count:>4}")
    alone = table["single_game_roots"]
    named = f" ({', '.join(alone)})" if alone else ""
    print(f"root modules serving one game: {len(alone)}{named}")
    print(f"import loops: {len(table['loops'])}")
    for group in table["loops"]:
        print("  " + " <-> ".join(group))
    print(f"rules broken: {len(table['rules_broken'])} of {table['rules']}")
    for rule, count in table["breaks_per_rule"].items():
        print(f"  {rule:<22} {count:>4}  {RULES.get(rule, '')}")
    print(f"breaks: {len(table['breaks'])}")
    for line in table["breaks"]:
        print("  " + line)


# -- the platform's code text names no game ----------------------------------------------------
# The import rules keep the platform from importing a game; this keeps it from knowing one by
# name. Read: the code text of every Python file, script and style sheet of the platform —
# identifiers and string literals (what runs, what players read, what goes on the wire) — not
# comments and docstrings: those explain the platform with a game as the example ("Rummikub is
# for four"), which couples nothing. Telegram's vendored script is not ours.
PLATFORM_TEXT = ("bot/core", "bot/web", "bot/adapters", "bot/store")
TEXT_SUFFIXES = (".py", ".js", ".css")
NOT_OURS = ("bot/web/static/telegram-web-app.js",)
# The games' names and their variants (the rummy rulebooks; tests/test_layers.py checks every
# rulebook is here), and the words only some of the games have. Not here: the words every
# hosted card game shares with the platform's screens (card, hand, deck, turn, round, score,
# pass) and "discard" (the platform discards stale updates and screens).
GAME_NAMES = ("rummy", "rummikub", "buildten", "build-to-ten", "build_to_ten", "build to ten",
              "manipulation", "machiavelli", "shanghai", "guadeloupe", "carousel", "vatican",
              "tahiti")
GAME_WORDS = ("joker", "meld", "knock", "tile", "suit", "rack", "stock")
# Word forms counted with their stem (a plural, a past, a doer): "knocked", "melds", "jokers".
_ENDINGS = "(?:s|es|ed|ing|er|ers)?"
_GAME_TEXT = re.compile(
    "|".join(
        # a word starts where no letter is before it, or at a capital after a small letter
        # (`drawTile`, `RummyClient`), and ends where no small letter follows
        # (the word in any case, what is around it case-sensitively)
        rf"(?:(?<![A-Za-z])|(?<=[a-z])(?=[A-Z]))"
        rf"(?i:{'[-_ ]?'.join(map(re.escape, w.split('-')))}{_ENDINGS})(?![a-z])"
        for w in sorted({*GAME_NAMES, *GAME_WORDS}, key=len, reverse=True)
        if w not in ("build_to_ten", "build to ten")  # (the dash form matches them)
    )
)
# The product is called Rummy Table: its name, its command (/rummy, `rummy play`) and the
# prefix of its own names (rummy_update, rummy-lead:, rummy.db, RummyClient) are no game's.
PRODUCT = re.compile(r"Rummy Table|/rummy\b|\brummy(?=[-_.:][a-z])|(?:Sharded)?RummyClient",
                     re.IGNORECASE)


@dataclass(frozen=True)
class GameWord:
    """A game's name or word in the platform's code text."""

    path: str
    line: int
    word: str  # lower case, as the list has it ("knock" for "Knocked")
    text: str  # the identifier or literal it is in

    def __str__(self) -> str:
        return f"{self.path}:{self.line}: {self.word!r} in {self.text[:60]!r}"


def _stem(found: str) -> str:
    plain = found.lower().replace("_", "-").replace(" ", "-")
    for word in sorted({*GAME_NAMES, *GAME_WORDS}, key=len, reverse=True):
        if plain.startswith(word) or plain.replace("-", "") == word:
            return word
    return plain


def _words_in(text: str) -> Iterator[str]:
    for found in _GAME_TEXT.finditer(PRODUCT.sub(" ", text)):
        yield _stem(found.group(0))


def _docstrings(tree: ast.AST) -> set[tuple[int, int]]:
    """Where each docstring (module, class, function) starts."""
    return {
        (node.body[0].lineno, node.body[0].col_offset)
        for node in ast.walk(tree)
        if isinstance(node, ast.Module | ast.ClassDef | ast.FunctionDef | ast.AsyncFunctionDef)
        and node.body and isinstance(node.body[0], ast.Expr)
        and isinstance(node.body[0].value, ast.Constant)
        and isinstance(node.body[0].value.value, str)
    }


def _python_text(source: str) -> Iterator[tuple[int, str]]:
    """(line, text) of every name and string literal but docstrings; comments left out."""
    docs = _docstrings(ast.parse(source))
    kinds = {tokenize.NAME, tokenize.STRING}
    kinds |= {getattr(tokenize, "FSTRING_MIDDLE", tokenize.STRING)}  # Python 3.12's f-strings
    for token in tokenize.generate_tokens(io.StringIO(source).readline):
        if token.type in kinds and not (token.type == tokenize.STRING and token.start in docs):
            yield token.start[0], token.string


def _script_text(source: str) -> Iterator[tuple[int, str]]:
    """(line, text) of a script's or style sheet's code with its comments (`//`, `/* */`)
    blanked; strings kept (a regular expression's literal is read as code)."""
    out: list[str] = []
    i, quote = 0, ""
    while i < len(source):
        ch = source[i]
        if quote:
            out.append(ch)
            if ch == "\\" and i + 1 < len(source):
                out.append(source[i + 1])
                i += 1
            elif ch == quote:
                quote = ""
        elif ch in "\"'`":
            quote = ch
            out.append(ch)
        elif source.startswith("//", i) and not source.startswith("://", i - 1):
            end = source.find("\n", i)
            i = len(source) if end < 0 else end
            continue
        elif source.startswith("/*", i):
            end = source.find("*/", i + 2)
            end = len(source) if end < 0 else end + 2
            out.append("".join(c if c == "\n" else " " for c in source[i:end]))
            i = end
            continue
        else:
            out.append(ch)
        i += 1
    yield from enumerate("".join(out).split("\n"), start=1)


def game_words(root: Path) -> list[GameWord]:
    """Every game name or game word in the platform's code text (see PLATFORM_TEXT)."""
    found = []
    for folder in PLATFORM_TEXT:
        base = root / folder
        files = sorted(p for p in base.rglob("*") if p.suffix in TEXT_SUFFIXES) if (
            base.is_dir()) else []
        for path in files:
            rel = path.relative_to(root).as_posix()
            if rel in NOT_OURS:
                continue
            source = path.read_text(encoding="utf-8")
            read = _python_text if path.suffix == ".py" else _script_text
            for line, text in read(source):
                found += [GameWord(rel, line, word, text.strip()) for word in _words_in(text)]
    return found


if __name__ == "__main__":
    args = [a for a in sys.argv[1:] if a != "--json"]
    table = report(Path(args[0]) if args else Path(__file__).resolve().parent.parent)
    print_table(table)
    if "--json" in sys.argv:
        print(json.dumps(table))
