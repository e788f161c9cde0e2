"""Accounts, sessions, the coin ledger, coin tables, players' game history.

Revision ID: 0002
Revises: 0001
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0002"
down_revision = "0001"
branch_labels = None
depends_on = None


def upgrade() -> None:
    with op.batch_alter_table("players") as batch:
        batch.add_column(sa.Column("name_key", sa.String(96), nullable=True))
        batch.add_column(sa.Column("password_hash", sa.Text, nullable=True))
        batch.add_column(sa.Column("registered_at", sa.Float, nullable=True))
        batch.create_unique_constraint("uq_players_name_key", ["name_key"])
    with op.batch_alter_table("game_tables") as batch:
        batch.add_column(sa.Column("stake", sa.Integer, nullable=False, server_default="0"))
    op.create_table(
        "sessions",
        sa.Column("id", sa.String(32), primary_key=True),
        sa.Column("player_id", sa.String(32), sa.ForeignKey("players.id"), nullable=False),
        sa.Column("created_at", sa.Float, nullable=False),
        sa.Column("last_used_at", sa.Float, nullable=False),
        sa.Column("ended_at", sa.Float, nullable=True),
        sa.Column("agent", sa.String(200), nullable=True),
    )
    op.create_index("ix_sessions_player_id", "sessions", ["player_id"])
    op.create_table(
        "ledger_accounts",
        sa.Column("id", sa.String(48), primary_key=True),
        sa.Column("kind", sa.String(16), nullable=False),
        sa.Column("balance", sa.BigInteger, nullable=False),
        sa.CheckConstraint("balance >= 0 OR kind = 'source'", name="balance_not_negative"),
    )
    op.create_table(
        "transfers",
        sa.Column("id", sa.Integer, primary_key=True, autoincrement=True),
        sa.Column("key", sa.String(96), nullable=False, unique=True),
        sa.Column("kind", sa.String(16), nullable=False),
        sa.Column("table_id", sa.String(32), nullable=True),
        sa.Column("at", sa.Float, nullable=False),
    )
    op.create_index("ix_transfers_table_id", "transfers", ["table_id"])
    op.create_table(
        "entries",
        sa.Column("transfer_id", sa.Integer, sa.ForeignKey("transfers.id"), primary_key=True),
        sa.Column(
            "account_id", sa.String(48), sa.ForeignKey("ledger_accounts.id"), primary_key=True
        ),
        sa.Column("amount", sa.BigInteger, nullable=False),
    )
    op.create_index("entries_by_account", "entries", ["account_id", "transfer_id"])
    op.create_table(
        "game_players",
        sa.Column("table_id", sa.String(32), primary_key=True),
        sa.Column("seat", sa.Integer, primary_key=True),
        sa.Column("player_id", sa.String(32), nullable=False),
        sa.Column("game", sa.String(16), nullable=False),
        sa.Column("won", sa.Boolean, nullable=False),
        sa.Column("left", sa.Boolean, nullable=False),
        sa.Column("stake", sa.Integer, nullable=False),
        sa.Column("coins", sa.Integer, nullable=False),
        sa.Column("finished_at", sa.Float, nullable=False),
    )
    op.create_index("game_players_by_player", "game_players", ["player_id", "finished_at"])


def downgrade() -> None:
    for table in ("game_players", "entries", "transfers", "ledger_accounts", "sessions"):
        op.drop_table(table)
    with op.batch_alter_table("game_tables") as batch:
        batch.drop_column("stake")
    with op.batch_alter_table("players") as batch:
        batch.drop_constraint("uq_players_name_key", type_="unique")
        batch.drop_column("registered_at")
        batch.drop_column("password_hash")
        batch.drop_column("name_key")
