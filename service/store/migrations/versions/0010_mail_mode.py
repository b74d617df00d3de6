"""mail mode: how often a player gets mail (every | turns | daily) and when the last daily digest went out

Revision ID: 0010
Revises: 0009
Create Date: 2026-12-01 18:30:00

The lead re-chains parallel branches' migrations on merge (down_revision may change).
"""

from __future__ import annotations

import sqlalchemy as sa
import sqlmodel
import sqlmodel.sql.sqltypes
from alembic import op

revision = '0010'
down_revision = '0009'
branch_labels = None
depends_on = None


def upgrade() -> None:
    with op.batch_alter_table('players', schema=None) as batch_op:
        batch_op.add_column(sa.Column('mail_mode', sqlmodel.sql.sqltypes.AutoString(), server_default='turns',
                                      nullable=False))
        batch_op.add_column(sa.Column('last_digest_at', sqlmodel.sql.sqltypes.UTCDateTime(), nullable=True))


def downgrade() -> None:
    with op.batch_alter_table('players', schema=None) as batch_op:
        batch_op.drop_column('last_digest_at')
        batch_op.drop_column('mail_mode')
