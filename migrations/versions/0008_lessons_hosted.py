"""lessons hosted: a rummy lesson is a variant of the hosted rummy game

Revision ID: 0008
Revises: 0007
Create Date: 2026-12-03

Until now a lesson row kept its record's `state` None (so the game service left it alone) and
its progress in `record["lesson"]` = {"kind": "lesson", "progress": LessonState, "ui":
{selected, mode, notice, last}, "ver": n}, played by a lesson service of its own. Now a lesson is
a rummy game row like any other (bot/games/rummy/lesson_host.py): `rulebook` "lesson", `options`
{"lesson": <name>}, the hosted state {"progress": …, "ver": n, "last": {…}}, the selection, menu
and notice in the learner's seat UI (`ui["0"]`), and `record["lesson"]` = {"form": 2}, the
platform's mark of a lesson (never rated; kept `lesson_retention_days`). Upgrade converts every
old-form lesson row; one whose progress can't be read is ended cleanly instead, with a line in
its log saying so (the learner's /lesson then starts afresh in that row). Downgrade converts the
new form back; a lesson row without progress loses its mark and stays ended. No schema change;
offline (`alembic upgrade --sql`) moves no rows.
"""
from typing import Any, Sequence, Union

import sqlalchemy as sa
from alembic import op
from sqlalchemy.dialects import postgresql

# revision identifiers, used by Alembic.
revision: str = "0008"
down_revision: Union[str, Sequence[str], None] = "0007"
branch_labels: Union[str, Sequence[str], None] = None
depends_on: Union[str, Sequence[str], None] = None

# Frozen copies of the types and tables (a migration must not change when the models do).
JSON = sa.JSON().with_variant(postgresql.JSONB(), "postgresql")
BATCH = 200  # game rows per round trip
KIND = "lesson"
MARK = {"form": 2}
NOT_CARRIED = "This lesson could not be carried over to the new version: send /lesson to start."
ACTIVE = ("lobby", "playing")

games = sa.table(
    "games",
    sa.column("id", sa.Integer()),
    sa.column("platform", sa.String(16)),
    sa.column("status", sa.String(16)),
    sa.column("record", JSON),
)
players = sa.table(
    "players",
    sa.column("platform", sa.String(16)),
    sa.column("user_id", sa.String(64)),
    sa.column("language", sa.String(8)),
)


def upgrade() -> None:
    """Upgrade data."""
    _convert(_to_hosted)


def downgrade() -> None:
    """Downgrade data."""
    _convert(_to_old)


def _convert(change: Any) -> None:
    if op.get_context().as_sql:  # `--sql` (offline): no rows to read
        return
    conn = op.get_bind()
    has_lesson = games.c.record["lesson"].as_string().is_not(None)  # NULL when absent or null
    last = 0
    while True:
        rows = conn.execute(
            sa.select(games.c.id, games.c.platform, games.c.status, games.c.record)
            .where(games.c.id > last, has_lesson)
            .order_by(games.c.id)
            .limit(BATCH)
        ).all()
        if not rows:
            return
        last = rows[-1].id
        for game_id, platform, status, record in rows:
            if not isinstance(record, dict):
                continue
            changed = change(dict(record), status)
            if changed is not None and change is _to_hosted:
                _learners_language(conn, platform, changed[0])
            if changed is not None:
                new_record, new_status = changed
                conn.execute(sa.update(games).where(games.c.id == game_id)
                             .values(record=new_record, status=new_status))


def _learners_language(conn: Any, platform: str, record: dict[str, Any]) -> None:
    """The learner's seat reads their /language choice (the lesson service asked for it at
    every press; a hosted lesson's seat keeps it, and /lesson refreshes it)."""
    seats = record.get("seats")
    if not isinstance(seats, list) or not seats or not isinstance(seats[0], dict):
        return
    user = seats[0].get("user")
    if not user or seats[0].get("lang"):
        return
    chosen = conn.execute(
        sa.select(players.c.language).where(players.c.platform == platform,
                                            players.c.user_id == str(user))
    ).scalar_one_or_none()
    if chosen:
        seats[0] = {**seats[0], "lang": chosen}


def _seat_ui(selected: Any = (), mode: Any = "main", notice: Any = "") -> dict[str, Any]:
    return {
        "selected": [str(x) for x in selected] if isinstance(selected, list) else [],
        "mode": mode if isinstance(mode, str) else "main",
        "sort": "suit",
        "page": 0,
        "notice": notice if isinstance(notice, str) else "",
        "joker_group": None,
        "joker_options": [],
    }


def _readable(progress: Any) -> bool:
    """Progress the lesson runner can load (LessonState's fields, their types)."""
    return (
        isinstance(progress, dict)
        and isinstance(progress.get("lesson"), str)
        and bool(progress["lesson"])
        and isinstance(progress.get("step"), int)
        and isinstance(progress.get("game"), dict)
    )


def _to_hosted(record: dict[str, Any], status: str) -> tuple[dict[str, Any], str] | None:
    """An old-form lesson record in the new form (None: not an old-form lesson)."""
    lesson = record.get("lesson")
    if not isinstance(lesson, dict) or "progress" not in lesson:
        return None
    progress = lesson.get("progress")
    ui = lesson.get("ui") if isinstance(lesson.get("ui"), dict) else {}
    ver = lesson.get("ver")
    ver = ver if isinstance(ver, int) and ver > 0 else 1
    record["lesson"] = dict(MARK)
    record["rulebook"] = KIND
    record["game_name"] = "rummy"
    seats = record.get("seats") if isinstance(record.get("seats"), list) else []
    if not _readable(progress) or not seats:  # can't be carried over: ended, and said so
        record["state"] = None
        record["options"] = {}
        record["ui"] = {}
        record["ended"] = True
        log = record.get("log") if isinstance(record.get("log"), list) else []
        record["log"] = [*log, NOT_CARRIED]
        return record, "ended"
    last = ui.get("last") if isinstance(ui.get("last"), dict) else {}
    record["options"] = {"lesson": progress["lesson"]}
    record["state"] = {"progress": progress, "ver": ver, "last": last}
    record["ui"] = {"0": _seat_ui(ui.get("selected", []), ui.get("mode", "main"),
                                  ui.get("notice", ""))}
    record["ended"] = bool(record.get("ended")) or status == "ended"
    return record, status


def _to_old(record: dict[str, Any], status: str) -> tuple[dict[str, Any], str] | None:
    """A new-form lesson record in the old form (None: not a new-form lesson)."""
    if record.get("lesson") != MARK:
        return None
    state = record.get("state")
    progress = state.get("progress") if isinstance(state, dict) else None
    if not isinstance(progress, dict):  # no progress to keep: no lesson any more, ended
        record["lesson"] = None
        return record, "ended" if status in ACTIVE else status
    ui_all = record.get("ui") if isinstance(record.get("ui"), dict) else {}
    ui = ui_all.get("0") if isinstance(ui_all.get("0"), dict) else {}
    record["lesson"] = {
        "kind": "lesson",
        "progress": progress,
        "ui": {
            "selected": list(ui.get("selected", [])),
            "mode": ui.get("mode", "main"),
            "notice": ui.get("notice", ""),
            "last": state.get("last", {}) if isinstance(state, dict) else {},
        },
        "ver": state.get("ver", 1) if isinstance(state, dict) else 1,
    }
    record["rulebook"] = progress.get("lesson") or "manipulation"
    record["options"] = {}
    record["state"] = None
    record["ui"] = {}
    return record, status
