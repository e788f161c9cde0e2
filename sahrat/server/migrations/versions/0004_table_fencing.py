"""Table fences: the newest fencing token (and its node) each table's log has accepted.

Revision ID: 0004
Revises: 0003
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0004"
down_revision = "0003"
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.create_table(
        "table_fences",
        sa.Column("table_id", sa.String(32), primary_key=True),
        sa.Column("fence", sa.BigInteger, nullable=False),
        sa.Column("node_id", sa.String(64), nullable=False),
    )


def downgrade() -> None:
    op.drop_table("table_fences")
