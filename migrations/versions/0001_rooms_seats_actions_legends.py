"""rooms, seats, actions, legends

Revision ID: 0001
Revises:
Create Date: 2026-11-30
"""

from __future__ import annotations

from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op

revision: str = "0001"
down_revision: str | None = None
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None


def upgrade() -> None:
    op.create_table(
        "room",
        sa.Column("code", sa.String(length=12), nullable=False),
        sa.Column("seq", sa.Integer(), nullable=False),
        sa.Column("phase", sa.String(length=16), nullable=False),
        sa.Column("state", sa.JSON(), nullable=False),
        sa.Column("created_at", sa.DateTime(timezone=True), nullable=False),
        sa.Column("updated_at", sa.DateTime(timezone=True), nullable=False),
        sa.PrimaryKeyConstraint("code"),
    )
    op.create_index("ix_room_updated_at", "room", ["updated_at"])

    op.create_table(
        "seat",
        sa.Column("token_hash", sa.String(length=64), nullable=False),
        sa.Column("room", sa.String(length=12), nullable=False),
        sa.Column("pid", sa.Integer(), nullable=False),
        sa.Column("created_at", sa.DateTime(timezone=True), nullable=False),
        sa.ForeignKeyConstraint(["room"], ["room.code"], ondelete="CASCADE"),
        sa.PrimaryKeyConstraint("token_hash"),
    )
    op.create_index("ix_seat_room", "seat", ["room"])

    op.create_table(
        "action",
        sa.Column("id", sa.Integer(), nullable=False),
        sa.Column("room", sa.String(length=12), nullable=False),
        sa.Column("seq", sa.Integer(), nullable=False),
        sa.Column("seat", sa.Integer(), nullable=True),
        sa.Column("action", sa.JSON(), nullable=False),
        sa.Column("at", sa.DateTime(timezone=True), nullable=False),
        sa.ForeignKeyConstraint(["room"], ["room.code"], ondelete="CASCADE"),
        sa.PrimaryKeyConstraint("id"),
        sa.UniqueConstraint("room", "seq", name="uq_action_room_seq"),
    )

    op.create_table(
        "legend",
        sa.Column("id", sa.Integer(), nullable=False),
        sa.Column("room", sa.String(length=12), nullable=False),
        sa.Column("finished_at", sa.DateTime(timezone=True), nullable=False),
        sa.Column("players", sa.JSON(), nullable=False),
        sa.Column("player_count", sa.Integer(), nullable=False),
        sa.Column("decoys", sa.Integer(), nullable=False),
        sa.Column("score", sa.Integer(), nullable=False),
        sa.Column("max", sa.Integer(), nullable=False),
        sa.PrimaryKeyConstraint("id"),
    )
    op.create_index("ix_legend_room", "legend", ["room"])
    op.create_index("ix_legend_count_score", "legend", ["player_count", "score"])


def downgrade() -> None:
    op.drop_index("ix_legend_count_score", table_name="legend")
    op.drop_index("ix_legend_room", table_name="legend")
    op.drop_table("legend")
    op.drop_table("action")
    op.drop_index("ix_seat_room", table_name="seat")
    op.drop_table("seat")
    op.drop_index("ix_room_updated_at", table_name="room")
    op.drop_table("room")
