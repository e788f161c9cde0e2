"""The database tables (SQLAlchemy Core), created by the migrations."""

from __future__ import annotations

from sqlalchemy import Column, Float, Integer, MetaData, String, Table, Text

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
