"""Operator functions behind ``pbem admin quarantine``: list, retry and discard held mails."""

from __future__ import annotations

from typing import Any

from sqlmodel import col, select

from service.config import Settings
from service.context import AppContext
from service.store.models import InboundMail


def list_quarantined(settings: Settings) -> list[tuple[Any, ...]]:
    ctx = AppContext.create(settings)
    with ctx.session() as s:
        rows = s.exec(select(InboundMail).where(InboundMail.status == "quarantined")
                      .order_by(col(InboundMail.id))).all()
        return [(r.id, r.sender, r.subject, r.stage, (r.error or "")[:120]) for r in rows]


def retry_quarantined(settings: Settings, inbound_id: int) -> None:
    """Back into the pipeline with a fresh crash count (after the operator fixed the cause)."""
    ctx = AppContext.create(settings)
    with ctx.session() as s:
        row = s.get_one(InboundMail, inbound_id)
        if row.status != "quarantined":
            raise ValueError(f"mail {inbound_id} is {row.status}, not quarantined")
        row.status, row.attempts, row.stage, row.error = "new", 0, None, None
        s.commit()


def discard_quarantined(settings: Settings, inbound_id: int) -> None:
    ctx = AppContext.create(settings)
    with ctx.session() as s:
        row = s.get_one(InboundMail, inbound_id)
        if row.status != "quarantined":
            raise ValueError(f"mail {inbound_id} is {row.status}, not quarantined")
        row.status = "discarded"
        s.commit()
