"""bounded game rows: game_actions (the action log, out of the record), games.due_at

Revision ID: 0002
Revises: 0001
Create Date: 2026-01-20

Upgrade moves every existing `record["state"]["actions"]` list into game_actions (seq = the
action's index in the log) and leaves `[]` in the record, a batch of rows at a time.
Downgrade puts the logs back into the records, then drops the table, the column and its index.
Offline (`alembic upgrade --sql`) prints the schema changes only and moves no rows: run it
online (Store.open, `rummy migrate`) to move the logs of existing games.
"""
from typing import Sequence, Union

import sqlalchemy as sa
from alembic import op
from sqlalchemy.dialects import postgresql

# revision identifiers, used by Alembic.
revision: str = "0002"
down_revision: Union[str, Sequence[str], None] = "0001"
branch_labels: Union[str, Sequence[str], None] = None
depends_on: Union[str, Sequence[str], None] = None

# Frozen copies of the types and tables (a migration must not change when the models do).
JSON = sa.JSON().with_variant(postgresql.JSONB(), "postgresql")
BATCH = 100  # game rows per round trip (a long game's record is ~180 KiB before this)

games = sa.table("games", sa.column("id", sa.Integer()), sa.column("record", JSON))
game_actions = sa.table(
    "game_actions",
    sa.column("game_id", sa.Integer()),
    sa.column("seq", sa.Integer()),
    sa.column("data", JSON),
)


def upgrade() -> None:
    """Upgrade schema."""
    op.create_table(
        "game_actions",
        sa.Column("game_id", sa.Integer(), nullable=False),
        sa.Column("seq", sa.Integer(), nullable=False),
        sa.Column("data", JSON, nullable=False),
        sa.ForeignKeyConstraint(
            ["game_id"], ["games.id"], name="fk_game_actions_game_id_games", ondelete="CASCADE"
        ),
        sa.PrimaryKeyConstraint("game_id", "seq", name="pk_game_actions"),
    )
    op.add_column("games", sa.Column("due_at", sa.Float(), nullable=True))
    op.create_index("ix_games_due_at", "games", ["due_at"])
    _move_actions_out()


def downgrade() -> None:
    """Downgrade schema."""
    _move_actions_back()
    op.drop_index("ix_games_due_at", table_name="games")
    op.drop_column("games", "due_at")  # plain ALTER (SQLite >= 3.35): no table rebuild
    op.drop_table("game_actions")


def _move_actions_out() -> None:
    if op.get_context().as_sql:  # `--sql` (offline): schema only, no rows to read
        return
    conn = op.get_bind()
    log = games.c.record[("state", "actions")].as_string()  # NULL when there is no state
    last = 0
    while True:
        rows = conn.execute(
            sa.select(games.c.id, games.c.record)
            .where(games.c.id > last, log.is_not(None), log != "[]")
            .order_by(games.c.id)
            .limit(BATCH)
        ).all()
        if not rows:
            return
        last = rows[-1].id
        for game_id, record in rows:
            actions = (record.get("state") or {}).get("actions")
            if not isinstance(actions, list) or not actions:
                continue
            conn.execute(
                sa.insert(game_actions),
                [{"game_id": game_id, "seq": n, "data": a} for n, a in enumerate(actions)],
            )
            record["state"]["actions"] = []
            conn.execute(
                sa.update(games).where(games.c.id == game_id).values(record=record)
            )


def _move_actions_back() -> None:
    if op.get_context().as_sql:
        return
    conn = op.get_bind()
    last = 0
    while True:
        ids = conn.execute(
            sa.select(game_actions.c.game_id)
            .where(game_actions.c.game_id > last)
            .group_by(game_actions.c.game_id)
            .order_by(game_actions.c.game_id)
            .limit(BATCH)
        ).scalars().all()
        if not ids:
            return
        last = ids[-1]
        records = dict(
            conn.execute(sa.select(games.c.id, games.c.record).where(games.c.id.in_(ids))).all()
        )
        logs: dict[int, list] = {game_id: [] for game_id in ids}
        for game_id, data in conn.execute(
            sa.select(game_actions.c.game_id, game_actions.c.data)
            .where(game_actions.c.game_id.in_(ids))
            .order_by(game_actions.c.game_id, game_actions.c.seq)
        ):
            logs[game_id].append(data)
        for game_id, actions in logs.items():
            record = records.get(game_id)
            if not isinstance(record, dict) or not isinstance(record.get("state"), dict):
                continue  # a pruned stub: no state to put the log back into
            record["state"]["actions"] = actions
            conn.execute(sa.update(games).where(games.c.id == game_id).values(record=record))
