"""initial schema: players, chats, games, seats, rounds, results, standings

Revision ID: 0001
Revises:
Create Date: 2025-11-30

"""
from typing import Sequence, Union

import sqlalchemy as sa
from alembic import op
from sqlalchemy.dialects import postgresql

# revision identifiers, used by Alembic.
revision: str = "0001"
down_revision: Union[str, Sequence[str], None] = None
branch_labels: Union[str, Sequence[str], None] = None
depends_on: Union[str, Sequence[str], None] = None

# Frozen copies of the types (a migration must not change when the models do).
TIMESTAMP = sa.DateTime(timezone=True)
JSON = sa.JSON().with_variant(postgresql.JSONB(), "postgresql")
ACTIVE = "status IN ('lobby', 'playing')"


def upgrade() -> None:
    """Upgrade schema."""
    op.create_table(
        "players",
        sa.Column("id", sa.Integer(), nullable=False),
        sa.Column("platform", sa.String(16), nullable=False),
        sa.Column("user_id", sa.String(64), nullable=False),
        sa.Column("name", sa.String(128), nullable=False),
        sa.Column("is_computer", sa.Boolean(), nullable=False),
        sa.Column("created_at", TIMESTAMP, nullable=False),
        sa.Column("updated_at", TIMESTAMP, nullable=False),
        sa.PrimaryKeyConstraint("id", name="pk_players"),
        sa.UniqueConstraint("platform", "user_id", name="uq_players_platform_user_id"),
    )
    op.create_table(
        "chats",
        sa.Column("platform", sa.String(16), nullable=False),
        sa.Column("chat_id", sa.String(64), nullable=False),
        sa.Column("created_at", TIMESTAMP, nullable=False),
        sa.PrimaryKeyConstraint("platform", "chat_id", name="pk_chats"),
    )
    op.create_table(
        "games",
        sa.Column("id", sa.Integer(), nullable=False),
        sa.Column("platform", sa.String(16), nullable=False),
        sa.Column("chat_id", sa.String(64), nullable=False),
        sa.Column("status", sa.String(16), nullable=False),
        sa.Column("record", JSON, nullable=False),
        sa.Column("version", sa.Integer(), nullable=False),
        sa.Column("created_at", TIMESTAMP, nullable=False),
        sa.Column("updated_at", TIMESTAMP, nullable=False),
        sa.CheckConstraint(
            "status IN ('lobby', 'playing', 'finished', 'ended')", name="ck_games_status"
        ),
        sa.ForeignKeyConstraint(
            ["platform", "chat_id"],
            ["chats.platform", "chats.chat_id"],
            name="fk_games_platform_chat_id_chats",
        ),
        sa.PrimaryKeyConstraint("id", name="pk_games"),
    )
    op.create_index("ix_games_status", "games", ["status"])
    op.create_index(
        "uq_games_active_chat",
        "games",
        ["platform", "chat_id"],
        unique=True,
        sqlite_where=sa.text(ACTIVE),
        postgresql_where=sa.text(ACTIVE),
    )
    op.create_table(
        "seats",
        sa.Column("game_id", sa.Integer(), nullable=False),
        sa.Column("seat_no", sa.Integer(), nullable=False),
        sa.Column("player_id", sa.Integer(), nullable=True),
        sa.Column("name", sa.String(128), nullable=False),
        sa.Column("computer_level", sa.String(16), nullable=True),
        sa.ForeignKeyConstraint(
            ["game_id"], ["games.id"], name="fk_seats_game_id_games", ondelete="CASCADE"
        ),
        sa.ForeignKeyConstraint(
            ["player_id"], ["players.id"], name="fk_seats_player_id_players"
        ),
        sa.PrimaryKeyConstraint("game_id", "seat_no", name="pk_seats"),
    )
    op.create_index("ix_seats_player_id", "seats", ["player_id"])
    op.create_table(
        "rounds",
        sa.Column("game_id", sa.Integer(), nullable=False),
        sa.Column("round_no", sa.Integer(), nullable=False),
        sa.Column("recorded_at", TIMESTAMP, nullable=False),
        sa.ForeignKeyConstraint(
            ["game_id"], ["games.id"], name="fk_rounds_game_id_games", ondelete="CASCADE"
        ),
        sa.PrimaryKeyConstraint("game_id", "round_no", name="pk_rounds"),
    )
    op.create_table(
        "round_scores",
        sa.Column("game_id", sa.Integer(), nullable=False),
        sa.Column("round_no", sa.Integer(), nullable=False),
        sa.Column("seat_no", sa.Integer(), nullable=False),
        sa.Column("points", sa.Integer(), nullable=False),
        sa.Column("total", sa.Integer(), nullable=False),
        sa.ForeignKeyConstraint(
            ["game_id", "round_no"],
            ["rounds.game_id", "rounds.round_no"],
            name="fk_round_scores_game_id_round_no_rounds",
            ondelete="CASCADE",
        ),
        sa.PrimaryKeyConstraint("game_id", "round_no", "seat_no", name="pk_round_scores"),
    )
    op.create_table(
        "results",
        sa.Column("game_id", sa.Integer(), nullable=False),
        sa.Column("platform", sa.String(16), nullable=False),
        sa.Column("chat_id", sa.String(64), nullable=False),
        sa.Column("rulebook", sa.String(32), nullable=False),
        sa.Column("finished_at", TIMESTAMP, nullable=False),
        sa.ForeignKeyConstraint(
            ["game_id"], ["games.id"], name="fk_results_game_id_games", ondelete="CASCADE"
        ),
        sa.PrimaryKeyConstraint("game_id", name="pk_results"),
    )
    op.create_table(
        "result_seats",
        sa.Column("game_id", sa.Integer(), nullable=False),
        sa.Column("seat_no", sa.Integer(), nullable=False),
        sa.Column("player_id", sa.Integer(), nullable=True),
        sa.Column("name", sa.String(128), nullable=False),
        sa.Column("computer_level", sa.String(16), nullable=True),
        sa.Column("points", sa.Integer(), nullable=False),
        sa.Column("won", sa.Float(), nullable=False),
        sa.Column("rank", sa.Integer(), nullable=False),
        sa.ForeignKeyConstraint(
            ["game_id"],
            ["results.game_id"],
            name="fk_result_seats_game_id_results",
            ondelete="CASCADE",
        ),
        sa.ForeignKeyConstraint(
            ["player_id"], ["players.id"], name="fk_result_seats_player_id_players"
        ),
        sa.PrimaryKeyConstraint("game_id", "seat_no", name="pk_result_seats"),
    )
    op.create_index("ix_result_seats_player_id", "result_seats", ["player_id"])
    op.create_table(
        "standings",
        sa.Column("player_id", sa.Integer(), nullable=False),
        sa.Column("scope", sa.String(64), nullable=False),
        sa.Column("rulebook", sa.String(32), nullable=False),
        sa.Column("mu", sa.Float(), nullable=False),
        sa.Column("sigma", sa.Float(), nullable=False),
        sa.Column("rating", sa.Float(), nullable=False),
        sa.Column("games", sa.Integer(), nullable=False),
        sa.Column("wins", sa.Float(), nullable=False),
        sa.Column("points", sa.BigInteger(), nullable=False),
        sa.Column("updated_at", TIMESTAMP, nullable=False),
        sa.ForeignKeyConstraint(
            ["player_id"], ["players.id"], name="fk_standings_player_id_players"
        ),
        sa.PrimaryKeyConstraint("player_id", "scope", "rulebook", name="pk_standings"),
    )
    op.create_index("ix_standings_board", "standings", ["scope", "rulebook", "rating"])


def downgrade() -> None:
    """Downgrade schema."""
    op.drop_index("ix_standings_board", table_name="standings")
    op.drop_table("standings")
    op.drop_index("ix_result_seats_player_id", table_name="result_seats")
    op.drop_table("result_seats")
    op.drop_table("results")
    op.drop_table("round_scores")
    op.drop_table("rounds")
    op.drop_index("ix_seats_player_id", table_name="seats")
    op.drop_table("seats")
    op.drop_index("uq_games_active_chat", table_name="games")
    op.drop_index("ix_games_status", table_name="games")
    op.drop_table("games")
    op.drop_table("chats")
    op.drop_table("players")
