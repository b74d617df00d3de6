"""Transient faults versus poisonous mails, and the short backoff the service recovers with.

Why one place: a full disk, a locked database, a lost connection, a serialization failure or
a mail server answering 4xx says nothing about the mail being handled — the same mail will go
through once the fault is gone. Treating such an error like a bug in the mail (quarantine at
the first failure) stalled games until an operator noticed. Every stage asks ``is_transient``
before it blames a mail, and every retry loop waits with a ``Backoff``: the first retry within
a second or two, then doubling up to a cap, reset by the first success.
"""

from __future__ import annotations

import imaplib
import re
import socket
from dataclasses import dataclass, field

#: SQLSTATE classes/codes of PostgreSQL errors that go away by themselves: connection (08),
#: transaction rollback — serialization failure, deadlock (40), insufficient resources such as
#: a full disk (53), operator intervention — shutdown, restart (57), system/IO errors (58), and
#: a database switched to read-only (25006).
TRANSIENT_SQLSTATES = ("08", "40", "53", "57", "58", "25006")

#: SQLite reports bugs in our SQL with the same exception class as a full disk; these are not
#: transient (retrying a missing column never helps).
SQL_BUG_RE = re.compile(r"no such (table|column|function)|syntax error|has no column|"
                        r"constraint failed|datatype mismatch", re.IGNORECASE)

#: The text of a transient database error, as stored in a quarantine record (``error``): mails
#: quarantined for one of these before this module existed are put back once the database is
#: writable again.
TRANSIENT_TEXT_RE = re.compile(
    r"database or disk is full|database is locked|readonly database|disk I/O error|"
    r"unable to open database file|could not serialize|deadlock detected|No space left on device|"
    r"server closed the connection|connection (to server .*)?(failed|refused|lost|reset)|"
    r"terminating connection|the database system is (starting up|shutting down|in recovery mode)|"
    r"read-only transaction|timed? ?out",
    re.IGNORECASE,
)


def _sqlstate(exc: BaseException) -> str:
    orig = getattr(exc, "orig", None)
    return str(getattr(orig, "sqlstate", None) or getattr(exc, "sqlstate", None) or "")


def _one_is_transient(exc: BaseException) -> bool:
    import aiosmtplib
    from imapclient.exceptions import IMAPClientAbortError  # type: ignore[import-untyped]
    from sqlalchemy import exc as sa

    if isinstance(exc, sa.DBAPIError) and exc.connection_invalidated:
        return True
    state = _sqlstate(exc)
    if state:
        return state.startswith(TRANSIENT_SQLSTATES)
    if isinstance(exc, sa.OperationalError | sa.DisconnectionError | sa.TimeoutError):
        return not SQL_BUG_RE.search(str(exc))
    if isinstance(exc, aiosmtplib.SMTPResponseException):
        return 400 <= exc.code < 500
    if isinstance(exc, aiosmtplib.SMTPServerDisconnected | aiosmtplib.SMTPConnectError |
                  aiosmtplib.SMTPTimeoutError | aiosmtplib.SMTPConnectTimeoutError):
        return True
    if isinstance(exc, imaplib.IMAP4.abort | IMAPClientAbortError | socket.timeout):
        return True
    # OSError covers refused/reset connections and a full disk (ENOSPC) outside the database
    return isinstance(exc, TimeoutError | ConnectionError | OSError)


def is_transient(exc: BaseException) -> bool:
    """True when ``exc`` (or what it was raised from) is a fault of a service we depend on
    — database, IMAP, SMTP — that will pass, rather than something wrong with the mail."""
    seen: set[int] = set()
    current: BaseException | None = exc
    while current is not None and id(current) not in seen:
        seen.add(id(current))
        if _one_is_transient(current):
            return True
        current = current.__cause__ or current.__context__
    return False


@dataclass
class Backoff:
    """Delays for retrying a failed service: ``first`` seconds, doubling up to ``cap``.

    ``failed()`` returns how long to wait before the next try; ``succeeded()`` resets. A tiny
    class rather than tenacity: the retries here are spread over loop rounds (the poll worker,
    the IDLE watcher, the outbox breaker), not a call wrapped in a retrying decorator.
    """

    first: float = 1.0
    cap: float = 10.0
    failures: int = field(default=0)

    def failed(self) -> float:
        delay: float = min(self.first * (2 ** self.failures), self.cap)
        self.failures += 1
        return delay

    def succeeded(self) -> None:
        self.failures = 0

    @property
    def failing(self) -> bool:
        return self.failures > 0
