"""PostgreSQL advisory locks: one holder of a mailbox, one runner of a scheduler job.

A session-level advisory lock lives as long as the connection that took it: when its
process dies (even by ``kill -9``) the server closes the connection and the lock is free at
once; a dead host is noticed by TCP keepalives (``store.db.make_engine``) within about 25 s.
Each lock therefore has a connection of its own, outside the pool's traffic, in autocommit.

On SQLite every lock is granted at once: one machine, the rule of one ``pbem serve`` per
mailbox, as before.
"""

from __future__ import annotations

import contextlib
import hashlib
import logging
import threading
from collections.abc import Iterator

from sqlalchemy import text
from sqlalchemy.engine import Connection, Engine

from service.store.claims import is_postgres

log = logging.getLogger(__name__)


def lock_key(name: str) -> int:
    """A stable signed 64-bit key for ``name`` (advisory locks are keyed by bigint)."""
    return int.from_bytes(hashlib.sha256(name.encode()).digest()[:8], "big", signed=True)


class AdvisoryLock:
    """``try_acquire`` (never waits), ``held`` (checks the connection still lives), ``release``."""

    def __init__(self, engine: Engine, name: str) -> None:
        self.engine, self.name, self.key = engine, name, lock_key(name)
        self.postgres = is_postgres(engine)
        self._conn: Connection | None = None
        self._granted = False
        self._mutex = threading.Lock()  # the poll and the IMAP watcher ask from two threads

    def try_acquire(self) -> bool:
        with self._mutex:
            return self._try_acquire()

    def _try_acquire(self) -> bool:
        if not self.postgres:
            self._granted = True
            return True
        if self._conn is not None:
            return self._held()
        conn = self.engine.connect().execution_options(isolation_level="AUTOCOMMIT")
        try:
            got = bool(conn.execute(text("SELECT pg_try_advisory_lock(:k)"), {"k": self.key}).scalar())
        except Exception:
            self._drop(conn)
            raise
        if not got:
            conn.close()
            return False
        self._conn = conn
        return True

    def held(self) -> bool:
        """Whether we still hold it: the connection answers (a lost connection lost the lock)."""
        with self._mutex:
            return self._held()

    def _held(self) -> bool:
        if not self.postgres:
            return self._granted
        if self._conn is None:
            return False
        try:
            self._conn.execute(text("SELECT 1"))
        except Exception as exc:
            log.warning("lost the connection holding lock %r (%s)", self.name, exc)
            self._drop(self._conn)
            self._conn = None
            return False
        return True

    def release(self) -> None:
        """Unlock at once, then close the connection. Closing alone frees the lock only when
        the server's backend notices and exits, a moment later: a job taking the lock again
        right away (two sweeps in a row) found it still held and skipped its round."""
        with self._mutex:
            self._granted = False
            conn, self._conn = self._conn, None
        if conn is not None:
            with contextlib.suppress(Exception):
                conn.execute(text("SELECT pg_advisory_unlock(:k)"), {"k": self.key})
            self._drop(conn)

    @staticmethod
    def _drop(conn: Connection) -> None:
        """Close the connection for good (not back into the pool): that frees the lock."""
        with contextlib.suppress(Exception):
            conn.invalidate()
        with contextlib.suppress(Exception):
            conn.close()


@contextlib.contextmanager
def job_lock(engine: Engine, name: str) -> Iterator[bool]:
    """Run a scheduler job on one node at a time: yields whether this node got the lock
    (the others skip the round; the holder's next round catches up on everything due)."""
    lock = AdvisoryLock(engine, f"job:{name}")
    got = lock.try_acquire()
    try:
        yield got
    finally:
        if got:
            lock.release()
