"""Store benchmark: the cost of one save_game, small game row vs one carrying a long action log.

    .venv/bin/python bench/rows.py               # SQLite (a temp file): a readable table
    .venv/bin/python bench/rows.py --pg          # ... and PostgreSQL (a scratch database)
    .venv/bin/python bench/rows.py --json        # ... and, as the last line, one JSON object
    .venv/bin/python bench/rows.py --saves 300 --pg-url postgresql://postgres@127.0.0.1/test

The records are a real game's: three easy computers play Carousel (seed 1) to the end; the
record (the core's shape: settings, seats, engine state, UI, log) is taken after its 1st
action ("turn 1") and after its 1,000th ("1000 actions"). Two shapes of the same game:

- old: the action log inside the record (`state["actions"]`), so every save rewrites it whole;
- new: `state["actions"]` is [] in the record and each save appends its one new action to
  game_actions (`save_game(..., actions=[...])`); for "1000 actions" the table already holds
  the game's 1,000 actions.

Each row: median and p90 of `--saves` consecutive saves of one game (each a real transaction,
committed; the record changes a little every time), the median `get_game` (every press loads
the row), and the row's record size in JSON. Ratios: old/new at 1000 actions. Timings are wall
clock on a shared machine: compare rows of one run, not single figures across runs.

Message ids (the second table): a press loads the game, a delivery of the previous outcome saves
a message id, then the press saves (the 1000-action game, log out of the record), `--saves`
times. Two places for the ids: "record" (before migration 0007: `refs` inside the record; the id
save was a load and a whole-record save bumping the version on SQLite, a jsonb_set UPDATE of the
game row on PostgreSQL) and "table" (`delivery_refs`, `Store.patch_refs`: the game row untouched).
Medians of the id save and of the press's save (a press gone stale reloads and saves again,
counted), ratios record/table; on PostgreSQL also the id save made while a press holds the
game's row for PRESS_HOLDS (before 0007 it waited for the press's commit).
"""

from __future__ import annotations

import argparse
import asyncio
import copy
import json
import secrets
import statistics
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from sqlalchemy import text

from bot.store import StaleGame, Store
from engine.rummy import get_rulebook
from engine.rummy.playout import play_game

PG_ADMIN = "postgresql://postgres@127.0.0.1:5432/test"
MARKS = (1, 1000)  # actions played when the record is taken
CLOCK = time.perf_counter


def game_states() -> dict[int, dict[str, Any]]:
    """The engine state (to_dict) after each of MARKS actions of one real game."""
    taken: dict[int, dict[str, Any]] = {}
    count = 0

    def on_action(_before: Any, _action: Any, after: Any) -> None:
        nonlocal count
        count += 1
        if count in MARKS:
            taken[count] = copy.deepcopy(after.to_dict())

    play_game(get_rulebook("carousel"), ["easy"] * 3, 1, check=False, on_action=on_action)
    missing = [m for m in MARKS if m not in taken]
    if missing:
        raise SystemExit(f"the benchmark game ended before {missing} actions")
    return taken


def core_record(state: dict[str, Any]) -> dict[str, Any]:
    """The core's record around an engine state (bot/core/record.py's shape)."""
    seats = [
        {"name": f"Player {i}", "user": str(1000 + i), "player_id": i + 1, "computer": None,
         "timeouts": 0, "was_human": False}
        for i in range(state["players"])
    ]
    ui = {
        str(i): {"selected": [], "mode": "main", "sort": "", "page": 0, "notice": "",
                 "game": {}}
        for i in range(state["players"])
    }
    return {
        "rulebook": state["rulebook"], "options": dict(state["options"]), "host": "1000",
        "seats": seats, "state": state, "ui": ui, "turn_seconds": 180,
        "deadline": time.time() + 180, "warned": False,
        "log": [f"Player {i % 3} drew a card." for i in range(20)],
        "ended": False, "seed": 1, "lesson": None, "lobby_version": 3,
    }


async def measure(
    store: Store, chat: str, record: dict[str, Any], log: list[dict], new: bool, saves: int
) -> dict[str, Any]:
    """Time `saves` saves of one game; `new`: log out of the record, one action appended each."""
    record = copy.deepcopy(record)
    actions = record["state"]["actions"]
    if new:
        record["state"]["actions"] = []
    row = await store.create_game("telegram", chat, record, status="playing")
    if new and log:
        row = await store.save_game(row.id, record, expected_version=row.version, actions=log)
    times = []
    for n in range(saves):
        record["state"]["version"] += 1  # what a press changes, roughly
        record["ui"]["0"]["page"] = n % 3
        action = actions[n % len(actions)]
        started = CLOCK()
        row = await store.save_game(
            row.id, record, expected_version=row.version,
            actions=[action] if new else (), due_at=time.time() + 180,
        )
        times.append(CLOCK() - started)
    loads = []
    for _ in range(max(10, saves // 4)):
        started = CLOCK()
        await store.get_game(row.id)
        loads.append(CLOCK() - started)
    times.sort()
    return {
        "save_ms": round(statistics.median(times) * 1000, 3),
        "save_p90_ms": round(times[int(len(times) * 0.9) - 1] * 1000, 3),
        "load_ms": round(statistics.median(loads) * 1000, 3),
        "record_bytes": len(json.dumps(record, separators=(",", ":")).encode()),
        "log_rows": len(await store.game_actions(row.id)),
    }


async def id_save_in_record(store: Store, game_id: int, patch: dict[str, Any]) -> None:
    """How a message id was saved before migration 0007 (bot/core/unit.py, store.patch_refs)."""
    if store.row_locks:
        async with store.engine.begin() as conn:
            await conn.execute(
                text("UPDATE games SET record = jsonb_set(record, '{refs}', coalesce("
                     "record->'refs', '{}'::jsonb) || CAST(:patch AS jsonb)) WHERE id = :id"),
                {"patch": json.dumps(patch), "id": game_id},
            )
        return
    row = await store.get_game(game_id)
    record = {**row.record, "refs": {**row.record.get("refs", {}), **patch}}
    await store.save_game(game_id, record, expected_version=row.version)


PRESS_HOLDS = 0.1  # s a press's change holds its game's row (PostgreSQL) in the held case


async def id_save_during_press(store: Store, game_id: int, where: str, n: int) -> float:
    """Seconds a message id's save takes while a press holds the game's row for PRESS_HOLDS."""
    holding, done = asyncio.Event(), asyncio.Event()

    async def press() -> None:
        async with store.hold(game_id):
            holding.set()
            await asyncio.sleep(PRESS_HOLDS)
        done.set()

    task = asyncio.create_task(press())
    await holding.wait()
    patch = {"table": 300000 + n, "table:at": time.time()}
    started = CLOCK()
    if where == "record":
        await id_save_in_record(store, game_id, patch)
    else:
        await store.patch_refs(game_id, patch)
    took = CLOCK() - started
    await task
    return took


async def measure_ids(
    store: Store, record: dict[str, Any], log: list[dict], saves: int
) -> dict[str, dict[str, Any]]:
    """Load, save a message id, save the press — `saves` times for a game keeping its ids in
    the record and one keeping them in the table, alternating (the machine's noise hits both)."""
    games, rows, stats = {}, {}, {}
    for where in ("record", "table"):
        mine = copy.deepcopy(record)
        mine["state"]["actions"] = []
        if where == "record":
            mine["refs"] = {"table": 123456, "table:at": time.time(), "p:1000": 7, "p:1001": 8}
        row = await store.create_game("telegram", f"ids-{where}", mine, status="playing")
        rows[where] = await store.save_game(row.id, mine, expected_version=row.version,
                                            actions=log)
        games[where] = row.id
        stats[where] = {"ids": [], "presses": [], "stale": 0}
    actions = record["state"]["actions"]
    for n in range(saves):
        for where in ("record", "table") if n % 2 else ("table", "record"):
            game_id, st = games[where], stats[where]
            loaded = await store.get_game(game_id)
            patch = {"table": 200000 + n, "table:at": time.time()}
            started = CLOCK()
            if where == "record":
                await id_save_in_record(store, game_id, patch)
            else:
                await store.patch_refs(game_id, patch)
            st["ids"].append(CLOCK() - started)
            ui = {**loaded.record["ui"], "0": {**loaded.record["ui"]["0"], "page": n % 3}}
            action = [actions[n % len(actions)]]
            started = CLOCK()
            try:
                rows[where] = await store.save_game(
                    game_id, {**loaded.record, "ui": ui}, expected_version=loaded.version,
                    actions=action)
            except StaleGame:  # the id save moved the version on: load and save again
                st["stale"] += 1
                loaded = await store.get_game(game_id)
                rows[where] = await store.save_game(
                    game_id, {**loaded.record, "ui": ui}, expected_version=loaded.version,
                    actions=action)
            st["presses"].append(CLOCK() - started)
    if store.row_locks:  # a message id saved while a press holds the game's row (its change)
        for n in range(max(10, saves // 3)):
            for where in ("record", "table") if n % 2 else ("table", "record"):
                stats[where].setdefault("held", []).append(
                    await id_save_during_press(store, games[where], where, n))
    out = {}
    for where, st in stats.items():
        presses = sorted(st["presses"])
        out[where] = {
            "id_save_ms": round(statistics.median(st["ids"]) * 1000, 3),
            "press_save_ms": round(statistics.median(presses) * 1000, 3),
            "press_p90_ms": round(presses[int(len(presses) * 0.9) - 1] * 1000, 3),
            "stale": st["stale"],
            "version_bumps": rows[where].version,  # the game's version after the presses
        }
        if "held" in st:
            out[where]["id_save_held_ms"] = round(statistics.median(st["held"]) * 1000, 3)
    return out


async def run_backend(url: str, states: dict[int, dict[str, Any]], saves: int) -> dict:
    store = await Store.open(url)
    out: dict[str, Any] = {}
    try:
        for mark, state in states.items():
            record = core_record(state)
            for shape in ("old", "new"):
                log = state["actions"] if shape == "new" else []
                out[f"{mark}/{shape}"] = await measure(
                    store, f"{mark}-{shape}", record, log, shape == "new", saves
                )
        last = states[MARKS[-1]]
        ids = await measure_ids(store, core_record(last), last["actions"], saves)
        out.update({f"ids/{where}": figures for where, figures in ids.items()})
    finally:
        await store.close()
    return out


async def scratch_pg(admin: str) -> tuple[str, str]:
    import asyncpg

    name = f"rummy_bench_{secrets.token_hex(4)}"
    conn = await asyncpg.connect(admin, timeout=5)
    try:
        await conn.execute(f'CREATE DATABASE "{name}"')
    finally:
        await conn.close()
    return name, admin.rsplit("/", 1)[0] + "/" + name


async def drop_pg(admin: str, name: str) -> None:
    import asyncpg

    conn = await asyncpg.connect(admin, timeout=5)
    try:
        await conn.execute(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)')
    finally:
        await conn.close()


def print_table(figures: dict[str, dict[str, dict[str, Any]]], saves: int) -> None:
    print(f"save_game: median / p90 of {saves} saves of one game; load = median get_game")
    ids = {b: {k: v for k, v in rows.items() if k.startswith("ids/")}
           for b, rows in figures.items()}
    figures = {b: {k: v for k, v in rows.items() if not k.startswith("ids/")}
               for b, rows in figures.items()}
    head = f"{'backend':<11}{'game':<14}{'shape':<6}{'record':>10}{'log rows':>10}"
    head += f"{'save ms':>10}{'p90 ms':>9}{'load ms':>9}"
    print(head)
    print("-" * len(head))
    for backend, rows in figures.items():
        for key, f in rows.items():
            mark, shape = key.split("/")
            game = "turn 1" if mark == "1" else f"{mark} actions"
            size = f"{f['record_bytes'] / 1024:.1f} KiB"
            print(
                f"{backend:<11}{game:<14}{shape:<6}{size:>10}{f['log_rows']:>10}"
                f"{f['save_ms']:>10.2f}{f['save_p90_ms']:>9.2f}{f['load_ms']:>9.2f}"
            )
        old, new = rows[f"{MARKS[-1]}/old"], rows[f"{MARKS[-1]}/new"]
        print(
            f"{'':<11}at {MARKS[-1]} actions: save old/new {old['save_ms'] / new['save_ms']:.1f}x,"
            f" load old/new {old['load_ms'] / new['load_ms']:.1f}x,"
            f" record old/new {old['record_bytes'] / new['record_bytes']:.0f}x"
        )
    print()
    print(f"message ids: median of {saves} (load, id save, press save); ids kept in the…")
    head = f"{'backend':<11}{'ids in':<8}{'id save ms':>11}{'press ms':>10}{'p90 ms':>9}"
    head += f"{'stale':>7}{'version':>9}"
    print(head)
    print("-" * len(head))
    for backend, rows in ids.items():
        for key, f in rows.items():
            print(f"{backend:<11}{key.split('/')[1]:<8}{f['id_save_ms']:>11.2f}"
                  f"{f['press_save_ms']:>10.2f}{f['press_p90_ms']:>9.2f}{f['stale']:>7}"
                  f"{f['version_bumps']:>9}")
        old, new = rows["ids/record"], rows["ids/table"]
        print(f"{'':<11}record/table: id save {old['id_save_ms'] / new['id_save_ms']:.1f}x,"
              f" press save {old['press_save_ms'] / new['press_save_ms']:.2f}x")
        if "id_save_held_ms" in new:
            print(f"{'':<11}id save while a press holds the row {PRESS_HOLDS * 1000:.0f} ms:"
                  f" record {old['id_save_held_ms']:.2f} ms, table {new['id_save_held_ms']:.2f}"
                  f" ms ({old['id_save_held_ms'] / new['id_save_held_ms']:.1f}x)")


async def main_async(args: argparse.Namespace) -> dict[str, Any]:
    started = time.monotonic()
    states = game_states()
    figures: dict[str, Any] = {}
    with tempfile.TemporaryDirectory() as tmp:
        figures["sqlite"] = await run_backend(
            f"sqlite+aiosqlite:///{Path(tmp) / 'bench.db'}", states, args.saves
        )
    if args.pg:
        name, url = await scratch_pg(args.pg_url)
        try:
            figures["postgresql"] = await run_backend(url, states, args.saves)
        finally:
            await drop_pg(args.pg_url, name)
    print_table(figures, args.saves)
    out = {"saves": args.saves, "wall_s": round(time.monotonic() - started, 1), **figures}
    for backend in figures:
        old, new = figures[backend][f"{MARKS[-1]}/old"], figures[backend][f"{MARKS[-1]}/new"]
        out[f"{backend}_save_ratio_old_new_{MARKS[-1]}"] = round(
            old["save_ms"] / new["save_ms"], 2
        )
        kept, table = figures[backend]["ids/record"], figures[backend]["ids/table"]
        out[f"{backend}_id_save_ratio_record_table"] = round(
            kept["id_save_ms"] / table["id_save_ms"], 2
        )
        out[f"{backend}_press_save_ratio_record_table"] = round(
            kept["press_save_ms"] / table["press_save_ms"], 2
        )
        if "id_save_held_ms" in table:
            out[f"{backend}_id_save_held_ratio_record_table"] = round(
                kept["id_save_held_ms"] / table["id_save_held_ms"], 2
            )
    print(f"wall {out['wall_s']} s")
    return out


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--saves", type=int, default=150, help="saves timed per row")
    parser.add_argument("--pg", action="store_true", help="also PostgreSQL (scratch database)")
    parser.add_argument("--pg-url", default=PG_ADMIN, help="server for --pg's scratch database")
    parser.add_argument("--json", action="store_true", help="one JSON object on the last line")
    args = parser.parse_args()
    out = asyncio.run(main_async(args))
    if args.json:
        print(json.dumps(out))


if __name__ == "__main__":
    main()
