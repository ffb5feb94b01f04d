"""Group commit (issue 38): saves that arrive while a transaction is being written share the
next one, so a burst of drag edits and presses pays one BEGIN and one COMMIT instead of one
each. Each save is still acknowledged only after the commit that holds it returned.

SQLite has one writer: while a batch is written (its statements wait on the driver's thread),
the next saves queue here, and the batch after takes them all — no timer, no added wait
for a save that comes alone. A save is a function of the connection (`work(conn)`), so when
one raises, the transaction is rolled back and the others are written again without it
(its caller gets its error, nothing of it is written).
"""

from __future__ import annotations

import asyncio
import contextlib
from collections.abc import Awaitable, Callable
from typing import Any, TypeVar

from sqlalchemy.ext.asyncio import AsyncConnection

T = TypeVar("T")
Work = Callable[[AsyncConnection], Awaitable[Any]]
Begin = Callable[[], contextlib.AbstractAsyncContextManager[AsyncConnection]]

MAX_BATCH = 64  # saves in one transaction: bounds the rollback-and-redo a failing one costs


class GroupCommit:
    """One queue of saves per store and event loop; `begin()` opens a write transaction
    (the store's gate: other writers still go one at a time with the batches)."""

    def __init__(self, begin: Begin) -> None:
        self.begin = begin
        self.queue: list[tuple[Work, asyncio.Future[Any]]] = []
        self.leader: asyncio.Task[None] | None = None
        self.batches = 0  # transactions written (the tests and the bench read them)
        self.saves = 0

    async def run(self, work: Callable[[AsyncConnection], Awaitable[T]]) -> T:
        """`work` written in a transaction with whatever saves arrived with it; its result
        once that transaction committed."""
        future: asyncio.Future[T] = asyncio.get_running_loop().create_future()
        self.queue.append((work, future))
        if self.leader is None or self.leader.done():
            # its own task: a caller cancelled must not strand the others' acknowledgements
            self.leader = asyncio.create_task(self._lead())
        return await asyncio.shield(future)

    async def _lead(self) -> None:
        try:
            while self.queue:
                batch, self.queue = self.queue[:MAX_BATCH], self.queue[MAX_BATCH:]
                await self._write(batch)
        except BaseException as error:  # (the loop closing): nobody waits for ever
            for _work, future in self.queue:
                if not future.done():
                    future.set_exception(error if isinstance(error, Exception)
                                         else RuntimeError("group commit stopped"))
            self.queue = []
            raise

    async def _write(self, batch: list[tuple[Work, asyncio.Future[Any]]]) -> None:
        """The batch in one transaction; a save that raises is taken out and the rest redone."""
        while batch:
            results: list[Any] = []
            failed: int | None = None
            error: BaseException | None = None
            try:
                async with self.begin() as conn:
                    for n, (work, _future) in enumerate(batch):
                        try:
                            results.append(await work(conn))
                        except Exception as raised:
                            failed, error = n, raised
                            raise
            except Exception as raised:
                if failed is None:  # BEGIN or COMMIT failed: nothing of the batch is written
                    for _work, future in batch:
                        if not future.done():
                            future.set_exception(raised)
                    return
                future = batch[failed][1]
                if not future.done():
                    future.set_exception(error or raised)
                batch = batch[:failed] + batch[failed + 1:]
                continue
            except BaseException as raised:  # cancelled mid-transaction: rolled back
                for _work, future in batch:
                    if not future.done():
                        future.set_exception(RuntimeError("save interrupted"))
                raise raised from None
            self.batches += 1
            self.saves += len(batch)
            for (_work, future), result in zip(batch, results, strict=True):
                if not future.done():
                    future.set_result(result)
            return
