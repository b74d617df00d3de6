"""initial schema

Revision ID: 0001
Revises: (none)
Create Date: 2026-11-30 10:25:46.151354
"""

from __future__ import annotations

import sqlalchemy as sa
import sqlmodel
import sqlmodel.sql.sqltypes
from alembic import op

revision = '0001'
down_revision = None
branch_labels = None
depends_on = None


def upgrade() -> None:

    op.create_table('games',
    sa.Column('id', sa.Integer(), nullable=False),
    sa.Column('engine', sqlmodel.sql.sqltypes.AutoString(), nullable=False),
    sa.Column('options', sqlmodel.sql.sqltypes.AutoString(), nullable=False),
    sa.Column('seed', sa.Integer(), nullable=False),
    sa.Column('state', sa.Text(), nullable=False),
    sa.Column('version', sa.Integer(), nullable=False),
    sa.Column('status', sqlmodel.sql.sqltypes.AutoString(), nullable=False),
    sa.Column('deadline', sqlmodel.sql.sqltypes.UTCDateTime(), nullable=True),
    sa.Column('outcome', sqlmodel.sql.sqltypes.AutoString(), nullable=True),
    sa.Column('created_at', sqlmodel.sql.sqltypes.UTCDateTime(), nullable=False),
    sa.Column('updated_at', sqlmodel.sql.sqltypes.UTCDateTime(), nullable=False),
    sa.PrimaryKeyConstraint('id')
    )
    with op.batch_alter_table('games', schema=None) as batch_op:
        batch_op.create_index(batch_op.f('ix_games_deadline'), ['deadline'], unique=False)
        batch_op.create_index(batch_op.f('ix_games_engine'), ['engine'], unique=False)
        batch_op.create_index(batch_op.f('ix_games_status'), ['status'], unique=False)

    op.create_table('inbound_mails',
    sa.Column('id', sa.Integer(), nullable=False),
    sa.Column('message_id', sqlmodel.sql.sqltypes.AutoString(), nullable=False),
    sa.Column('mailbox', sqlmodel.sql.sqltypes.AutoString(), nullable=False),
    sa.Column('uid', sa.Integer(), nullable=True),
    sa.Column('raw', sa.LargeBinary(), nullable=False),
    sa.Column('sender', sqlmodel.sql.sqltypes.AutoString(), nullable=False),
    sa.Column('subject', sqlmodel.sql.sqltypes.AutoString(), nullable=False),
    sa.Column('status', sqlmodel.sql.sqltypes.AutoString(), nullable=False),
    sa.Column('stage', sqlmodel.sql.sqltypes.AutoString(), nullable=True),
    sa.Column('error', sqlmodel.sql.sqltypes.AutoString(), nullable=True),
    sa.Column('attempts', sa.Integer(), nullable=False),
    sa.Column('received_at', sqlmodel.sql.sqltypes.UTCDateTime(), nullable=False),
    sa.Column('processed_at', sqlmodel.sql.sqltypes.UTCDateTime(), nullable=True),
    sa.PrimaryKeyConstraint('id')
    )
    with op.batch_alter_table('inbound_mails', schema=None) as batch_op:
        batch_op.create_index(batch_op.f('ix_inbound_mails_message_id'), ['message_id'], unique=True)
        batch_op.create_index(batch_op.f('ix_inbound_mails_status'), ['status'], unique=False)

    op.create_table('outbox',
    sa.Column('id', sa.Integer(), nullable=False),
    sa.Column('message_id', sqlmodel.sql.sqltypes.AutoString(), nullable=False),
    sa.Column('to_address', sqlmodel.sql.sqltypes.AutoString(), nullable=False),
    sa.Column('kind', sqlmodel.sql.sqltypes.AutoString(), nullable=False),
    sa.Column('game_id', sa.Integer(), nullable=True),
    sa.Column('raw', sa.LargeBinary(), nullable=False),
    sa.Column('status', sqlmodel.sql.sqltypes.AutoString(), nullable=False),
    sa.Column('attempts', sa.Integer(), nullable=False),
    sa.Column('next_attempt_at', sqlmodel.sql.sqltypes.UTCDateTime(), nullable=False),
    sa.Column('last_error', sqlmodel.sql.sqltypes.AutoString(), nullable=True),
    sa.Column('created_at', sqlmodel.sql.sqltypes.UTCDateTime(), nullable=False),
    sa.Column('sent_at', sqlmodel.sql.sqltypes.UTCDateTime(), nullable=True),
    sa.PrimaryKeyConstraint('id')
    )
    with op.batch_alter_table('outbox', schema=None) as batch_op:
        batch_op.create_index(batch_op.f('ix_outbox_game_id'), ['game_id'], unique=False)
        batch_op.create_index(batch_op.f('ix_outbox_message_id'), ['message_id'], unique=True)
        batch_op.create_index(batch_op.f('ix_outbox_status'), ['status'], unique=False)
        batch_op.create_index(batch_op.f('ix_outbox_to_address'), ['to_address'], unique=False)

    op.create_table('players',
    sa.Column('id', sa.Integer(), nullable=False),
    sa.Column('address', sqlmodel.sql.sqltypes.AutoString(), nullable=False),
    sa.Column('name', sqlmodel.sql.sqltypes.AutoString(), nullable=False),
    sa.Column('lang', sqlmodel.sql.sqltypes.AutoString(), nullable=False),
    sa.Column('tz', sqlmodel.sql.sqltypes.AutoString(), nullable=False),
    sa.Column('vacation', sa.Boolean(), nullable=False),
    sa.Column('created_at', sqlmodel.sql.sqltypes.UTCDateTime(), nullable=False),
    sa.PrimaryKeyConstraint('id')
    )
    with op.batch_alter_table('players', schema=None) as batch_op:
        batch_op.create_index(batch_op.f('ix_players_address'), ['address'], unique=True)

    op.create_table('invitations',
    sa.Column('id', sa.Integer(), nullable=False),
    sa.Column('engine', sqlmodel.sql.sqltypes.AutoString(), nullable=False),
    sa.Column('options', sqlmodel.sql.sqltypes.AutoString(), nullable=False),
    sa.Column('host_id', sa.Integer(), nullable=False),
    sa.Column('addresses', sqlmodel.sql.sqltypes.AutoString(), nullable=False),
    sa.Column('accepted', sqlmodel.sql.sqltypes.AutoString(), nullable=False),
    sa.Column('status', sqlmodel.sql.sqltypes.AutoString(), nullable=False),
    sa.Column('game_id', sa.Integer(), nullable=True),
    sa.Column('created_at', sqlmodel.sql.sqltypes.UTCDateTime(), nullable=False),
    sa.ForeignKeyConstraint(['host_id'], ['players.id'], ),
    sa.PrimaryKeyConstraint('id')
    )
    op.create_table('move_log',
    sa.Column('id', sa.Integer(), nullable=False),
    sa.Column('game_id', sa.Integer(), nullable=False),
    sa.Column('seat', sa.Integer(), nullable=True),
    sa.Column('command', sqlmodel.sql.sqltypes.AutoString(), nullable=False),
    sa.Column('action', sqlmodel.sql.sqltypes.AutoString(), nullable=True),
    sa.Column('events', sa.Text(), nullable=False),
    sa.Column('inbound_id', sa.Integer(), nullable=True),
    sa.Column('state_version', sa.Integer(), nullable=False),
    sa.Column('created_at', sqlmodel.sql.sqltypes.UTCDateTime(), nullable=False),
    sa.ForeignKeyConstraint(['game_id'], ['games.id'], ),
    sa.ForeignKeyConstraint(['inbound_id'], ['inbound_mails.id'], ),
    sa.PrimaryKeyConstraint('id')
    )
    with op.batch_alter_table('move_log', schema=None) as batch_op:
        batch_op.create_index(batch_op.f('ix_move_log_game_id'), ['game_id'], unique=False)

    op.create_table('reply_keys',
    sa.Column('key', sqlmodel.sql.sqltypes.AutoString(), nullable=False),
    sa.Column('game_id', sa.Integer(), nullable=False),
    sa.Column('seat', sa.Integer(), nullable=False),
    sa.Column('decision', sqlmodel.sql.sqltypes.AutoString(), nullable=False),
    sa.Column('created_at', sqlmodel.sql.sqltypes.UTCDateTime(), nullable=False),
    sa.ForeignKeyConstraint(['game_id'], ['games.id'], ),
    sa.PrimaryKeyConstraint('key')
    )
    with op.batch_alter_table('reply_keys', schema=None) as batch_op:
        batch_op.create_index(batch_op.f('ix_reply_keys_game_id'), ['game_id'], unique=False)

    op.create_table('seats',
    sa.Column('id', sa.Integer(), nullable=False),
    sa.Column('game_id', sa.Integer(), nullable=False),
    sa.Column('seat', sa.Integer(), nullable=False),
    sa.Column('player_id', sa.Integer(), nullable=False),
    sa.Column('reply_key', sqlmodel.sql.sqltypes.AutoString(), nullable=True),
    sa.Column('last_log_id', sa.Integer(), nullable=False),
    sa.ForeignKeyConstraint(['game_id'], ['games.id'], ),
    sa.ForeignKeyConstraint(['player_id'], ['players.id'], ),
    sa.PrimaryKeyConstraint('id'),
    sa.UniqueConstraint('game_id', 'seat')
    )
    with op.batch_alter_table('seats', schema=None) as batch_op:
        batch_op.create_index(batch_op.f('ix_seats_game_id'), ['game_id'], unique=False)
        batch_op.create_index(batch_op.f('ix_seats_player_id'), ['player_id'], unique=False)




def downgrade() -> None:

    with op.batch_alter_table('seats', schema=None) as batch_op:
        batch_op.drop_index(batch_op.f('ix_seats_player_id'))
        batch_op.drop_index(batch_op.f('ix_seats_game_id'))

    op.drop_table('seats')
    with op.batch_alter_table('reply_keys', schema=None) as batch_op:
        batch_op.drop_index(batch_op.f('ix_reply_keys_game_id'))

    op.drop_table('reply_keys')
    with op.batch_alter_table('move_log', schema=None) as batch_op:
        batch_op.drop_index(batch_op.f('ix_move_log_game_id'))

    op.drop_table('move_log')
    op.drop_table('invitations')
    with op.batch_alter_table('players', schema=None) as batch_op:
        batch_op.drop_index(batch_op.f('ix_players_address'))

    op.drop_table('players')
    with op.batch_alter_table('outbox', schema=None) as batch_op:
        batch_op.drop_index(batch_op.f('ix_outbox_to_address'))
        batch_op.drop_index(batch_op.f('ix_outbox_status'))
        batch_op.drop_index(batch_op.f('ix_outbox_message_id'))
        batch_op.drop_index(batch_op.f('ix_outbox_game_id'))

    op.drop_table('outbox')
    with op.batch_alter_table('inbound_mails', schema=None) as batch_op:
        batch_op.drop_index(batch_op.f('ix_inbound_mails_status'))
        batch_op.drop_index(batch_op.f('ix_inbound_mails_message_id'))

    op.drop_table('inbound_mails')
    with op.batch_alter_table('games', schema=None) as batch_op:
        batch_op.drop_index(batch_op.f('ix_games_status'))
        batch_op.drop_index(batch_op.f('ix_games_engine'))
        batch_op.drop_index(batch_op.f('ix_games_deadline'))

    op.drop_table('games')

