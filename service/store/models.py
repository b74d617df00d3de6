"""The database schema (SQLModel). Changes go through Alembic migrations in ``service/store/migrations``.

Tables follow the life of a move: an ``InboundMail`` is stored first, becomes a ``MoveLog``
row and a new ``Game`` state, and every mail it causes is an ``Outbox`` row — all written
in one transaction. Times are aware UTC datetimes (see ``service.clock``).
"""

from __future__ import annotations

from datetime import datetime

from sqlalchemy import Column, LargeBinary, Text, UniqueConstraint
from sqlmodel import Field, SQLModel


class Player(SQLModel, table=True):
    __tablename__ = "players"

    id: int | None = Field(default=None, primary_key=True)
    address: str = Field(index=True, unique=True)
    name: str
    lang: str = "en"
    tz: str = "UTC"
    vacation: bool = False
    created_at: datetime


class Game(SQLModel, table=True):
    """One game. ``version`` is the optimistic lock: every write checks and bumps it."""

    __tablename__ = "games"

    id: int | None = Field(default=None, primary_key=True)
    engine: str = Field(index=True)
    options: str = "{}"
    seed: int
    state: str = Field(sa_column=Column(Text, nullable=False))
    version: int = 0
    status: str = Field(default="active", index=True)  # active | finished | resigned
    deadline: datetime | None = Field(default=None, index=True)
    outcome: str | None = None
    created_at: datetime
    updated_at: datetime


class GameSeat(SQLModel, table=True):
    """A player's seat. ``last_log_id`` marks how far the "since your last mail" digest got."""

    __tablename__ = "seats"
    __table_args__ = (UniqueConstraint("game_id", "seat"),)

    id: int | None = Field(default=None, primary_key=True)
    game_id: int = Field(foreign_key="games.id", index=True)
    seat: int
    player_id: int = Field(foreign_key="players.id", index=True)
    reply_key: str | None = None
    last_log_id: int = 0


class ReplyKey(SQLModel, table=True):
    """Every reply key ever issued, so an old key is known as *outdated*, not as unknown."""

    __tablename__ = "reply_keys"

    key: str = Field(primary_key=True)
    game_id: int = Field(foreign_key="games.id", index=True)
    seat: int
    decision: str
    created_at: datetime


class MoveLog(SQLModel, table=True):
    """An applied move (or a service action such as a resignation) and what it caused."""

    __tablename__ = "move_log"

    id: int | None = Field(default=None, primary_key=True)
    game_id: int = Field(foreign_key="games.id", index=True)
    seat: int | None = None
    command: str = ""
    action: str | None = None
    events: str = Field(default="[]", sa_column=Column(Text, nullable=False))
    inbound_id: int | None = Field(default=None, foreign_key="inbound_mails.id")
    state_version: int = 0
    created_at: datetime


class InboundMail(SQLModel, table=True):
    """A received mail, stored before anything else happens (never lose a move)."""

    __tablename__ = "inbound_mails"

    id: int | None = Field(default=None, primary_key=True)
    message_id: str = Field(index=True, unique=True)
    mailbox: str = "INBOX"
    uid: int | None = None
    raw: bytes = Field(sa_column=Column(LargeBinary, nullable=False))
    sender: str = ""
    subject: str = ""
    status: str = Field(default="new", index=True)  # new | applied | rejected | ignored | quarantined
    stage: str | None = None
    error: str | None = None
    attempts: int = 0
    received_at: datetime
    processed_at: datetime | None = None
    #: when the player was told the reply waits for a passing fault (told once per mail)
    delay_noticed_at: datetime | None = None


class Outbox(SQLModel, table=True):
    """A rendered mail waiting to be sent, with a stable Message-ID so a resend is recognisable."""

    __tablename__ = "outbox"

    id: int | None = Field(default=None, primary_key=True)
    message_id: str = Field(index=True, unique=True)
    to_address: str = Field(index=True)
    kind: str = "info"  # started | turn | received | over | rejected | help | info | error
    game_id: int | None = Field(default=None, index=True)
    #: the reply key this mail hands out: a reply pointing at this Message-ID (In-Reply-To)
    #: routes to it even when both the plus-address and the subject were lost
    reply_key: str | None = Field(default=None, index=True)
    raw: bytes = Field(sa_column=Column(LargeBinary, nullable=False))
    status: str = Field(default="pending", index=True)  # pending | sending | sent | failed
    attempts: int = 0
    #: a mail is claimed (status ``sending``) before it is handed to SMTP: a claim nobody
    #: finished (the process died) is sent again at most once (``crash_resends``)
    claimed_at: datetime | None = None
    claimed_by: str | None = None
    #: SMTP servers that accepted this mail (its copies); bounded by 1 + ``crash_resends``
    sends: int = 0
    crash_resends: int = 0
    next_attempt_at: datetime
    last_error: str | None = None
    created_at: datetime
    sent_at: datetime | None = None


class Invitation(SQLModel, table=True):
    """A game proposed by mail (``new tac with b@x c@x d@x``), started when all accepted."""

    __tablename__ = "invitations"

    id: int | None = Field(default=None, primary_key=True)
    engine: str
    options: str = "{}"
    host_id: int = Field(foreign_key="players.id")
    addresses: str = "[]"  # JSON list, seat order, host first
    accepted: str = "[]"  # JSON list of addresses that accepted
    status: str = "open"  # open | started
    game_id: int | None = None
    created_at: datetime
