"""The game rows of a database only this process writes, kept in memory.

SQLite is one process (README): whatever it writes goes through its `Store`, so the store can
answer `get_game` from the rows it last read or wrote — a press then costs no read round trip
(on an idle bot ~3 ms of a 12 ms press, a thread hop and a JSON decode of the row). Every save
still carries the version it was loaded at in its UPDATE's WHERE, so a copy that went stale
would be refused (StaleGame), never written over.

Only the bot's own store caches (`Store.keep_rows`, called by the game service: a tool or a
benchmark that only reads a bot's database must see its writes), and only while it holds an
exclusive `flock` on `<file>-owner`: a second bot on the same file (an operator's mistake, a
restarted test bot while the old one is open) gets no lock and reads the database every time.
"""

from __future__ import annotations

import contextlib
import fcntl
import json
import os
from collections import OrderedDict
from dataclasses import replace

from .rows import GameRow


class RowCache:
    """Up to `limit` game rows, most recently used last. A row is kept as its record's JSON
    text: every `get` hands out a record of its own (the core changes records in place)."""

    def __init__(self, limit: int = 2000) -> None:
        self.limit = limit
        self._rows: OrderedDict[int, tuple[GameRow, str]] = OrderedDict()
        self.hits = 0
        self.misses = 0

    def get(self, game_id: int) -> GameRow | None:
        found = self._rows.get(game_id)
        if found is None:
            self.misses += 1
            return None
        self.hits += 1
        self._rows.move_to_end(game_id)
        row, text = found
        return replace(row, record=json.loads(text))

    def put(self, row: GameRow, text: str | None = None) -> None:
        """Keep `row` (`text`: its record's JSON, when the caller has it)."""
        self._rows[row.id] = (replace(row, record={}),
                              json.dumps(row.record) if text is None else text)
        self._rows.move_to_end(row.id)
        while len(self._rows) > self.limit:
            self._rows.popitem(last=False)

    def forget(self, game_id: int) -> None:
        self._rows.pop(game_id, None)

    def clear(self) -> None:
        self._rows.clear()

    def __len__(self) -> int:
        return len(self._rows)

    def __contains__(self, game_id: int) -> bool:
        return game_id in self._rows


def own_file(database: str | None) -> int | None:
    """Take the exclusive owner lock of a SQLite database file: the lock file's descriptor
    (keep it open while caching; `release` it), or None when another store holds it. An
    in-memory database (None, "", ":memory:") belongs to its one connection: always owned (-1).
    """
    if not database or database == ":memory:" or database.startswith("file::memory:"):
        return -1
    fd = os.open(f"{database}-owner", os.O_RDWR | os.O_CREAT, 0o644)
    try:
        fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
    except OSError:
        os.close(fd)
        return None
    return fd


def release(fd: int | None) -> None:
    if fd is not None and fd >= 0:
        with contextlib.suppress(OSError):
            os.close(fd)  # the flock goes with the descriptor
