"""Bot benchmark: button press -> answer on Telegram, and 50 games at once.

    .venv/bin/python bench/bot.py                  # a readable table (a few minutes)
    .venv/bin/python bench/bot.py --quick          # smoke run (well under a minute)
    .venv/bin/python bench/bot.py --json           # ... and, as the last line, one JSON object
    .venv/bin/python bench/bot.py --db postgresql  # PostgreSQL (a scratch database, dropped after)
    .venv/bin/python bench/bot.py --lab            # no rate limits anywhere: the bot's own cost

By default the bot runs with its production rate limiter against a fake Bot API that enforces
Telegram's flood control (the load phase is then bounded by Telegram's 30 requests a second);
`--lab` switches both off, as this benchmark did before. Waiting times under realistic pacing
are bench/pace.py's.

The real python-telegram-bot Application, GameService and Store (SQLite file, or PostgreSQL)
run against the fake Bot API server of the tests (tests/fakes/telegram_server.py) on 127.0.0.1.
By default the bot runs in a child process (bench/bot_server.py), like in production; the fake
server and the scripted users live in this process, and their decisions in one worker process.
`--inproc` runs the bot in this process and event loop instead, as the tests do.

1. Solo (an idle bot): one person and a computer; one press at a time. Times are taken by the
   fake: from queueing the callback_query (what the user's tap becomes on Telegram's side) to
   the bot's answerCallbackQuery arriving, and to the bot's edit of the pressed message arriving.
   Rows: floor (a foreign button: fake network + PTB + answer only), noop (+ loading the game;
   a press that changes nothing writes nothing), select (+ screens, keyboard-only edit), New
   group and Reset (+ engine, picture, media upload), Draw (+ the turn passing: group message,
   both screens, the computer's move).
   Target: median press -> answer under 60 ms.
2. Load: N games at once (2 people + 1 medium computer each, computer_delay=0). People press
   one button at a time and wait for the answer and the edit, with no thinking time (a closed
   loop: a stress test). Reported: presses answered per second of wall time, press -> answer
   p95 under that load, games finished, errors (incl. answers later than Telegram's 15 s).

Also printed: CPU seconds of every process and the machine's load; "bot CPU per press" is the
least noisy capacity figure on a shared machine. Options: --stages times each stage of the
press path inside the bot (service.press, store calls, state (de)serialisation, rendering,
deliver), the event loop's lag and the DB connections in use; --profile samples the bot with
py-spy (Python CPU by category: render / engine / state JSON / store / PTB+HTTP / asyncio);
--only solo|load runs one phase. --stages and --profile change what is measured a
little: keep them out of the figures you compare. The machine is shared and noisy: compare
medians and ratios between runs taken close together, not single times.

`--db postgresql --workers N` (with --lab for the bot's own cost) runs the load phase twice,
one after the other: on 1 worker, then on N worker processes on one PostgreSQL, each in
webhook mode behind a balancer in this process that posts each update to a random worker (as
Telegram behind a proxy); it prints presses/s and p95 side by side and their ratio.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import multiprocessing
import os
import resource
import shutil
import signal
import statistics
import subprocess
import sys
import tempfile
import time
from collections import Counter
from concurrent.futures import ProcessPoolExecutor
from pathlib import Path
from typing import Any

HERE = Path(__file__).resolve().parent
ROOT = HERE.parent
for _path in (ROOT, ROOT / "tests", HERE):
    if str(_path) not in sys.path:
        sys.path.insert(0, str(_path))

from bot_fake import BenchTelegram, Press  # noqa: E402
from bot_people import LoadGame, solo  # noqa: E402
from fakes.telegram_balancer import Balancer, stop_workers  # noqa: E402

from bot import event_loop  # noqa: E402
from bot.store import Store  # noqa: E402
from bot.store.engine import make_engine  # noqa: E402
from bot.store.urls import database_url  # noqa: E402

TARGET_MS = 60.0
PG_ADMIN = "postgresql+asyncpg://postgres@127.0.0.1:5432/test"
KIND_ORDER = ("floor", "noop", "select", "new", "reset", "draw", "lobby", "page", "auto",
              "done", "pass")
CHEAP = ("select",)
ENGINE = ("new", "reset", "draw")


# -- statistics ----------------------------------------------------------------------------------


def stats(values: list[float]) -> dict[str, float | int] | None:
    """median, p95 (nearest rank), max, n of the values (ms), or None if there are none."""
    values = sorted(v for v in values if v is not None)
    if not values:
        return None
    p95 = values[min(len(values) - 1, round(0.95 * (len(values) - 1)))]
    return {"median": round(statistics.median(values), 1), "p95": round(p95, 1),
            "max": round(values[-1], 1), "n": len(values)}


def fmt(s: dict | None) -> str:
    if not s:
        return f"{'-':>8} {'-':>8} {'-':>8} {0:>5}"
    return f"{s['median']:>8.1f} {s['p95']:>8.1f} {s['max']:>8.1f} {s['n']:>5}"


# -- the database --------------------------------------------------------------------------------


class Database:
    def __init__(self, kind: str) -> None:
        self.kind = kind
        self.url = ""
        self._dir: str | None = None
        self._pg_name = ""

    async def create(self) -> str:
        if self.kind == "sqlite":
            self._dir = tempfile.mkdtemp(prefix="rummy-bench-")
            self.url = f"sqlite+aiosqlite:///{self._dir}/bench.db"
        else:
            import asyncpg

            self._pg_name = f"rummy_bench_{os.getpid()}"
            conn = await asyncpg.connect("postgresql://postgres@127.0.0.1:5432/test")
            try:
                await conn.execute(f'DROP DATABASE IF EXISTS "{self._pg_name}"')
                await conn.execute(f'CREATE DATABASE "{self._pg_name}"')
            finally:
                await conn.close()
            self.url = PG_ADMIN.rsplit("/", 1)[0] + "/" + self._pg_name
        return self.url

    async def drop(self) -> None:
        if self._dir:
            shutil.rmtree(self._dir, ignore_errors=True)
        if self._pg_name:
            import asyncpg

            conn = await asyncpg.connect("postgresql://postgres@127.0.0.1:5432/test")
            try:
                await conn.execute(f'DROP DATABASE IF EXISTS "{self._pg_name}" WITH (FORCE)')
            finally:
                await conn.close()


# -- the bot: a child process, or in this loop ---------------------------------------------------


class ChildBot:
    """bench/bot_server.py in its own interpreter."""

    def __init__(self, tg: BenchTelegram, db_url: str, stages: bool, lab: bool = False,
                 root: Path = ROOT) -> None:
        server = root / "bench" / "bot_server.py"
        # An older bot_server (--before) has no --lab: it always ran without limits.
        lab_flag = ["--lab"] if lab and '"--lab"' in server.read_text() else []
        self.args = [sys.executable, str(server), "--base-url", tg.base_url,
                     "--token", tg.token, "--db", db_url] + (["--stages"] if stages else []) + (
                         lab_flag)
        self.proc: asyncio.subprocess.Process | None = None
        self.stderr = tempfile.TemporaryFile()  # noqa: SIM115 (closed in stop())

    @property
    def pid(self) -> int:
        assert self.proc is not None
        return self.proc.pid

    async def start(self) -> None:
        self.proc = await asyncio.create_subprocess_exec(
            *self.args, stdin=asyncio.subprocess.PIPE, stdout=asyncio.subprocess.PIPE,
            stderr=self.stderr,
        )
        line = await asyncio.wait_for(self._line(), 60)
        if line != "READY":
            raise RuntimeError(f"bot process: {line!r}; stderr: {self._stderr()}")

    async def _line(self) -> str:
        assert self.proc and self.proc.stdout
        return (await self.proc.stdout.readline()).decode().strip()

    @property
    def stderr_tail(self) -> str:
        return self._stderr()

    def _stderr(self) -> str:
        self.stderr.seek(0)
        return self.stderr.read().decode(errors="replace")[-2000:]

    async def mark(self, name: str) -> None:
        assert self.proc and self.proc.stdin
        self.proc.stdin.write(f"mark {name}\n".encode())
        await self.proc.stdin.drain()
        await asyncio.wait_for(self._line(), 30)

    async def stop(self) -> dict[str, Any]:
        if self.proc is None:
            return {}
        report: dict[str, Any] = {}
        try:
            assert self.proc.stdin
            self.proc.stdin.write(b"stop\n")
            await self.proc.stdin.drain()
            self.proc.stdin.close()
            for _ in range(100):
                line = await asyncio.wait_for(self._line(), 30)
                if line.startswith("STATS "):
                    report = json.loads(line[6:])
                    break
                if not line and self.proc.stdout.at_eof():
                    break
            await asyncio.wait_for(self.proc.wait(), 30)
        except (TimeoutError, ConnectionError, BrokenPipeError):
            if self.proc.returncode is None:
                self.proc.kill()  # our own child, by its handle
                await self.proc.wait()
        if not report:
            report = {"errors": -1, "error_samples": [self._stderr()]}
        return report


class InProcessBot:
    def __init__(self, tg: BenchTelegram, db_url: str, stages: bool, lab: bool = False) -> None:
        from bot_server import BotUnderTest

        self.bot = BotUnderTest(tg.base_url, tg.token, db_url, stages=stages, lab=lab)
        self.pid = os.getpid()

    async def start(self) -> None:
        await self.bot.up()

    async def mark(self, name: str) -> None:
        self.bot.mark(name)

    async def stop(self) -> dict[str, Any]:
        await self.bot.down()
        return {"segments": self.bot.segments, "errors": self.bot.errors.count,
                "error_samples": self.bot.errors.first}


# -- py-spy ----------------------------------------------------------------------------------------


class Profiler:
    """py-spy record --format raw on the bot's pid, one file per phase."""

    def __init__(self, pid: int, folder: Path) -> None:
        self.pid, self.folder = pid, folder
        self.proc: asyncio.subprocess.Process | None = None
        self.files: dict[str, Path] = {}
        self.exe = shutil.which("py-spy") or str(Path(sys.executable).parent / "py-spy")

    async def start(self, phase: str) -> None:
        out = self.folder / f"{phase}.txt"
        self.files[phase] = out
        self.proc = await asyncio.create_subprocess_exec(
            # --gil: only the thread holding the GIL, i.e. Python CPU (py-spy's idle detection
            # is unreliable here); --nonblocking: don't pause the bot to sample it
            self.exe, "record", "--format", "raw", "--rate", "100", "--threads", "--gil",
            "--nonblocking",
            "--pid", str(self.pid), "--output", str(out),
            stdout=asyncio.subprocess.DEVNULL, stderr=asyncio.subprocess.DEVNULL,
        )
        await asyncio.sleep(0.5)

    async def stop(self) -> None:
        if self.proc and self.proc.returncode is None:
            self.proc.send_signal(signal.SIGINT)  # py-spy writes its file on Ctrl-C
            try:
                await asyncio.wait_for(self.proc.wait(), 30)
            except TimeoutError:
                self.proc.kill()
                await self.proc.wait()
        self.proc = None


CATEGORIES = (  # leaf-first: a sample counts for the first frame (from the leaf up) that matches
    ("state JSON / copy", ("/json/", "/dataclasses.py", "/copy.py", " to_dict", " from_dict",
                           "_tokens", "_cards", "from_token")),
    ("render (PIL)", ("/render/", "/PIL/")),
    ("engine", ("/engine/",)),
    ("store (SQLAlchemy, driver)", ("/sqlalchemy/", "/aiosqlite/", "/asyncpg/", "/sqlite3/",
                                    "/alembic/")),
    ("PTB + HTTP client", ("/telegram/", "/httpx/", "/httpcore/", "/h11/", "/anyio/",
                           "/multipart", "/email/", "/ssl.py", "/socket.py")),
    ("bot core / adapter", ("/bot/",)),
    ("fake server (aiohttp)", ("/aiohttp/", "/fakes/", "/yarl/", "/multidict/", "/bench/")),
    ("asyncio / threads", ("/asyncio/", "/threading.py", "/concurrent/", "/selectors.py")),
)


def _frame_key(frame: str) -> str:
    """"func (path:line)" -> " func /path" (so "/json/" matches "json/encoder.py" too)."""
    func, _, where = frame.partition(" (")
    return f" {func} /{where.rsplit(':', 1)[0]}"


def classify(frames: list[str]) -> str:
    for frame in reversed(frames):
        key = _frame_key(frame)
        for name, needles in CATEGORIES:
            if any(n in key for n in needles):
                return name
    return "other"


def read_profile(path: Path, pid: int) -> dict[str, Any] | None:
    """Share of samples by category; and the same for the event loop (main) thread alone."""
    if not path.exists() or path.stat().st_size == 0:
        return None
    by_cat: Counter[str] = Counter()
    loop_cat: Counter[str] = Counter()
    leaf: Counter[str] = Counter()
    threads: Counter[str] = Counter()
    total = 0
    for line in path.read_text().splitlines():
        stack, _, count = line.rpartition(" ")
        if not stack or not count.isdigit():
            continue
        n = int(count)
        frames = stack.split(";")
        is_loop = frames[0].startswith(f"thread ({pid})")  # the main thread's id is the pid
        frames = frames[1:] if frames[0].startswith("thread (") else frames
        if not frames:
            continue
        category = classify(frames)
        by_cat[category] += n
        if is_loop:
            loop_cat[category] += n
        func, _, where = frames[-1].partition(" (")
        leaf[f"{func} ({where.rsplit('/', 1)[-1].rstrip(')')})"] += n
        threads["event loop thread" if is_loop else "other threads"] += n
        total += n
    if not total:
        return None
    return {"samples": total, "by_category": dict(by_cat.most_common()),
            "event_loop": dict(loop_cat.most_common()), "threads": dict(threads),
            "top_leaf": leaf.most_common(12)}


# -- phases ----------------------------------------------------------------------------------------


def _cpu_self() -> float:
    usage = resource.getrusage(resource.RUSAGE_SELF)
    return usage.ru_utime + usage.ru_stime


def _cpu_of(pids: list[int], *, main_thread_only: bool = False) -> float:
    """CPU seconds used so far by these (live) processes (or their main threads), from /proc."""
    total = 0.0
    for pid in pids:
        path = f"/proc/{pid}/task/{pid}/stat" if main_thread_only else f"/proc/{pid}/stat"
        try:
            fields = Path(path).read_text().rsplit(")", 1)[1].split()
            total += (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")
        except (OSError, IndexError, ValueError):
            pass
    return total


def _own_cpu() -> float:
    """CPU seconds of this process and its finished-or-live children (the decision pool)."""
    own = resource.getrusage(resource.RUSAGE_SELF)
    pool = _cpu_of([int(p) for p in _children(os.getpid())])
    return own.ru_utime + own.ru_stime + pool


def _children(pid: int) -> list[str]:
    try:
        return Path(f"/proc/{pid}/task/{pid}/children").read_text().split()
    except OSError:
        return []


def _postgres_pids() -> list[int]:
    """The PostgreSQL server's processes on this machine (their CPU is the database's)."""
    pids = []
    for entry in Path("/proc").iterdir():
        if entry.name.isdigit():
            try:
                if (entry / "comm").read_text().strip() == "postgres":
                    pids.append(int(entry.name))
            except OSError:
                pass
    return pids


def _machine_cpu() -> tuple[float, float]:
    """(busy, total) jiffies of all CPUs since boot, from /proc/stat."""
    try:
        values = [int(v) for v in Path("/proc/stat").read_text().split("\n", 1)[0].split()[1:]]
    except (OSError, ValueError):
        return 0.0, 0.0
    idle = values[3] + (values[4] if len(values) > 4 else 0)  # idle + iowait
    return float(sum(values) - idle), float(sum(values))


async def run(args: argparse.Namespace, root: Path = ROOT) -> dict[str, Any]:
    """One benchmark of the bot in `root` (this tree, or --before's older one)."""
    loop = asyncio.get_running_loop()
    database = Database(args.db)
    db_url = await database.create()
    store: Store | None = None
    pool = ProcessPoolExecutor(1, mp_context=multiprocessing.get_context("spawn"))
    result: dict[str, Any] = {"db": args.db, "mode": "inproc" if args.inproc else "process",
                              "limits": "lab" if args.lab else "production",
                              "loadavg_start": round(os.getloadavg()[0], 1), "cpu": {}}
    profile_dir = Path(tempfile.mkdtemp(prefix="rummy-bench-prof-"))
    measured: list[Press] = []
    load: dict[str, Any] = {}
    try:
        async with BenchTelegram(**({"flood": None} if args.lab else {})) as tg:
            bot = (ChildBot(tg, db_url, args.stages, args.lab, root) if not args.inproc
                   else InProcessBot(tg, db_url, args.stages, args.lab))
            await bot.start()
            # The bot migrated the database with its own code; the users only read states
            # (an older bot's schema is not this tree's head).
            store = Store(make_engine(database_url(db_url)))
            profiler = Profiler(bot.pid, profile_dir) if args.profile else None
            result["profiled_pid"] = bot.pid
            try:
                # warm the decision worker (imports) outside the measurements
                await loop.run_in_executor(pool, pow, 2, 8)
                workers = list(getattr(pool, "_processes", {}) or {})

                async def phase(name: str, body: Any) -> Any:
                    await bot.mark(name)
                    if profiler:
                        await profiler.start(name)
                    cpu0, worker0, t0 = _cpu_self(), _cpu_of(workers), loop.time()
                    result["phase"] = name
                    loop0 = _cpu_of([bot.pid], main_thread_only=True)
                    busy0, total0 = _machine_cpu()
                    try:
                        return await body
                    finally:
                        wall = loop.time() - t0
                        busy1, total1 = _machine_cpu()
                        result["cpu"][name] = {
                            "wall_s": round(wall, 1),
                            "bench_process_s": round(_cpu_self() - cpu0, 1),
                            "decision_worker_s": round(_cpu_of(workers) - worker0, 1),
                            "bot_loop_thread_s": round(
                                _cpu_of([bot.pid], main_thread_only=True) - loop0, 1),
                            "machine_busy_pct": round(
                                100 * (busy1 - busy0) / max(1.0, total1 - total0)),
                        }
                        if profiler:
                            await profiler.stop()

                if args.only in (None, "solo"):
                    measured, notes = await phase("solo", solo(
                        tg, args.solo_rulebook, args.presses, loop.time() + args.solo_time))
                    result["solo_notes"] = notes
                    await tg.settle(quiet=0.2, timeout=10)
                if args.only in (None, "load"):
                    load = await phase("load", run_load(tg, store, pool, args))
            except Exception as error:  # report what was measured, and why it stopped
                result["failure"] = f"{result.get('phase')}: {type(error).__name__}: {error}"
            finally:
                if profiler:
                    await profiler.stop()
                bot_report = await bot.stop()
                if "failure" in result and isinstance(bot, ChildBot):
                    result["failure"] += "\nbot stderr: " + bot.stderr_tail[-1500:]
            result["fake"] = {"requests": dict(sorted(tg.counts.items())),
                              "failed": tg.failed[:2000],
                              "internal_errors": [repr(e) for e in tg.internal_errors[:5]]}
    finally:
        pool.shutdown(cancel_futures=True)
        if store is not None:
            await store.close()
        await database.drop()
    result["loadavg_end"] = round(os.getloadavg()[0], 1)
    result["solo"] = solo_figures(measured)
    result["load"] = load
    result["bot"] = bot_report
    for name, seg in bot_report.get("segments", {}).items():
        if name in result["cpu"]:
            result["cpu"][name]["bot_process_s"] = seg["cpu_s"]
    if args.profile:
        result["profile"] = {phase: read_profile(path, result["profiled_pid"]) for phase, path in
                             {"solo": profile_dir / "solo.txt",
                              "load": profile_dir / "load.txt"}.items()}
    if args.profile_out:
        args.profile_out.mkdir(parents=True, exist_ok=True)
        for path in profile_dir.glob("*.txt"):
            shutil.copy(path, args.profile_out / path.name)
    shutil.rmtree(profile_dir, ignore_errors=True)
    return result


def solo_figures(presses: list[Press]) -> dict[str, Any]:
    by_kind: dict[str, dict[str, Any]] = {}
    for kind in KIND_ORDER:
        chosen = [p for p in presses if p.kind == kind]
        if chosen:
            by_kind[kind] = {
                "answer": stats([p.answer_ms for p in chosen]),
                "edit": stats([p.edit_ms for p in chosen]),
                "edit_methods": dict(Counter(p.edit_method for p in chosen if p.edit_method)),
                "alerts": sum(p.alert for p in chosen),
                "errors": sum(bool(p.error) for p in chosen),
            }
    game = [p for p in presses if p.kind in CHEAP + ENGINE]
    return {
        "by_kind": by_kind,
        "all": {"answer": stats([p.answer_ms for p in game]),
                "edit": stats([p.edit_ms for p in game])},
        "cheap": {"answer": stats([p.answer_ms for p in presses if p.kind in CHEAP]),
                  "edit": stats([p.edit_ms for p in presses if p.kind in CHEAP])},
        "engine": {"answer": stats([p.answer_ms for p in presses if p.kind in ENGINE]),
                   "edit": stats([p.edit_ms for p in presses if p.kind in ENGINE])},
        "errors": [f"{p.kind}: {p.error}" for p in presses if p.error][:10],
        "answered": sum(p.answer_ms is not None for p in presses),
    }


async def run_load(tg: BenchTelegram, store: Store, pool: Any,
                   args: argparse.Namespace) -> dict[str, Any]:
    loop = asyncio.get_running_loop()
    presses: list[Press] = []
    t0 = loop.time()
    first_request = len(tg.requests)
    games = [LoadGame(i, tg, pool, args.rulebook, t0 + args.time_limit, presses)
             for i in range(args.games)]
    await asyncio.gather(*(g.run() for g in games))
    wall = loop.time() - t0
    answered = [p for p in presses if p.answer_ms is not None]
    finished = 0
    record_bytes = []
    for g in games:
        row = await store.get_game(g.game_id) if g.game_id else None
        if row is not None:
            finished += row.status == "finished"
            record_bytes.append(len(json.dumps(row.record)))
    errors = Counter()
    for p in presses:
        if p.error:
            errors[f"press: {p.error}"] += 1
        elif "out of date" in p.text and p.kind != "refresh":
            errors[f"press: stale button ({p.kind})"] += 1
        elif p.answer_ms is not None and p.answer_ms > 15_000:
            errors["press: answered after 15 s (Telegram refuses it)"] += 1
    for g in games:
        if g.error:
            errors[f"game: {g.error}"] += 1
    kinds = Counter(p.kind for p in presses)
    return {
        "games": args.games,
        "rulebook": args.rulebook,
        "wall_s": round(wall, 1),
        "time_limit_s": args.time_limit,
        "presses": len(presses),
        "answered": len(answered),
        "actions_per_s": round(len(answered) / wall, 1) if wall else 0.0,
        "answer": stats([p.answer_ms for p in presses]),
        "edit": stats([p.edit_ms for p in presses]),
        "p95_ms": (stats([p.answer_ms for p in presses]) or {}).get("p95"),
        "finished": finished,
        "turns": sum(g.turns for g in games),
        "fallbacks": sum(g.fallbacks for g in games),
        "screens_behind": sum(g.behind for g in games),
        "screens_backwards": (back := tg.backwards_screens(first_request)),
        "context": {f"{b[0]}@{b[4]}": tg.recent(b[0], 5, before=b[4]) for b in back[:2]},
        "alerts": sum(p.alert for p in presses),
        "kinds": dict(kinds.most_common()),
        "errors": sum(errors.values()),
        "error_kinds": dict(errors.most_common(8)),
        "record_kb_median": round(statistics.median(record_bytes) / 1024, 1)
        if record_bytes else None,
        "record_kb_max": round(max(record_bytes) / 1024, 1) if record_bytes else None,
        "notes": [n for g in games for n in g.notes][:20],
    }


# -- report ----------------------------------------------------------------------------------------


def print_report(r: dict[str, Any], args: argparse.Namespace) -> None:
    where = "in this process" if r["mode"] == "inproc" else "in a child process"
    print(f"Bot benchmark — db {r['db']}, bot {where}, fake Telegram on 127.0.0.1; "
          f"machine load average {r['loadavg_start']} -> {r['loadavg_end']} (2 cores, shared)")
    if r.get("failure"):
        print("\nFAILED during", r["failure"])
    if r["solo"]["all"]["answer"]:
        print_solo(r)
    if r["load"]:
        print_load(r)
    bot = r["bot"]
    segs = bot.get("segments", {})
    print("errors logged by the bot: " + ", ".join(
        f"{name} {seg.get('errors', '?')}" for name, seg in segs.items()))
    for sample in bot.get("error_samples", [])[:3]:
        print(f"  {sample}")
    failed = Counter(f"{m} {s} {d[:70]}" for m, s, d in r["fake"]["failed"])
    if failed:
        print("failed Bot API calls:", dict(failed.most_common(5)))
    if r["fake"]["internal_errors"]:
        print("fake server errors:", r["fake"]["internal_errors"])
    requests = {m: n for m, n in r["fake"]["requests"].items() if m != "getUpdates"}
    answered = r["solo"]["answered"] + (r["load"] or {}).get("answered", 0)
    if answered:
        print(f"Bot API requests (both phases): {sum(requests.values()) / answered:.2f} per press "
              f"answered; {requests}")
    for name, c in r["cpu"].items():
        presses = r["solo"]["answered"] if name == "solo" else (r["load"] or {}).get("answered", 0)
        per_press = c.get("bot_process_s", 0) * 1000 / presses if presses else 0
        c["bot_cpu_ms_per_press"] = round(per_press, 1)
        who = "bot + fake + users (one process)" if r["mode"] == "inproc" else "bot"
        print(f"CPU, {name}: {who} {c.get('bot_process_s', '?')} s (event-loop thread "
              f"{c['bot_loop_thread_s']} s), bench process (fake + users) "
              f"{c['bench_process_s']} s, decisions {c['decision_worker_s']} s, in "
              f"{c['wall_s']} s wall; machine busy {c['machine_busy_pct']}% of all cores; "
              f"bot CPU per press answered (background work included) {per_press:.0f} ms, i.e. "
              f"~{1000 / per_press if per_press else 0:.0f} presses/s per core the bot gets")
    for seg, data in segs.items():
        if data.get("loop_lag_ms"):
            print(f"bot event-loop lag ({seg}): {data['loop_lag_ms']} ms; DB connections "
                  f"checked out: {data['db_connections_in_use']}")
    for seg, data in segs.items():
        if data.get("stages") and seg != "shutdown":
            print_stages(seg, data["stages"])
    for phase, prof in (r.get("profile") or {}).items():
        if prof:
            print_profile(phase, prof)


def print_solo(r: dict[str, Any]) -> None:
    solo_r = r["solo"]
    wall = r["cpu"].get("solo", {}).get("wall_s")
    print()
    print(f"1. One press at a time on an idle bot ({solo_r['all']['answer']['n']} game presses "
          f"in {wall} s); ms from the press being queued by the fake")
    print(f"{'press':<27} {'-> answerCallbackQuery':^32}   {'-> edit of the message':^32}")
    print(f"{'':<27} {'median':>8} {'p95':>8} {'max':>8} {'n':>5}   "
          f"{'median':>8} {'p95':>8} {'max':>8} {'n':>5}")
    labels = {"floor": "floor: foreign button", "noop": "noop: load game, no write",
              "select": "select a card (cheap)", "new": "New group (engine)",
              "reset": "Reset (engine)", "draw": "Draw (engine, turn ends)"}
    for kind, label in labels.items():
        row = solo_r["by_kind"].get(kind)
        if row:
            edit = fmt(row["edit"]) if kind not in ("floor", "noop") else fmt(None)
            print(f"{label:<27} {fmt(row['answer'])}   {edit}")
    for key, label in (("cheap", "all cheap"), ("engine", "all engine"),
                       ("all", "all game presses")):
        print(f"{label:<27} {fmt(solo_r[key]['answer'])}   {fmt(solo_r[key]['edit'])}")
    median = solo_r["all"]["answer"]["median"]
    verdict = "ok" if median < TARGET_MS else "MISSED"
    print(f"target: median press -> answer < {TARGET_MS:.0f} ms: {median:.1f} ms  {verdict}")
    if solo_r["errors"]:
        print("solo errors:", "; ".join(solo_r["errors"]))


def print_load(r: dict[str, Any]) -> None:
    load = r["load"]
    print()
    print(f"2. {load['games']} games at once ({load['rulebook']}, 2 people + 1 medium computer "
          f"each, computer_delay=0); people press one button at a time")
    print(f"   wall {load['wall_s']} s (limit {load['time_limit_s']} s): presses answered "
          f"{load['answered']}/{load['presses']}  ->  {load['actions_per_s']} presses/s")
    print(f"   {'':<22} {'median':>8} {'p95':>8} {'max':>8} {'n':>5}")
    print(f"   {'press -> answer':<22} {fmt(load['answer'])}")
    print(f"   {'press -> edit':<22} {fmt(load['edit'])}")
    print(f"   games finished {load['finished']}/{load['games']}; turns taken by people "
          f"{load['turns']}; errors {load['errors']} {load['error_kinds'] or ''}")
    print(f"   alerts {load['alerts']}; fallbacks (planned move not playable by buttons) "
          f"{load['fallbacks']}; game record JSON median {load['record_kb_median']} KB, "
          f"max {load['record_kb_max']} KB")
    back = load["screens_backwards"]
    groups = sum(1 for chat, *_ in back if chat < 0)
    print(f"   screens replaced by an older game state (out-of-order delivery): {len(back)} "
          f"({groups} group tables, {len(back) - groups} private screens)"
          + (", e.g.:" if back else ""))
    print(f"   people whose screen stayed older than the stored state while it was their turn "
          f"(they tapped Sort to refresh it, as a person would): {load['screens_behind']}")
    for note in load["notes"][:3]:
        print(f"     {note}")
    for chat, _new, _old, _method, when in back[:2]:
        print(f"     chat {chat}: " + " | ".join(load["context"].get(f"{chat}@{when}", [])))


def print_stages(segment: str, stages: dict[str, dict[str, dict[str, float]]]) -> None:
    print()
    print(f"Stages inside the bot ({segment}): median ms per call (calls per press kind)")
    kinds = [k for k in ("select", "new", "reset", "draw", "noop", "auto", "done", "lobby",
                         "background") if k in stages]
    names = sorted({s for k in kinds for s in stages[k]})
    print(f"{'stage':<40}" + "".join(f"{k:>14}" for k in kinds))
    for name in names:
        cells = []
        for k in kinds:
            s = stages[k].get(name)
            cells.append(f"{s['median']:>8.1f} ({s['n']:>3})" if s else f"{'':>14}")
        print(f"{name:<40}" + "".join(f"{c:>14}" for c in cells))


def print_profile(phase: str, prof: dict[str, Any]) -> None:
    print()
    total = prof["samples"]
    print(f"py-spy ({phase}): {total} samples of the thread holding the GIL (Python CPU; C "
          "code that releases the GIL, e.g. PNG deflate and sqlite, is not seen); "
          + ", ".join(f"{k} {v * 100 // total}%" for k, v in prof["threads"].items()))
    loop_total = sum(prof["event_loop"].values()) or 1
    print(f"{'category':<30} {'all threads':>12} {'event loop':>12}")
    for name, n in prof["by_category"].items():
        on_loop = prof["event_loop"].get(name, 0)
        print(f"{name:<30} {n * 100 / total:>11.0f}% {on_loop * 100 / loop_total:>11.0f}%")
    print("top leaf functions:", "; ".join(f"{f} {n * 100 / total:.0f}%"
                                           for f, n in prof["top_leaf"][:8]))


def json_figures(r: dict[str, Any]) -> dict[str, Any]:
    solo_r, load = r["solo"], r["load"]
    out: dict[str, Any] = {
        "press_answer_ms": solo_r["all"]["answer"],
        "press_edit_ms": solo_r["all"]["edit"],
        "cheap": solo_r["cheap"],
        "engine": solo_r["engine"],
        "by_kind": {k: {"answer": v["answer"], "edit": v["edit"]}
                    for k, v in solo_r["by_kind"].items()},
    }
    if load:
        out["load"] = {key: load[key] for key in (
            "games", "actions_per_s", "p95_ms", "finished", "errors", "presses", "answered",
            "wall_s", "turns", "screens_behind")} | {
            "answer_ms": load["answer"], "edit_ms": load["edit"],
            "screens_backwards": len(load["screens_backwards"])}
    out |= {"bot_errors": r["bot"].get("errors"), "cpu_s": r["cpu"], "db": r["db"],
            "requests": r["fake"]["requests"],
            "failure": r.get("failure"),
            "mode": r["mode"], "loadavg": [r["loadavg_start"], r["loadavg_end"]]}
    return out


# -- --before REV: the same benchmark of an older bot, side by side in one run -----------------


def older_tree(rev: str) -> Path:
    """A checkout of `rev` in a temporary git worktree, its solver's C part built (copied when
    its source is this tree's)."""
    folder = Path(tempfile.mkdtemp(prefix="rummy-before-"))
    subprocess.run(["git", "-C", str(ROOT), "worktree", "add", "--detach", str(folder), rev],
                   check=True, capture_output=True)
    here = ROOT / "engine/rummy/solver"
    # the older tree's solver: in the rummy wing, or at the engine's root before the move
    there = next((folder / p for p in ("engine/rummy/solver", "engine/solver")
                  if (folder / p / "_c.c").exists()), folder / "engine/rummy/solver")
    source, built = there / "_c.c", sorted(here.glob("_c.*.so"))
    if source.exists():
        if built and source.read_bytes() == (here / "_c.c").read_bytes():
            shutil.copy(built[0], there)
        else:
            subprocess.run([sys.executable, "setup.py", "build_ext", "--inplace"], cwd=folder,
                           check=True, capture_output=True)
    return folder


def compare(before: list[dict[str, Any]], after: list[dict[str, Any]], rev: str
            ) -> dict[str, Any]:
    """The figures side by side (each the median of its rounds), and after / before."""
    def figures(r: dict[str, Any]) -> dict[str, float]:
        load, cpu = r["load"] or {}, r["cpu"]
        return {
            "solo press->answer median ms": r["solo"]["all"]["answer"]["median"],
            "solo bot CPU ms per press": cpu.get("solo", {}).get("bot_cpu_ms_per_press", 0),
            "load presses/s": load.get("actions_per_s", 0),
            "load press->answer p95 ms": load.get("p95_ms", 0),
            "load bot CPU ms per press": cpu.get("load", {}).get("bot_cpu_ms_per_press", 0),
        }

    def medians(runs: list[dict[str, Any]]) -> dict[str, float]:
        each = [figures(r) for r in runs]
        return {k: round(statistics.median(f[k] for f in each), 1) for k in each[0]}

    old, new = medians(before), medians(after)
    rounds = f", medians of {len(before)} alternated rounds" if len(before) > 1 else ""
    print(f"\nBefore ({rev}) and after (this tree), one run, the same load and machine{rounds}")
    print(f"{'figure':32} {'before':>9} {'after':>9} {'after/before':>13}")
    ratios = {}
    for key in old:
        ratios[key] = round(new[key] / old[key], 2) if old[key] else None
        ratio = f"{ratios[key]:.2f}" if ratios[key] is not None else "-"
        print(f"{key:32} {old[key]:>9} {new[key]:>9} {ratio:>13}")
    return {"rev": rev, "rounds": len(before), "before": old, "after": new,
            "after_over_before": ratios}


# -- many workers (--workers N) -------------------------------------------------------------------

WORKER_SECRET = "bench-webhook-secret"


async def serve_worker(url: str, base: str, token: str, port: int, lab: bool) -> None:
    """One worker of `--workers` (a child process): `rummy run` in webhook mode, the load
    phase's settings (computer_delay=0)."""
    from telegram.ext import AIORateLimiter

    from bot import app
    from bot.adapters.telegram import TelegramAdapter
    from bot.core.service import GameService
    from bot.games import default_games

    store = await Store.open(url)
    service = GameService(store, games=default_games(), computer_delay=0.0, tick=0.5)
    limiter = (AIORateLimiter(overall_max_rate=0, group_max_rate=0, max_retries=3)
               if lab else None)
    adapter = TelegramAdapter(service, token, base_url=base,
                              base_file_url=base.replace("/bot", "/file/bot"),
                              rate_limiter=limiter, poll_timeout=1)
    await adapter.start(webhook_url="https://bench.example.test/telegram",
                        webhook_path="telegram", webhook_secret=WORKER_SECRET,
                        listen="127.0.0.1", port=port, owner=await store.lead("telegram-webhook"))
    await app.run_until_stopped(service, [adapter], store,
                                started=lambda: print("READY", flush=True))


async def run_workers(args: argparse.Namespace) -> dict[str, Any]:
    """The load phase on 1 worker, then on args.workers, each on a fresh PostgreSQL database."""
    import socket

    pool = ProcessPoolExecutor(1, mp_context=multiprocessing.get_context("spawn"))
    await asyncio.get_running_loop().run_in_executor(pool, pow, 2, 8)  # warm the decisions
    runs: dict[str, Any] = {"loadavg_start": round(os.getloadavg()[0], 1), "runs": []}
    try:
        for n in sorted({1, args.workers}):
            database = Database("postgresql")
            db_url = await database.create()
            store = await Store.open(db_url)
            procs: list[asyncio.subprocess.Process] = []
            try:
                async with BenchTelegram(**({"flood": None} if args.lab else {})) as tg:
                    ports = []
                    for _ in range(n):
                        with socket.socket() as probe:
                            probe.bind(("127.0.0.1", 0))
                            ports.append(probe.getsockname()[1])
                    for port in ports:
                        procs.append(await asyncio.create_subprocess_exec(
                            sys.executable, str(Path(__file__).resolve()), "--serve-worker",
                            db_url, tg.base_url, tg.token, str(port),
                            *(["--lab"] if args.lab else []),
                            stdout=asyncio.subprocess.PIPE,
                        ))
                    for proc in procs:
                        line = await asyncio.wait_for(proc.stdout.readline(), 60)
                        if line.strip() != b"READY":
                            raise RuntimeError(f"worker did not start: {line!r}")
                    balancer = Balancer(tg, ports, WORKER_SECRET, tries=20, pause=0.1)
                    balancer.start()
                    cpu0 = _cpu_of([p.pid for p in procs])
                    bench0, pg0 = _own_cpu(), _cpu_of(_postgres_pids())
                    try:
                        load = await run_load(tg, store, pool, args)
                    finally:
                        await balancer.stop()
                    load["workers"] = n
                    load["workers_cpu_s"] = round(_cpu_of([p.pid for p in procs]) - cpu0, 1)
                    # What else the 2 cores ran meanwhile: this process (the fake Bot API,
                    # the balancer, the players and their decisions) and PostgreSQL.
                    load["bench_cpu_s"] = round(_own_cpu() - bench0, 1)
                    load["postgres_cpu_s"] = round(_cpu_of(_postgres_pids()) - pg0, 1)
                    load["balancer_retries"] = balancer.retried
                    runs["runs"].append(load)
                    await stop_workers(procs)  # while the fake still answers their last calls
            finally:
                await stop_workers(procs)
                await store.close()
                await database.drop()
    finally:
        pool.shutdown(cancel_futures=True)
    runs["loadavg_end"] = round(os.getloadavg()[0], 1)
    return runs


def print_workers(r: dict[str, Any], args: argparse.Namespace) -> None:
    limits = "no rate limits (--lab)" if args.lab else "Telegram's limits"
    print(f"Load phase on 1 and {args.workers} workers (PostgreSQL, webhook behind a random "
          f"balancer, {args.games} games of {args.rulebook}, {limits}); machine load "
          f"{r['loadavg_start']} -> {r['loadavg_end']} (2 cores, shared)")
    print(f"{'workers':>8} {'presses/s':>10} {'p95 ms':>8} {'median ms':>10} {'answered':>9} "
          f"{'finished':>9} {'errors':>7} {'backwards':>10} {'worker CPU s':>13} "
          f"{'bench CPU s':>12} {'PG CPU s':>9} {'worker ms/press':>16}")
    for run in r["runs"]:
        answer = run["answer"] or {}
        per_press = 1000 * run["workers_cpu_s"] / run["answered"] if run["answered"] else 0
        run["worker_cpu_ms_per_press"] = round(per_press, 1)
        print(f"{run['workers']:>8} {run['actions_per_s']:>10} {answer.get('p95', '-'):>8} "
              f"{answer.get('median', '-'):>10} {run['answered']:>9} "
              f"{run['finished']:>5}/{run['games']:<3} {run['errors']:>7} "
              f"{len(run['screens_backwards']):>10} {run['workers_cpu_s']:>13} "
              f"{run.get('bench_cpu_s', '-'):>12} {run.get('postgres_cpu_s', '-'):>9} "
              f"{per_press:>16.1f}")
        if run["error_kinds"]:
            print(f"{'':>8} errors: {run['error_kinds']}")
    if len(r["runs"]) == 2 and r["runs"][0]["actions_per_s"]:
        ratio = r["runs"][1]["actions_per_s"] / r["runs"][0]["actions_per_s"]
        print(f"ratio {args.workers} workers / 1: {ratio:.2f}x presses/s")
        # The ceiling on this machine: the cores left to the workers once the bench and the
        # database took theirs, over the one core a single busy worker can use.
        many = r["runs"][1]
        wall = many["wall_s"]
        left = (os.cpu_count() or 2) - (many.get("bench_cpu_s", 0) + many.get("postgres_cpu_s", 0)
                                        ) / wall if wall else 0
        print(f"cores left to the {args.workers} workers on this machine: {left:.2f} "
              f"(of {os.cpu_count()}; the rest ran the fake, the balancer, the players and "
              "PostgreSQL): the most a worker per core could give")


def main() -> None:
    if len(sys.argv) > 1 and sys.argv[1] == "--serve-worker":
        url, base, token, port = sys.argv[2:6]
        event_loop.run(serve_worker(url, base, token, int(port), "--lab" in sys.argv[6:]))
        return
    parser = argparse.ArgumentParser(description="bot benchmark (fake Telegram)")
    parser.add_argument("--games", type=int, default=None, help="games at once (default 50)")
    parser.add_argument("--presses", type=int, default=None,
                        help="measured game presses on the idle bot (default 200)")
    parser.add_argument("--db", choices=("sqlite", "postgresql"), default="sqlite")
    parser.add_argument("--quick", action="store_true", help="small numbers for a smoke run")
    parser.add_argument("--json", action="store_true", help="end with one JSON line")
    parser.add_argument("--inproc", action="store_true",
                        help="run the bot in this process and event loop (like the tests)")
    parser.add_argument("--rulebook", default="guadeloupe", help="rulebook of the load games")
    parser.add_argument("--solo-rulebook", default="machiavelli")
    parser.add_argument("--time-limit", type=float, default=None,
                        help="seconds for the load phase (default 180; quick 45)")
    parser.add_argument("--stages", action="store_true", help="time the stages inside the bot")
    parser.add_argument("--profile", action="store_true", help="sample the bot with py-spy")
    parser.add_argument("--profile-out", type=Path, default=None,
                        help="with --profile: keep py-spy's raw stacks in this folder")
    parser.add_argument("--only", choices=("solo", "load"), help="run one phase only")
    parser.add_argument("--before", metavar="REV",
                        help="also benchmark the bot at git revision REV (first), side by side; "
                             "implies --lab (older bots ran without limits)")
    parser.add_argument("--rounds", type=int, default=1,
                        help="with --before: alternate before and after this many times and "
                             "compare the medians (the machine's noise hits both sides)")
    parser.add_argument("--lab", action="store_true",
                        help="no rate limits on either side (the bot's own cost); by default the "
                             "production limiter against a fake that enforces Telegram's limits")
    parser.add_argument("--workers", type=int, default=None,
                        help="with --db postgresql: the load phase on 1 and on N workers")
    args = parser.parse_args()
    args.games = args.games if args.games is not None else (5 if args.quick else 50)
    args.presses = args.presses if args.presses is not None else (20 if args.quick else 200)
    args.time_limit = args.time_limit or (45.0 if args.quick else 180.0)
    args.solo_time = 30.0 if args.quick else 120.0
    if args.games < 1 or args.presses < 1:
        parser.error("--games and --presses must be positive")
    t0 = time.monotonic()
    if args.rounds < 1 or (args.rounds > 1 and not args.before):
        parser.error("--rounds N needs --before and N >= 1")
    if args.before:
        if args.inproc:
            parser.error("--before runs each bot in its own process")
        args.lab = True
        tree = older_tree(args.before)
        olders, newers = [], []
        try:
            for n in range(args.rounds):  # before, after, before, after, ...
                print(f"== before: {args.before}" + (f" (round {n + 1})" if n else ""))
                olders.append(asyncio.run(run(args, tree)))
                print_report(olders[-1], args)
                if n + 1 < args.rounds:
                    print(f"\n== after: this tree (round {n + 1})")
                    newers.append(asyncio.run(run(args)))
                    print_report(newers[-1], args)
                    print()
        finally:
            subprocess.run(["git", "-C", str(ROOT), "worktree", "remove", "--force", str(tree)],
                           capture_output=True)
        print("\n== after: this tree" + (f" (round {args.rounds})" if args.rounds > 1 else ""))


    if args.workers is not None:
        if args.db != "postgresql" or args.workers < 1:
            parser.error("--workers N needs --db postgresql and N >= 1")
        figures = asyncio.run(run_workers(args))
        print_workers(figures, args)
        print(f"\n(total {time.monotonic() - t0:.0f} s)")
        if args.json:
            print(json.dumps({"workers": [
                {k: run.get(k) for k in ("workers", "actions_per_s", "p95_ms", "answered",
                                         "finished", "errors", "workers_cpu_s", "bench_cpu_s",
                                         "postgres_cpu_s", "worker_cpu_ms_per_press")}
                for run in figures["runs"]]}))
        return
    result = asyncio.run(run(args))
    print_report(result, args)
    side = None
    if args.before:
        older = olders[-1]
        side = compare(olders, [*newers, result], args.before)
    print(f"\n(total {time.monotonic() - t0:.0f} s)")
    if args.json:
        figures = json_figures(result)
        if side is not None:
            figures = {"after": figures, "before": json_figures(older), "compare": side}
        print(json.dumps(figures))
    if result.get("failure"):
        sys.exit(1)


if __name__ == "__main__":
    main()
