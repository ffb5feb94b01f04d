"""Durable jobs on PostgreSQL: computer turns and turn timers are rows of `jobs`, claimed with
a lease by whichever worker is alive. Two schedulers in two real processes: every timer fires
once, every reminder is sent once; a worker killed with kill -9 while it holds a job leaves it
to the other, which runs it within seconds. (SQLite keeps the one-process scheduler: the rest
of the suite.)

Run as `python tests/test_jobs.py URL LOG` it is one such worker: the game service with its
job scheduler, every delivered outcome and every job it runs written to LOG as JSON lines."""

from __future__ import annotations

import asyncio
import json
import os
import signal
import sys
import time
from pathlib import Path

import pytest
from sqlalchemy.engine import make_url
from store_fixtures import _pg_truncate

from bot import event_loop
from bot.core.record import Record
from bot.core.service import Actor, GameService, pack
from bot.games import default_games
from bot.store import Store

HERE = Path(__file__).resolve()
TURN = 2  # seconds of a turn: a reminder after 1 s, the time-out after 2
GAMES = 4
TIMEOUTS = 2 * 3  # two people, each taken over after 3 time-outs: then the game closes


# -- the worker (a child process) ---------------------------------------------------------


async def worker(url: str, log_path: str) -> None:
    store = await Store.open(url)
    service = GameService(store, games=default_games(), computer_delay=0.05, tick=0.1)
    out = open(log_path, "a", buffering=1)  # noqa: SIM115 (lives as long as the process)

    def write(entry: dict) -> None:
        out.write(json.dumps({"pid": os.getpid(), "t": time.time(), **entry}) + "\n")

    async def deliver(outcome) -> None:
        write(
            {
                "game": outcome.game_id,
                "rev": outcome.revision,
                "notes": [n.text for n in outcome.notes],
                "private_notes": list(outcome.private_notes.values()),
            }
        )

    service.register("test", deliver)
    service.scheduler.on_job = lambda kind, gid, due, ran: write(
        {"job": kind, "game": gid, "due": due, "ran": ran}
    )
    stop = asyncio.Event()
    asyncio.get_running_loop().add_signal_handler(signal.SIGTERM, stop.set)
    await service.start()
    print("ready", service.scheduler.owner, flush=True)
    await stop.wait()
    await service.stop()
    await store.close()


# -- the test -------------------------------------------------------------------------------


class Workers:
    def __init__(self, url: str, tmp: Path) -> None:
        self.url, self.tmp = url, tmp
        self.procs: list[asyncio.subprocess.Process] = []
        self.owners: list[str] = []

    async def start(self, n: int) -> None:
        for i in range(n):
            proc = await asyncio.create_subprocess_exec(
                sys.executable,
                str(HERE),
                self.url,
                str(self.tmp / f"w{i}.log"),
                stdout=asyncio.subprocess.PIPE,
            )
            self.procs.append(proc)
        for proc in self.procs:
            line = await asyncio.wait_for(proc.stdout.readline(), 60)
            assert line.startswith(b"ready"), line
            self.owners.append(line.split()[1].decode())

    async def stop(self) -> None:
        for proc in self.procs:
            if proc.returncode is None:
                proc.send_signal(signal.SIGTERM)
        for proc in self.procs:
            try:
                await asyncio.wait_for(proc.wait(), 20)
            except TimeoutError:
                proc.kill()

    def log(self) -> list[dict]:
        return [
            json.loads(line)
            for path in sorted(self.tmp.glob("w*.log"))
            for line in path.read_text().splitlines()
            if line.strip()
        ]


async def _two_person_game(store: Store, n: int) -> int:
    """A Machiavelli game of two people who never press: the timers play it to its end."""
    # no scheduler started here: the workers do the work
    service = GameService(store, games=default_games())
    alice = Actor("test", f"-{n}", "1", "Alice")
    bob = Actor("test", f"-{n}", "2", "Bob")
    gid = (await service.new_game(alice, "machiavelli")).game_id
    row = await store.get_game(gid)
    await service.press(bob, pack(gid, row.record.get("lobby_version", 0), "join"))
    row = await store.get_game(gid)
    record = dict(row.record, turn_seconds=TURN)
    row = await store.save_game(gid, record, expected_version=row.version)
    out = await service.press(alice, pack(gid, row.record.get("lobby_version", 0), "start"))
    assert not out.alert, out.reply
    return gid


async def _all_over(store: Store, games: list[int], timeout: float) -> None:
    end = time.monotonic() + timeout
    while True:
        rows = [await store.get_game(g) for g in games]
        if all(r.status != "playing" for r in rows):
            return
        assert time.monotonic() < end, [(r.id, r.status) for r in rows]
        await asyncio.sleep(0.2)


def _check_once(
    log: list[dict], games: list[int], records: dict[int, Record], lost: int = 0
) -> None:
    """One "time ran out" per time-out and one reminder per turn, each delivered once."""
    for gid in games:
        timeouts = sum(s.timeouts for s in records[gid].seats)
        assert timeouts == TIMEOUTS, (gid, timeouts)
        ran_out = [
            e
            for e in log
            if e.get("game") == gid and any("time ran out" in n for n in e.get("notes", []))
        ]
        revs = [e["rev"] for e in ran_out]
        assert len(revs) == len(set(revs)), f"game {gid}: a time-out delivered twice: {revs}"
        assert TIMEOUTS - lost <= len(revs) <= TIMEOUTS, (gid, revs)
        reminders = [e for e in log if e.get("game") == gid and e.get("private_notes")]
        revs = [e["rev"] for e in reminders]
        assert len(revs) == len(set(revs)) and len(revs) <= TIMEOUTS, (gid, revs)
        assert len(revs) >= TIMEOUTS - lost


@pytest.fixture
async def pg_store(postgres_url: str):
    await _pg_truncate(make_url(postgres_url))
    store = await Store.open(postgres_url)
    try:
        yield store
    finally:
        await store.close()


@pytest.mark.e2e  # two worker processes on the wall clock: `make test`, not the quick loop
async def test_two_workers_fire_every_timer_exactly_once(pg_store, postgres_url, tmp_path):
    workers = Workers(postgres_url, tmp_path)
    await workers.start(2)
    try:
        games = [await _two_person_game(pg_store, n) for n in range(GAMES)]
        await _all_over(pg_store, games, timeout=60)
        await asyncio.sleep(0.5)  # the last deliveries
    finally:
        await workers.stop()
    records = {g: Record.from_dict((await pg_store.get_game(g)).record) for g in games}
    log = workers.log()
    _check_once(log, games, records)
    runs = [e for e in log if "job" in e]
    assert {e["pid"] for e in runs} == {p.pid for p in workers.procs}  # both did work
    assert not await pg_store.jobs()  # the games are over: nothing left due


@pytest.mark.e2e  # two worker processes on the wall clock: `make test`, not the quick loop
async def test_a_worker_killed_mid_job_leaves_its_work_to_the_other(
    pg_store, postgres_url, tmp_path
):
    workers = Workers(postgres_url, tmp_path)
    await workers.start(2)
    victim, survivor = workers.procs
    try:
        games = [await _two_person_game(pg_store, n) for n in range(GAMES)]
        # kill -9 the first worker the moment it holds a job's lease
        end = time.monotonic() + 30
        while not any(j.owner == workers.owners[0] for j in await pg_store.jobs()):
            assert time.monotonic() < end, "the first worker never claimed a job"
            await asyncio.sleep(0.01)
        os.kill(victim.pid, signal.SIGKILL)
        killed_at = time.time()
        await victim.wait()
        await _all_over(pg_store, games, timeout=60)
        await asyncio.sleep(0.5)
    finally:
        await workers.stop()
    records = {g: Record.from_dict((await pg_store.get_game(g)).record) for g in games}
    log = workers.log()
    # at most one outcome lost: the one the victim saved and had not delivered yet
    _check_once(log, games, records, lost=1)
    after = [e for e in log if "job" in e and e["pid"] == survivor.pid and e["ran"] > killed_at]
    assert after, "the survivor ran nothing after the kill"
    late = max(e["ran"] - e["due"] for e in after)
    print(f"after the kill: {len(after)} jobs run by the survivor, latest {late:.2f} s late")
    assert late < 10, f"a due job waited {late:.1f} s after the kill"


if __name__ == "__main__":
    event_loop.run(worker(sys.argv[1], sys.argv[2]))  # as rummy run
