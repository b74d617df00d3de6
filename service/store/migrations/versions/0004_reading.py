"""installation id: a random id per database, mixed into reply keys and Message-IDs

Revision ID: 0004
Revises: 0002
"""

from __future__ import annotations

import secrets
from datetime import UTC, datetime

import sqlalchemy as sa
import sqlmodel.sql.sqltypes
from alembic import op

revision = "0004"
down_revision = "0003"
branch_labels = None
depends_on = None


def upgrade() -> None:
    table = op.create_table(
        "installation",
        sa.Column("id", sa.Integer(), nullable=False),
        sa.Column("installation_id", sa.String(), nullable=False),
        sa.Column("created_at", sqlmodel.sql.sqltypes.UTCDateTime(), nullable=False),
        sa.PrimaryKeyConstraint("id"),
    )
    op.bulk_insert(table, [{"id": 1, "installation_id": secrets.token_hex(16), "created_at": datetime.now(UTC)}])


def downgrade() -> None:
    op.drop_table("installation")
