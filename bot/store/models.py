"""The schema (SQLAlchemy Core tables). Migrations in migrations/versions must match it.

players   one per (platform, user id); computer levels are pseudo-players ("computer:medium")
chats     one per (platform, chat id)
games     the core's record (JSON) + version for optimistic concurrency; one active per chat;
          due_at = when the game next needs background work (timer, reminder, computer move)
delivery_refs  where a game's messages are (ids, posted-at, interaction tokens, flags): no
          part of the game record, so saving one never bumps the game's version
jobs      a game's due background work (computer move, turn timer), claimed with a lease
deliveries  the screens a game's last save still owes (PostgreSQL workers; see store/outbox.py)
seen_updates  idempotency keys of the chat updates that changed a game (bounded life)
inbox     Telegram updates fetched by polling and not yet handled (kill -9 loses none)
game_actions  a game's action log, one row per action (appended; the record stays small)
seats     who sits where in a game
rounds / round_scores   per-round points and running totals, written once per round
results / result_seats  a finished game, written once per game
standings               rating + totals per (player, scope = chat id | "*", rulebook | "*")
notify / notify_pings   /notify: who is called privately when a lobby opens in a chat, and
                        when that chat's last call went out (one round per NOTIFY_EVERY)
"""

from __future__ import annotations

from datetime import UTC, datetime
from typing import Any

from sqlalchemy import (
    JSON,
    BigInteger,
    Boolean,
    CheckConstraint,
    Column,
    DateTime,
    Dialect,
    Float,
    ForeignKey,
    ForeignKeyConstraint,
    Index,
    Integer,
    MetaData,
    String,
    Table,
    Text,
    UniqueConstraint,
    text,
)
from sqlalchemy.dialects.postgresql import JSONB
from sqlalchemy.types import TypeDecorator

ALL = "*"  # standings: scope "all chats" / rulebook "all rulebooks"
NAME_MAX = 128  # width of every name column; longer display names are cut
REF_KEY_MAX = 128  # a delivery ref's key: "p:<user id>:gone" and the like

NAMING = {
    "ix": "ix_%(table_name)s_%(column_0_N_name)s",
    "uq": "uq_%(table_name)s_%(column_0_N_name)s",
    "ck": "ck_%(table_name)s_%(constraint_name)s",
    "fk": "fk_%(table_name)s_%(column_0_N_name)s_%(referred_table_name)s",
    "pk": "pk_%(table_name)s",
}
metadata = MetaData(naming_convention=NAMING)

# JSONB on PostgreSQL (indexable, compact); JSON text on SQLite.
Json = JSON().with_variant(JSONB(), "postgresql")


class UTCDateTime(TypeDecorator[datetime]):
    """Aware UTC datetimes in and out; SQLite stores naive text, so reattach UTC on the way out."""

    impl = DateTime(timezone=True)
    cache_ok = True

    def process_bind_param(self, value: datetime | None, dialect: Dialect) -> Any:
        if value is None:
            return None
        if value.tzinfo is None:
            raise ValueError("naive datetime given to the store; use datetime.now(UTC)")
        value = value.astimezone(UTC)
        return value.replace(tzinfo=None) if dialect.name == "sqlite" else value

    def process_result_value(self, value: datetime | None, dialect: Dialect) -> datetime | None:
        if value is None:
            return None
        return value.replace(tzinfo=UTC) if value.tzinfo is None else value.astimezone(UTC)


def utcnow() -> datetime:
    return datetime.now(UTC)


players = Table(
    "players",
    metadata,
    Column("id", Integer, primary_key=True),
    Column("platform", String(16), nullable=False),
    Column("user_id", String(64), nullable=False),
    Column("name", String(NAME_MAX), nullable=False),
    Column("is_computer", Boolean, nullable=False, default=False),
    Column("created_at", UTCDateTime, nullable=False),
    Column("updated_at", UTCDateTime, nullable=False),
    Column("language", String(8), nullable=True),  # /language; NULL: the client's
    UniqueConstraint("platform", "user_id"),
)

chats = Table(
    "chats",
    metadata,
    Column("platform", String(16), primary_key=True),
    Column("chat_id", String(64), primary_key=True),
    Column("created_at", UTCDateTime, nullable=False),
    Column("language", String(8), nullable=True),  # /language in a group; NULL: the host's
    Column("season", String(8), nullable=True),  # how long its seasons last: NULL months, weeks
    Column("puzzle", Boolean, nullable=True),  # the puzzle of the day is on (an admin's /puzzle)
)

games = Table(
    "games",
    metadata,
    Column("id", Integer, primary_key=True),
    Column("platform", String(16), nullable=False),
    Column("chat_id", String(64), nullable=False),
    Column("status", String(16), nullable=False),
    Column("record", Json, nullable=False),
    Column("version", Integer, nullable=False),
    Column("created_at", UTCDateTime, nullable=False),
    Column("updated_at", UTCDateTime, nullable=False),
    # Epoch seconds when the game next needs background work: a turn deadline, the half-time
    # reminder or a computer's move; NULL = nothing scheduled. Workers poll it (index).
    Column("due_at", Float, nullable=True),
    ForeignKeyConstraint(["platform", "chat_id"], ["chats.platform", "chats.chat_id"]),
    CheckConstraint("status IN ('lobby', 'playing', 'finished', 'ended')", name="status"),
    Index("ix_games_status", "status"),
    Index("ix_games_due_at", "due_at"),
    # One active game per chat, enforced by the database so two workers cannot both open one.
    Index(
        "uq_games_active_chat",
        "platform",
        "chat_id",
        unique=True,
        sqlite_where=text("status IN ('lobby', 'playing')"),
        postgresql_where=text("status IN ('lobby', 'playing')"),
    ),
)

# A game's delivery state, one row per (game, key): the adapters' message ids ("table",
# "p:<user>"), when a live message was posted ("table:at"), a Discord interaction token
# ("eph:<user>"), flags ("advised:<user>", "dmclosed:<user>"). Its own table, so saving a
# message id never writes the game row nor bumps its version (bot/store/delivery_refs.py).
# No foreign key: its check would lock the game row (FOR KEY SHARE, written into the row) on
# every save of an id; `prune` deletes a gone game's refs instead.
delivery_refs = Table(
    "delivery_refs",
    metadata,
    Column("game_id", Integer, primary_key=True),
    Column("key", String(REF_KEY_MAX), primary_key=True),
    Column("value", Json, nullable=True),
)

# The action log, out of the record: a save appends its new actions instead of rewriting the
# whole log. seq = the action's index in the game's log (0, 1, 2, ...).
game_actions = Table(
    "game_actions",
    metadata,
    Column("game_id", ForeignKey("games.id", ondelete="CASCADE"), primary_key=True),
    Column("seq", Integer, primary_key=True),
    Column("data", Json, nullable=False),
)

# A game's next background work, written with the game: workers claim due rows with a lease
# (`lease_until`, epoch s; PostgreSQL skips rows another worker has locked), so each is done
# once; a dead worker's lease runs out and another claims the job.
jobs = Table(
    "jobs",
    metadata,
    Column("game_id", ForeignKey("games.id", ondelete="CASCADE"), primary_key=True),
    Column("kind", String(16), nullable=False),
    Column("due_at", Float, nullable=False),
    Column("lease_until", Float, nullable=True),
    Column("owner", String(64), nullable=True),
    CheckConstraint("kind IN ('computer', 'timer')", name="kind"),
    Index("ix_jobs_due_at", "due_at"),
)

# The screens a game's last save still owes its chats (many workers on PostgreSQL; SQLite
# writes none): written with the save, deleted once delivered; a dead worker's lease runs out
# and another worker delivers the game's current screens (bot/store/outbox.py).
deliveries = Table(
    "deliveries",
    metadata,
    Column("game_id", ForeignKey("games.id", ondelete="CASCADE"), primary_key=True),
    Column("version", Integer, nullable=False),  # the games row version whose screens are owed
    Column("owner", String(64), nullable=False),  # the worker delivering them
    Column("lease_until", Float, nullable=False),  # epoch s: after it, another worker may
)

# The key of every chat update that changed a game (Telegram update id, Discord interaction
# id), inserted in the change's transaction: a redelivered update finds it and changes nothing.
seen_updates = Table(
    "seen_updates",
    metadata,
    Column("key", String(96), primary_key=True),
    Column("seen_at", Float, nullable=False),
    Index("ix_seen_updates_seen_at", "seen_at"),
)

# Telegram updates fetched by long polling and not yet handled: each batch is written here before
# the next getUpdates acknowledges it to Telegram, and a row goes once its update was handled, so
# a worker killed mid-flood loses no update (bot/adapters/telegram_polling.py).
inbox = Table(
    "inbox",
    metadata,
    Column("key", String(96), primary_key=True),
    Column("body", Text, nullable=False),
    Column("at", Float, nullable=False),
    Index("ix_inbox_at", "at"),
)

seats = Table(
    "seats",
    metadata,
    Column("game_id", ForeignKey("games.id", ondelete="CASCADE"), primary_key=True),
    Column("seat_no", Integer, primary_key=True),
    Column("player_id", ForeignKey("players.id"), nullable=True, index=True),
    Column("name", String(NAME_MAX), nullable=False),
    Column("computer_level", String(16), nullable=True),
)

rounds = Table(
    "rounds",
    metadata,
    Column("game_id", ForeignKey("games.id", ondelete="CASCADE"), primary_key=True),
    Column("round_no", Integer, primary_key=True),
    Column("recorded_at", UTCDateTime, nullable=False),
)

round_scores = Table(
    "round_scores",
    metadata,
    Column("game_id", Integer, primary_key=True),
    Column("round_no", Integer, primary_key=True),
    Column("seat_no", Integer, primary_key=True),
    Column("points", Integer, nullable=False),
    Column("total", Integer, nullable=False),
    ForeignKeyConstraint(
        ["game_id", "round_no"], ["rounds.game_id", "rounds.round_no"], ondelete="CASCADE"
    ),
)

results = Table(
    "results",
    metadata,
    Column("game_id", ForeignKey("games.id", ondelete="CASCADE"), primary_key=True),
    Column("platform", String(16), nullable=False),
    Column("chat_id", String(64), nullable=False),
    Column("rulebook", String(32), nullable=False),
    Column("finished_at", UTCDateTime, nullable=False),
    Index("ix_results_chat", "platform", "chat_id", "finished_at"),  # a chat's season
    Index("ix_results_finished_at", "finished_at"),  # the chats whose season just ended
)

result_seats = Table(
    "result_seats",
    metadata,
    Column("game_id", ForeignKey("results.game_id", ondelete="CASCADE"), primary_key=True),
    Column("seat_no", Integer, primary_key=True),
    # The rated competitor: the human, or the computer level's pseudo-player; NULL = guest.
    Column("player_id", ForeignKey("players.id"), nullable=True, index=True),
    Column("name", String(NAME_MAX), nullable=False),
    Column("computer_level", String(16), nullable=True),
    Column("points", Integer, nullable=False),
    Column("won", Float, nullable=False),
    Column("rank", Integer, nullable=False),
    # /stats' curve: the competitor's rating over all chats and games after this game (NULL:
    # a guest, or a game from before 0009)
    Column("rating", Float, nullable=True),
)

# A chat's ended season, claimed by the worker that posts its final standings (one row per
# chat and season: one poster), the standings kept for /season last and the hall of fame.
seasons = Table(
    "seasons",
    metadata,
    Column("platform", String(16), primary_key=True),
    Column("chat_id", String(64), primary_key=True),
    Column("season", String(16), primary_key=True),  # "2026-12", "2026-W49"
    Column("standings", Json, nullable=False),  # [[name, points, games, wins], …] best first
    Column("owner", String(64), nullable=True),  # the worker posting it
    Column("lease_until", Float, nullable=True),  # epoch s; NULL once posted
    Column("posted_at", UTCDateTime, nullable=True),
)

standings = Table(
    "standings",
    metadata,
    Column("player_id", ForeignKey("players.id"), primary_key=True),
    Column("scope", String(64), primary_key=True),  # a chat id of the player's platform, or "*"
    Column("rulebook", String(32), primary_key=True),  # a rulebook name, or "*"
    Column("mu", Float, nullable=False),
    Column("sigma", Float, nullable=False),
    Column("rating", Float, nullable=False),  # mu - 3 sigma, stored so the leaderboard can sort
    Column("games", Integer, nullable=False),
    Column("wins", Float, nullable=False),
    Column("points", BigInteger, nullable=False),  # sum of final points over `games`
    # the best round's points in this rulebook, its own way (lowest, or highest where the game
    # counts up); NULL in the all-rulebooks ladders (no one way) and before 0009
    Column("best_round", Integer, nullable=True),
    Column("updated_at", UTCDateTime, nullable=False),
    Index("ix_standings_board", "scope", "rulebook", "rating"),
)

# /notify (issue 41 item 2): a person asked to be called privately when a game opens in this
# chat. A row is the flag on; /notify again deletes it.
notify = Table(
    "notify",
    metadata,
    Column("platform", String(16), primary_key=True),
    Column("chat_id", String(64), primary_key=True),
    Column("user_id", String(64), primary_key=True),
    Column("created_at", UTCDateTime, nullable=False),
)

# When a chat's subscribers were last called (epoch s, the service's clock): one round of
# calls per chat per NOTIFY_EVERY (bot/core/notify.py), whichever worker opens the lobby.
notify_pings = Table(
    "notify_pings",
    metadata,
    Column("platform", String(16), primary_key=True),
    Column("chat_id", String(64), primary_key=True),
    Column("at", Float, nullable=False),
)


# The puzzle of the day (issue 41 item 5, bot/core/puzzles.py). What a finished game of a chat
# with puzzles on offers, cut once after it ends (data NULL: nothing worth a day); it goes with
# its game.
puzzle_cuts = Table(
    "puzzle_cuts",
    metadata,
    Column("game_id", ForeignKey("games.id", ondelete="CASCADE"), primary_key=True),
    Column("platform", String(16), nullable=False),
    Column("chat_id", String(64), nullable=False),
    Column("finished_at", UTCDateTime, nullable=False),
    Column("game_name", String(32), nullable=False),  # the hosted game that cut it
    Column("score", Integer, nullable=True),  # higher: a better puzzle (the game's own order)
    Column("data", Json, nullable=True),
    Column("used_on", String(10), nullable=True),  # the day it was posted
    Index("ix_puzzle_cuts_chat", "platform", "chat_id", "finished_at"),
)

# A chat's puzzle of a day (UTC "2026-12-07"), claimed by the worker that posts it (one row per
# chat and day), kept for the tries and the next day's solution.
puzzles = Table(
    "puzzles",
    metadata,
    Column("platform", String(16), primary_key=True),
    Column("chat_id", String(64), primary_key=True),
    Column("day", String(10), primary_key=True),
    Column("game_name", String(32), nullable=True),  # the hosted game that cut it
    Column("data", Json, nullable=True),  # NULL: the chat had no puzzle that day
    Column("owner", String(64), nullable=True),
    Column("lease_until", Float, nullable=True),  # epoch s; NULL once posted
    Column("posted_at", UTCDateTime, nullable=True),
)

# One try per person and puzzle: solved or not (NULL: begun, not ended), the cards laid.
puzzle_tries = Table(
    "puzzle_tries",
    metadata,
    Column("platform", String(16), primary_key=True),
    Column("chat_id", String(64), primary_key=True),
    Column("day", String(10), primary_key=True),
    Column("user_id", String(64), primary_key=True),
    Column("name", String(NAME_MAX), nullable=False),
    Column("solved", Boolean, nullable=True),
    Column("cards", Integer, nullable=True),
    Column("game_id", Integer, nullable=True),  # the try's own game (a row of the solver's chat)
    Column("at", UTCDateTime, nullable=False),
)
