"""the language a legend was played in

Revision ID: 0005
Revises: 0004
Create Date: 2026-12-01
"""

from __future__ import annotations

from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op

revision: str = "0005"
down_revision: str | None = "0004"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None


def upgrade() -> None:
    # Every game before rooms had a language was played in English.
    with op.batch_alter_table("legend") as batch:
        batch.add_column(
            sa.Column("language", sa.String(length=8), nullable=False, server_default="en")
        )


def downgrade() -> None:
    with op.batch_alter_table("legend") as batch:
        batch.drop_column("language")
