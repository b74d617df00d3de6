"""league tie-breaks and drops: the ordered chain a league's standings are sorted by; when
and why a member was dropped (for the round summary)

Revision ID: 0008
Revises: 0007
Create Date: 2026-12-01 18:25:00
"""

from __future__ import annotations

import sqlalchemy as sa
import sqlmodel
import sqlmodel.sql.sqltypes
from alembic import op

revision = '0008'
down_revision = '0007'
branch_labels = None
depends_on = None


def upgrade() -> None:
    with op.batch_alter_table('leagues', schema=None) as batch_op:
        batch_op.add_column(sa.Column('tie_breaks', sqlmodel.sql.sqltypes.AutoString(), nullable=False,
                                      server_default='points,buchholz,wins,rating'))
    with op.batch_alter_table('league_members', schema=None) as batch_op:
        batch_op.add_column(sa.Column('dropped_round', sa.Integer(), nullable=True))
        batch_op.add_column(sa.Column('drop_reason', sqlmodel.sql.sqltypes.AutoString(), nullable=False,
                                      server_default=''))


def downgrade() -> None:
    with op.batch_alter_table('league_members', schema=None) as batch_op:
        batch_op.drop_column('drop_reason')
        batch_op.drop_column('dropped_round')
    with op.batch_alter_table('leagues', schema=None) as batch_op:
        batch_op.drop_column('tie_breaks')
