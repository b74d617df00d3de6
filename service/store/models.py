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
    #: absence (``vacation N``): the player's clocks stand still until then
    away_until: datetime | None = None
    away_since: datetime | None = None
    #: days of absence taken in ``vacation_year`` (the allowance is per calendar year)
    vacation_days_used: int = Field(default=0, sa_column_kwargs={"server_default": "0"})
    vacation_year: int = Field(default=0, sa_column_kwargs={"server_default": "0"})
    #: a hard bounce of one of our mails came back: the operator must find a new address
    unreachable: bool = Field(default=False, sa_column_kwargs={"server_default": "0"})
    bounced_at: datetime | None = None
    #: when the last merged reminder mail went out (at most one "you are late" a day)
    last_reminder_at: datetime | None = None
    #: turn mails carry the deadline as an iCalendar event
    calendar: bool = Field(default=False, sa_column_kwargs={"server_default": "0"})
    #: how often the player gets mail (``service.outbound.notify.MAIL_MODES``): ``every`` (a
    #: full mail after each own move), ``turns`` (turn mails and short receipts) or ``daily``
    #: (turn mails and one digest a day instead of receipts)
    mail_mode: str = Field(default="turns", sa_column_kwargs={"server_default": "turns"})
    #: when the last daily digest went out (``service.schedule.digests``)
    last_digest_at: datetime | None = None
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
    #: the deadline policy as JSON (``service.schedule.deadlines.DeadlinePolicy``); "" = defaults
    policy: str = Field(default="", sa_column_kwargs={"server_default": ""})
    #: paused by the operator: no deadline runs; ``paused_left`` seconds remain when resumed
    paused: bool = Field(default=False, sa_column_kwargs={"server_default": "0"})
    paused_left: float | None = None
    #: when the current decision opened (reminders are never due before it)
    turn_started_at: datetime | None = None
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
    #: missed deadlines in a row (a move of the player's own resets it)
    misses: int = Field(default=0, sa_column_kwargs={"server_default": "0"})
    #: the last reminder for this seat (a reminder point already passed is not sent again)
    reminded_at: datetime | None = None
    #: the last missed deadline acted on (so one deadline counts as one miss)
    missed_deadline: datetime | None = None
    #: kept by a bot: decisions are played by the engine's default at once, no mails sent
    bot: bool = Field(default=False, sa_column_kwargs={"server_default": "0"})
    #: offered to a substitute (``takeover GAME``)
    open: bool = Field(default=False, sa_column_kwargs={"server_default": "0"})
    #: abandoned after too many missed deadlines (shown by ``pbem admin stalled``)
    abandoned_at: datetime | None = None
    #: why the seat is kept by a bot: abandoned | resigned | operator
    bot_reason: str | None = None
    #: a pending resignation: the code to reply with and until when it is valid
    resign_code: str | None = None
    resign_code_until: datetime | None = None


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
    #: the worker processing it and since when: a lease (``service.store.claims``) — another
    #: worker takes the mail when its owner died or the lease ran out
    claimed_by: str | None = None
    claimed_at: datetime | None = None
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


class AuditLog(SQLModel, table=True):
    """One operator action (``pbem admin …``): who, when, on which game, what and why.

    Written in the same transaction as the action and its mails, so an action without its
    audit row (or the reverse) cannot exist. ``arguments`` is JSON; an undo keeps the moves it
    took back here (operator-only: this table is never shown to players).
    """

    __tablename__ = "audit_log"

    id: int | None = Field(default=None, primary_key=True)
    at: datetime = Field(index=True)
    operator: str
    game_id: int | None = Field(default=None, index=True)
    command: str
    arguments: str = Field(default="{}", sa_column=Column(Text, nullable=False))
    why: str = ""


class GamePause(SQLModel, table=True):
    """A paused game: its deadline is cleared and the time that was left is kept here, so
    ``resume`` restarts the clock with exactly that much time."""

    __tablename__ = "game_pauses"

    game_id: int = Field(foreign_key="games.id", primary_key=True)
    paused_at: datetime
    remaining_seconds: float | None = None
    operator: str = ""


class Installation(SQLModel, table=True):
    """One row, written by the migration that creates the database: a random id mixed into every
    reply key and thread Message-ID, so nothing issued by another database (same secret, a
    restored backup's sibling, a test copy) is ever valid here."""

    __tablename__ = "installation"

    id: int = Field(default=1, primary_key=True)
    installation_id: str
    created_at: datetime
