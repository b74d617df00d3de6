"""outbox reply key

Revision ID: 0002
Revises: 0001
Create Date: 2026-11-30 11:23:18.213601
"""

from __future__ import annotations

import sqlalchemy as sa
import sqlmodel
import sqlmodel.sql.sqltypes
from alembic import op

revision = '0002'
down_revision = '0001'
branch_labels = None
depends_on = None


def upgrade() -> None:

    with op.batch_alter_table('outbox', schema=None) as batch_op:
        batch_op.add_column(sa.Column('reply_key', sqlmodel.sql.sqltypes.AutoString(), nullable=True))
        batch_op.create_index(batch_op.f('ix_outbox_reply_key'), ['reply_key'], unique=False)




def downgrade() -> None:

    with op.batch_alter_table('outbox', schema=None) as batch_op:
        batch_op.drop_index(batch_op.f('ix_outbox_reply_key'))
        batch_op.drop_column('reply_key')


