"""deliveries: the screens a game's last save still owes (the outbox of many workers)

Revision ID: 0005
Revises: 0004
Create Date: 2026-12-01

deliveries: at most one row per game, written (upserted) in the same transaction as the save
that changes the game, on PostgreSQL only: the row version whose screens are owed, the worker
delivering them and its lease. The worker deletes the row once delivered; a worker killed
between the commit and its sends leaves it, its lease runs out and another worker delivers
the game's current screens (bot/store/outbox.py).
"""
from typing import Sequence, Union

import sqlalchemy as sa
from alembic import op

# revision identifiers, used by Alembic.
revision: str = "0005"
down_revision: Union[str, Sequence[str], None] = "0004"
branch_labels: Union[str, Sequence[str], None] = None
depends_on: Union[str, Sequence[str], None] = None


def upgrade() -> None:
    """Upgrade schema."""
    op.create_table(
        "deliveries",
        sa.Column("game_id", sa.Integer(), nullable=False),
        sa.Column("version", sa.Integer(), nullable=False),
        sa.Column("owner", sa.String(length=64), nullable=False),
        sa.Column("lease_until", sa.Float(), nullable=False),
        sa.ForeignKeyConstraint(
            ["game_id"], ["games.id"], name=op.f("fk_deliveries_game_id_games"),
            ondelete="CASCADE",
        ),
        sa.PrimaryKeyConstraint("game_id", name=op.f("pk_deliveries")),
    )


def downgrade() -> None:
    """Downgrade schema."""
    op.drop_table("deliveries")
