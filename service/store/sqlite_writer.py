"""One writer at a time on a SQLite database, handed over at once (SQLite only).

Why: SQLite lets one connection write at a time. Writers that meet (the reply pipeline and
the outbox process of ``pbem serve``; several workers) used to wait in SQLite's busy handler,
which polls: it sleeps 1, 2, 5, 10 … ms and looks again, so a writer that waited usually
waited milliseconds past the moment the lock came free — measured at ~6 ms per mail sent on
the outbox side of ``pbem bench pipeline``. Here a connection about to write first takes the
writer turn and keeps it until its transaction commits or rolls back — exactly the span
SQLite itself holds the write lock: among the threads of a process a ``threading.Lock``
(waiting releases the GIL and wakes the moment the holder lets go), among processes an
``flock`` on ``<database>-writer``, looked at every 0.1–0.5 ms (a blocking ``flock`` cannot
time out). A program that writes without it (the ``sqlite3`` shell) still meets us in SQLite's
busy handler, as before.

Never a deadlock: a thread that already holds the turn on another connection of its own (a
nested transaction) goes straight to SQLite, whose busy timeout then applies as it always did;
a wait longer than that timeout gives up the turn and lets SQLite answer. A connection that is
closed or invalidated while it holds the turn gives it back, and a process that dies lets go
of its ``flock`` with it.
"""

from __future__ import annotations

import fcntl
import os
import threading
import time
import weakref
from typing import Any

from sqlalchemy import event
from sqlalchemy.engine import Engine

#: statements that make a SQLite connection take its write lock (pysqlite opens the
#: transaction right before them)
_WRITES = ("INSERT", "UPDATE", "DELETE", "REPLACE")


_turns: weakref.WeakKeyDictionary[Engine, WriterTurn] = weakref.WeakKeyDictionary()


class WriterTurn:
    """The turn to write on one engine's database: among this process's threads (a lock) and,
    for a database file, among the processes that open it (``flock`` on ``<file>-writer``)."""

    def __init__(self, wait_seconds: float, lock_file: str | None = None) -> None:
        self._lock = threading.Lock()
        self._wait = wait_seconds
        self._holder: int | None = None  # id() of the DBAPI connection holding the turn
        self._thread: int | None = None
        self._fd: int | None = None
        if lock_file is not None:
            self._fd = os.open(lock_file, os.O_RDWR | os.O_CREAT | os.O_CLOEXEC, 0o600)
            weakref.finalize(self, os.close, self._fd)  # closed with the engine
        self._file_held = False
        self.waits = 0  # turns that had to wait (for tests and benchmarks)

    def take(self, dbapi_conn: Any) -> None:
        """Before a write statement on ``dbapi_conn``: take the turn unless it holds it."""
        me = id(dbapi_conn)
        if self._holder == me:
            return
        if self._thread == threading.get_ident():
            return  # this thread writes on another connection already: SQLite decides
        deadline = time.monotonic() + self._wait
        if not self._lock.acquire(blocking=False):
            self.waits += 1
            if not self._lock.acquire(timeout=self._wait):
                return  # SQLite's own busy timeout answers from here
        self._holder, self._thread = me, threading.get_ident()
        if self._fd is not None:
            self._file_held = self._take_file(deadline)

    def _take_file(self, deadline: float) -> bool:
        """The other processes' side of the turn. Polled (a blocking ``flock`` has no
        timeout), but in steps of 0.1–0.5 ms where SQLite's busy handler sleeps 1, 2, 5, 10 ms."""
        assert self._fd is not None
        pause = 0.0001
        while True:
            try:
                fcntl.flock(self._fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
                return True
            except BlockingIOError:
                pass
            if time.monotonic() >= deadline:
                return False  # SQLite's busy timeout answers from here
            time.sleep(pause)
            pause = min(pause * 2, 0.0005)

    def give_back(self, dbapi_conn: Any) -> None:
        """After ``dbapi_conn`` committed, rolled back or closed (the pool's proxy for a
        connection is read as the connection it stands for)."""
        if self._holder == id(getattr(dbapi_conn, "dbapi_connection", dbapi_conn)):
            if self._file_held and self._fd is not None:
                fcntl.flock(self._fd, fcntl.LOCK_UN)
                self._file_held = False
            self._holder = self._thread = None
            self._lock.release()


def install(engine: Engine, wait_seconds: float) -> WriterTurn:
    """Hand out one writer turn at a time on ``engine`` (a SQLite engine)."""
    database = engine.url.database
    on_file = bool(database) and database != ":memory:" and not str(database).startswith("file:")
    turn = WriterTurn(wait_seconds, f"{database}-writer" if on_file else None)
    dialect = engine.dialect
    commit, rollback = dialect.do_commit, dialect.do_rollback

    def do_commit(dbapi_conn: Any) -> None:
        try:
            commit(dbapi_conn)
        finally:
            turn.give_back(dbapi_conn)

    def do_rollback(dbapi_conn: Any) -> None:
        try:
            rollback(dbapi_conn)
        finally:
            turn.give_back(dbapi_conn)

    dialect.do_commit = do_commit  # type: ignore[method-assign, assignment]
    dialect.do_rollback = do_rollback  # type: ignore[method-assign, assignment]

    @event.listens_for(engine, "before_cursor_execute")
    def _before_write(conn: Any, _cursor: Any, statement: str, *_args: Any) -> None:
        if statement.lstrip()[:7].upper().startswith(_WRITES):
            turn.take(conn.connection.dbapi_connection)

    @event.listens_for(engine, "close")
    def _closed(dbapi_conn: Any, _record: Any) -> None:
        turn.give_back(dbapi_conn)

    @event.listens_for(engine, "invalidate")
    def _invalidated(dbapi_conn: Any, _record: Any, _exc: Any) -> None:
        turn.give_back(dbapi_conn)

    _turns[engine] = turn
    return turn


def turn_of(engine: Engine) -> WriterTurn | None:
    """The writer turn ``install`` gave ``engine`` (None: not a SQLite engine)."""
    return _turns.get(engine)
