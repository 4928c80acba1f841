"""the device a seat token stands for

Revision ID: 0004
Revises: 0003
Create Date: 2026-12-01
"""

from __future__ import annotations

from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op

revision: str = "0004"
down_revision: str | None = "0003"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None


def upgrade() -> None:
    # "" is the device that took the seat; a seat claimed from another device names
    # that claim. Existing tokens are all of the first kind.
    with op.batch_alter_table("seat") as batch:
        batch.add_column(
            sa.Column("device", sa.String(length=32), nullable=False, server_default="")
        )


def downgrade() -> None:
    with op.batch_alter_table("seat") as batch:
        batch.drop_column("device")
