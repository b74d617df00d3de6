"""deadlines: deadline policy per game, seat flags (bot, open, misses), absences, bounces

Revision ID: 0005
Revises: 0002
Create Date: 2026-12-01 15:30:00

The lead re-chains parallel branches' migrations on merge (down_revision may change).
"""

from __future__ import annotations

import sqlalchemy as sa
import sqlmodel
import sqlmodel.sql.sqltypes
from alembic import op

revision = '0005'
down_revision = '0004'
branch_labels = None
depends_on = None


def upgrade() -> None:
    dt = sqlmodel.sql.sqltypes.UTCDateTime
    s = sqlmodel.sql.sqltypes.AutoString
    with op.batch_alter_table('players', schema=None) as batch_op:
        batch_op.add_column(sa.Column('away_until', dt(), nullable=True))
        batch_op.add_column(sa.Column('away_since', dt(), nullable=True))
        batch_op.add_column(sa.Column('vacation_days_used', sa.Integer(), server_default='0', nullable=False))
        batch_op.add_column(sa.Column('vacation_year', sa.Integer(), server_default='0', nullable=False))
        batch_op.add_column(sa.Column('unreachable', sa.Boolean(), server_default='0', nullable=False))
        batch_op.add_column(sa.Column('bounced_at', dt(), nullable=True))
        batch_op.add_column(sa.Column('last_reminder_at', dt(), nullable=True))
        batch_op.add_column(sa.Column('calendar', sa.Boolean(), server_default='0', nullable=False))
    with op.batch_alter_table('games', schema=None) as batch_op:
        batch_op.add_column(sa.Column('policy', s(), server_default='', nullable=False))
        batch_op.add_column(sa.Column('paused', sa.Boolean(), server_default='0', nullable=False))
        batch_op.add_column(sa.Column('paused_left', sa.Float(), nullable=True))
        batch_op.add_column(sa.Column('turn_started_at', dt(), nullable=True))
    with op.batch_alter_table('seats', schema=None) as batch_op:
        batch_op.add_column(sa.Column('misses', sa.Integer(), server_default='0', nullable=False))
        batch_op.add_column(sa.Column('reminded_at', dt(), nullable=True))
        batch_op.add_column(sa.Column('missed_deadline', dt(), nullable=True))
        batch_op.add_column(sa.Column('bot', sa.Boolean(), server_default='0', nullable=False))
        batch_op.add_column(sa.Column('open', sa.Boolean(), server_default='0', nullable=False))
        batch_op.add_column(sa.Column('abandoned_at', dt(), nullable=True))
        batch_op.add_column(sa.Column('bot_reason', s(), nullable=True))
        batch_op.add_column(sa.Column('resign_code', s(), nullable=True))
        batch_op.add_column(sa.Column('resign_code_until', dt(), nullable=True))


def downgrade() -> None:
    with op.batch_alter_table('seats', schema=None) as batch_op:
        for name in ('resign_code_until', 'resign_code', 'bot_reason', 'abandoned_at', 'open', 'bot',
                     'missed_deadline', 'reminded_at', 'misses'):
            batch_op.drop_column(name)
    with op.batch_alter_table('games', schema=None) as batch_op:
        for name in ('turn_started_at', 'paused_left', 'paused', 'policy'):
            batch_op.drop_column(name)
    with op.batch_alter_table('players', schema=None) as batch_op:
        for name in ('calendar', 'last_reminder_at', 'bounced_at', 'unreachable', 'vacation_year',
                     'vacation_days_used', 'away_since', 'away_until'):
            batch_op.drop_column(name)
