"""languages: players.language and chats.language (a person's and a group's /language)

Revision ID: 0003
Revises: 0002
Create Date: 2026-12-01

NULL: no choice made (a person then reads their client's language, a group its host's).
"""
from typing import Sequence, Union

import sqlalchemy as sa
from alembic import op

# revision identifiers, used by Alembic.
revision: str = "0003"
down_revision: Union[str, Sequence[str], None] = "0002"
branch_labels: Union[str, Sequence[str], None] = None
depends_on: Union[str, Sequence[str], None] = None


def upgrade() -> None:
    """Upgrade schema."""
    op.add_column("players", sa.Column("language", sa.String(length=8), nullable=True))
    op.add_column("chats", sa.Column("language", sa.String(length=8), nullable=True))


def downgrade() -> None:
    """Downgrade schema."""
    # plain ALTER (SQLite >= 3.35), as 0002 does: a batch rebuild of chats would break the
    # games' foreign key to it
    op.drop_column("chats", "language")
    op.drop_column("players", "language")
