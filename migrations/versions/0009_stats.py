"""stats and seasons: a rating after each game and a best round per rulebook (/stats' picture);
a chat's seasons (issue 41)

Revision ID: 0009
Revises: 0008
Create Date: 2026-12-07

`result_seats.rating`: the competitor's rating over all chats and games after that game (the
curve /stats draws, its newest 30 read by index); `standings.best_round`: the best round's
points in that ladder's rulebook, the game's own way (kept by `record_result` as it rates, so
/stats reads it with the standing, whatever the history). Games finished before this have
NULLs: /stats draws what it has.

`chats.season`: how long the chat's seasons last (NULL: a calendar month; "weeks");
`seasons`: a chat's ended season, claimed by the worker that posts its final standings (one
row per chat and season), its standings kept; `results` gains the indexes a season reads by.
"""
from typing import Sequence, Union

import sqlalchemy as sa
from alembic import op
from sqlalchemy.dialects import postgresql

# revision identifiers, used by Alembic.
revision: str = "0009"
down_revision: Union[str, Sequence[str], None] = "0008"
branch_labels: Union[str, Sequence[str], None] = None
depends_on: Union[str, Sequence[str], None] = None

# Frozen copies of the types (a migration must not change when the models do).
JSON = sa.JSON().with_variant(postgresql.JSONB(), "postgresql")
TIMESTAMP = sa.DateTime(timezone=True)


def upgrade() -> None:
    """Upgrade schema."""
    # plain ALTERs (SQLite >= 3.35 drops a column too): no table rebuild, no foreign key
    # checked against a copy
    op.add_column("result_seats", sa.Column("rating", sa.Float(), nullable=True))
    op.add_column("standings", sa.Column("best_round", sa.Integer(), nullable=True))
    op.add_column("chats", sa.Column("season", sa.String(length=8), nullable=True))
    op.create_table(
        "seasons",
        sa.Column("platform", sa.String(length=16), nullable=False),
        sa.Column("chat_id", sa.String(length=64), nullable=False),
        sa.Column("season", sa.String(length=16), nullable=False),
        sa.Column("standings", JSON, nullable=False),
        sa.Column("owner", sa.String(length=64), nullable=True),
        sa.Column("lease_until", sa.Float(), nullable=True),
        sa.Column("posted_at", TIMESTAMP, nullable=True),
        sa.PrimaryKeyConstraint("platform", "chat_id", "season", name="pk_seasons"),
    )
    op.create_index("ix_results_chat", "results", ["platform", "chat_id", "finished_at"])
    op.create_index("ix_results_finished_at", "results", ["finished_at"])


def downgrade() -> None:
    """Downgrade schema."""
    op.drop_index("ix_results_finished_at", table_name="results")
    op.drop_index("ix_results_chat", table_name="results")
    op.drop_table("seasons")
    op.drop_column("chats", "season")
    op.drop_column("standings", "best_round")
    op.drop_column("result_seats", "rating")
