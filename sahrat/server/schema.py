"""The database tables (SQLAlchemy Core), created by the migrations."""

from __future__ import annotations

from sqlalchemy import (
    BigInteger,
    Boolean,
    CheckConstraint,
    Column,
    Float,
    ForeignKey,
    Index,
    Integer,
    MetaData,
    String,
    Table,
    Text,
)

metadata = MetaData()

#: Server-wide values, such as the key that signs session tokens.
meta = Table(
    "meta",
    metadata,
    Column("key", String(64), primary_key=True),
    Column("value", Text, nullable=False),
)

players = Table(
    "players",
    metadata,
    Column("id", String(32), primary_key=True),
    Column("name", String(64), nullable=False),
    Column("created_at", Float, nullable=False),
    #: An account's name folded for uniqueness (:func:`~sahrat.server.accounts.names.name_key`);
    #: null for guests, whose generated names need not be unique.
    Column("name_key", String(96), nullable=True, unique=True),
    #: argon2id; null for guests.
    Column("password_hash", Text, nullable=True),
    Column("registered_at", Float, nullable=True),
)

#: Signed-in sessions (guests' too); a token names one, and ends when its row says so.
sessions = Table(
    "sessions",
    metadata,
    Column("id", String(32), primary_key=True),
    Column("player_id", String(32), ForeignKey("players.id"), nullable=False, index=True),
    Column("created_at", Float, nullable=False),
    Column("last_used_at", Float, nullable=False),
    Column("ended_at", Float, nullable=True),
    Column("agent", String(200), nullable=True),
)

#: The ledger's accounts: players, the house, each coin table's escrow, and the source
#: that grants are drawn from (the only balance allowed below zero: it is where every
#: coin in play came from).
ledger_accounts = Table(
    "ledger_accounts",
    metadata,
    Column("id", String(48), primary_key=True),
    Column("kind", String(16), nullable=False),
    Column("balance", BigInteger, nullable=False),
    CheckConstraint("balance >= 0 OR kind = 'source'", name="balance_not_negative"),
)

#: One coin movement; its key makes doing it twice impossible.
transfers = Table(
    "transfers",
    metadata,
    Column("id", Integer, primary_key=True, autoincrement=True),
    Column("key", String(96), nullable=False, unique=True),
    Column("kind", String(16), nullable=False),
    Column("table_id", String(32), nullable=True, index=True),
    Column("at", Float, nullable=False),
)

#: A transfer's legs, which sum to zero.
entries = Table(
    "entries",
    metadata,
    Column("transfer_id", Integer, ForeignKey("transfers.id"), primary_key=True),
    Column("account_id", String(48), ForeignKey("ledger_accounts.id"), primary_key=True),
    Column("amount", BigInteger, nullable=False),
    Index("entries_by_account", "account_id", "transfer_id"),
)

#: Who played each finished game, for a player's history: one row per person's seat.
game_players = Table(
    "game_players",
    metadata,
    Column("table_id", String(32), primary_key=True),
    Column("seat", Integer, primary_key=True),
    Column("player_id", String(32), nullable=False),
    Column("game", String(16), nullable=False),
    Column("won", Boolean, nullable=False),
    Column("left", Boolean, nullable=False),
    Column("stake", Integer, nullable=False),
    #: Coins received at the settlement minus the stake.
    Column("coins", Integer, nullable=False),
    Column("finished_at", Float, nullable=False),
    Index("game_players_by_player", "player_id", "finished_at"),
)

#: One row per table; what happens at it is in ``events``.
game_tables = Table(
    "game_tables",
    metadata,
    Column("id", String(32), primary_key=True),
    Column("game", String(16), nullable=False),
    Column("options", Text, nullable=False),
    Column("seats", Integer, nullable=False),
    Column("kind", String(16), nullable=False),
    Column("code", String(16), nullable=True, unique=True),
    Column("host", String(32), nullable=True),
    Column("status", String(16), nullable=False, index=True),
    #: Coins each seat puts in; 0 at a free table.
    Column("stake", Integer, nullable=False, server_default="0"),
    Column("created_at", Float, nullable=False),
    Column("finished_at", Float, nullable=True),
)

#: A table's event log: every accepted change, in order; a table is restored by replaying it.
events = Table(
    "events",
    metadata,
    Column("table_id", String(32), primary_key=True),
    Column("seq", Integer, primary_key=True),
    Column("kind", String(16), nullable=False),
    Column("data", Text, nullable=False),
    Column("at", Float, nullable=False),
)

#: The record of each finished game (``fairness.md`` §4), seed revealed.
records = Table(
    "records",
    metadata,
    Column("table_id", String(32), primary_key=True),
    Column("record", Text, nullable=False),
    Column("finished_at", Float, nullable=False),
)
