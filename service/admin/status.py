"""``pbem status``: what an operator (or a supervisor's health check) needs to see at once.

Everything is read from the database, so it works from any machine that reaches it and says
the same thing whichever worker is asked: inbound mails waiting and the oldest of them, the
outbox backlog and its oldest unsent mail, the last mail received and the last one sent,
quarantine size, and the games waiting longest. ``healthy`` turns it into one verdict.
"""

from __future__ import annotations

from dataclasses import asdict, dataclass, field
from datetime import datetime, timedelta
from typing import Any

from sqlalchemy import func
from sqlmodel import Session, col, select

from service.store.models import Game, InboundMail, Outbox

#: how old the oldest unprocessed mail or unsent answer may be before the service is unhealthy
STALE_AFTER = timedelta(minutes=10)


@dataclass
class Status:
    now: datetime
    inbound_waiting: int
    oldest_waiting: datetime | None
    quarantined: int
    outbox_pending: int
    oldest_unsent: datetime | None
    outbox_failed: int
    last_received: datetime | None
    last_sent: datetime | None
    active_games: int
    waiting_longest: list[dict[str, Any]] = field(default_factory=list)

    def stuck(self) -> list[str]:
        """Work that should have moved and did not: what a liveness check (``/healthz``) reports."""
        out = []
        if self.oldest_waiting is not None and self.now - self.oldest_waiting > STALE_AFTER:
            out.append(f"a received mail has waited since {self.oldest_waiting:%Y-%m-%d %H:%M} UTC")
        if self.oldest_unsent is not None and self.now - self.oldest_unsent > STALE_AFTER:
            out.append(f"an answer has been unsent since {self.oldest_unsent:%Y-%m-%d %H:%M} UTC")
        return out

    def problems(self) -> list[str]:
        """Why the service is not healthy (empty: healthy)."""
        out = self.stuck()
        if self.outbox_failed:
            out.append(f"{self.outbox_failed} mail(s) failed for good")
        return out

    def as_json(self) -> dict[str, Any]:
        data = asdict(self)
        for key, value in data.items():
            if isinstance(value, datetime):
                data[key] = value.isoformat()
        data["problems"] = self.problems()
        return data


def _utc(value: datetime | None) -> datetime | None:
    from datetime import UTC

    if value is None:
        return None
    return value if value.tzinfo else value.replace(tzinfo=UTC)


def read_status(session: Session, now: datetime, longest: int = 5) -> Status:
    def one(query: Any) -> Any:
        return session.exec(query).one()

    waiting = select(func.count()).select_from(InboundMail).where(col(InboundMail.status) == "new")
    games = session.exec(select(Game).where(Game.status == "active").order_by(col(Game.updated_at)).limit(longest)).all()
    return Status(
        now=now,
        inbound_waiting=one(waiting),
        oldest_waiting=_utc(one(select(func.min(InboundMail.received_at)).where(col(InboundMail.status) == "new"))),
        quarantined=one(select(func.count()).select_from(InboundMail).where(col(InboundMail.status) == "quarantined")),
        outbox_pending=one(select(func.count()).select_from(Outbox).where(col(Outbox.status) == "pending")),
        oldest_unsent=_utc(one(select(func.min(Outbox.created_at)).where(col(Outbox.status) == "pending"))),
        outbox_failed=one(select(func.count()).select_from(Outbox).where(col(Outbox.status) == "failed")),
        last_received=_utc(one(select(func.max(InboundMail.received_at)))),
        last_sent=_utc(one(select(func.max(Outbox.sent_at)))),
        active_games=one(select(func.count()).select_from(Game).where(col(Game.status) == "active")),
        waiting_longest=[{"game": g.id, "engine": g.engine, "since": _iso(_utc(g.updated_at)),
                          "deadline": _iso(_utc(g.deadline))} for g in games],
    )


def _iso(value: datetime | None) -> str | None:
    return value.isoformat() if value else None
