"""Ratings, rated games, profiles, friends and blocks.

Revision ID: 0003
Revises: 0002
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0003"
down_revision = "0002"
branch_labels = None
depends_on = None

_ID = sa.String(32)


def upgrade() -> None:
    op.create_table(
        "ratings",
        sa.Column("player_id", _ID, sa.ForeignKey("players.id"), primary_key=True),
        sa.Column("game", sa.String(16), primary_key=True),
        sa.Column("mu", sa.Float, nullable=False),
        sa.Column("sigma", sa.Float, nullable=False),
        sa.Column("games", sa.Integer, nullable=False),
        sa.Column("wins", sa.Integer, nullable=False),
        sa.Column("updated_at", sa.Float, nullable=False),
    )
    op.create_table(
        "rated_games",
        sa.Column("table_id", _ID, primary_key=True),
        sa.Column("game", sa.String(16), nullable=False),
        sa.Column("finished_at", sa.Float, nullable=False),
        sa.Column("teams", sa.Text, nullable=False),
    )
    op.create_table(
        "rating_changes",
        sa.Column("table_id", _ID, sa.ForeignKey("rated_games.table_id"), primary_key=True),
        sa.Column("player_id", _ID, sa.ForeignKey("players.id"), primary_key=True),
        sa.Column("game", sa.String(16), nullable=False),
        sa.Column("won", sa.Boolean, nullable=False),
        sa.Column("left", sa.Boolean, nullable=False),
        sa.Column("mu_before", sa.Float, nullable=False),
        sa.Column("sigma_before", sa.Float, nullable=False),
        sa.Column("mu", sa.Float, nullable=False),
        sa.Column("sigma", sa.Float, nullable=False),
        sa.Column("finished_at", sa.Float, nullable=False),
    )
    op.create_index("rating_changes_by_game", "rating_changes", ["game", "finished_at"])
    op.create_index("rating_changes_by_player", "rating_changes", ["player_id", "finished_at"])
    op.create_table(
        "profiles",
        sa.Column("player_id", _ID, sa.ForeignKey("players.id"), primary_key=True),
        sa.Column("avatar", sa.String(16), nullable=True),
        sa.Column("name_changed_at", sa.Float, nullable=True),
    )
    op.create_table(
        "friend_requests",
        sa.Column("from_id", _ID, sa.ForeignKey("players.id"), primary_key=True),
        sa.Column("to_id", _ID, sa.ForeignKey("players.id"), primary_key=True),
        sa.Column("at", sa.Float, nullable=False),
    )
    op.create_index("friend_requests_to", "friend_requests", ["to_id"])
    op.create_table(
        "friends",
        sa.Column("player_id", _ID, sa.ForeignKey("players.id"), primary_key=True),
        sa.Column("friend_id", _ID, sa.ForeignKey("players.id"), primary_key=True),
        sa.Column("since", sa.Float, nullable=False),
    )
    op.create_table(
        "blocks",
        sa.Column("blocker_id", _ID, sa.ForeignKey("players.id"), primary_key=True),
        sa.Column("blocked_id", _ID, sa.ForeignKey("players.id"), primary_key=True),
        sa.Column("at", sa.Float, nullable=False),
    )
    op.create_index("blocks_blocked", "blocks", ["blocked_id"])


def downgrade() -> None:
    for table in ("blocks", "friends", "friend_requests", "profiles", "rating_changes",
                  "rated_games", "ratings"):  # fmt: skip
        op.drop_table(table)
