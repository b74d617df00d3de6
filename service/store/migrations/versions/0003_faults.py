"""faults: outbox claims and send counts, the delay notice of a waiting reply

Revision ID: 0003
Revises: 0002
Create Date: 2026-12-01 15:20:00
"""

from __future__ import annotations

import sqlalchemy as sa
import sqlmodel
import sqlmodel.sql.sqltypes
from alembic import op

revision = '0003'
down_revision = '0002'
branch_labels = None
depends_on = None


def upgrade() -> None:
    with op.batch_alter_table('outbox', schema=None) as batch_op:
        batch_op.add_column(sa.Column('claimed_at', sqlmodel.sql.sqltypes.UTCDateTime(), nullable=True))
        batch_op.add_column(sa.Column('claimed_by', sqlmodel.sql.sqltypes.AutoString(), nullable=True))
        batch_op.add_column(sa.Column('sends', sa.Integer(), nullable=False, server_default='0'))
        batch_op.add_column(sa.Column('crash_resends', sa.Integer(), nullable=False, server_default='0'))
    with op.batch_alter_table('inbound_mails', schema=None) as batch_op:
        batch_op.add_column(sa.Column('delay_noticed_at', sqlmodel.sql.sqltypes.UTCDateTime(), nullable=True))


def downgrade() -> None:
    with op.batch_alter_table('inbound_mails', schema=None) as batch_op:
        batch_op.drop_column('delay_noticed_at')
    with op.batch_alter_table('outbox', schema=None) as batch_op:
        batch_op.drop_column('crash_resends')
        batch_op.drop_column('sends')
        batch_op.drop_column('claimed_by')
        batch_op.drop_column('claimed_at')
