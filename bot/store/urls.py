"""Which database: an explicit URL, else `DATABASE_URL`, else a SQLite file under ./data/."""

from __future__ import annotations

import os
from pathlib import Path

from sqlalchemy.engine import URL, make_url

DEFAULT_URL = "sqlite+aiosqlite:///data/rummy.db"


def database_url(url: str | URL | None = None) -> URL:
    """The URL to use, normalised to an async driver (asyncpg or aiosqlite)."""
    raw = url or os.environ.get("DATABASE_URL", "").strip() or DEFAULT_URL
    return normalise_url(raw)


def normalise_url(raw: str | URL) -> URL:
    """postgres://, postgresql://, postgresql+<driver>:// -> asyncpg; sqlite:// -> aiosqlite.

    >>> normalise_url("postgres://u:p@db/rummy").render_as_string(hide_password=False)
    'postgresql+asyncpg://u:p@db/rummy'
    """
    url = make_url(raw)
    backend = url.get_backend_name()
    if backend in ("postgres", "postgresql"):
        url = url.set(drivername="postgresql+asyncpg")
        # libpq's `sslmode=require` (Heroku, Render…) is spelled `ssl=` by asyncpg.
        if "sslmode" in url.query:
            query = dict(url.query)
            query["ssl"] = query.pop("sslmode")
            url = url.set(query=query)
        return url
    if backend == "sqlite":
        return url.set(drivername="sqlite+aiosqlite")
    raise ValueError(
        f"unsupported database URL {url.render_as_string()!r}: use postgresql://… or sqlite:///…"
    )


def sqlite_file(url: URL) -> Path | None:
    """The file behind a SQLite URL, or None for memory databases and other backends."""
    if url.get_backend_name() != "sqlite":
        return None
    database = url.database or ""
    if database in ("", ":memory:") or database.startswith("file:"):
        return None
    return Path(database)


def ensure_sqlite_dir(url: URL) -> None:
    """Create the folder for a SQLite file (e.g. ./data/) so the first run just works."""
    path = sqlite_file(url)
    if path is not None:
        path.parent.mkdir(parents=True, exist_ok=True)
