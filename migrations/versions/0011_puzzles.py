"""puzzles: the puzzle of the day (issue 41 item 5)

Revision ID: 0011
Revises: 0010
Create Date: 2026-12-07

`chats.puzzle`: a chat admin turned the puzzle of the day on (NULL/false: off).
`puzzle_cuts`: what a finished game of such a chat offers as a puzzle, cut once by the sweep
after the game ends (`data` NULL: nothing worth a day); `score` orders them, `used_on` is the
day it was posted. It goes with its game (pruned games take their cuts along).
`puzzles`: a chat's puzzle of a day (UTC), claimed by the worker that posts it (one row per chat
and day: one poster; a lease as for a season's end), its data kept for the tries and for the
next day's solution. `puzzle_tries`: one try per person and puzzle — solved or not, cards laid.
"""
from typing import Sequence, Union

import sqlalchemy as sa
from alembic import op
from sqlalchemy.dialects import postgresql

revision: str = "0011"
down_revision: Union[str, Sequence[str], None] = "0010"
branch_labels: Union[str, Sequence[str], None] = None
depends_on: Union[str, Sequence[str], None] = None

JSON = sa.JSON().with_variant(postgresql.JSONB(), "postgresql")
TIMESTAMP = sa.DateTime(timezone=True)


def upgrade() -> None:
    """Upgrade schema."""
    op.add_column("chats", sa.Column("puzzle", sa.Boolean(), nullable=True))
    op.create_table(
        "puzzle_cuts",
        sa.Column("game_id", sa.Integer(), nullable=False),
        sa.Column("platform", sa.String(length=16), nullable=False),
        sa.Column("chat_id", sa.String(length=64), nullable=False),
        sa.Column("finished_at", TIMESTAMP, nullable=False),
        sa.Column("game_name", sa.String(length=32), nullable=False),
        sa.Column("score", sa.Integer(), nullable=True),
        sa.Column("data", JSON, nullable=True),
        sa.Column("used_on", sa.String(length=10), nullable=True),
        sa.ForeignKeyConstraint(["game_id"], ["games.id"], name="fk_puzzle_cuts_game_id_games",
                                ondelete="CASCADE"),
        sa.PrimaryKeyConstraint("game_id", name="pk_puzzle_cuts"),
    )
    op.create_index("ix_puzzle_cuts_chat", "puzzle_cuts", ["platform", "chat_id", "finished_at"])
    op.create_table(
        "puzzles",
        sa.Column("platform", sa.String(length=16), nullable=False),
        sa.Column("chat_id", sa.String(length=64), nullable=False),
        sa.Column("day", sa.String(length=10), nullable=False),
        sa.Column("game_name", sa.String(length=32), nullable=True),
        sa.Column("data", JSON, nullable=True),
        sa.Column("owner", sa.String(length=64), nullable=True),
        sa.Column("lease_until", sa.Float(), nullable=True),
        sa.Column("posted_at", TIMESTAMP, nullable=True),
        sa.PrimaryKeyConstraint("platform", "chat_id", "day", name="pk_puzzles"),
    )
    op.create_table(
        "puzzle_tries",
        sa.Column("platform", sa.String(length=16), nullable=False),
        sa.Column("chat_id", sa.String(length=64), nullable=False),
        sa.Column("day", sa.String(length=10), nullable=False),
        sa.Column("user_id", sa.String(length=64), nullable=False),
        sa.Column("name", sa.String(length=128), nullable=False),
        sa.Column("solved", sa.Boolean(), nullable=True),
        sa.Column("cards", sa.Integer(), nullable=True),
        sa.Column("game_id", sa.Integer(), nullable=True),
        sa.Column("at", TIMESTAMP, nullable=False),
        sa.PrimaryKeyConstraint("platform", "chat_id", "day", "user_id", name="pk_puzzle_tries"),
    )


def downgrade() -> None:
    """Downgrade schema."""
    op.drop_table("puzzle_tries")
    op.drop_table("puzzles")
    op.drop_index("ix_puzzle_cuts_chat", table_name="puzzle_cuts")
    op.drop_table("puzzle_cuts")
    op.drop_column("chats", "puzzle")
