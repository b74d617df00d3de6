"""The audit log of operator actions: who (``$USER`` or ``--by``), when, which game, what, why.

``record`` only adds the row to the caller's session: the action, its audit row and the mails
it causes commit together (nothing lost, nothing twice).
"""

from __future__ import annotations

import getpass
import json
import os
from typing import Any

from sqlmodel import Session, col, select

from service.context import AppContext
from service.store.models import AuditLog


def operator_name(by: str | None = None) -> str:
    """``--by`` if given, else the login name (``$USER``), else ``unknown``."""
    if by and by.strip():
        return by.strip()
    name = os.environ.get("USER") or os.environ.get("LOGNAME")
    if not name:
        try:
            name = getpass.getuser()
        except Exception:  # no passwd entry in a container: still record the action
            name = "unknown"
    return name


def record(session: Session, ctx: AppContext, *, operator: str, game_id: int | None, command: str,
           arguments: dict[str, Any], why: str = "") -> AuditLog:
    """Add one audit row (no commit: it belongs to the action's transaction)."""
    row = AuditLog(at=ctx.clock.now(), operator=operator, game_id=game_id, command=command,
                   arguments=json.dumps(arguments, sort_keys=True, default=str), why=why or "")
    session.add(row)
    session.flush()
    return row


def entries(session: Session, game_id: int | None = None) -> list[AuditLog]:
    query = select(AuditLog).order_by(col(AuditLog.id))
    if game_id is not None:
        query = query.where(AuditLog.game_id == game_id)
    return list(session.exec(query).all())
