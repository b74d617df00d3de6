"""Reply keys: the opaque token in ``play+KEY@domain`` that says which decision a reply answers.

A key is an HMAC of (game, seat, decision) under the service secret, so nobody can forge
one for a game or seat they do not hold, and two mails for the same decision carry the
same key (a resend stays valid). Keys are looked up in ``reply_keys``: a key issued for an
earlier decision of the same seat is recognised as *outdated* rather than unknown, which
lets the service refuse a menu number with the current menu. The MAC is recomputed on
lookup, so a row written without the secret is not trusted either.

Rotating the secret: keys are made with the current secret only, but verified against it AND
every retired one (``AppContext.key_secrets``), so a mail sent before the rotation can still be
answered; a key that matches none of them is refused like any unknown key.
"""

from __future__ import annotations

import base64
import hashlib
import hmac
import re
from collections.abc import Sequence
from dataclasses import dataclass
from datetime import datetime
from typing import Any

from sqlalchemy import bindparam, select
from sqlmodel import Session, col

from service.store.models import ReplyKey

KEY_LENGTH = 20  # base32 characters: 100 bits
KEY_RE = re.compile(rf"^[a-z2-7]{{{KEY_LENGTH}}}$")


def make_key(secret: str, game_id: int, seat: int, decision: str) -> str:
    """The key for one seat's decision: lower-case base32, safe in a local part and a subject."""
    mac = hmac.new(secret.encode(), f"pbem-reply:{game_id}:{seat}:{decision}".encode(), hashlib.sha256)
    return base64.b32encode(mac.digest()).decode().lower()[:KEY_LENGTH]


def issue_key(session: Session, secret: str, game_id: int, seat: int, decision: str, now: datetime) -> str:
    """Record (idempotently) and return the key for this decision."""
    key = make_key(secret, game_id, seat, decision)
    # one INSERT … ON CONFLICT DO NOTHING on the session's connection (SQLite, PostgreSQL):
    # the ORM look-up first flushed the whole session and loaded an object per mail
    conn = session.connection()
    conn.execute(_insert_key(conn.dialect.name),
                 {"key": key, "game_id": game_id, "seat": seat, "decision": decision, "created_at": now})
    return key


def _insert_key(dialect: str) -> Any:
    """The dialect's ``INSERT … ON CONFLICT (key) DO NOTHING`` into ``reply_keys``."""
    if dialect == "postgresql":
        from sqlalchemy.dialects.postgresql import insert as pg_insert

        return pg_insert(ReplyKey).on_conflict_do_nothing(index_elements=["key"])
    from sqlalchemy.dialects.sqlite import insert as sqlite_insert

    return sqlite_insert(ReplyKey).on_conflict_do_nothing(index_elements=["key"])


@dataclass(frozen=True)
class KeyInfo:
    game_id: int
    seat: int
    decision: str


def key_matches(secrets: str | Sequence[str], key: str | None, game_id: int, seat: int, decision: str) -> bool:
    """True when ``key`` is the key of this decision under any of ``secrets`` (current first)."""
    if not key:
        return False
    candidates = (secrets,) if isinstance(secrets, str) else secrets
    return any(hmac.compare_digest(make_key(secret, game_id, seat, decision), key) for secret in candidates)


def lookup_key(session: Session, secrets: str | Sequence[str], key: str) -> KeyInfo | None:
    """What ``key`` was issued for, or ``None`` for a key we never issued (or a forged row).

    ``secrets``: the current key secret, or it followed by the retired ones (rotation)."""
    key = key.lower()
    if not KEY_RE.match(key):
        return None
    if session.new:  # a key issued in this transaction is found too
        session.flush()
    # a Core read on the session's connection: the ORM object cost more than the query
    row = session.connection().execute(_KEY_ROW, {"key": key}).first()
    if row is None or not key_matches(secrets, key, row.game_id, row.seat, row.decision):
        return None
    return KeyInfo(row.game_id, row.seat, row.decision)


_KEY_ROW = select(col(ReplyKey.game_id), col(ReplyKey.seat), col(ReplyKey.decision)).where(
    col(ReplyKey.key) == bindparam("key"))


def reply_address(service_address: str, key: str) -> str:
    local, _, domain = service_address.partition("@")
    return f"{local}+{key}@{domain}"
