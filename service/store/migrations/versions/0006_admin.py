"""admin: audit log and game pauses

Revision ID: 0006
Revises: 0002
Create Date: 2026-12-01 15:20:00
"""

from __future__ import annotations

import sqlalchemy as sa
import sqlmodel
import sqlmodel.sql.sqltypes
from alembic import op

revision = '0006'
down_revision = '0005'
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.create_table('audit_log',
    sa.Column('id', sa.Integer(), nullable=False),
    sa.Column('at', sqlmodel.sql.sqltypes.UTCDateTime(), nullable=False),
    sa.Column('operator', sqlmodel.sql.sqltypes.AutoString(), nullable=False),
    sa.Column('game_id', sa.Integer(), nullable=True),
    sa.Column('command', sqlmodel.sql.sqltypes.AutoString(), nullable=False),
    sa.Column('arguments', sa.Text(), nullable=False),
    sa.Column('why', sqlmodel.sql.sqltypes.AutoString(), nullable=False),
    sa.PrimaryKeyConstraint('id')
    )
    with op.batch_alter_table('audit_log', schema=None) as batch_op:
        batch_op.create_index(batch_op.f('ix_audit_log_at'), ['at'], unique=False)
        batch_op.create_index(batch_op.f('ix_audit_log_game_id'), ['game_id'], unique=False)

    op.create_table('game_pauses',
    sa.Column('game_id', sa.Integer(), nullable=False),
    sa.Column('paused_at', sqlmodel.sql.sqltypes.UTCDateTime(), nullable=False),
    sa.Column('remaining_seconds', sa.Float(), nullable=True),
    sa.Column('operator', sqlmodel.sql.sqltypes.AutoString(), nullable=False),
    sa.ForeignKeyConstraint(['game_id'], ['games.id'], ),
    sa.PrimaryKeyConstraint('game_id')
    )


def downgrade() -> None:
    op.drop_table('game_pauses')
    with op.batch_alter_table('audit_log', schema=None) as batch_op:
        batch_op.drop_index(batch_op.f('ix_audit_log_game_id'))
        batch_op.drop_index(batch_op.f('ix_audit_log_at'))
    op.drop_table('audit_log')
