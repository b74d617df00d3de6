"""Faults of a real SQLite database, switched on and off by a test (no mock: SQLite itself
refuses the writes).

- ``full``: ``PRAGMA max_page_count`` clamped to the file's current size — the next write that
  needs a new page fails with "database or disk is full", while the disk itself is untouched.
- ``readonly``: ``PRAGMA query_only`` — every write fails with "attempt to write a readonly
  database", as on a disk remounted read-only.

Both pragmas are per connection, so they are set at the start of every transaction (SQLAlchemy's
``begin`` event on every engine). The mode comes from ``mode`` (in-process) or from a control
file (``PBEM_TEST_DB_FAULT_FILE``) that a test writes while ``pbem serve`` runs in a child process
(``python -m tests.support.dbfaults serve ...``).
"""

from __future__ import annotations

import os
import sys
from pathlib import Path
from typing import Any

from sqlalchemy import event
from sqlalchemy.engine import Engine

CONTROL_ENV = "PBEM_TEST_DB_FAULT_FILE"
NO_LIMIT = 4294967294


class SqliteFaults:
    """Install once; then set ``mode`` ("" | "full" | "readonly") or write the control file."""

    def __init__(self, control: Path | None = None) -> None:
        self.control = control
        self.mode = ""

    def current(self) -> str:
        if self.control is not None:
            try:
                return self.control.read_text().strip()
            except FileNotFoundError:
                return ""
        return self.mode

    def install(self) -> SqliteFaults:
        event.listen(Engine, "begin", self._on_begin)
        return self

    def remove(self) -> None:
        event.remove(Engine, "begin", self._on_begin)

    def _on_begin(self, conn: Any) -> None:
        if conn.engine.dialect.name != "sqlite":
            return
        mode = self.current()
        raw = conn.connection.driver_connection
        raw.execute(f"PRAGMA max_page_count = {1 if mode == 'full' else NO_LIMIT}")
        raw.execute(f"PRAGMA query_only = {1 if mode == 'readonly' else 0}")


def set_fault(control: Path, mode: str) -> None:
    """Switch the fault of a child process (atomically: it never reads half a word)."""
    tmp = control.with_suffix(".tmp")
    tmp.write_text(mode)
    tmp.replace(control)


if __name__ == "__main__":  # python -m tests.support.dbfaults serve ... (the pbem CLI, faults on; its outbox process too)
    SqliteFaults(Path(os.environ[CONTROL_ENV])).install()
    if os.environ.get("PBEM_TEST_STACK_DUMPS"):  # a crash of the interpreter leaves its stacks here
        import faulthandler

        # Only on a fatal signal. A periodic dump (dump_traceback_later, repeat=True), used here
        # before to look for a hang, reads the other threads' frames while they run, and on
        # Python 3.11 it crashed this very process (segfault in libpython, seen twice in one
        # run); a stuck job is now named by the service's own watchdog instead.
        faulthandler.enable(file=open(os.environ["PBEM_TEST_STACK_DUMPS"], "a"), all_threads=True)  # noqa: SIM115
    if sys.argv[1] == "outbox":  # the outbox process of the service below, with the same faults
        from service.outbound.smtpprocess import main as outbox_main

        outbox_main(int(sys.argv[2]))
        sys.exit(0)
    from service.cli.app import main
    from service.outbound import smtpprocess

    smtpprocess.CHILD_COMMAND = [sys.executable, "-m", "tests.support.dbfaults", "outbox"]
    sys.argv[0] = "pbem"
    main()
