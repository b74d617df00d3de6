"""Claiming work when several workers share one database: inbound mails and outbox rows.

Every ``pbem serve`` process is a worker with an owner token (``host:pid:nonce``, plus the
operator's ``--worker-id`` when given). A worker takes rows in one short transaction,

    SELECT id … WHERE <claimable> ORDER BY id LIMIT :n FOR UPDATE SKIP LOCKED;
    UPDATE … SET claimed_by = :me, claimed_at = :now WHERE id IN (…) AND <claimable> RETURNING …

(as two statements in one transaction: PostgreSQL re-runs a ``LIMIT`` subquery inside
``IN`` once per outer row, which claimed every pending row at once), so on PostgreSQL two
claimers running at the same instant lock disjoint rows and never wait for each other, and
the re-check in the ``UPDATE`` makes a claim a compare-and-set. On SQLite SQLAlchemy renders
no ``FOR UPDATE`` and the re-check alone decides (one writer at a time; ``RETURNING`` says
which rows were won): the same code path serves both.

A claim is a lease, not a lock held by a connection: a worker that dies leaves its rows
claimed. They become claimable again when the lease (``claimed_at``) runs out, or at once
when the owner is a process on this host that no longer exists (``owner_alive``).
"""

from __future__ import annotations

import functools
import os
import socket
import uuid
from collections.abc import Collection
from datetime import datetime, timedelta
from typing import Any

from sqlalchemy import and_, bindparam, false, or_, select, update
from sqlalchemy.engine import Connection, Engine
from sqlalchemy.sql.elements import ColumnElement
from sqlmodel import col

from service.store.models import InboundMail, Outbox


def is_postgres(engine: Engine) -> bool:
    """The one dialect switch of the claim/lock layer: PostgreSQL gets row and advisory
    locks; SQLite (one writer, one machine) runs as a single worker always did."""
    return engine.dialect.name == "postgresql"


@functools.cache
def process_space() -> str:
    """Where a pid means one process: the host name plus the pid namespace's identity.

    Two containers on one host network share the host name but each has its own pids — both
    `pbem serve` are pid 1 there — so host and pid alone would make each see the other's
    claims as its own dead ones and take them (found building the container image)."""
    try:
        namespace = os.stat("/proc/self/ns/pid").st_ino
    except OSError:  # no /proc (not Linux): the host name alone, as before
        return socket.gethostname()
    return f"{socket.gethostname()}@{namespace}"


def worker_token(worker_id: str | None = None) -> str:
    """An owner token for claims: ``host@pidns:pid:nonce`` (what ``owner_alive`` can check),
    with the operator's worker id appended when it is not the default ``host:pid``."""
    host, pid = socket.gethostname(), os.getpid()
    token = f"{process_space()}:{pid}:{uuid.uuid4().hex[:8]}"
    if worker_id and worker_id != f"{host}:{pid}":
        token += f":{worker_id}"
    return token


def owner_alive(owner: str | None, me: str, *, mine_in_hand: bool = True) -> bool:
    """Whether the worker ``owner`` may still be working on a row it claimed.

    Another host's claim — or another pid namespace's on this host (a container) — is trusted
    until its lease runs out (we cannot see its processes). In our own process space a claim
    is dead when its pid no longer runs, or when it is this process's
    but not ``me`` (a Service of ours that is gone). ``mine_in_hand=False`` says that this
    worker holds none of its claims in hand right now, so its own old claims are free too.
    """
    if not owner:
        return False
    if owner == me:
        return mine_in_hand
    host, _, rest = owner.partition(":")
    pid_text = rest.partition(":")[0]
    if host != process_space():
        return True
    if not pid_text.isdigit() or int(pid_text) == os.getpid():
        return False
    try:
        os.kill(int(pid_text), 0)
    except ProcessLookupError:
        return False
    except PermissionError:
        return True
    return True


def _claimable(table: Any, now: datetime, lease: timedelta, gone: Collection[str]) -> ColumnElement[bool]:
    """Not claimed, or claimed by a worker that is gone or whose lease ran out."""
    return or_(col(table.claimed_by).is_(None), col(table.claimed_at) < now - lease,
               col(table.claimed_by).in_(list(gone)) if gone else false())


def claim_inbound(engine: Engine, me: str, now: datetime, lease: timedelta, *, limit: int = 8,
                  ids: Collection[int] | None = None) -> dict[int, int]:
    """Claim up to ``limit`` stored mails still ``new`` (only ``ids`` when given), oldest
    first; returns ``{id: attempts}`` with each mail's attempt count after this claim.

    The claim counts as an attempt in the same commit (a crash while processing still
    counts towards ``max_crashes``). ``me``'s own older claims are free again: a worker
    claims only when it holds no mail in hand.
    """
    with engine.begin() as conn:
        holders = conn.execute(select(col(InboundMail.claimed_by)).distinct()
                               .where(col(InboundMail.status) == "new", col(InboundMail.claimed_by).is_not(None))
                               ).scalars().all()
        gone = [h for h in holders if h is not None and not owner_alive(h, me, mine_in_hand=False)]
        claimable = and_(col(InboundMail.status) == "new", _claimable(InboundMail, now, lease, gone))
        pick = select(col(InboundMail.id)).where(claimable)
        if ids is not None:
            pick = pick.where(col(InboundMail.id).in_(list(ids)))
        picked = conn.execute(pick.order_by(col(InboundMail.id)).limit(limit)
                              .with_for_update(skip_locked=True)).scalars().all()
        if not picked:
            return {}
        rows = conn.execute(
            update(InboundMail).where(col(InboundMail.id).in_(picked), claimable)
            .values(claimed_by=me, claimed_at=now, attempts=col(InboundMail.attempts) + 1)
            .returning(col(InboundMail.id), col(InboundMail.attempts))
        ).all()
    return {int(i): int(a) for i, a in rows if i is not None}


def release_inbound(engine: Engine, me: str, ids: Collection[int], *, uncount: int = 0) -> None:
    """Give back claims of ``me`` not worked on (``uncount`` attempts taken back each)."""
    if not ids:
        return
    with engine.begin() as conn:
        conn.execute(update(InboundMail)
                     .where(col(InboundMail.id).in_(list(ids)), col(InboundMail.claimed_by) == me,
                            col(InboundMail.attempts) >= uncount)
                     .values(claimed_by=None, claimed_at=None, attempts=col(InboundMail.attempts) - uncount))


def claim_outbox(engine: Engine, me: str, now: datetime) -> tuple[int, str, bytes] | None:
    """Claim the oldest due ``pending`` outbox mail (``sending``, claimed by ``me``); its
    ``(id, to, raw)``, or None when nothing is due. One mail at a time, right before it is
    handed to SMTP: a crash leaves at most this one mail of the worker in doubt."""
    with engine.begin() as conn:
        return claim_outbox_in(conn, me, now)


def claim_outbox_in(conn: Connection, me: str, now: datetime) -> tuple[int, str, bytes] | None:
    """``claim_outbox`` inside the caller's transaction: the outbox records a sent mail and
    claims the next one in ONE commit (half the commits per mail sent)."""
    picked = conn.execute(_PICK_OUTBOX, {"now": now}).scalar()
    if picked is None:
        return None
    row = conn.execute(_CLAIM_OUTBOX, {"picked": picked, "now": now, "me": me}).first()
    return None if row is None or row[0] is None else (int(row[0]), str(row[1]), bytes(row[2]))


#: the claim's two statements, built once (building a statement cost more than running it)
_PENDING = and_(col(Outbox.status) == "pending", col(Outbox.next_attempt_at) <= bindparam("now"))
_PICK_OUTBOX = (select(col(Outbox.id)).where(_PENDING).order_by(col(Outbox.id)).limit(1)
                .with_for_update(skip_locked=True))
_CLAIM_OUTBOX = (update(Outbox).where(col(Outbox.id) == bindparam("picked"), _PENDING)
                 .values(status="sending", claimed_at=bindparam("now"), claimed_by=bindparam("me"))
                 .returning(col(Outbox.id), col(Outbox.to_address), col(Outbox.raw)))


def outbox_due(engine: Engine, now: datetime) -> bool:
    """Whether any outbox mail is due (checked before opening an SMTP connection)."""
    with engine.connect() as conn:
        return conn.execute(select(col(Outbox.id)).where(col(Outbox.status) == "pending",
                                                    col(Outbox.next_attempt_at) <= now).limit(1)).first() is not None
