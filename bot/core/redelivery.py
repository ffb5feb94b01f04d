"""Redelivery (many workers on one PostgreSQL): the screens a worker owed when it died.

A save writes its game's `deliveries` row (bot/store/outbox.py); the worker that saved marks it
done when the outcome's delivery finished. A worker killed between the commit and its sends
leaves the row, whose lease runs out; a live worker's scheduler claims it (`claim`, each tick)
and delivers the game's current screens — the group's table and each person's private screen,
edited in place — through the platform's normal delivery, which marks the row done. The
screens are of the row version read now (never older than what a message shows: the delivery
compares revisions under each message's lock); one-off notes of the lost outcome are not
rebuilt (a score board, a reminder): only the live screens are.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
from collections.abc import Awaitable, Callable
from dataclasses import replace
from typing import Any

from .lobby import lobby_screen
from .record import Record
from .unit import Unit
from .views import Outcome, Where

log = logging.getLogger(__name__)


def current_screens(unit: Unit, row: Any) -> Outcome | None:
    """The game's live screens as saved in `row`, stamped like a change's outcome, to edit the
    messages in place (no notes, nothing posted anew); None when there are none to rebuild (a
    pruned or ended game: their last screen was a one-off)."""
    if row.record.get("pruned") or row.status == "ended":
        return None
    record = Record.from_dict(row.record)
    if record.lesson and record.state is None:  # (a lesson's row a moment before it begins)
        return None
    game = unit.game_of(record)
    if record.state is None:
        out = Outcome(group=lobby_screen(game, row.id, record))
    else:
        out = game.screens(unit.table(row, record))
        out.notes, out.private_notes, out.private_new = [], {}, set()
        out.group_new = out.group_turn = False
        out.reply = None
    # (its refs: read by `_redeliver`, not in this thread)
    out.where = Where(row.id, row.platform, row.chat_id, row.version,
                      names={s.user: s.name for s in record.seats if s.user})
    return out


class Redelivery:
    """Claims the expired rows of the outbox and delivers their games' current screens."""

    def __init__(self, unit: Unit, deliver: Callable[[Outcome], Awaitable[None]]) -> None:
        self.unit = unit
        self.deliver = deliver
        self.redelivered = 0  # /metrics: outcomes this worker delivered for a dead one
        self._tasks: set[asyncio.Task[None]] = set()

    async def claim(self, now: float) -> int:
        """Claim what is owed and nobody delivers (a lease ran out), deliver it; how many."""
        outbox = getattr(self.unit.store, "outbox", None)
        if outbox is None:
            return 0
        claimed = await outbox.claim(now)
        for game_id, version in claimed:
            task = asyncio.create_task(self._redeliver(outbox, game_id, version))
            self._tasks.add(task)
            task.add_done_callback(self._tasks.discard)
        return len(claimed)

    async def _redeliver(self, outbox: Any, game_id: int, version: int) -> None:
        outcome = None
        try:
            row = await self.unit.store.get_game(game_id)
            # A newer version's row is that save's worker's to deliver (it rewrote the row)
            if row is not None and row.version == version:
                outcome = await asyncio.to_thread(current_screens, self.unit, row)
            if outcome is not None:
                outcome.where = replace(outcome.where,
                                        refs=await self.unit.store.refs(game_id))
        except Exception:
            log.exception("rebuilding the screens of game %s failed", game_id)
        if outcome is None:
            outbox.drop(game_id, version)
            return
        self.redelivered += 1
        log.info("game %s: redelivering the screens of version %s", game_id, version)
        await self.deliver(outcome)  # its delivery marks the version done when it finished

    async def stop(self) -> None:
        """Stop the redeliveries under way (what they did not finish is released with the
        rest of this worker's rows when its store closes)."""
        tasks = list(self._tasks)
        for task in tasks:
            task.cancel()
        for task in tasks:
            with contextlib.suppress(asyncio.CancelledError, Exception):
                await task
