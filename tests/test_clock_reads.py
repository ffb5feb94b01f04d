"""Time is an input: nothing in bot/ reads the wall clock or sleeps on its own for a timing
decision; it asks the clock it was given (bot/clock.py). Checked on the source with `ast`: a
call of time.time, time.monotonic, asyncio.sleep or an event loop's .time() outside
bot/clock.py is allowed only where listed here, with why."""

from __future__ import annotations

import ast
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent

# (path, call) -> why it is not a timing decision the clock should make
ALLOWED: dict[tuple[str, str], str] = {
    ("bot/store/engine.py", "time.monotonic"): "SQLite's busy retry waits on another thread",
    ("bot/store/engine.py", "asyncio.sleep"): "SQLite's busy retry waits on another thread",
    ("bot/store/updates.py", "time.time"): "the inbox rows' stamp (read by nobody's timer)",
    ("bot/adapters/telegram.py", "time.time"): "/metrics' ages, for people reading them",
}
CALLS = {"time.time", "time.monotonic", "asyncio.sleep"}


def _dotted(node: ast.AST) -> str:
    if isinstance(node, ast.Name):
        return node.id
    if isinstance(node, ast.Attribute):
        return f"{_dotted(node.value)}.{node.attr}"
    if isinstance(node, ast.Call):
        return f"{_dotted(node.func)}()"
    return "?"


def clock_reads(root: Path) -> list[tuple[str, int, str]]:
    """(path, line, call) of every time read or sleep under root/bot but bot/clock.py."""
    found = []
    for path in sorted((root / "bot").rglob("*.py")):
        rel = path.relative_to(root).as_posix()
        if rel == "bot/clock.py":
            continue
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if not isinstance(node, ast.Call):
                continue
            name = _dotted(node.func)
            if name in CALLS:
                found.append((rel, node.lineno, name))
            elif name.endswith(("loop().time", "loop.time")):  # get_running_loop().time()
                found.append((rel, node.lineno, "loop.time"))
    return found


def test_bot_reads_time_only_through_its_clock() -> None:
    stray = [f"{p}:{line}: {name}" for p, line, name in clock_reads(ROOT)
             if (p, name) not in ALLOWED]
    assert not stray, "read the clock you were given (bot/clock.py):\n" + "\n".join(stray)


def test_the_check_sees_each_kind_of_read(tmp_path: Path) -> None:
    planted = tmp_path / "bot" / "x.py"
    planted.parent.mkdir()
    planted.write_text(
        "import asyncio, time\n"
        "async def f():\n"
        "    time.time(); time.monotonic(); await asyncio.sleep(1)\n"
        "    asyncio.get_running_loop().time()\n"
    )
    assert sorted(name for _p, _l, name in clock_reads(tmp_path)) == [
        "asyncio.sleep", "loop.time", "time.monotonic", "time.time"]
