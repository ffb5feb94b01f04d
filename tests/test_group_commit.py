"""Group commit (bot/store/group_commit.py, issue 38): saves that arrive together share one
transaction, each answered only after its COMMIT; one that fails is taken out and the rest
written without it. The queue on a fake transaction (what happens in which order), then the
store's saves on SQLite and PostgreSQL (store_fixtures.py)."""

from __future__ import annotations

import asyncio
import contextlib
from collections.abc import AsyncIterator

from bot.store import GameRow, StaleGame, Store
from bot.store.group_commit import GroupCommit

pytest_plugins = ["store_fixtures"]


class Fake:
    """A transaction that writes down what it was asked: begin, each work, commit/rollback."""

    def __init__(self, commit_fails: bool = False) -> None:
        self.events: list[str] = []
        self.commit_fails = commit_fails

    @contextlib.asynccontextmanager
    async def begin(self) -> AsyncIterator[Fake]:
        self.events.append("begin")
        try:
            yield self
        except BaseException:
            self.events.append("rollback")
            raise
        await asyncio.sleep(0)  # (a real commit waits on the driver's thread)
        if self.commit_fails:
            self.events.append("commit failed")
            raise OSError("disk gone")
        self.events.append("commit")


def save(name: str, fails: bool = False):
    async def work(conn: Fake) -> str:
        conn.events.append(name)
        if fails:
            raise ValueError(name)
        return name.upper()
    return work


async def _acked(group: GroupCommit, fake: Fake, name: str, fails: bool = False) -> str:
    result = await group.run(save(name, fails))
    fake.events.append(f"acked {name}")
    return result


async def test_saves_arriving_together_share_one_commit_and_are_answered_after_it() -> None:
    fake = Fake()
    group = GroupCommit(fake.begin)
    results = await asyncio.gather(*(_acked(group, fake, n) for n in "abcde"))
    assert results == list("ABCDE")
    assert (group.batches, group.saves) == (1, 5)
    commit = fake.events.index("commit")
    assert fake.events[:commit] == ["begin", *"abcde"]
    assert sorted(fake.events[commit + 1:]) == [f"acked {n}" for n in "abcde"]


async def test_a_save_alone_is_written_at_once_and_the_next_batch_takes_the_waiting() -> None:
    fake = Fake()
    group = GroupCommit(fake.begin)
    first = asyncio.create_task(_acked(group, fake, "a"))
    await asyncio.sleep(0)  # the leader started a's transaction: b, c arrive while it is written
    later = [asyncio.create_task(_acked(group, fake, n)) for n in "bc"]
    await asyncio.gather(first, *later)
    assert fake.events[:3] == ["begin", "a", "commit"]
    assert fake.events.count("begin") == 2 and group.batches == 2
    assert fake.events.index("commit", 3) < fake.events.index("acked b")


async def test_a_failing_save_is_taken_out_and_the_others_written_without_it() -> None:
    fake = Fake()
    group = GroupCommit(fake.begin)
    outcomes = await asyncio.gather(
        _acked(group, fake, "a"), _acked(group, fake, "b", fails=True), _acked(group, fake, "c"),
        return_exceptions=True)
    assert outcomes[0] == "A" and outcomes[2] == "C"
    assert isinstance(outcomes[1], ValueError)
    assert fake.events[:6] == ["begin", "a", "b", "rollback", "begin", "a"]
    assert fake.events[6:8] == ["c", "commit"]
    assert "acked b" not in fake.events


async def test_a_failed_commit_fails_every_save_of_it() -> None:
    fake = Fake(commit_fails=True)
    group = GroupCommit(fake.begin)
    outcomes = await asyncio.gather(*(_acked(group, fake, n) for n in "ab"),
                                    return_exceptions=True)
    assert all(isinstance(o, OSError) for o in outcomes)
    assert not [e for e in fake.events if e.startswith("acked")]


async def test_the_stores_saves_of_many_games_at_once(store: Store) -> None:
    """Each game saved, versions one up; on SQLite in fewer transactions than saves, a stale
    one among them refused alone."""
    games = [await store.create_game("telegram", f"g{n}", {"n": 0}) for n in range(8)]
    outcomes = await asyncio.gather(
        *(store.save_game(g.id, {"n": 1}, expected_version=1 if n != 3 else 7)
          for n, g in enumerate(games)), return_exceptions=True)
    assert isinstance(outcomes[3], StaleGame)
    assert all(isinstance(o, GameRow) and o.version == 2 for n, o in enumerate(outcomes)
               if n != 3)
    for n, game in enumerate(games):
        row = await store.get_game(game.id)
        assert (row.version, row.record) == ((1, {"n": 0}) if n == 3 else (2, {"n": 1}))
    if store.engine.dialect.name == "sqlite":
        group = store._group[1]
        assert group.saves == 7 and group.batches < 7
