"""game checkpoints in the action log; shared presence and rate limits

Revision ID: 0002
Revises: 0001
Create Date: 2026-11-30
"""

from __future__ import annotations

from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op

revision: str = "0002"
down_revision: str | None = "0001"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None


def upgrade() -> None:
    with op.batch_alter_table("action") as batch:
        batch.add_column(sa.Column("state", sa.JSON(), nullable=True))

    op.create_table(
        "presence",
        sa.Column("room", sa.String(length=12), nullable=False),
        sa.Column("pid", sa.Integer(), nullable=False),
        sa.Column("seen_at", sa.DateTime(timezone=True), nullable=False),
        sa.PrimaryKeyConstraint("room", "pid"),
    )
    op.create_index("ix_presence_seen_at", "presence", ["seen_at"])

    op.create_table(
        "rate_limit",
        sa.Column("key", sa.String(length=80), nullable=False),
        sa.Column("window", sa.Integer(), nullable=False),
        sa.Column("count", sa.Integer(), nullable=False),
        sa.PrimaryKeyConstraint("key", "window"),
    )


def downgrade() -> None:
    op.drop_table("rate_limit")
    op.drop_index("ix_presence_seen_at", table_name="presence")
    op.drop_table("presence")
    with op.batch_alter_table("action") as batch:
        batch.drop_column("state")
