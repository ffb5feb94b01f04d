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
    with op.batch_alter_table("players") as batch:
        batch.add_column(sa.Column("language", sa.String(length=8), nullable=True))
    with op.batch_alter_table("chats") as batch:
        batch.add_column(sa.Column("language", sa.String(length=8), nullable=True))


def downgrade() -> None:
    """Downgrade schema."""
    with op.batch_alter_table("chats") as batch:
        batch.drop_column("language")
    with op.batch_alter_table("players") as batch:
        batch.drop_column("language")
