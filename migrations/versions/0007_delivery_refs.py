"""delivery_refs: a game's delivery state in its own table, out of the game record

Revision ID: 0007
Revises: 0006
Create Date: 2026-12-03

Until now the adapters kept where a game's messages are — message ids, when the live message
was posted, Discord's interaction token, flags — in `record["refs"]`, so saving a message id
wrote the game row (and on SQLite bumped its version). Upgrade moves every record's refs into
`delivery_refs`, one row per (game, key), and drops `refs` from the record; the "ended" flag that
lived among them is the game's, so it stays in the record as `record["ended"]`. The table has no
foreign key to games (its check would lock the game row on every save); `prune` deletes the
refs of games that are gone. A game in
progress across the upgrade keeps editing its live messages: their ids are in the new table.
Downgrade puts the rows (and "ended") back into `record["refs"]`, then drops the table.
Offline (`alembic upgrade --sql`) prints the schema change only and moves no rows.
"""
from typing import Any, Sequence, Union

import sqlalchemy as sa
from alembic import op
from sqlalchemy.dialects import postgresql

# revision identifiers, used by Alembic.
revision: str = "0007"
down_revision: Union[str, Sequence[str], None] = "0006"
branch_labels: Union[str, Sequence[str], None] = None
depends_on: Union[str, Sequence[str], None] = None

# Frozen copies of the types and tables (a migration must not change when the models do).
JSON = sa.JSON().with_variant(postgresql.JSONB(), "postgresql")
BATCH = 200  # game rows per round trip
KEY_MAX = 128

games = sa.table("games", sa.column("id", sa.Integer()), sa.column("record", JSON))
delivery_refs = sa.table(
    "delivery_refs",
    sa.column("game_id", sa.Integer()),
    sa.column("key", sa.String(KEY_MAX)),
    sa.column("value", JSON),
)


def upgrade() -> None:
    """Upgrade schema."""
    op.create_table(
        "delivery_refs",
        sa.Column("game_id", sa.Integer(), nullable=False),
        sa.Column("key", sa.String(length=KEY_MAX), nullable=False),
        sa.Column("value", JSON, nullable=True),
        # no foreign key: its check would lock the game row on every save of a message id
        sa.PrimaryKeyConstraint("game_id", "key", name="pk_delivery_refs"),
    )
    _move_refs_out()


def downgrade() -> None:
    """Downgrade schema."""
    _move_refs_back()
    op.drop_table("delivery_refs")


def _move_refs_out() -> None:
    if op.get_context().as_sql:  # `--sql` (offline): schema only, no rows to read
        return
    conn = op.get_bind()
    has_refs = games.c.record["refs"].as_string().is_not(None)  # NULL when absent
    last = 0
    while True:
        rows = conn.execute(
            sa.select(games.c.id, games.c.record)
            .where(games.c.id > last, has_refs)
            .order_by(games.c.id)
            .limit(BATCH)
        ).all()
        if not rows:
            return
        last = rows[-1].id
        for game_id, record in rows:
            refs = record.pop("refs", None)
            refs = refs if isinstance(refs, dict) else {}
            record["ended"] = bool(refs.pop("ended", False))  # Record.ended
            kept = [
                {"game_id": game_id, "key": str(key), "value": value}
                for key, value in refs.items() if len(str(key)) <= KEY_MAX
            ]
            if kept:
                conn.execute(sa.insert(delivery_refs), kept)
            conn.execute(sa.update(games).where(games.c.id == game_id).values(record=record))


def _move_refs_back() -> None:
    if op.get_context().as_sql:
        return
    conn = op.get_bind()
    r = delivery_refs.c
    with_rows = set(conn.execute(sa.select(r.game_id).distinct()).scalars())
    ended = games.c.record["ended"].as_string().is_not(None)
    ids = sorted(with_rows | set(conn.execute(sa.select(games.c.id).where(ended)).scalars()))
    for start in range(0, len(ids), BATCH):
        batch = ids[start:start + BATCH]
        records = dict(
            conn.execute(sa.select(games.c.id, games.c.record).where(games.c.id.in_(batch)))
            .all()
        )
        refs: dict[int, dict[str, Any]] = {game_id: {} for game_id in batch}
        for game_id, key, value in conn.execute(
            sa.select(r.game_id, r.key, r.value).where(r.game_id.in_(batch))
        ):
            refs[game_id][key] = value
        for game_id in batch:
            record = records.get(game_id)
            if not isinstance(record, dict):
                continue
            theirs = refs[game_id]
            if record.pop("ended", False):
                theirs["ended"] = True
            if record.get("pruned") and not theirs:
                continue  # a pruned stub keeps no refs
            record["refs"] = {**(record.get("refs") or {}), **theirs}
            conn.execute(sa.update(games).where(games.c.id == game_id).values(record=record))
