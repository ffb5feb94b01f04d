"""notify: /notify's calls to play (issue 41 item 2)

Revision ID: 0010
Revises: 0009
Create Date: 2026-12-07

`notify`: one row per (platform, chat, person) who asked, with /notify in that chat, to be
called privately when a game opens there (/notify again deletes it). `notify_pings`: when the
chat's subscribers were last called (epoch seconds on the service's clock), so a chat gets at
most one round of calls every few minutes whichever worker opens the lobby.

A rematch call (issue 41 item 1) needs no schema: it lives in the finished game's record
(`rematch_call`) and its lapse is the row's `due_at` (its `jobs` row, kind "timer").
"""
from typing import Sequence, Union

import sqlalchemy as sa
from alembic import op

# revision identifiers, used by Alembic.
revision: str = "0010"
down_revision: Union[str, Sequence[str], None] = "0009"
branch_labels: Union[str, Sequence[str], None] = None
depends_on: Union[str, Sequence[str], None] = None

TIMESTAMP = sa.DateTime(timezone=True)


def upgrade() -> None:
    """Upgrade schema."""
    op.create_table(
        "notify",
        sa.Column("platform", sa.String(length=16), nullable=False),
        sa.Column("chat_id", sa.String(length=64), nullable=False),
        sa.Column("user_id", sa.String(length=64), nullable=False),
        sa.Column("created_at", TIMESTAMP, nullable=False),
        sa.PrimaryKeyConstraint("platform", "chat_id", "user_id", name=op.f("pk_notify")),
    )
    op.create_table(
        "notify_pings",
        sa.Column("platform", sa.String(length=16), nullable=False),
        sa.Column("chat_id", sa.String(length=64), nullable=False),
        sa.Column("at", sa.Float(), nullable=False),
        sa.PrimaryKeyConstraint("platform", "chat_id", name=op.f("pk_notify_pings")),
    )


def downgrade() -> None:
    """Downgrade schema."""
    op.drop_table("notify_pings")
    op.drop_table("notify")
