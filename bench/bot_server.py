"""The bot under test for bench/bot.py: store + GameService + TelegramAdapter, pointed at the fake.

Run as a child process (the default: the bot gets its own interpreter, like in production, and
the fake server and the scripted users don't share its event loop or GIL):

    python bench/bot_server.py --base-url http://127.0.0.1:PORT/bot --token T --db URL [--stages]

It prints `READY` once polling, then reads commands on stdin: `mark NAME` starts a new
measurement segment (answers `OK`), `stop` (or EOF) shuts down and prints one `STATS {json}`
line: CPU seconds per segment, errors logged by the bot, and with --stages the wall time of
each stage of the press path (service.press, store calls, state (de)serialisation, rendering,
deliver) by the kind of button pressed. bench/bot.py can also run `BotUnderTest` in-process.
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import contextvars
import functools
import json
import logging
import resource
import sys
import time
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))

from telegram.ext import AIORateLimiter  # noqa: E402

from bot import event_loop  # noqa: E402
from bot.adapters.telegram import TelegramAdapter  # noqa: E402
from bot.core.service import GameService, unpack  # noqa: E402
from bot.games import default_games  # noqa: E402
from bot.store import Store  # noqa: E402

KIND: contextvars.ContextVar[str] = contextvars.ContextVar("bench_kind", default="background")


def press_kind(data: str) -> str:
    """The benchmark's name for a button (from its callback data)."""
    parsed = unpack(data or "")
    if parsed is None:
        return "foreign"
    action = parsed[2]
    head = action.split(":", 1)[0]
    if head in ("s1", "s0"):
        return "select"
    if head in ("join", "leave", "start", "menu", "cpu", "rb", "opt", "timer"):
        return "lobby"
    return {"pg": "page", "auto": "auto", "done": "done", "new": "new", "reset": "reset",
            "draw": "draw", "pass": "pass", "noop": "noop"}.get(head, head)


class ErrorCounter(logging.Handler):
    def __init__(self) -> None:
        super().__init__(logging.ERROR)
        self.count = 0
        self.first: list[str] = []

    def emit(self, record: logging.LogRecord) -> None:
        self.count += 1
        if len(self.first) < 5:
            text = record.getMessage()
            if record.exc_info and record.exc_info[1] is not None:
                text += f": {record.exc_info[1]!r}"
            self.first.append(f"{record.name}: {text}"[:300])


class Stages:
    """Wall time of instrumented calls, by (press kind, stage)."""

    def __init__(self) -> None:
        self.data: dict[str, dict[str, list[float]]] = {}

    def add(self, stage: str, seconds: float) -> None:
        self.data.setdefault(KIND.get(), {}).setdefault(stage, []).append(seconds * 1000)

    def wrap_async(self, owner: Any, name: str, stage: str, *, set_kind: bool = False) -> None:
        original = getattr(owner, name)

        @functools.wraps(original)
        async def timed(*args: Any, **kwargs: Any) -> Any:
            if set_kind:  # service.press(actor, data): the rest of this update is "that kind"
                KIND.set(press_kind(args[1] if len(args) > 1 else kwargs.get("data", "")))
            t0 = time.perf_counter()
            try:
                return await original(*args, **kwargs)
            finally:
                self.add(stage, time.perf_counter() - t0)

        setattr(owner, name, timed)

    def wrap_sync(self, owner: Any, name: str, stage: str, *, classmethod_: bool = False) -> None:
        original = getattr(owner, name)

        def timed(*args: Any, **kwargs: Any) -> Any:
            t0 = time.perf_counter()
            try:
                return original(*args, **kwargs)
            finally:
                self.add(stage, time.perf_counter() - t0)

        functools.update_wrapper(timed, original)
        setattr(owner, name, staticmethod(timed) if classmethod_ else timed)

    def summary(self) -> dict[str, dict[str, dict[str, float]]]:
        out: dict[str, dict[str, dict[str, float]]] = {}
        for kind, stages in self.data.items():
            for stage, times in stages.items():
                times = sorted(times)
                out.setdefault(kind, {})[stage] = {
                    "n": len(times),
                    "median": times[len(times) // 2],
                    "p95": times[min(len(times) - 1, round(0.95 * (len(times) - 1)))],
                    "total": sum(times),
                }
        return out


class BotUnderTest:
    def __init__(self, base_url: str, token: str, db_url: str, *, stages: bool = False,
                 lab: bool = False) -> None:
        self.base_url, self.token, self.db_url = base_url, token, db_url
        self.lab = lab
        self.store: Store | None = None
        self.service: GameService | None = None
        self.adapter: TelegramAdapter | None = None
        self.errors = ErrorCounter()
        self.stages = Stages() if stages else None
        self.segments: dict[str, dict[str, Any]] = {}
        self._segment: tuple[str, float, float, Stages | None] | None = None
        self._errors_at_mark = 0
        self._monitor: asyncio.Task | None = None
        self._lags: list[float] = []
        self._pool_in_use: list[int] = []

    async def up(self) -> None:
        logging.getLogger().addHandler(self.errors)
        self.store = await Store.open(self.db_url)
        self.service = GameService(self.store, games=default_games(), computer_delay=0.0, tick=0.5)
        # The production limiter against a fake that enforces Telegram's limits; --lab: no
        # throttling on either side (the bot's own cost, not Telegram's budgets).
        limiter = (AIORateLimiter(overall_max_rate=0, group_max_rate=0, max_retries=3)
                   if self.lab else None)
        self.adapter = TelegramAdapter(
            self.service, self.token, base_url=self.base_url, rate_limiter=limiter,
            poll_timeout=1,
        )
        if self.stages is not None:
            self._instrument()
        await self.adapter.start()
        await self.service.start()
        if self.stages is not None:
            self._monitor = asyncio.create_task(self._watch())

    async def _watch(self, every: float = 0.02) -> None:
        """Event-loop lag (how late a 20 ms sleep wakes up) and DB connections checked out."""
        loop = asyncio.get_running_loop()
        pool = self.store.engine.sync_engine.pool if self.store else None
        while True:
            t0 = loop.time()
            await asyncio.sleep(every)
            self._lags.append((loop.time() - t0 - every) * 1000)
            if pool is not None and hasattr(pool, "checkedout"):
                self._pool_in_use.append(pool.checkedout())

    async def down(self) -> None:
        self.mark("shutdown")
        if self._monitor is not None:
            self._monitor.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await self._monitor
        if self.service:  # first: a computer's move delivered through a stopped adapter fails
            await self.service.stop()
        if self.adapter:
            await self.adapter.stop()
        if self.store:
            await self.store.close()
        self.mark(None)
        logging.getLogger().removeHandler(self.errors)

    def mark(self, name: str | None) -> None:
        """End the current segment (CPU seconds, stage times) and start `name`."""
        now_cpu = _cpu_seconds()
        now = time.monotonic()
        if self._segment is not None:
            label, cpu0, t0, stages = self._segment
            lags = sorted(self._lags)
            pool = sorted(self._pool_in_use)
            self.segments[label] = {
                "cpu_s": round(now_cpu - cpu0, 3),
                "wall_s": round(now - t0, 3),
                "errors": self.errors.count - self._errors_at_mark,
                "stages": stages.summary() if stages is not None else None,
                "loop_lag_ms": {"median": round(lags[len(lags) // 2], 1),
                                "p95": round(lags[int(0.95 * (len(lags) - 1))], 1),
                                "max": round(lags[-1], 1)} if lags else None,
                "db_connections_in_use": {"median": pool[len(pool) // 2],
                                          "p95": pool[int(0.95 * (len(pool) - 1))],
                                          "max": pool[-1]} if pool else None,
            }
        self._segment = None
        self._errors_at_mark = self.errors.count
        self._lags, self._pool_in_use = [], []
        if name is not None:
            if self.stages is not None:
                self.stages.data = {}
            self._segment = (name, now_cpu, now, self.stages)

    def _instrument(self) -> None:
        """Time the stages of the press path (monkeypatching this process's objects only)."""
        from bot.core import record as record_module
        from bot.games.rummy import screens
        from engine.rummy import state as state_module

        st = self.stages
        assert st is not None and self.service and self.store and self.adapter
        st.wrap_async(self.service, "press", "service.press (load+engine+commit)", set_kind=True)
        st.wrap_async(self.service, "get_refs", "deliver: get_refs")
        st.wrap_async(self.service, "save_refs", "deliver: save_refs")
        for name in ("get_game", "save_game", "set_seats", "player", "record_round",
                     "record_result", "active_game"):
            st.wrap_async(self.store, name, f"store.{name}")
        st.wrap_async(self.adapter, "deliver", "deliver (total)")
        self.service.deliverers["telegram"] = self.adapter.deliver
        from telegram.ext import CallbackQueryHandler

        for handlers in self.adapter.app.handlers.values():
            for handler in handlers:
                if isinstance(handler, CallbackQueryHandler):
                    st.wrap_async(handler, "callback", "on_button (total)")
        from bot.core import lobby

        for name in ("render_private", "render_table", "render_scores"):
            st.wrap_sync(screens, name, f"render: {name}")
        st.wrap_sync(lobby, "render_lobby", "render: render_lobby")
        for name in ("private_screen", "table_screen"):
            st.wrap_sync(screens, name, f"screens.{name} (no picture)")
        record_cls = record_module.Record
        st.wrap_sync(record_cls, "to_dict", "state: Record.to_dict")
        st.wrap_sync(record_cls, "from_dict", "state: Record.from_dict", classmethod_=True)
        state_cls = state_module.GameState
        st.wrap_sync(state_cls, "to_dict", "state: GameState.to_dict")
        st.wrap_sync(state_cls, "from_dict", "state: GameState.from_dict", classmethod_=True)


def _cpu_seconds() -> float:
    usage = resource.getrusage(resource.RUSAGE_SELF)  # all threads of this process
    return usage.ru_utime + usage.ru_stime


async def serve(args: argparse.Namespace) -> None:
    bot = BotUnderTest(args.base_url, args.token, args.db, stages=args.stages, lab=args.lab)
    await bot.up()
    print("READY", flush=True)
    loop = asyncio.get_running_loop()
    reader = asyncio.StreamReader()
    await loop.connect_read_pipe(lambda: asyncio.StreamReaderProtocol(reader), sys.stdin)
    while True:
        line = (await reader.readline()).decode().strip()
        if not line or line == "stop":
            break
        if line.startswith("mark "):
            bot.mark(line[5:])
            print("OK", flush=True)
    await bot.down()
    report = {"segments": bot.segments, "errors": bot.errors.count,
              "error_samples": bot.errors.first}
    print("STATS " + json.dumps(report), flush=True)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--base-url", required=True)
    parser.add_argument("--token", required=True)
    parser.add_argument("--db", required=True)
    parser.add_argument("--stages", action="store_true")
    parser.add_argument("--lab", action="store_true")
    args = parser.parse_args()
    logging.basicConfig(level=logging.WARNING, stream=sys.stderr)
    event_loop.run(serve(args))  # as `rummy run` does


if __name__ == "__main__":
    main()
