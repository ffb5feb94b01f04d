"""stats: a rating after each game, and a best round per rulebook, for /stats' picture

Revision ID: 0009
Revises: 0008
Create Date: 2026-12-07

`result_seats.rating`: the competitor's rating over all chats and games after that game (the
curve /stats draws, its newest 30 read by index); `standings.best_round`: the best round's
points in that ladder's rulebook, the game's own way (kept by `record_result` as it rates, so
/stats reads it with the standing, whatever the history). Games finished before this have
NULLs: /stats draws what it has.
"""
from typing import Sequence, Union

import sqlalchemy as sa
from alembic import op

# revision identifiers, used by Alembic.
revision: str = "0009"
down_revision: Union[str, Sequence[str], None] = "0008"
branch_labels: Union[str, Sequence[str], None] = None
depends_on: Union[str, Sequence[str], None] = None


def upgrade() -> None:
    """Upgrade schema."""
    with op.batch_alter_table("result_seats") as batch:
        batch.add_column(sa.Column("rating", sa.Float(), nullable=True))
    with op.batch_alter_table("standings") as batch:
        batch.add_column(sa.Column("best_round", sa.Integer(), nullable=True))


def downgrade() -> None:
    """Downgrade schema."""
    with op.batch_alter_table("standings") as batch:
        batch.drop_column("best_round")
    with op.batch_alter_table("result_seats") as batch:
        batch.drop_column("rating")
