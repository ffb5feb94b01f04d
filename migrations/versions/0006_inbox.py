"""inbox: Telegram updates fetched by long polling and not yet handled

Revision ID: 0006
Revises: 0005
Create Date: 2026-12-03

Each batch getUpdates returns is written here before the next getUpdates acknowledges it to
Telegram; a row is deleted once its update was handled. A worker killed at any moment leaves
its unhandled updates here, and the next start handles them first
(bot/adapters/telegram_polling.py).
"""
from typing import Sequence, Union

import sqlalchemy as sa
from alembic import op

# revision identifiers, used by Alembic.
revision: str = "0006"
down_revision: Union[str, Sequence[str], None] = "0005"
branch_labels: Union[str, Sequence[str], None] = None
depends_on: Union[str, Sequence[str], None] = None


def upgrade() -> None:
    """Upgrade schema."""
    op.create_table(
        "inbox",
        sa.Column("key", sa.String(length=96), nullable=False),
        sa.Column("body", sa.Text(), nullable=False),
        sa.Column("at", sa.Float(), nullable=False),
        sa.PrimaryKeyConstraint("key", name=op.f("pk_inbox")),
    )
    op.create_index("ix_inbox_at", "inbox", ["at"], unique=False)


def downgrade() -> None:
    """Downgrade schema."""
    op.drop_index("ix_inbox_at", table_name="inbox")
    op.drop_table("inbox")
