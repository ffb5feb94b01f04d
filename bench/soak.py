"""Soak run: many monkey-played games against the real core and store, with the worker killed.

    .venv/bin/python bench/soak.py                                   # 200 games, 600 s, 10 kills
    .venv/bin/python bench/soak.py --games 20 --seconds 120 --kills 3
    .venv/bin/python bench/soak.py --pg --json                       # PostgreSQL; JSON last line

A measurement, not a test: bounded in time (it stops by itself within --seconds), it prints a
table of what it saw and exits 0 even when it finds problems (they are printed clearly).

A worker child process (bench/soak_worker.py) runs the real GameService (lessons included) over
a real Store: a SQLite file in a temporary folder, or with --pg PostgreSQL at
postgresql://postgres@127.0.0.1:5432/test in a fresh schema of its own (dropped afterwards).
Its "soak" platform adapter sends every screen it is given to this process. Protocol:
newline-delimited JSON over the worker's stdin/stdout (see soak_worker.py).

This process plays --concurrent games at once (until --games are done), each in its own fake
group chat with 2-4 monkey people (random user ids) and sometimes computer seats, set up by
pressing the lobby buttons the bot sent (+ Computer, Rulebook, Options, Start). Monkeys press
mostly buttons of the newest screens they were sent, on their turn often Draw/Pass/Done (and
now and then select-cards + Auto-place + Done), but also stale buttons (older screens), other
players' buttons, buttons from the wrong chat (another game's group, an outsider's private
chat), forged data (random strings, negative and huge numbers, unicode digits, 64-byte and
longer data, `tc:-2:5H#0`, `add:-2`, `timer:abc`, ...) and typed commands (`lay`, `add B 10H`,
`move B:QS A`, 4,000-character junk, ...). A game past --max-presses presses is ended by its
host with /endgame (counted as "ended by host"; it is checked for being stuck first).

--flooders people (default 4; 0: none) flood the bot beside the monkeys, each from chats of
their own, through the worker's door (bot/adapters/intake.py, as on Telegram): by turns one
forwards bursts of plain private text (330 messages at once, as fast as the bot answers), one
sends /help in its group in bursts of 270, one switches lessons over and over (/lesson with
another rulebook, then presses that lesson's buttons), one sends a steady 2.5 /rules a second
in its group (under fair use: never to be told to slow down). They stop with the traffic. The
monkeys' figures (press -> answer, unanswered) are theirs alone; each kind of flooder gets
requests sent, turned away at the door, answered.

--kills times (spread over the run) the worker is SIGKILLed mid-traffic and a new one started
on the same database; requests in flight are sent again to the new worker (counted). A press
not answered within 10 s while a worker is up counts as unanswered. With flooders, a kill
waits (up to 5 s) for a burst in flight: kill -9 in the middle of a flood.

At the end, with the traffic stopped, every game in the store is checked: card conservation
(engine.rummy.state.conservation_errors) where a state exists, and every lobby/playing game for
being stuck (no person holds a button that moves it; a computer's turn nobody takes).
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import json
import os
import random
import re
import shutil
import signal
import statistics
import string
import sys
import tempfile
import time
import traceback
from collections import Counter, deque
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

HERE = Path(__file__).resolve().parent
ROOT = HERE.parent
for _path in (ROOT, HERE):
    if str(_path) not in sys.path:
        sys.path.insert(0, str(_path))

PG_URL = "postgresql://postgres@127.0.0.1:5432/test"
PLATFORM = "soak"
UNANSWERED_AFTER = 10.0  # s
NOT_OURS = "That button is not from this bot."
SORRY = "Sorry, something went wrong"
SLOW = "Slow down"
PROGRESS = ("draw", "pass", "knock", "done")
ROUND_END = ("next", "finish")
# a button that does something for the game (not only how a person looks at it)
VIEW_ONLY = ("sort", "pg", "noop", "cards")
FLOOD_KINDS = ("text", "help", "lesson", "steady")  # the --flooders, by turns
FLOOD_KIND_LABELS = {
    "text": "plain private text, bursts of {TEXT_BURST}",
    "help": "/help in its group, bursts of {HELP_BURST}",
    "lesson": "lesson switches and presses",
    "steady": "steady {STEADY_RATE} /rules a second",
}
TEXT_BURST = 330  # one forward of many messages (issue 31: 330 texts stalled every chat)
HELP_BURST = 270
STEADY_RATE = 2.5  # /rules a second: under fair use (8 a second a person, 15 a chat)
KILL_IN_FLIGHT = 50  # with flooders, a kill waits for this many requests in flight, ...
KILL_WAITS_FOR_FLOOD = 5.0  # ... at most this many seconds
LESSON_PAUSE = 0.05  # s between a lesson flooder's requests (faster than fair use allows)
LESSONS = ("manipulation", "machiavelli", "shanghai", "guadeloupe", "carousel", "vatican",
           "tahiti", "rummikub")
CHATTER = ("hi", "hello?", "ok 👍", "lol", "привет", "שלום", "who's there", "?", "...", "gg",
           "😀😀😀", "a" * 300, "can you hear me", "forwarded message")  # no verb among them
RULEBOOK_WEIGHTS = {  # single-round rulebooks finish within a soak's press budget
    "machiavelli": 3, "guadeloupe": 3, "vatican": 3, "tahiti": 3,
    "manipulation": 1, "shanghai": 1, "carousel": 1,
}


def action_of(data: str) -> str:
    """`12:3:tc:0:QS#1` -> `tc:0:QS#1` (a lesson's buttons are its game's)."""
    parts = data.split(":", 2)
    return parts[2] if len(parts) == 3 else data


def verb_of(data: str) -> str:
    return action_of(data).split(":", 1)[0]


def version_of(data: str) -> int | None:
    parts = data.split(":")
    try:
        return int(parts[1])
    except (IndexError, ValueError):
        return None


def flood_kind(cat: str) -> str | None:
    """The flooder kind of a request category ("flood:help" -> "help"), None for a monkey's."""
    return cat[6:] if cat.startswith("flood:") else None


def pct(values: list[float], q: float) -> float | None:
    if not values:
        return None
    values = sorted(values)
    return values[min(len(values) - 1, max(0, round(q * len(values) + 0.5) - 1))]


# -- the worker link ---------------------------------------------------------------------------


@dataclass
class Req:
    rid: int
    payload: dict[str, Any]
    cat: str
    fut: asyncio.Future
    game: Any = None
    first_sent: float | None = None
    last_sent: float | None = None
    sent_inc: int | None = None  # worker incarnation it was last written to
    resent: int = 0
    flagged: bool = False


@dataclass
class Stats:
    requests: Counter = field(default_factory=Counter)  # by kind
    cats: Counter = field(default_factory=Counter)  # presses by category
    extra: Counter = field(default_factory=Counter)  # other events
    replies: Counter = field(default_factory=Counter)  # (category, reply) -> n
    press_ms: list[float] = field(default_factory=list)
    command_ms: list[float] = field(default_factory=list)
    resent_ms: list[float] = field(default_factory=list)
    unanswered: int = 0
    unanswered_other: int = 0
    unanswered_examples: list[str] = field(default_factory=list)
    never_answered: int = 0
    restarts: int = 0
    crashes: int = 0  # the worker died without being killed
    in_flight_resent: int = 0
    restart_s: list[float] = field(default_factory=list)
    escaped: int = 0  # an exception got out of the service to the adapter
    escaped_examples: list[str] = field(default_factory=list)
    problems: Counter = field(default_factory=Counter)  # button data that can't be packed, ...
    sorry: int = 0
    slow_down: int = 0
    flagged: Counter = field(default_factory=Counter)  # refusals that did not happen
    flagged_examples: dict[str, list[str]] = field(default_factory=dict)
    older_screens: int = 0  # screens that arrived after a newer one (ignored, as adapters do)
    deliveries: int = 0
    bad_lines: int = 0
    # flooder kind -> sent, answered, turned_away (at the door), told_slow_down, unanswered
    flood: dict[str, Counter] = field(default_factory=lambda: {k: Counter() for k in FLOOD_KINDS})

    def flag(self, kind: str, text: str) -> None:
        self.flagged[kind] += 1
        examples = self.flagged_examples.setdefault(kind, [])
        if len(examples) < 5:
            examples.append(text)


class Link:
    """The worker process: start, requests and answers, kill -9 and start again."""

    def __init__(self, cmd: list[str], folder: Path, stats: Stats, on_deliver) -> None:
        self.cmd = cmd
        self.folder = folder
        self.stats = stats
        self.on_deliver = on_deliver
        self.proc: asyncio.subprocess.Process | None = None
        self.inc = 0
        self.up = False
        self.killing = False
        self.closing = False
        self.pending: dict[int, Req] = {}
        self.next_id = 0
        self.reader: asyncio.Task | None = None
        self.err_files: list[Path] = []
        self._restart_lock = asyncio.Lock()
        self.crash_restart: asyncio.Task | None = None

    async def start(self) -> None:
        self.inc += 1
        err = self.folder / f"worker-{self.inc}.err"
        self.err_files.append(err)
        with open(err, "wb") as handle:
            self.proc = await asyncio.create_subprocess_exec(
                *self.cmd, stdin=asyncio.subprocess.PIPE, stdout=asyncio.subprocess.PIPE,
                stderr=handle, limit=1 << 24, cwd=str(ROOT),
            )
        assert self.proc.stdout is not None
        deadline = time.monotonic() + 90
        while True:
            line = await asyncio.wait_for(self.proc.stdout.readline(),
                                          max(0.1, deadline - time.monotonic()))
            if not line:
                raise RuntimeError(f"the worker exited before it was ready; see {err}:\n"
                                   + err.read_text()[-3000:])
            with contextlib.suppress(ValueError):
                if json.loads(line).get("ready"):
                    break
        self.reader = asyncio.create_task(self._read(self.proc, self.inc))

    def _write(self, req: Req) -> None:
        assert self.proc is not None and self.proc.stdin is not None
        now = time.monotonic()
        if req.sent_inc is not None:  # it was in flight in a worker that died
            req.resent += 1
            self.stats.in_flight_resent += 1
        req.first_sent = req.first_sent or now
        req.last_sent = now
        req.sent_inc = self.inc
        with contextlib.suppress(Exception):
            self.proc.stdin.write((json.dumps(req.payload, ensure_ascii=False) + "\n").encode())

    async def request(self, payload: dict[str, Any], cat: str, game: Any = None,
                      wait: float = 60.0) -> dict[str, Any] | None:
        """The answer line (None if none came within `wait` s; it stays pending and counted)."""
        self.next_id += 1
        rid = self.next_id
        payload = {"id": rid, **payload}
        req = Req(rid, payload, cat, asyncio.get_running_loop().create_future(), game)
        self.pending[rid] = req
        self.stats.requests[payload["kind"]] += 1
        flood = flood_kind(cat)
        if flood:
            self.stats.flood[flood]["sent"] += 1
        if self.up:
            self._write(req)
            with contextlib.suppress(Exception):
                await self.proc.stdin.drain()  # type: ignore[union-attr]
        try:
            return await asyncio.wait_for(asyncio.shield(req.fut), wait)
        except TimeoutError:
            return None

    async def _read(self, proc: asyncio.subprocess.Process, inc: int) -> None:
        assert proc.stdout is not None
        while True:
            try:
                line = await proc.stdout.readline()
            except (ValueError, asyncio.LimitOverrunError):
                self.stats.bad_lines += 1
                continue
            if not line:
                break
            try:
                msg = json.loads(line)
            except ValueError:
                self.stats.bad_lines += 1
                continue
            if "deliver" in msg:
                self.stats.deliveries += 1
                self.on_deliver(msg["deliver"])
                continue
            req = self.pending.pop(msg.get("id"), None)
            if req is None:
                continue  # an answer to a request already answered by an earlier worker
            elapsed = (time.monotonic() - (req.last_sent or time.monotonic())) * 1000
            kind = req.payload["kind"]
            flood = flood_kind(req.cat)
            if flood:  # a flooder's: counted apart (the monkeys' figures are theirs alone)
                counts = self.stats.flood[flood]
                counts["answered"] += 1
                counts["turned_away"] += bool(msg.get("door"))
                reply = (msg.get("out") or {}).get("reply") or ""
                counts["told_slow_down"] += reply.startswith(SLOW)
            else:
                (self.stats.press_ms if kind == "press" else self.stats.command_ms).append(elapsed)
                if msg.get("door"):
                    self.stats.extra[f"monkey_{kind}_turned_away"] += 1
            if req.resent:
                self.stats.resent_ms.append(elapsed)
            if not req.fut.done():
                req.fut.set_result(msg)
        if inc == self.inc and not self.killing and not self.closing:
            # the worker died by itself: a finding; start another so the run goes on
            self.stats.crashes += 1
            self.crash_restart = asyncio.create_task(self.restart(kill=False))

    async def restart(self, *, kill: bool = True) -> None:
        async with self._restart_lock:
            if self.closing:
                return
            t0 = time.monotonic()
            self.up = False
            self.killing = True
            proc = self.proc
            if proc is not None and proc.returncode is None and kill:
                with contextlib.suppress(ProcessLookupError):
                    os.kill(proc.pid, signal.SIGKILL)
            if proc is not None:
                await proc.wait()
            if self.reader is not None:
                with contextlib.suppress(Exception):
                    await asyncio.wait_for(self.reader, 10)
            self.killing = False
            if kill:
                self.stats.restarts += 1
            await self.start()
            # everything not answered goes (again) to the new worker, then new requests flow
            for req in list(self.pending.values()):
                if req.sent_inc != self.inc:
                    self._write(req)
            self.up = True
            self.stats.restart_s.append(time.monotonic() - t0)
            with contextlib.suppress(Exception):
                await self.proc.stdin.drain()  # type: ignore[union-attr]

    async def watchdog(self) -> None:
        while True:
            await asyncio.sleep(0.25)
            if not self.up:
                continue
            now = time.monotonic()
            for req in list(self.pending.values()):
                if req.flagged or req.last_sent is None or now - req.last_sent < UNANSWERED_AFTER:
                    continue
                req.flagged = True
                flood = flood_kind(req.cat)
                if flood:
                    self.stats.flood[flood]["unanswered"] += 1
                elif req.payload["kind"] == "press":
                    self.stats.unanswered += 1
                else:
                    self.stats.unanswered_other += 1
                if len(self.stats.unanswered_examples) < 8:
                    self.stats.unanswered_examples.append(
                        json.dumps(req.payload, ensure_ascii=False)[:300]
                    )

    async def close(self) -> None:
        self.closing = True
        self.up = False
        proc = self.proc
        if proc is None:
            return
        with contextlib.suppress(Exception):
            proc.stdin.close()  # type: ignore[union-attr]
        try:
            await asyncio.wait_for(proc.wait(), 8)
        except TimeoutError:
            with contextlib.suppress(ProcessLookupError):
                proc.kill()
            await proc.wait()
        if self.reader is not None:
            with contextlib.suppress(Exception):
                await asyncio.wait_for(self.reader, 5)


# -- games and monkeys -------------------------------------------------------------------------


@dataclass
class Monkey:
    user: str
    name: str
    game: Game
    afk: bool = False  # hardly presses: the turn timer plays for them
    lesson: list[str] = field(default_factory=list)  # buttons of their newest lesson screen

    def actor(self, chat: str | None = None) -> dict[str, Any]:
        """From the group (chat None: this game's group) or, chat == user, their private chat."""
        chat = self.game.chat if chat is None else chat
        return {"platform": PLATFORM, "chat_id": chat, "user": self.user, "name": self.name,
                "private": chat == self.user}


@dataclass
class Game:
    n: int
    chat: str
    rulebook: str | None = None
    gid: int | None = None
    monkeys: list[Monkey] = field(default_factory=list)
    status: str = "creating"  # creating | lobby | playing | finished | ended | failed
    latest: dict[str, tuple[int | None, dict]] = field(default_factory=dict)  # target -> screen
    history: deque = field(default_factory=lambda: deque(maxlen=300))  # (target, data)
    presses: int = 0
    started_at: float = 0.0
    ended_by_host: bool = False
    over: bool = False  # some answer said the game is over
    last_note: str = ""
    events: deque = field(default_factory=lambda: deque(maxlen=16))
    computers: int = 0

    @property
    def host(self) -> Monkey:
        return self.monkeys[0]

    def buttons(self, target: str) -> list[str]:
        got = self.latest.get(target)
        return list(got[1]["buttons"]) if got else []

    def version(self) -> int:
        """The newest state version the monkeys were shown (what honest buttons carry)."""
        best = 0
        for _rev, sc in self.latest.values():
            best = max(best, sc.get("version") or 0)
        return best


@dataclass
class Flooder:
    """A person flooding the bot from chats of their own (their private chat, their group)."""

    kind: str  # one of FLOOD_KINDS
    user: str
    group: str
    lesson: list[str] = field(default_factory=list)  # buttons of their newest lesson screen

    def actor(self, private: bool) -> dict[str, Any]:
        return {"platform": PLATFORM, "chat_id": self.user if private else self.group,
                "user": self.user, "name": f"Flood {self.kind}", "private": private}


def junk(n: int, rng: random.Random) -> str:
    alphabet = string.printable + "²³¹٣߃\u202e\u200bé漢🂡🃏\\\"'"
    return "".join(rng.choice(alphabet) for _ in range(n))


def forged(game: Game, rng: random.Random) -> tuple[str, str]:
    """(category, data): "forged" data is not a button of this bot by construction (the
    answer must be "That button is not from this bot."); "odd" is well-formed nonsense."""
    g, v = game.gid or 1, game.version()
    bad = [
        lambda: junk(rng.randint(1, 40), rng),
        lambda: f"{g}:{v}:tc:-2:5H#0",
        lambda: f"{g}:{v}:add:-2",
        lambda: f"{g}:{v}:timer:abc",
        lambda: f"{g}:{v}:pg:²",
        lambda: f"{g}:²:draw",
        lambda: f"²{g}:{v}:draw",
        lambda: f"{g}:{v}:s1:٣H#0",
        lambda: f"-{g}:{v}:draw",
        lambda: f"{g}:-1:draw",
        lambda: f"{g}:{10**12}:draw",
        lambda: f"{2**63}:{v}:draw",
        lambda: f"{2**31}:{v}:draw",
        lambda: f"{g}:{v}:add:{10**6}",
        lambda: f"{g}:{v}:take:200",
        lambda: f"{g}:{v}:pg:-0",
        lambda: f"{g}:{v}:s1:ZZ#9",
        lambda: f"{g}:{v}:draw:extra",
        lambda: f"{g}:{v}:tc:1",
        lambda: f"{g}:{v}:DRAW",
        lambda: f" {g}:{v}:draw",
        lambda: f"{g}:{v}:draw\n",
        lambda: f"{g}:{v}:draw\x00",
        lambda: f"{g}:{v}:timer:61",
        lambda: f"{g}:{v}:timer:{10**30}",
        lambda: f"{g}:{v}:" + "x" * (64 - len(f"{g}:{v}:")),  # exactly 64 bytes
        lambda: f"{g}:{v}:s1:" + "7H#0" * 20,  # over 64 bytes
        lambda: f"{g}:{v}:jk:0:" + ",".join(["5H"] * 9),
        lambda: f"{g}:{v}:menu:" + "é" * 10,
        lambda: f"{g}:{v}:rb:" + "a" * 25,
        lambda: f"{g}:{v}:opt:play_to:2 00",
        lambda: f"{g}:{v}:draw" + "\u0301",
        lambda: f"{g}:{v}:s1:7H#0=",
        lambda: f"{g}:{v}:tc:1e3:7H#0",
        lambda: f"{g}::draw",
        lambda: f"{g}:{v}",
        lambda: f"{g}:{v}:",
        lambda: "",
        lambda: f"L:{g}:{v}:go:" + "é",
        lambda: "L:" + junk(rng.randint(1, 30), rng),
        lambda: f"{g}:{v}:cpu:{'9' * 40}",
    ]
    odd = [
        lambda: f"{g}:{v}:opt:play_to:7",
        lambda: f"{g}:{v}:opt:nonsense:1",
        lambda: f"{g}:{v}:cpu:godlike",
        lambda: f"{g}:{v}:rb:poker",
        lambda: f"{g}:{v}:menu:xyz",
        lambda: f"{g}:{v}:jk:0:5H",
        lambda: f"{g}:{v}:jk:199:5H,6H",
        lambda: f"{g}:{v}:tc:0:*#0",
        lambda: f"{g}:{v}:tc:199:KS#1",
        lambda: f"{g}:{v}:take:199",
        lambda: f"{g}:{v}:add:199",
        lambda: f"{g}:{v}:pg:199",
        lambda: f"{g}:{v}:s1:*#1=7H",
        lambda: f"{g}:{v}:timer:60",
        lambda: f"{g}:0{v}:draw",
        lambda: f"{g}:{v + rng.randint(1, 5)}:draw",
        lambda: f"{g}:{10**9}:done",
        lambda: f"{g}:{v}:next",
        lambda: f"{g}:{v}:finish",
        lambda: f"{g}:{v}:join",
        lambda: f"{g}:{v}:start",
        lambda: f"{rng.randint(1, 10**6)}:{v}:draw",
        lambda: "0:0:cards",
        lambda: f"{g}:{v}:go:tahiti",  # a lesson's buttons on a game
        lambda: f"{g}:{v}:play",
        lambda: f"{g}:{v}:skip",
    ]
    if rng.random() < 0.7:
        return "forged", rng.choice(bad)()
    return "odd", rng.choice(odd)()


def typed(rng: random.Random) -> tuple[str, str]:
    choices = [
        ("lay", "7H 8H 9H"), ("lay", "1 2 3"), ("add", "B 10H"), ("move", "B:QS A"),
        ("split", "B 4"), ("take", "B QS"), ("done", ""), ("draw", ""), ("pass", ""),
        ("reset", ""), ("hint", ""), ("hand", ""), ("table", ""), ("knock", ""), ("give", "up"),
        ("join", ""), ("newgame", ""), ("endgame", ""), ("rules", "tahiti"), ("rules", "²"),
        ("leaderboard", ""), ("stats", ""), ("help", ""), ("cards", ""),
        ("lay", junk(4000, rng)), (junk(4000, rng), ""), ("lay", "² ³ ¹"),
        ("lay", " ".join(["1"] * 60)), ("add", "-2 7H"), ("move", "B:QS -1"),
        ("split", "B 99999999999999999999"), ("lay", ("7H " * 100)[:299]), ("lay", "*"),
        ("take", "ZZ 7H"), ("move", "A:*#0 B"), ("add", "A " + junk(50, rng)),
        ("newgame", "poker"), ("lay", "1000 2000"), ("lay", "٣ ٤ ٥"), ("auto", "7H"),
        ("lesson", rng.choice(["", "tahiti", "nosuch"])), ("quit", ""), ("skip", ""),
    ]
    return rng.choice(choices)


class Soak:
    def __init__(self, args: argparse.Namespace) -> None:
        self.args = args
        self.rng = random.Random(args.seed)
        self.stats = Stats()
        self.games: list[Game] = []
        self.by_gid: dict[int, Game] = {}
        self.monkeys: dict[str, Monkey] = {}
        self.stopping = False
        self.store: Any = None
        self.stuck_midrun: list[dict] = []
        self.used_ids: set[str] = set()
        self.traffic_end = 0.0

    # -- screens ---------------------------------------------------------------------------

    def absorb(self, out: dict[str, Any], monkey: Monkey | None = None) -> None:
        """Take the screens of an answer or delivery (never going back to an older one)."""
        for problem in out.get("problems") or ():
            self.stats.problems[problem[:120]] += 1
        rev = out.get("revision")
        for sc in out.get("screens") or ():
            gid = sc.get("game") or out.get("game")
            game = self.by_gid.get(gid) if gid is not None else None
            if game is None:
                if monkey is not None and sc["to"] == monkey.user:
                    monkey.lesson = list(sc["buttons"])  # a lesson screen (or a stray one)
                continue
            if sc["to"] == "note":
                game.last_note = sc["text"]
                if "Game over" in sc["text"]:
                    game.over = True
                continue
            target = sc["to"]
            before = game.latest.get(target)
            if before is not None and rev is not None and before[0] is not None \
                    and rev < before[0]:
                self.stats.older_screens += 1
                continue
            game.latest[target] = (rev, sc)
            for data in sc["buttons"]:
                game.history.append((target, data))
            if target == "group" and sc["text"].startswith("🛑"):
                game.over = True

    def on_deliver(self, out: dict[str, Any]) -> None:
        if "time ran out" in (out.get("reply") or ""):
            self.stats.extra["turn_timeouts"] += 1
        self.absorb(out)

    # -- requests --------------------------------------------------------------------------

    async def press(self, m: Monkey, data: str, cat: str, chat: str | None = None,
                    actor: dict | None = None) -> dict | None:
        game = m.game
        game.presses += 1
        self.stats.cats[cat] += 1
        actor = actor or m.actor(chat)
        ans = await self.link.request({"kind": "press", "actor": actor, "data": data}, cat, game)
        return self._answered(m, ans, cat, f"press {data!r} from {actor['chat_id']}")

    async def command(self, m: Monkey, verb: str, args: str, chat: str | None = None,
                      cat: str = "typed") -> dict | None:
        self.stats.cats["cmd:" + cat] += 1
        actor = m.actor(chat)
        ans = await self.link.request(
            {"kind": "command", "actor": actor, "verb": verb, "args": args}, cat, m.game
        )
        return self._answered(m, ans, cat, f"/{verb[:20]} {args[:30]!r} from {actor['chat_id']}")

    def _answered(self, m: Monkey, ans: dict | None, cat: str, what: str) -> dict | None:
        if ans is None:
            m.game.events.append(f"{m.name}: {what} -> (no answer)")
            return None
        if "error" in ans:
            self.stats.escaped += 1
            if len(self.stats.escaped_examples) < 5:
                self.stats.escaped_examples.append(f"{what}: {ans['error']}\n{ans.get('trace')}")
            m.game.events.append(f"{m.name}: {what} -> EXCEPTION {ans['error']}")
            return None
        out = ans["out"]
        reply = out.get("reply") or ""
        if ans.get("door"):  # turned away at the door: only a "slow down" (or nothing)
            m.game.events.append(f"{m.name}: {what} -> turned away ({ans['door']})")
            self.stats.slow_down += reply.startswith(SLOW)
            return {**out, "door": ans["door"]}
        self.absorb(out, m)
        short = re.sub(r"\d+", "#", reply.split("\n")[0])[:70]
        self.stats.replies[(cat, short)] += 1
        m.game.events.append(f"{m.name}: {what} -> {reply[:80]!r} alert={out.get('alert')}")
        if reply.startswith(SORRY):
            self.stats.sorry += 1
            self.stats.flag("answered 'Sorry, something went wrong'", f"game {m.game.gid}: {what}")
        if reply.startswith(SLOW):
            self.stats.slow_down += 1
        if "This game is over" in reply:
            m.game.over = True
        if cat == "forged" and reply != NOT_OURS:
            self.stats.flag("forged data not refused as foreign",
                            f"game {m.game.gid}: {what} -> {reply[:100]!r}")
        if cat == "wrong_chat" and not out.get("alert"):
            self.stats.flag("press from a wrong chat accepted",
                            f"game {m.game.gid}: {what} -> {reply[:100]!r}")
        return out

    # -- one game --------------------------------------------------------------------------

    def new_id(self) -> str:
        while True:
            uid = str(self.rng.randint(10**6, 10**10))
            if uid not in self.used_ids:
                self.used_ids.add(uid)
                return uid

    def make_game(self, n: int) -> Game:
        game = Game(n, "-100" + self.new_id())
        people = self.rng.choice([2, 2, 3, 3, 4])
        for i in range(people):
            uid = self.new_id()
            name = f"M{n}.{i}"
            r = self.rng.random()
            if r < 0.05:
                name = "名前🃏" * 40  # longer than a name column
            elif r < 0.1:
                name = "\u202eevil\u200b" + name
            m = Monkey(uid, name, game)
            game.monkeys.append(m)
            self.monkeys[uid] = m
        if people >= 2 and self.rng.random() < 0.15:
            self.rng.choice(game.monkeys[1:]).afk = True
        return game

    async def play_game(self, game: Game) -> None:
        try:
            await self._play_game(game)
        except Exception as error:  # a bug of this script: don't stop the run for it
            game.status = "failed"
            self.stats.flag("soak script error", f"game {game.gid}: {error!r}\n"
                            + traceback.format_exc()[-1500:])

    async def _play_game(self, game: Game) -> None:
        rng = self.rng
        host = game.host
        game.rulebook = "manipulation"
        if rng.random() < 0.7:
            out = await self.link.request(
                {"kind": "new_game", "actor": host.actor(), "rulebook": None}, "new_game", game
            )
        else:
            rb = rng.choices(list(RULEBOOK_WEIGHTS), weights=list(RULEBOOK_WEIGHTS.values()))[0]
            game.rulebook = rb
            out = await self.link.request(
                {"kind": "command", "actor": host.actor(), "verb": "newgame", "args": rb},
                "new_game", game,
            )
        out = (out or {}).get("out") or {}
        if not out.get("game") and "already a game" in (out.get("reply") or ""):
            # the first worker made the game but died before answering (the new worker
            # answered the re-sent /newgame): /table posts the lobby again, as a person would
            self.stats.extra["newgame_recovered_by_table"] += 1
            again = await self.link.request(
                {"kind": "command", "actor": host.actor(), "verb": "table", "args": ""},
                "new_game", game,
            )
            out = (again or {}).get("out") or {}
        if not out.get("game"):
            game.status = "failed"
            self.stats.flag("new game not created", f"{game.chat}: {out.get('reply')!r}")
            return
        game.gid = out["game"]
        self.by_gid[game.gid] = game
        self.absorb(out, host)
        game.status = "lobby"
        game.started_at = time.monotonic()
        await self.lobby(game)
        if game.status != "playing":
            return
        tasks = [asyncio.create_task(self.monkey_loop(m)) for m in game.monkeys]
        tasks.append(asyncio.create_task(self.watch(game)))
        await asyncio.gather(*tasks)

    def find(self, game: Game, target: str, action: str) -> str | None:
        for data in game.buttons(target):
            if action_of(data) == action:
                return data
        return None

    async def host_path(self, game: Game, path: list[str], tries: int = 6) -> dict | None:
        """The host presses the lobby buttons of `path` in turn (going back to the lobby's
        main menu first if needed). Someone joining meanwhile puts the group's message back
        to the main menu and makes the host's buttons out of date: start the path again."""
        for _ in range(tries):
            out = None
            for i, action in enumerate(path):
                data = self.find(game, "group", action)
                if data is None and i == 0:
                    back = self.find(game, "group", "menu:")
                    if back is not None:
                        await self.press(game.host, back, "lobby")
                        data = self.find(game, "group", action)
                if data is None:
                    out = None
                    break
                out = await self.press(game.host, data, "lobby")
                reply = (out or {}).get("reply") or ""
                if out is None or out.get("door") or "out of date" in reply \
                        or reply.startswith(SLOW):
                    out = None
                    break
            if out is not None:
                return out
            await asyncio.sleep(0.2)
        return None

    async def lobby(self, game: Game) -> None:
        rng = self.rng
        people = game.monkeys[1:]

        async def joiner(m: Monkey) -> None:
            await asyncio.sleep(rng.uniform(0, 1.5))
            for _ in range(20):
                data = self.find(game, "group", "join") or f"{game.gid}:0:join"
                out = await self.press(m, data, "lobby")
                reply = (out or {}).get("reply") or ""
                if "joined" in reply or "already seated" in reply:
                    break
                await asyncio.sleep(0.3)
            # lobby noise: host-only buttons, stale ones, leave and join again
            for _ in range(rng.randint(0, 3)):
                await asyncio.sleep(rng.uniform(0.1, 0.6))
                r = rng.random()
                if r < 0.4:
                    buttons = game.buttons("group")
                    if buttons:
                        data = rng.choice(buttons)
                        if verb_of(data) in ("leave",):
                            continue
                        await self.press(m, data, "lobby_noise")
                elif r < 0.6 and game.history:
                    await self.press(m, rng.choice(game.history)[1], "stale")
                elif r < 0.8:
                    leave = self.find(game, "group", "leave")
                    if leave:
                        await self.press(m, leave, "lobby")
                        await asyncio.sleep(0.2)
                        join = self.find(game, "group", "join") or f"{game.gid}:0:join"
                        await self.press(m, join, "lobby")
                else:
                    cat, data = forged(game, rng)
                    await self.press(m, data, cat)

        joiners = [asyncio.create_task(joiner(m)) for m in people]
        if rng.random() < 0.4:
            pick = rng.choices(list(RULEBOOK_WEIGHTS), weights=list(RULEBOOK_WEIGHTS.values()))[0]
            if await self.host_path(game, ["menu:rulebook", f"rb:{pick}"]):
                game.rulebook = pick
        afk = any(m.afk for m in game.monkeys)
        if afk or rng.random() < 0.3:
            if afk or rng.random() < 0.5:
                await self.host_path(game, ["menu:options", "timer:60"])
            if rng.random() < 0.5 and await self.host_path(game, ["menu:options"]):
                opts = [d for d in game.buttons("group") if verb_of(d) == "opt"]
                if opts:
                    await self.press(game.host, rng.choice(opts), "lobby")
        computers = rng.choice([0, 0, 1, 1, 2])
        if len(game.monkeys) == 1:
            computers = max(computers, 1)
        for _ in range(min(computers, 5 - len(game.monkeys))):
            level = rng.choices(["easy", "medium", "hard"], weights=[4, 5, 1])[0]
            out = await self.host_path(game, ["menu:computer", f"cpu:{level}"])
            if out is not None and not out.get("alert"):
                game.computers += 1
        await asyncio.wait(joiners, timeout=15)
        for _ in range(12):
            if self.stopping:
                return  # (checked at the end as a lobby)
            out = await self.host_path(game, ["start"], tries=2)
            reply = (out or {}).get("reply") or ""
            if "starts" in reply or "from before the game started" in reply:
                game.status = "playing"  # (the second: a Start whose answer was lost)
                return
            if "at least 2 seats" in reply:
                await self.host_path(game, ["menu:computer", "cpu:easy"])
            await asyncio.sleep(0.5)
        # never started: the host closes the lobby
        await self.command(game.host, "endgame", "", cat="endgame")
        game.status = "ended"
        game.ended_by_host = True
        self.stats.flag("lobby never started", f"game {game.gid}: last events "
                        + " | ".join(list(game.events)[-4:]))

    async def watch(self, game: Game) -> None:
        """Is the game over (read from the store)? Past --max-presses: check, then /endgame."""
        while not self.stopping:
            await asyncio.sleep(1.0)
            row = await self.store.get_game(game.gid)
            if row is None:
                game.status = "failed"
                return
            if row.status in ("finished", "ended"):
                game.status = row.status
                return
            if game.presses > self.args.max_presses and not game.ended_by_host:
                problem = self.stuck_reason(game, row, None)
                if problem:
                    self.stuck_midrun.append(self.summary(game, row, problem))
                out = await self.command(game.host, "endgame", "", cat="endgame")
                if out is not None and (out.get("reply") or "").startswith("Game ended"):
                    game.ended_by_host = True

    async def monkey_loop(self, m: Monkey) -> None:
        rng = self.rng
        game = m.game
        while not self.stopping and game.status == "playing":
            mine = game.buttons(m.user)
            my_turn = any(verb_of(d) in PROGRESS or verb_of(d) == "hint" for d in mine)
            if m.afk:
                await asyncio.sleep(rng.uniform(3, 12))
            elif my_turn:
                await asyncio.sleep(rng.uniform(0.05, 0.4) * self.args.think)
            else:
                await asyncio.sleep(rng.uniform(0.5, 2.0) * self.args.think)
            if self.stopping or game.status != "playing":
                break
            try:
                await self.monkey_step(m)
            except Exception as error:
                self.stats.flag("soak script error",
                                f"{error!r}\n" + traceback.format_exc()[-1500:])

    async def monkey_step(self, m: Monkey) -> None:
        rng = self.rng
        game = m.game
        mine = game.buttons(m.user)
        group = game.buttons("group")
        my_turn = any(verb_of(d) in PROGRESS or verb_of(d) == "hint" for d in mine)
        round_end = [d for d in mine + group if verb_of(d) in ROUND_END]
        if round_end and rng.random() < 0.5:
            nxt = [d for d in round_end if verb_of(d) == "next"] or round_end
            data = rng.choice(nxt if rng.random() < 0.9 else round_end)
            await self.press(m, data, "progress", m.user if data in mine else None)
            return
        if my_turn and not m.afk:
            r = rng.random()
            lay_often = (game.rulebook or "") in ("manipulation", "shanghai")
            if rng.random() < (0.5 if lay_often else 0.3) and await self.oracle_lay(m):
                return
            if r < 0.12:  # try to lay: select 1-4 cards, Auto-place, Done
                cards = [d for d in mine if verb_of(d) == "s1"]
                for data in rng.sample(cards, min(len(cards), rng.randint(1, 4))):
                    await self.press(m, data, "latest", m.user)
                for verb in ("auto", "done"):
                    data = self.find(game, m.user, verb)
                    if data:
                        await self.press(m, data, "progress", m.user)
                return
            if r < 0.55:
                text = (game.latest.get(m.user) or (0, {"text": ""}))[1]["text"]
                order = ["draw", "pass", "knock"]
                if "Working copy" in text or "Loose" in text:  # something placed: Done first
                    order.insert(0, "done" if rng.random() < 0.7 else "reset")
                for verb in order:
                    data = self.find(game, m.user, verb)
                    if data:
                        await self.press(m, data, "progress", m.user)
                        return
        r = rng.random()
        if r < 0.55:
            if mine and (rng.random() < 0.75 or not group):
                await self.press(m, rng.choice(mine), "latest", m.user)
            elif group:
                await self.press(m, rng.choice(group), "latest")
        elif r < 0.65:
            if game.history:
                target, data = rng.choice(game.history)
                if target == "group":
                    await self.press(m, data, "stale")
                elif target == m.user:
                    await self.press(m, data, "stale", m.user)
                else:
                    await self.press(m, data, "other", rng.choice([m.user, game.chat]))
        elif r < 0.71:
            others = [o for o in game.monkeys if o is not m and game.buttons(o.user)]
            if others:
                data = rng.choice(game.buttons(rng.choice(others).user))
                await self.press(m, data, "other", rng.choice([m.user, game.chat]))
        elif r < 0.74:
            if mine:  # my private button, pressed in the group (allowed: same person)
                await self.press(m, rng.choice(mine), "private_in_group", game.chat)
        elif r < 0.79:
            # an outsider (a monkey of another game) presses this game's buttons from their
            # group or private chat: must be refused
            outsiders = [o for o in self.monkeys.values() if o.game is not game]
            buttons = mine + group
            if outsiders and buttons:
                o = rng.choice(outsiders)
                chat = rng.choice([o.user, o.game.chat])
                data = rng.choice(buttons)
                if verb_of(data) in ("cards",) and chat == o.user:
                    pass  # "My cards" from a private chat of a non-player: refused too
                await self.press(m, data, "wrong_chat", actor=o.actor(chat))
        elif r < 0.87:
            cat, data = forged(game, rng)
            await self.press(m, data, cat, rng.choice([m.user, game.chat]))
        elif r < 0.95:
            verb, args = typed(rng)
            if verb == "endgame" and m is game.host:
                return
            await self.command(m, verb, args, rng.choice([m.user, game.chat]))
        elif r < 0.97:
            if m.lesson:
                await self.press(m, rng.choice(m.lesson), "lesson", m.user)
        elif r < 0.972 and m is not game.host:
            await self.command(m, "leave", "", rng.choice([m.user, game.chat]), cat="leave")
        else:
            if group:
                await self.press(m, rng.choice(group), "latest")

    async def oracle_lay(self, m: Monkey) -> bool:
        """A monkey that knows a lay (the solver, on the state read from the store) selects
        exactly those cards, presses Auto-place and Done: in draw-until-lay rulebooks only a
        lay ends a turn. The card buttons may be on another page of the hand: their data is
        built as the screen would (category "oracle")."""
        from engine.rummy import GameState, find_move

        game = m.game
        row = await self.store.get_game(game.gid)
        if row is None or row.status != "playing" or not row.record.get("state"):
            return False
        record = row.record
        game.rulebook = record.get("rulebook")
        seat = next((i for i, x in enumerate(record["seats"])
                     if x.get("user") == m.user and not x.get("computer")), None)
        state = GameState.from_dict(record["state"])
        if seat is None or state.phase != "play" or state.turn != seat:
            return False
        g, v = game.gid, state.version
        if state.draft is not None and self.rng.random() < 0.5:
            await self.press(m, f"{g}:{v}:reset", "oracle", m.user)
            return True
        move = await asyncio.to_thread(
            find_move, state.rules, state.table + [[c] for c in state.singles],
            state.hands[seat], first_lay_done=state.first_lay_done[seat], singles=state.singles,
        )
        if move is None:
            return False
        want = [c.token for c in move.placed]
        selected = (record.get("ui", {}).get(str(seat)) or {}).get("selected", [])
        for token in selected:
            if token not in want:
                await self.press(m, f"{g}:{v}:s0:{token}", "oracle", m.user)
        for token in want:
            if token not in selected:
                await self.press(m, f"{g}:{v}:s1:{token}", "oracle", m.user)
        out = await self.press(m, f"{g}:{v}:auto", "oracle", m.user)
        if out is None or out.get("alert"):
            return True
        done = self.find(game, m.user, "done")
        if done:
            await self.press(m, done, "oracle", m.user)
        return True

    # -- the flooders ----------------------------------------------------------------------

    def make_flooders(self) -> list[Flooder]:
        return [Flooder(FLOOD_KINDS[i % len(FLOOD_KINDS)], self.new_id(), "-100" + self.new_id())
                for i in range(self.args.flooders)]

    def flooding(self) -> bool:
        return not self.stopping and time.monotonic() < self.traffic_end

    async def rest(self, seconds: float) -> None:
        """A flooder's pause, cut short when the traffic stops."""
        until = time.monotonic() + seconds
        while self.flooding() and time.monotonic() < until:
            await asyncio.sleep(min(0.25, until - time.monotonic()))

    async def flood(self, f: Flooder, payload: dict[str, Any]) -> dict | None:
        """One flooder request: its answer's outcome (None if none, or an exception)."""
        ans = await self.link.request(payload, "flood:" + f.kind)
        if ans is None:
            return None
        if "error" in ans:
            self.stats.escaped += 1
            if len(self.stats.escaped_examples) < 5:
                self.stats.escaped_examples.append(
                    f"flooder {f.kind}: {json.dumps(payload, ensure_ascii=False)[:200]}: "
                    f"{ans['error']}\n{ans.get('trace')}")
            return None
        return ans["out"]

    async def flooder_loop(self, f: Flooder) -> None:
        try:
            await getattr(self, f"flood_{f.kind}")(f)
        except Exception as error:  # a bug of this script: don't stop the run for it
            self.stats.flag("soak script error", f"flooder {f.kind}: {error!r}\n"
                            + traceback.format_exc()[-1500:])

    async def flood_text(self, f: Flooder) -> None:
        """A forward of many plain messages into the private chat, again and again."""
        rng = self.rng
        while self.flooding():
            await asyncio.gather(*(
                self.flood(f, {"kind": "text", "actor": f.actor(private=True),
                               "text": rng.choice(CHATTER)})
                for _ in range(TEXT_BURST)))
            await self.rest(rng.uniform(0.5, 2.0))

    async def flood_help(self, f: Flooder) -> None:
        """/help in its own group, in bursts."""
        while self.flooding():
            await asyncio.gather(*(
                self.flood(f, {"kind": "command", "actor": f.actor(private=False),
                               "verb": "help", "args": ""})
                for _ in range(HELP_BURST)))
            await self.rest(self.rng.uniform(2.0, 6.0))

    async def flood_lesson(self, f: Flooder) -> None:
        """/lesson with one rulebook after another, each followed by a few of its buttons
        (never [Play a real game]: a real game in the chat would stop the switching)."""
        rng = self.rng
        turn = 0
        while self.flooding():
            rulebook = LESSONS[turn % len(LESSONS)]
            turn += 1
            self.take_lesson(f, await self.flood(f, {
                "kind": "command", "actor": f.actor(private=True), "verb": "lesson",
                "args": rulebook}))
            await asyncio.sleep(LESSON_PAUSE)
            for _ in range(rng.randint(1, 4)):
                if not f.lesson or not self.flooding():
                    break
                self.take_lesson(f, await self.flood(f, {
                    "kind": "press", "actor": f.actor(private=True),
                    "data": rng.choice(f.lesson)}))
                await asyncio.sleep(LESSON_PAUSE)

    @staticmethod
    def take_lesson(f: Flooder, out: dict | None) -> None:
        for sc in (out or {}).get("screens") or ():
            if sc["to"] == f.user:
                f.lesson = [d for d in sc["buttons"] if not d.endswith(":play")]

    async def flood_steady(self, f: Flooder) -> None:
        """/rules at a steady rate in its own group, whatever the answers (under fair use)."""
        sent: set[asyncio.Task] = set()
        start, n = time.monotonic(), 0
        while self.flooding():
            args = ["", *RULEBOOK_WEIGHTS][n % (len(RULEBOOK_WEIGHTS) + 1)]
            task = asyncio.create_task(self.flood(f, {
                "kind": "command", "actor": f.actor(private=False), "verb": "rules",
                "args": args}))
            sent.add(task)
            task.add_done_callback(sent.discard)
            n += 1
            await asyncio.sleep(max(0.0, start + n / STEADY_RATE - time.monotonic()))
        if sent:
            await asyncio.wait(sent)

    # -- the checks ------------------------------------------------------------------------

    def stuck_reason(self, game: Game | None, row: Any, earlier: Any) -> str | None:
        """Why nobody can move this lobby/playing game on, or None."""
        record = row.record
        state = record.get("state")
        if game is None:
            return None  # not one of ours (a lesson, a game against the computer)
        if state is None:
            if any(verb_of(d) in ("join", "start", "menu") for d in game.buttons("group")):
                return None
            return "lobby without lobby buttons in the group"
        seats = record.get("seats", [])
        phase, turn, version = state.get("phase"), state.get("turn"), state.get("version")
        people = [s for s in seats if not s.get("computer") and s.get("user")]
        if not people:
            return "playing, but no person is seated"
        if phase == "game_over":
            return f"status {row.status!r} but phase game_over"
        current = [
            d for target in [s["user"] for s in people] + ["group"]
            for d in game.buttons(target)
            if version_of(d) == version and verb_of(d) not in VIEW_ONLY
        ]
        if phase == "round_over":
            if any(verb_of(d) in ROUND_END for d in current):
                return None
            return "round_over but nobody was sent a current ▶ Next round button"
        if phase != "play":
            return f"unknown phase {phase!r}"
        seat = seats[turn]
        if seat.get("computer"):
            if earlier is not None and earlier.version == row.version:
                return "a computer's turn that nobody takes (no change in the quiet time)"
            return None
        user = seat["user"]
        own = game.buttons(user)
        if any(version_of(d) == version and verb_of(d) not in VIEW_ONLY for d in own):
            return None
        if own or any(verb_of(d) == "cards" for d in game.buttons("group")):
            return None  # a stale button or My cards brings fresh buttons
        return "a person's turn, but they hold no button (private or My cards)"

    @staticmethod
    def stale_turn(game: Game, row: Any) -> str | None:
        """A person's turn whose newest private screen is older than the state (they can get
        fresh buttons by pressing an old one: not stuck, but a screen went missing)."""
        state = row.record.get("state") or {}
        seats = row.record.get("seats", [])
        if state.get("phase") != "play" or not seats:
            return None
        seat = seats[state.get("turn", 0)]
        if seat.get("computer") or not seat.get("user"):
            return None
        got = game.latest.get(seat["user"])
        if got is None:
            return "the turn person was never sent a private screen"
        if got[1].get("version") != state.get("version"):
            return (f"the turn person's newest screen is for state version "
                    f"{got[1].get('version')}, the state is at {state.get('version')}")
        return None

    def summary(self, game: Game | None, row: Any, problem: str) -> dict[str, Any]:
        record = row.record
        state = record.get("state") or {}
        seats = record.get("seats", [])

        def screen(target: str) -> dict | None:
            got = game.latest.get(target) if game else None
            if not got:
                return None
            return {"revision": got[0], "version": got[1].get("version"),
                    "text": got[1]["text"][:300], "buttons": got[1]["buttons"][:40]}

        return {
            "problem": problem,
            "game": row.id,
            "status": row.status,
            "row_version": row.version,
            "rulebook": record.get("rulebook"),
            "options": record.get("options"),
            "seats": [
                {"name": s.get("name", "")[:20], "user": s.get("user"),
                 "computer": s.get("computer"), "was_human": s.get("was_human"),
                 "timeouts": s.get("timeouts")}
                for s in seats
            ],
            "phase": state.get("phase"),
            "turn": state.get("turn"),
            "state_version": state.get("version"),
            "round": state.get("round"),
            "stock": len(state.get("stock", [])) if isinstance(state.get("stock"), list) else None,
            "hands": [len(h) for h in state.get("hands", [])],
            "deadline_in_s": (round(record["deadline"] - time.time(), 1)
                              if record.get("deadline") else None),
            "ui": record.get("ui"),
            "log": record.get("log", [])[-6:],
            "screens": {
                t: screen(t) for t in ["group", *[s.get("user") for s in seats if s.get("user")]]
            } if game else {},
            "last_events": list(game.events)[-10:] if game else [],
        }

    async def snapshot(self) -> dict[int, Any]:
        from sqlalchemy import select

        from bot.store import models as db

        async with self.store.engine.connect() as conn:
            ids = [r[0] for r in await conn.execute(select(db.games.c.id).order_by(db.games.c.id))]
        rows = {}
        for gid in ids:
            row = await self.store.get_game(gid)
            if row is not None:
                rows[gid] = row
        return rows

    # -- the run ---------------------------------------------------------------------------

    async def killer(self, t0: float, traffic_end: float) -> None:
        kills = self.args.kills
        if kills <= 0:
            return
        span = traffic_end - t0
        times = sorted(t0 + span * (i + self.rng.uniform(0.3, 0.7)) / kills for i in range(kills))
        for when in times:
            await asyncio.sleep(max(0.0, when - time.monotonic()))
            if self.stopping or time.monotonic() > traffic_end:
                return
            if self.args.flooders:  # kill -9 in the middle of a flood: a burst in flight
                until = time.monotonic() + KILL_WAITS_FOR_FLOOD
                while len(self.link.pending) < KILL_IN_FLIGHT and time.monotonic() < until:
                    await asyncio.sleep(0.005)
            await self.link.restart()

    async def run(self) -> dict[str, Any]:
        args = self.args
        t0 = time.monotonic()
        deadline = t0 + args.seconds
        tail = min(max(12.0, args.seconds * 0.08), 45.0)  # stop, quiet time, checks, report
        traffic_end = self.traffic_end = deadline - tail
        folder = Path(tempfile.mkdtemp(prefix="soak-"))
        schema = None
        if args.pg:
            url = PG_URL
            schema = f"soak_{os.getpid()}_{int(time.time())}"
            await self._pg(url, f'CREATE SCHEMA "{schema}"')
        else:
            url = f"sqlite+aiosqlite:///{folder / 'soak.db'}"
        cmd = [sys.executable, str(HERE / "soak_worker.py"), "--url", url,
               "--computer-delay", str(args.computer_delay), "--tick", str(args.tick),
               "--render", str(args.render)]
        if schema:
            cmd += ["--schema", schema]
        self.link = Link(cmd, folder, self.stats, self.on_deliver)
        await self.link.start()
        self.link.up = True
        from soak_worker import open_store

        self.store = await open_store(url, schema)
        watchdog = asyncio.create_task(self.link.watchdog())
        killer = asyncio.create_task(self.killer(t0, traffic_end))
        flooders = {asyncio.create_task(self.flooder_loop(f)) for f in self.make_flooders()}
        running: set[asyncio.Task] = set()
        created = 0
        try:
            while time.monotonic() < traffic_end:
                done = sum(1 for g in self.games if g.status in ("finished", "ended", "failed"))
                if done >= args.games:
                    break
                while len(running) < args.concurrent and created < args.games:
                    game = self.make_game(created)
                    created += 1
                    self.games.append(game)
                    task = asyncio.create_task(self.play_game(game))
                    running.add(task)
                    task.add_done_callback(running.discard)
                if created >= args.games and not running:
                    break
                await asyncio.sleep(0.2)
            self.stopping = True
            killer.cancel()
            with contextlib.suppress(asyncio.CancelledError, Exception):
                await killer
            # let the presses in hand be answered (a restart may be under way)
            await asyncio.wait(running | flooders,
                               timeout=max(1.0, min(15.0, deadline - time.monotonic()
                                                    - tail / 2)))
            quiet = min(3.0, max(0.5, (deadline - time.monotonic()) / 4))
            await asyncio.sleep(quiet)
            first = await self.snapshot()
            await asyncio.sleep(min(3.0, max(0.5, (deadline - time.monotonic()) / 4)))
            second = await self.snapshot()
            self.stats.never_answered = len(self.link.pending)
            for req in list(self.link.pending.values()):
                if req.flagged:
                    continue
                flood = flood_kind(req.cat)
                if flood:
                    self.stats.flood[flood]["unanswered"] += 1
                elif req.payload["kind"] == "press":
                    self.stats.unanswered += 1  # never answered at all
        finally:
            watchdog.cancel()
            for task in running | flooders:
                task.cancel()
            await self.link.close()
        rows = await self.snapshot()  # after the worker stopped
        await self.store.close()
        result = self.check(first, second, rows)
        result["wall_s"] = round(time.monotonic() - t0, 1)
        tb, examples, errors = self.tracebacks()
        result["exceptions"] = tb
        result["error_lines"] = errors
        result["traceback_examples"] = examples
        keep = args.keep or bool(result["stuck"] or result["lost_cards"] or tb
                                 or self.stats.escaped or self.stats.crashes)
        if keep:  # the database and the worker's stderr files, for whoever looks into it
            result["database"] = f"{PG_URL} schema {schema}" if schema else str(folder)
            result["worker_stderr"] = str(folder)
        else:
            if schema:
                await self._pg(PG_URL, f'DROP SCHEMA "{schema}" CASCADE')
            shutil.rmtree(folder, ignore_errors=True)
        return result

    @staticmethod
    async def _pg(url: str, sql: str) -> None:
        from sqlalchemy import text
        from sqlalchemy.ext.asyncio import create_async_engine

        from bot.store.urls import database_url

        engine = create_async_engine(database_url(url), isolation_level="AUTOCOMMIT")
        try:
            async with engine.connect() as conn:
                await conn.execute(text(sql))
        finally:
            await engine.dispose()

    def tracebacks(self) -> tuple[int, list[str], int]:
        count, errors = 0, 0
        seen: dict[str, str] = {}
        for path in self.link.err_files:
            if not path.exists():
                continue
            text = path.read_text(errors="replace")
            count += text.count("Traceback")
            errors += len(re.findall(r"^\S+ \S+ (?:ERROR|CRITICAL) ", text, re.M))
            for block in re.findall(r"Traceback \(most recent call last\):\n(?:[ \t].*\n)+.*",
                                    text):
                last = block.strip().splitlines()[-1]
                frames = re.findall(r'File "([^"]+)", line (\d+), in (\S+)', block)
                where = frames[-1] if frames else ("?", "?", "?")
                key = f"{last[:200]} @ {Path(where[0]).name}:{where[2]}"
                seen.setdefault(key, block[-2500:])
        examples = [f"{key}\n{block}" for key, block in list(seen.items())[:6]]
        return count, examples, errors

    def check(self, first: dict, second: dict, rows: dict) -> dict[str, Any]:
        from engine.rummy import GameState
        from engine.rummy.state import conservation_errors

        s = self.stats
        lost, lost_examples, unreadable = 0, [], 0
        stuck: list[dict] = []
        stale_turns: list[dict] = []  # not stuck, but the person must press an old button
        unfinished = 0
        for gid, row in rows.items():
            state = row.record.get("state")
            if state:
                try:
                    errors = conservation_errors(GameState.from_dict(state))
                except Exception as error:
                    unreadable += 1
                    errors = [f"state unreadable: {error!r}"]
                if errors:
                    lost += 1
                    if len(lost_examples) < 5:
                        lost_examples.append({"game": gid, "status": row.status,
                                              "errors": errors[:8]})
            later = second.get(gid)
            if later is None or later.status not in ("lobby", "playing"):
                continue
            game = self.by_gid.get(gid)
            problem = self.stuck_reason(game, later, first.get(gid))
            if problem:
                stuck.append(self.summary(game, later, problem))
            elif game is not None:
                unfinished += 1
                why = self.stale_turn(game, later)
                if why:
                    stale_turns.append(self.summary(game, later, why))
        ours = [g for g in self.games if g.gid is not None]
        started = [g for g in ours if g.status in ("playing", "finished", "ended")
                   and g.gid in rows and rows[g.gid].record.get("state") is not None]
        finished = sum(1 for g in ours if g.gid in rows and rows[g.gid].status == "finished")
        ended_host = sum(1 for g in ours if g.ended_by_host and g.gid in rows
                         and rows[g.gid].status == "ended")
        ended_other = sum(1 for g in ours if not g.ended_by_host and g.gid in rows
                          and rows[g.gid].status == "ended")
        presses = sum(v for k, v in s.cats.items() if not k.startswith("cmd:"))
        if s.flood["steady"]["told_slow_down"]:
            s.flag("a steady sender under fair use told to slow down",
                   f"{s.flood['steady']['told_slow_down']} of {s.flood['steady']['sent']} /rules")
        flood = {k: dict(c) for k, c in s.flood.items() if c["sent"]}
        return {
            "games_created": len(ours),
            "games_played": len(started),
            "finished": finished,
            "ended_by_host": ended_host,
            "ended_otherwise": ended_other,
            "unfinished_at_stop": unfinished,
            "stuck": len(stuck),
            "stuck_before_endgame": len(self.stuck_midrun),
            "turn_screen_out_of_date": len(stale_turns),
            "lost_cards": lost,
            "states_unreadable": unreadable,
            "games_in_store": len(rows),
            "lesson_rows": sum(1 for row in rows.values() if row.record.get("lesson")),
            "presses_sent": presses,
            "forged_presses": s.cats["forged"],
            "odd_presses": s.cats["odd"],
            "wrong_chat_presses": s.cats["wrong_chat"],
            "stale_presses": s.cats["stale"],
            "turn_timeouts": s.extra["turn_timeouts"],
            "newgame_recovered_by_table": s.extra["newgame_recovered_by_table"],
            "lesson_presses": s.cats["lesson"],
            "commands_sent": sum(v for k, v in s.cats.items() if k.startswith("cmd:")),
            "deliveries": s.deliveries,
            "unanswered_presses": s.unanswered,  # the monkeys' (flooders' below)
            "monkey_presses_turned_away": s.extra["monkey_press_turned_away"],
            "monkey_commands_turned_away": s.extra["monkey_command_turned_away"]
            + s.extra["monkey_new_game_turned_away"],
            "unanswered_other": s.unanswered_other,
            "never_answered": s.never_answered,
            "press_p50_ms": round(pct(s.press_ms, 0.5) or 0, 1),
            "press_p95_ms": round(pct(s.press_ms, 0.95) or 0, 1),
            "press_max_ms": round(max(s.press_ms, default=0), 1),
            "command_p50_ms": round(pct(s.command_ms, 0.5) or 0, 1),
            "command_p95_ms": round(pct(s.command_ms, 0.95) or 0, 1),
            "flooders": self.args.flooders,
            "flood_sent": sum(c["sent"] for c in s.flood.values()),
            "flood_turned_away": sum(c["turned_away"] for c in s.flood.values()),
            "flood_answered": sum(c["answered"] for c in s.flood.values()),
            "flood_unanswered": sum(c["unanswered"] for c in s.flood.values()),
            "flood": flood,  # by kind
            "restarts": s.restarts,
            "worker_crashes": s.crashes,
            "in_flight_resent": s.in_flight_resent,
            "resent_answered_p50_ms": round(pct(s.resent_ms, 0.5) or 0, 1),
            "restart_p50_s": round(statistics.median(s.restart_s), 2) if s.restart_s else None,
            "escaped_exceptions": s.escaped,
            "sorry_answers": s.sorry,
            "slow_down_answers": s.slow_down,
            "older_screens_ignored": s.older_screens,
            "unpackable_buttons": sum(s.problems.values()),
            "flagged": dict(s.flagged),
            # details (not figures)
            "stuck_examples": stuck[:6],
            "stuck_before_endgame_examples": self.stuck_midrun[:4],
            "turn_screen_out_of_date_examples": stale_turns[:3],
            "lost_card_examples": lost_examples,
            "unanswered_examples": s.unanswered_examples,
            "escaped_examples": s.escaped_examples,
            "flagged_examples": s.flagged_examples,
            "problems": dict(s.problems.most_common(5)),
            "top_replies": [f"{n:6d}  {cat:<16} {reply}"
                            for (cat, reply), n in s.replies.most_common(30)],
        }


FIGURES = [
    ("games created", "games_created"), ("games played (started)", "games_played"),
    ("finished", "finished"), ("ended by host (/endgame)", "ended_by_host"),
    ("ended otherwise (everyone left)", "ended_otherwise"),
    ("unfinished at stop (not stuck)", "unfinished_at_stop"),
    ("STUCK at the end", "stuck"), ("stuck before host's /endgame", "stuck_before_endgame"),
    ("turn person's newest screen out of date", "turn_screen_out_of_date"),
    ("LOST CARDS (games with conservation errors)", "lost_cards"),
    ("presses sent", "presses_sent"), ("  forged", "forged_presses"),
    ("  odd (well-formed nonsense)", "odd_presses"), ("  wrong chat", "wrong_chat_presses"),
    ("  stale", "stale_presses"), ("commands sent", "commands_sent"),
    ("unsolicited deliveries", "deliveries"), ("turn timer expiries", "turn_timeouts"),
    ("lesson (and private-game) presses", "lesson_presses"),
    ("/newgame answer lost, lobby got back by /table", "newgame_recovered_by_table"),
    ("EXCEPTIONS in worker stderr (Traceback)", "exceptions"),
    ("ERROR log lines in worker stderr", "error_lines"),
    ("exceptions escaped to the adapter", "escaped_exceptions"),
    ("'Sorry, something went wrong' answers", "sorry_answers"),
    ("UNANSWERED presses of monkeys (> 10 s, worker up)", "unanswered_presses"),
    ("unanswered commands of monkeys", "unanswered_other"),
    ("monkeys' press -> answer p50 ms", "press_p50_ms"),
    ("monkeys' press -> answer p95 ms", "press_p95_ms"),
    ("monkeys' press -> answer max ms", "press_max_ms"),
    ("monkeys' command -> answer p50 / p95 ms", ("command_p50_ms", "command_p95_ms")),
    ("monkeys' presses / commands turned away at door",
     ("monkey_presses_turned_away", "monkey_commands_turned_away")),
    ("flooders", "flooders"),
    ("flooders' requests sent / turned away / answered",
     ("flood_sent", "flood_turned_away", "flood_answered")),
    ("FLOODERS' UNANSWERED requests", "flood_unanswered"),
    ("lesson rows in the store (all kept)", "lesson_rows"),
    ("restarts (SIGKILL)", "restarts"), ("worker crashes (not killed)", "worker_crashes"),
    ("in-flight requests re-sent", "in_flight_resent"),
    ("requests never answered (at the end)", "never_answered"),
    ("re-sent -> answer p50 ms", "resent_answered_p50_ms"), ("restart p50 s", "restart_p50_s"),
    ("'slow down' answers", "slow_down_answers"),
    ("older screens ignored", "older_screens_ignored"),
    ("buttons that can't be packed (> 64 bytes)", "unpackable_buttons"),
    ("wall time s", "wall_s"),
]


def report(result: dict[str, Any], args: argparse.Namespace) -> None:
    print(f"\nSoak: {args.games} games, {args.concurrent} at a time, {args.seconds} s, "
          f"{args.kills} kills, {args.flooders} flooders, {'PostgreSQL' if args.pg else 'SQLite'}, "
          f"computer_delay {args.computer_delay}, seed {args.seed}")
    width = max(len(label) for label, _ in FIGURES) + 2
    for label, key in FIGURES:
        value = " / ".join(str(result.get(k)) for k in key) if isinstance(key, tuple) \
            else result.get(key)
        print(f"  {label:<{width}} {value}")
    if result.get("flood"):
        print(f"\n  {'flooder (own chats)':<{width - 2}} {'sent':>7} {'turned away':>12} "
              f"{'answered':>9} {'unanswered':>11} {'told slow down':>15}")
        for kind, c in result["flood"].items():
            label = FLOOD_KIND_LABELS[kind].format(TEXT_BURST=TEXT_BURST, HELP_BURST=HELP_BURST,
                                                   STEADY_RATE=STEADY_RATE)
            print(f"  {label:<{width - 2}} {c.get('sent', 0):>7} {c.get('turned_away', 0):>12} "
                  f"{c.get('answered', 0):>9} {c.get('unanswered', 0):>11} "
                  f"{c.get('told_slow_down', 0):>15}")
    problems = []
    if result["flagged"]:
        problems.append("Flagged answers:")
        for kind, n in result["flagged"].items():
            problems.append(f"  {n:5d}  {kind}")
            for ex in result["flagged_examples"].get(kind, [])[:3]:
                problems.append("         e.g. " + ex.replace("\n", "\n              ")[:1500])
    for key, title in [
        ("stuck_examples", "Stuck games (at the end)"),
        ("stuck_before_endgame_examples", "Stuck games (found before the host's /endgame)"),
        ("turn_screen_out_of_date_examples",
         "Games whose turn person was last sent an out-of-date screen (a screen was lost)"),
        ("lost_card_examples", "Lost cards"),
        ("unanswered_examples", "Unanswered requests"),
        ("escaped_examples", "Exceptions that escaped the service"),
        ("traceback_examples", "Distinct tracebacks in the worker's stderr"),
    ]:
        if result.get(key):
            problems.append(title + ":")
            for ex in result[key]:
                text = ex if isinstance(ex, str) else json.dumps(ex, ensure_ascii=False, indent=1)
                problems.append("  " + text.replace("\n", "\n  ")[:6000])
    if result["problems"]:
        problems.append("Unpackable buttons: " + json.dumps(result["problems"]))
    if problems:
        print("\nPROBLEMS FOUND" if (result["stuck"] or result["lost_cards"]
                                     or result["exceptions"] or result["unanswered_presses"]
                                     or result["flood_unanswered"]
                                     or result["flagged"]) else "\nNotes")
        print("\n".join(problems))
    else:
        print("\nNo problems found.")
    if args.replies:
        print("\nMost frequent answers (category, reply):")
        print("\n".join(result["top_replies"]))
    if result.get("database"):
        print(f"\nDatabase kept for inspection: {result['database']} "
              f"(worker stderr in {result['worker_stderr']})")


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--games", type=int, default=200)
    parser.add_argument("--seconds", type=float, default=600)
    parser.add_argument("--kills", type=int, default=10)
    parser.add_argument("--concurrent", type=int, default=20)
    parser.add_argument("--flooders", type=int, default=4,
                        help="people flooding the bot beside the monkeys, by turns: private "
                             "text, /help bursts, lesson switches, steady /rules (0: none)")
    parser.add_argument("--think", type=float, default=1.0,
                        help="scale the monkeys' thinking time between presses")
    parser.add_argument("--max-presses", type=int, default=400,
                        help="a game past this many presses is ended by its host")
    parser.add_argument("--computer-delay", type=float, default=0.05)
    parser.add_argument("--tick", type=float, default=0.2)
    parser.add_argument("--render", type=float, default=0.0,
                        help="fraction of screens whose picture the worker renders")
    parser.add_argument("--pg", action="store_true", help=f"PostgreSQL at {PG_URL}")
    parser.add_argument("--seed", type=int, default=None)
    parser.add_argument("--keep", action="store_true", help="keep the database afterwards")
    parser.add_argument("--replies", action="store_true", help="print the most frequent answers")
    parser.add_argument("--json", action="store_true")
    args = parser.parse_args()
    if args.seed is None:
        args.seed = random.randrange(10**6)
    result = asyncio.run(Soak(args).run())
    report(result, args)
    if args.json:
        figures = {k: v for k, v in result.items() if not isinstance(v, (list, dict))
                   or k in ("flagged", "flood")}
        print(json.dumps(figures, ensure_ascii=False))
    return 0


if __name__ == "__main__":
    sys.exit(main())
