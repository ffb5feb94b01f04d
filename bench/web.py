"""Web table benchmark: live pages under load, idle sockets, first load.

    .venv/bin/python bench/web.py            # a readable table (about a minute)
    .venv/bin/python bench/web.py --quick    # smoke run
    .venv/bin/python bench/web.py --json     # ... and, as the last line, one JSON object

The bot side (GameService on a SQLite file, the web table's aiohttp server) runs in a child
process, like a worker; the pages are aiohttp WebSocket clients in this process (no browser:
a page's cost on the server is its socket and its frames). Fair use is switched off in the
worker: every seat here is a script pressing faster than a person may.

1. Live: `--tables` Manipulation tables of 3 people (3 sockets each: 200 tables, 600 sockets).
   At each table the seat on turn makes a drag edit (a hand card onto a new group, then Reset:
   the draft edits a drag makes) every `--think` seconds (randomised ±50 %). Measured from
   the edit's send: its own page's new state (the drag round trip, target p95 ≤ 100 ms) and
   every other seat's page showing the new version (target p95 ≤ 250 ms).
2. Idle: spectator sockets opened until `--idle` sockets are held in all (issue 38: 20,000;
   this process and the worker each need a descriptor a socket: `ulimit -n`); the worker's
   resident memory before and after gives the memory per socket (goal ≤ 10 KB).
3. First load outside Telegram: the page, its assets and modules, gzip (target ≤ 30 KB); with
   Chromium (/usr/bin/chromium, Playwright) the time from navigation to the first state shown
   (target ≤ 1 s).
The machine is shared and noisy: compare medians and ratios of runs taken close together.

    .venv/bin/python bench/web.py --compare   # before/after group commit, SQLite and PostgreSQL
    .venv/bin/python bench/web.py --workers   # PostgreSQL: CPU per edit, one worker vs two

`--compare` runs two workers per database, each save its own transaction ("before") and group
commit ("after"), and steps the edits/s offered up (`--rates`), driving the two in turn at each
step: each one's saturation point (the most edits/s made with the other seats' p95 ≤ 250 ms)
and CPU per edit. `--workers` drives the same tables through one worker, then through two
sharing the database (LISTEN/NOTIFY; a table's pages spread over both), `--rounds` times in
turn: the workers' CPU per edit, alone and in pairs. `RUMMY_BENCH_SPY=1` lets py-spy attach
to the worker (`py-spy record --pid`; Yama's ptrace_scope 1 allows only a parent otherwise).
"""

from __future__ import annotations

import argparse
import asyncio
import json
import multiprocessing
import os
import random
import statistics
import sys
import tempfile
import time
from collections.abc import Callable
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

SECRET = b"bench-web-secret-bench-web-secret"


def rss_kb(pid: int) -> int:
    for line in Path(f"/proc/{pid}/status").read_text().splitlines():
        if line.startswith("VmRSS:"):
            return int(line.split()[1])
    return 0


# -- the worker (child process) ---------------------------------------------------------------


def worker(conn, tables: int, db: str, profile: str | None = None,
           group_saves: bool = True, notify: bool = False) -> None:
    if os.environ.get("RUMMY_BENCH_SPY"):  # let py-spy --pid attach (Yama ptrace_scope 1)
        import ctypes

        ctypes.CDLL(None).prctl(0x59616D61, ctypes.c_ulong(-1), 0, 0, 0)  # PR_SET_PTRACER_ANY
    if not profile:
        asyncio.run(_worker(conn, tables, db, group_saves, notify))
        return
    import cProfile  # --profile: where the worker's time goes (the live part's edits and all)

    with cProfile.Profile() as prof:
        asyncio.run(_worker(conn, tables, db, group_saves, notify))
    prof.dump_stats(profile)


async def _scratch_postgres() -> tuple[str, str]:
    """A scratch database on the local server (dropped after): its URL and name."""
    import asyncpg

    name = f"rummy_bench_web_{os.getpid()}"
    admin = await asyncpg.connect(os.environ.get("RUMMY_BENCH_POSTGRES",
                                                 "postgresql://postgres@127.0.0.1:5432/test"))
    await admin.execute(f'DROP DATABASE IF EXISTS "{name}"')
    await admin.execute(f'CREATE DATABASE "{name}"')
    await admin.close()
    return f"postgresql+asyncpg://postgres@127.0.0.1:5432/{name}", name


async def _drop_postgres(name: str) -> None:
    import asyncpg

    admin = await asyncpg.connect(os.environ.get("RUMMY_BENCH_POSTGRES",
                                                 "postgresql://postgres@127.0.0.1:5432/test"))
    await admin.execute(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)')
    await admin.close()


async def _worker(conn, tables: int, db: str, group_saves: bool = True,
                  notify: bool = False) -> None:
    """`db`: "postgresql" (a scratch database, dropped after), another worker's PostgreSQL
    URL (its tables: none made here), or a SQLite file. `notify`: LISTEN/NOTIFY, as workers
    that share a database run."""
    from bot import event_loop  # noqa: F401  (the bot's loop policy is the caller's)
    from bot.core.fair_use import FairUse
    from bot.core.service import Actor, GameService, pack
    from bot.games import default_games
    from bot.store import Store
    from bot.web.server import WebServer, serve
    from bot.web.table import Limits, WebTable

    scratch = url = None
    if db == "postgresql":
        url, scratch = await _scratch_postgres()
        store = await Store.open(url)
    elif db.startswith("postgresql+"):
        url, tables = db, 0
        store = await Store.open(url)
    else:
        store = await Store.open(f"sqlite+aiosqlite:///{db}")
    store.group_saves = group_saves  # False: the way before group commit (--compare)
    service = GameService(store, games=default_games(), computer_delay=0, tick=1.0)
    inf = float("inf")
    service.fair_use = FairUse(user_rate=inf, user_burst=inf, chat_rate=inf, chat_burst=inf)

    async def deliver(_outcome) -> None:
        return None

    service.register("bench", deliver)
    # every page here comes from 127.0.0.1: one address standing for thousands of people, so
    # its per-address door and caps are lifted (the worker's own watcher cap stays)
    lifted = Limits(watchers_per_game=10**6, watchers_per_address=10**6, watchers=10**6,
                    door_rate=inf, door_burst=10**9)
    server = WebServer(WebTable(service, limits=lifted), SECRET)
    runner = await serve(server, "127.0.0.1", 0)
    notifier = None
    if notify and url:
        from bot.web.notify import Notifier

        notifier = Notifier(server.table, url)
        await notifier.start()
    games = []
    for i in range(tables):
        people = [Actor("bench", f"-{i + 1}", f"{i}{s}", f"P{s}") for s in "abc"]
        game = (await service.new_game(people[0], "manipulation")).game_id
        for person in people[1:]:
            row = await store.get_game(game)
            await service.press(person, pack(game, row.record.get("lobby_version", 0), "join"))
        row = await store.get_game(game)
        await service.press(people[0], pack(game, row.record.get("lobby_version", 0), "start"))
        games.append((game, [p.user for p in people]))
    conn.send((runner.addresses[0][1], games, server.version, url))
    loop = asyncio.get_running_loop()
    while True:
        ask = await loop.run_in_executor(None, conn.recv)
        if ask == "rss":
            conn.send(rss_kb(os.getpid()))
        elif ask == "cpu":  # the worker's CPU seconds so far (user + system)
            times = os.times()
            conn.send(times.user + times.system)
        elif ask == "sockets":
            conn.send(sum(len(p) for p in server.table.pages.values()))
        else:
            break
    if notifier is not None:
        await notifier.stop()
    await server.close_all()
    await runner.cleanup()
    await store.close()
    if scratch:
        await _drop_postgres(scratch)
    conn.send("stopped")


# -- the pages ----------------------------------------------------------------------------


class Page:
    def __init__(self, ws) -> None:
        self.ws = ws
        self.version = -1
        self.view: dict | None = None
        self.seen: dict[int, float] = {}
        self.changed = asyncio.Event()
        self.reader: asyncio.Task | None = None
        self.placed = False  # (a table's first page) its seat on turn has a card placed

    async def read(self) -> None:
        async for msg in self.ws:
            data = json.loads(msg.data)
            if data.get("t") == "state" and data.get("view"):
                view = data["view"]
                self.view, self.version = view, max(self.version, view["version"])
                self.seen.setdefault(view["version"], time.perf_counter())
                self.changed.set()

    async def reach(self, version: int, timeout: float = 10) -> float | None:
        deadline = time.perf_counter() + timeout
        while self.version < version:
            self.changed.clear()
            left = deadline - time.perf_counter()
            if left <= 0:
                return None
            try:
                await asyncio.wait_for(self.changed.wait(), left)
            except TimeoutError:
                return None
        return min(t for v, t in self.seen.items() if v >= version)


async def connect(http, base: str, platform: str, user: str, game: int) -> Page:
    from bot.web import auth
    from bot.web.auth import Session

    token = auth.session_token(SECRET, Session(platform, user, user, game, "en",
                                               time.time() + 3600))
    ws = await http.ws_connect(f"{base}/web/socket", protocols=("rummy", token), heartbeat=None)
    page = Page(ws)
    page.reader = asyncio.create_task(page.read())
    return page


def pct(values: list[float], q: float) -> float:
    if not values:
        return float("nan")
    values = sorted(values)
    return values[min(len(values) - 1, int(q * len(values)))]


async def open_tables(http, base: str | list[str], games) -> list[list[Page]]:
    """Every table's three seats' pages, each shown the game; with several workers' `base`s,
    a table's pages spread over them (page k of table i on worker (i + k) mod n)."""
    bases = [base] if isinstance(base, str) else base
    tables = []
    for i, (game, users) in enumerate(games):
        pages = [await connect(http, bases[(i + k) % len(bases)], "bench", u, game)
                 for k, u in enumerate(users)]
        for page in pages:
            await page.ws.send_str('{"t":"hello","v":0}')
        tables.append(pages)
    for pages in tables:
        for page in pages:
            await page.reach(0)
    return tables


async def drive(tables: list[list[Page]], seconds: float, think: float) -> dict:
    """Each table's seat on turn drags every `think` s (±50 %) for `seconds`."""
    own: list[float] = []
    others: list[float] = []
    missed = 0
    stop = time.perf_counter() + seconds

    async def play(pages: list[Page]) -> None:
        nonlocal missed
        await asyncio.sleep(random.uniform(0, think))
        while time.perf_counter() < stop:
            view = pages[0].view
            mover = pages[view["turn"]]
            view = mover.view
            version = view["version"]
            if pages[0].placed:  # (kept across steps: a placed card is taken back next)
                edit = {"t": "edit", "v": version, "op": "act", "name": "reset"}
            else:
                card = view["hand"][0]["id"]
                edit = {"t": "edit", "v": version, "op": "place", "cards": [card],
                        "to": None}
            t0 = time.perf_counter()
            await mover.ws.send_str(json.dumps(edit))
            times = await asyncio.gather(*(p.reach(version + 1) for p in pages))
            if any(t is None for t in times):
                missed += 1
            else:
                for page, t in zip(pages, times, strict=True):
                    (own if page is mover else others).append((t - t0) * 1000)
            pages[0].placed = not pages[0].placed
            await asyncio.sleep(think * random.uniform(0.5, 1.5))

    t_start = time.perf_counter()
    await asyncio.gather(*(play(p) for p in tables))
    wall = time.perf_counter() - t_start
    return {"tables": len(tables), "sockets": 3 * len(tables), "edits": len(own),
            "edits_per_s": round(len(own) / wall, 1), "missed": missed,
            "round_trip_p50_ms": round(pct(own, 0.5), 1),
            "round_trip_p95_ms": round(pct(own, 0.95), 1),
            "others_p50_ms": round(pct(others, 0.5), 1),
            "others_p95_ms": round(pct(others, 0.95), 1)}


async def live(base: str, games, seconds: float, think: float) -> dict:
    import aiohttp

    conn = aiohttp.TCPConnector(limit=0)
    async with aiohttp.ClientSession(connector=conn) as http:
        tables = await open_tables(http, base, games)
        result = await drive(tables, seconds, think)
        for pages in tables:
            for page in pages:
                await page.ws.close()
    return result


OTHERS_P95_MS = 250  # past it, the worker is saturated (the target for other seats)


async def sweep(named: dict[str, tuple[str, list, Callable]], seconds: float,
                rates: list[float]) -> dict:
    """The load stepped up (edits/s offered) on each named worker in turn at every step, so
    the machine's noise falls on them alike: each step's figures and the worker's CPU per
    edit. A worker's saturation point: the most edits/s made in a step with the other seats'
    p95 ≤ 250 ms; its steps end after two in a row past it."""
    import aiohttp

    steps: dict[str, list[dict]] = {name: [] for name in named}
    failed = dict.fromkeys(named, 0)
    conn = aiohttp.TCPConnector(limit=0)
    async with aiohttp.ClientSession(connector=conn) as http:
        tables = {name: await open_tables(http, base, games)
                  for name, (base, games, _ask) in named.items()}
        for rate in rates:
            for name, (_base, _games, ask) in named.items():
                if failed[name] >= 2:
                    continue
                cpu = ask("cpu")
                step = await drive(tables[name], seconds, len(tables[name]) / rate)
                step["offered_per_s"] = rate
                step["cpu_ms_per_edit"] = round((ask("cpu") - cpu) * 1000
                                                / max(1, step["edits"]), 2)
                steps[name].append(step)
                over = step["others_p95_ms"] > OTHERS_P95_MS or step["missed"]
                failed[name] = failed[name] + 1 if over else 0
        for pages in (p for t in tables.values() for p in t):
            for page in pages:
                await page.ws.close()
    out = {}
    for name, done in steps.items():
        fine = [s for s in done if s["others_p95_ms"] <= OTHERS_P95_MS and not s["missed"]]
        out[name] = {"saturation_per_s": max((s["edits_per_s"] for s in fine), default=0.0),
                     "steps": done}
    return out


async def idle(base: str, games, total: int, ask) -> dict:
    import aiohttp

    before = ask("rss")
    conn = aiohttp.TCPConnector(limit=0)
    async with aiohttp.ClientSession(connector=conn) as http:
        pages = []
        per_game = -(-total // len(games))
        for i in range(total):
            game = games[i // per_game % len(games)][0]
            try:
                pages.append(await connect(http, base, "", "", game))
            except Exception as error:  # the worker refused or ran out: report what was held
                print(f"socket {i}: {error}", file=sys.stderr)
                break
        await asyncio.sleep(1.0)
        held = ask("sockets")
        after = ask("rss")
        for page in pages:
            await page.ws.close()
    return {"idle_sockets": held, "rss_before_mb": round(before / 1024, 1),
            "rss_after_mb": round(after / 1024, 1),
            "kb_per_socket": round((after - before) / max(1, held), 1)}


async def first_load_bytes(base: str, game: int, board: str = "rummy") -> int:
    """The bytes (gzip) a page opened outside Telegram fetches before it shows the table: the
    page, what it links, the ES modules they import and the game's board module (`board`:
    the bench's games are Manipulation). Telegram's script is fetched inside Telegram only."""
    import gzip
    import re

    import aiohttp

    from bot.web.auth import watch_param

    game = watch_param(SECRET, game)  # the watch link a chat is posted (an id alone: refused)

    async with aiohttp.ClientSession(auto_decompress=False) as http:
        async def get(url: str) -> tuple[int, str]:
            answer = await http.get(url, headers={"Accept-Encoding": "gzip"})
            body = await answer.read()
            zipped = answer.headers.get("Content-Encoding") == "gzip"
            return len(body), (gzip.decompress(body) if zipped else body).decode(errors="replace")

        size, html = await get(f"{base}/web/table?g={game}")
        todo = re.findall(r'(?:src|href)="([^"]+)"', html)
        static = todo[0].rsplit("/", 1)[0] + "/" if todo else ""
        todo.append(f"{static}board-{board}.js")
        seen: set[str] = set()
        while todo:
            src = todo.pop()
            if src in seen:
                continue
            seen.add(src)
            n, text = await get(base + src)
            size += n
            if src.endswith(".js"):  # its static imports: `from "./x.js"`
                todo += [static + name for name in re.findall(r'from "\./([\w-]+\.js)"', text)]
    return size


async def first_load(base: str, game: int) -> dict:
    from bot.web.auth import watch_param

    total = await first_load_bytes(base, game)
    link = watch_param(SECRET, game)  # the watch link a chat is posted (an id alone: refused)
    out = {"first_load_kb": round(total / 1024, 1), "interactive_ms": None}
    chromium = "/usr/bin/chromium"
    if Path(chromium).exists():
        try:
            from playwright.async_api import async_playwright
        except ImportError:
            return out
        async with async_playwright() as pw:
            browser = await pw.chromium.launch(executable_path=chromium, args=["--no-sandbox"])
            times = []
            for _ in range(5):
                context = await browser.new_context(viewport={"width": 390, "height": 844})
                tab = await context.new_page()
                t0 = time.perf_counter()
                await tab.goto(f"{base}/web/table?g={link}")
                # the first state shown (a refused page never shows one: 10 s, then it fails)
                while (await tab.get_attribute("body", "data-version")) in (None, "-1"):
                    if time.perf_counter() - t0 > 10:
                        raise SystemExit(f"the page at {base}/web/table?g={link} showed no state")
                    await asyncio.sleep(0.01)
                times.append((time.perf_counter() - t0) * 1000)
                await context.close()
            await browser.close()
        out["interactive_ms"] = round(statistics.median(times), 1)
    return out


class Worker:
    """The worker child process: its port, its tables, and questions over its pipe."""

    def __init__(self, tables: int, db: str, tmp: str, profile: str | None = None,
                 group_saves: bool = True, notify: bool = False) -> None:
        self.pipe, theirs = multiprocessing.Pipe()
        where = (db if db.startswith("postgresql")
                 else str(Path(tmp) / f"web-{os.urandom(4).hex()}.db"))
        self.child = multiprocessing.get_context("spawn").Process(
            target=worker, args=(theirs, tables, where, profile, group_saves, notify))
        self.child.start()
        port, self.games, _version, self.url = self.pipe.recv()
        self.base = f"http://127.0.0.1:{port}"

    def ask(self, what: str):
        self.pipe.send(what)
        return self.pipe.recv()

    def stop(self) -> None:
        self.pipe.send("stop")
        self.pipe.recv()
        self.child.join(10)


def compare(args) -> dict:
    """Before (each save its own transaction) and after (group commit), on each database,
    side by side in one run (two workers, driven in turn at each step): each one's
    saturation point and its steps."""
    rates = [float(r) for r in args.rates.split(",")]
    out: dict = {"tables": args.tables, "step_s": args.seconds, "rates": rates}
    with tempfile.TemporaryDirectory() as tmp:
        for db in args.dbs.split(","):
            pair = {name: Worker(args.tables, db, tmp, group_saves=grouped)
                    for name, grouped in (("before", False), ("after", True))}
            try:
                found = asyncio.run(sweep({name: (w.base, w.games, w.ask)
                                           for name, w in pair.items()}, args.seconds, rates))
            finally:
                for one in pair.values():
                    one.stop()
            for name, result in found.items():
                out[f"{db}_{name}"] = result
    return out


async def cpu_per_edit(bases: list[str], games, seconds: float, rate: float,
                       asks: list) -> dict:
    """Edits at `rate` a second with the pages spread over the workers at `bases`: the
    workers' CPU together per edit made, and the step's figures."""
    import aiohttp

    conn = aiohttp.TCPConnector(limit=0)
    async with aiohttp.ClientSession(connector=conn) as http:
        tables = await open_tables(http, bases, games)
        before = [ask("cpu") for ask in asks]
        step = await drive(tables, seconds, len(tables) / rate)
        used = sum(ask("cpu") for ask in asks) - sum(before)
        for pages in tables:
            for page in pages:
                await page.ws.close()
    step["cpu_ms_per_edit"] = round(used * 1000 / max(1, step["edits"]), 2)
    return step


def workers(args) -> dict:
    """PostgreSQL, LISTEN/NOTIFY on: one worker alone, then two sharing the database with
    the pages spread over both, at the same load; CPU per edit of each, alone then in pairs,
    `--rounds` times in turn (medians)."""
    out: dict = {"tables": args.tables, "rate": args.pair_rate, "step_s": args.seconds}
    alone_ms, pair_ms = [], []
    with tempfile.TemporaryDirectory() as tmp:
        one = Worker(args.tables, "postgresql", tmp, notify=True)
        try:
            for _ in range(args.rounds):
                step = asyncio.run(cpu_per_edit([one.base], one.games, args.seconds,
                                                args.pair_rate, [one.ask]))
                alone_ms.append(step["cpu_ms_per_edit"])
                out.setdefault("alone", []).append(step)
                two = Worker(0, one.url, tmp, notify=True)
                try:
                    step = asyncio.run(cpu_per_edit([one.base, two.base], one.games,
                                                    args.seconds, args.pair_rate,
                                                    [one.ask, two.ask]))
                finally:
                    two.stop()
                pair_ms.append(step["cpu_ms_per_edit"])
                out.setdefault("pairs", []).append(step)
        finally:
            one.stop()
    out["alone_cpu_ms_per_edit"] = statistics.median(alone_ms)
    out["pairs_cpu_ms_per_edit"] = statistics.median(pair_ms)
    out["pairs_over_alone"] = round(out["pairs_cpu_ms_per_edit"]
                                    / out["alone_cpu_ms_per_edit"], 2)
    return out


def print_compare(out: dict, dbs: list[str]) -> None:
    print(f"saturation: edits/s made while other seats' p95 ≤ {OTHERS_P95_MS} ms "
          f"({out['tables']} tables, {out['step_s']} s a step)")
    print(f"{'':<22}" + "".join(f"{db + ' ' + n:>26}" for db in dbs for n in ("before", "after")))
    keys = [f"{db}_{n}" for db in dbs for n in ("before", "after")]
    print(f"{'saturation (edits/s)':<22}" + "".join(
        f"{out[k]['saturation_per_s']:>26}" for k in keys))
    for i, rate in enumerate(out["rates"]):
        cells = []
        for k in keys:
            steps = out[k]["steps"]
            if i < len(steps):
                st = steps[i]
                cells.append(f"{st['edits_per_s']}/s {st['round_trip_p95_ms']:.0f}|"
                             f"{st['others_p95_ms']:.0f}ms {st['cpu_ms_per_edit']}")
            else:
                cells.append("-")
        print(f"{'offered ' + str(rate):<22}" + "".join(f"{c:>26}" for c in cells))
    print("(a step: edits/s made, p95 own|others, worker CPU ms per edit)")


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--tables", type=int, default=200)
    parser.add_argument("--seconds", type=float, default=20)
    parser.add_argument("--think", type=float, default=2.0)
    parser.add_argument("--idle", type=int, default=5000)
    parser.add_argument("--db", default="sqlite", choices=("sqlite", "postgresql"))
    parser.add_argument("--quick", action="store_true")
    parser.add_argument("--json", action="store_true")
    parser.add_argument("--profile", metavar="FILE",
                        help="profile the worker (cProfile) into FILE: read with pstats")
    parser.add_argument("--compare", action="store_true",
                        help="before/after group commit: each one's saturation point")
    parser.add_argument("--dbs", default="sqlite,postgresql", help="--compare's databases")
    parser.add_argument("--rates", default="50,100,150,200,300,400,600",
                        help="--compare's steps: edits/s offered")
    parser.add_argument("--workers", action="store_true",
                        help="PostgreSQL: worker CPU per edit alone vs two workers in pairs")
    parser.add_argument("--pair-rate", type=float, default=50, help="--workers' edits/s")
    parser.add_argument("--rounds", type=int, default=3, help="--workers' alternations")
    args = parser.parse_args()
    if args.workers:
        out = workers(args)
        print(f"two workers on PostgreSQL, {args.tables} tables, {args.pair_rate} edits/s "
              f"offered: worker CPU per edit alone {out['alone_cpu_ms_per_edit']} ms, "
              f"in pairs {out['pairs_cpu_ms_per_edit']} ms (× {out['pairs_over_alone']}, "
              "goal ≤ 1.15)")
        for name in ("alone", "pairs"):
            for step in out[name]:
                print(f"  {name:<6} {step['edits_per_s']}/s p95 own {step['round_trip_p95_ms']}"
                      f" others {step['others_p95_ms']} ms, {step['cpu_ms_per_edit']} ms CPU")
        if args.json:
            print(json.dumps(out))
        return 0
    if args.compare:
        out = compare(args)
        print_compare(out, args.dbs.split(","))
        if args.json:
            print(json.dumps(out))
        return 0
    if args.quick:
        args.tables, args.seconds, args.idle = 20, 5, 500
    with tempfile.TemporaryDirectory() as tmp:
        ours, theirs = multiprocessing.Pipe()
        child = multiprocessing.get_context("spawn").Process(
            target=worker, args=(theirs, args.tables, "postgresql" if args.db == "postgresql"
                                 else str(Path(tmp) / "web.db"), args.profile))
        child.start()
        port, games, _version, _url = ours.recv()
        base = f"http://127.0.0.1:{port}"

        def ask(what: str):
            ours.send(what)
            return ours.recv()

        result = {"tables": args.tables, "db": args.db, "think_s": args.think}
        result.update(asyncio.run(live(base, games, args.seconds, args.think)))
        result.update(asyncio.run(idle(base, games, args.idle, ask)))
        result.update(asyncio.run(first_load(base, games[0][0])))
        ours.send("stop")
        ours.recv()
        child.join(10)
    rows = [
        ("tables / sockets (live)", f"{result['tables']} / {result['sockets']}",
         f"{args.db}, an edit every {args.think} s a table"),
        ("drag edits made (per s)", f"{result['edits']} ({result['edits_per_s']})",
         f"missed {result['missed']}"),
        ("edit round trip p50 / p95", f"{result['round_trip_p50_ms']} / "
         f"{result['round_trip_p95_ms']} ms", "target p95 ≤ 100 ms"),
        ("other seats see it p50 / p95", f"{result['others_p50_ms']} / "
         f"{result['others_p95_ms']} ms", "target p95 ≤ 250 ms"),
        ("idle sockets held", str(result["idle_sockets"]), "issue 38: 20,000 on a worker"),
        ("memory per socket", f"{result['kb_per_socket']} KB",
         f"RSS {result['rss_before_mb']} → {result['rss_after_mb']} MB; goal ≤ 10 KB"),
        ("first load (gzip)", f"{result['first_load_kb']} KB",
         "outside Telegram; target ≤ 30 KB"),
        ("interactive (median of 5)", f"{result['interactive_ms']} ms", "target ≤ 1,000 ms"),
    ]
    width = max(len(r[0]) for r in rows)
    for name, value, note in rows:
        print(f"{name:<{width}}  {value:<24} {note}")
    if args.json:
        print(json.dumps(result))
    return 0


if __name__ == "__main__":
    sys.exit(main())
