"""workers: jobs (durable background work) and seen_updates (each update applied once)

Revision ID: 0004
Revises: 0003
Create Date: 2026-12-01

jobs: one row per game with background work due (a computer's move or a turn timer), written
in the same transaction as the game; workers claim due rows with a lease (PostgreSQL: FOR
UPDATE SKIP LOCKED), so each is done once whichever worker is alive.
seen_updates: the idempotency keys of the chat updates that changed a game, written in the
transaction of the change; kept for a bounded time (pruned).
"""
from typing import Sequence, Union

import sqlalchemy as sa
from alembic import op

# revision identifiers, used by Alembic.
revision: str = "0004"
down_revision: Union[str, Sequence[str], None] = "0003"
branch_labels: Union[str, Sequence[str], None] = None
depends_on: Union[str, Sequence[str], None] = None


def upgrade() -> None:
    """Upgrade schema."""
    op.create_table(
        "jobs",
        sa.Column("game_id", sa.Integer(), nullable=False),
        sa.Column("kind", sa.String(length=16), nullable=False),
        sa.Column("due_at", sa.Float(), nullable=False),
        sa.Column("lease_until", sa.Float(), nullable=True),
        sa.Column("owner", sa.String(length=64), nullable=True),
        sa.ForeignKeyConstraint(
            ["game_id"], ["games.id"], name=op.f("fk_jobs_game_id_games"), ondelete="CASCADE"
        ),
        sa.PrimaryKeyConstraint("game_id", name=op.f("pk_jobs")),
        sa.CheckConstraint("kind IN ('computer', 'timer')", name=op.f("ck_jobs_kind")),
    )
    op.create_index("ix_jobs_due_at", "jobs", ["due_at"], unique=False)
    # Existing games' due work becomes jobs (a computer's or a person's turn; the worker that
    # claims one reads the game and does what is due, or nothing).
    op.execute(
        "INSERT INTO jobs (game_id, kind, due_at) SELECT id, 'timer', due_at FROM games "
        "WHERE due_at IS NOT NULL AND status = 'playing'"
    )
    op.create_table(
        "seen_updates",
        sa.Column("key", sa.String(length=96), nullable=False),
        sa.Column("seen_at", sa.Float(), nullable=False),
        sa.PrimaryKeyConstraint("key", name=op.f("pk_seen_updates")),
    )
    op.create_index("ix_seen_updates_seen_at", "seen_updates", ["seen_at"], unique=False)


def downgrade() -> None:
    """Downgrade schema."""
    op.drop_index("ix_seen_updates_seen_at", table_name="seen_updates")
    op.drop_table("seen_updates")
    op.drop_index("ix_jobs_due_at", table_name="jobs")
    op.drop_table("jobs")
