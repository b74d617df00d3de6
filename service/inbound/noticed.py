"""Which waiting replies were already told "received, will be applied soon" — a small file.

The notice is sent while the database has a fault, so the database's own mark
(``InboundMail.delay_noticed_at``) often cannot be written, and a mail that could not even
be stored has no row to mark. Memory alone forgets at a restart: a service killed and
restarted during a 20-s outage told the same player twice (once per process lifetime). This
journal is the fallback the database fault cannot reach: one line per notice, appended and
flushed to a local file, read again whenever another process on the machine has added to it.

The journal is a courtesy's memory, not a record that must hold: when its file cannot be
written either (the disk itself is full), the service still tells each player at most once
per process lifetime, as before.
"""

from __future__ import annotations

import contextlib
import hashlib
import logging
import os
import time
from pathlib import Path

log = logging.getLogger(__name__)

#: lines kept when the file is compacted (a notice matters only while its reply waits)
KEEP_LINES = 2000
#: the file is compacted once it holds this many lines
COMPACT_AT = 4 * KEEP_LINES
#: bytes of one line: the key, a space, a Unix time, the newline
LINE_BYTES = 16 + 1 + 10 + 1


def notice_key(reply_message_id: str) -> str:
    """The key of a reply's notice: also the notice's own Message-ID local part."""
    return hashlib.sha256(reply_message_id.encode()).hexdigest()[:16]


def default_journal_path(database_url: str, state_dir: str = "") -> Path | None:
    """Where the journal lives: ``state_dir`` when set; systemd's ``$STATE_DIRECTORY``; next
    to a SQLite database file; else ``~/.local/state/pbem``. ``None`` for an in-memory
    database (a test's service: nothing outlives it)."""
    if state_dir:
        return Path(state_dir) / "noticed-replies"
    if ":memory:" in database_url or database_url in ("sqlite://", "sqlite:///"):
        return None
    tag = hashlib.sha256(database_url.encode()).hexdigest()[:12]
    systemd = os.environ.get("STATE_DIRECTORY", "").split(":")[0]
    if systemd:
        return Path(systemd) / f"noticed-replies-{tag}"
    if database_url.startswith("sqlite:///"):
        db_file = Path(database_url.removeprefix("sqlite:///").split("?")[0])
        return db_file.with_name(db_file.name + "-noticed")
    state = Path(os.environ.get("XDG_STATE_HOME") or Path.home() / ".local" / "state")
    return state / "pbem" / f"noticed-replies-{tag}"


class NoticeJournal:
    """Keys of the notices sent, kept in ``path`` (``None``: in memory only)."""

    def __init__(self, path: Path | None) -> None:
        self.path = path
        self._keys: set[str] = set()
        self._read_upto = 0
        self._warned = False

    def told(self, key: str) -> bool:
        """Whether a notice with this key went out (from this process or, via the file, another)."""
        if key in self._keys:
            return True
        self._catch_up()
        return key in self._keys

    def record(self, key: str) -> None:
        """Remember a sent notice; a file that cannot be written is logged once and skipped."""
        self._keys.add(key)
        if self.path is None:
            return
        try:
            self.path.parent.mkdir(parents=True, exist_ok=True)
            # one short line in append mode: lines of two processes never interleave
            with self.path.open("a", encoding="ascii") as fh:
                fh.write(f"{key} {int(time.time())}\n")
                fh.flush()
                os.fsync(fh.fileno())
            self._compact_if_long()
        except OSError as exc:
            self._warn(exc)

    def _catch_up(self) -> None:
        if self.path is None:
            return
        try:
            size = self.path.stat().st_size
            if size < self._read_upto:  # compacted by another process: read it whole
                self._read_upto = 0
            if size == self._read_upto:
                return
            with self.path.open("rb") as fh:
                fh.seek(self._read_upto)
                chunk = fh.read()
        except FileNotFoundError:
            return
        except OSError as exc:
            self._warn(exc)
            return
        whole = chunk[: chunk.rfind(b"\n") + 1]  # a line still being written is read next time
        self._read_upto += len(whole)
        for line in whole.decode("ascii", "replace").splitlines():
            key = line.split(" ", 1)[0]
            if key:
                self._keys.add(key)

    def _compact_if_long(self) -> None:
        assert self.path is not None
        if self.path.stat().st_size < COMPACT_AT * LINE_BYTES:
            return
        lines = self.path.read_text(encoding="ascii", errors="replace").splitlines()
        spare = self.path.with_name(self.path.name + ".new")
        spare.write_text("".join(f"{line}\n" for line in lines[-KEEP_LINES:]), encoding="ascii")
        os.replace(spare, self.path)
        self._read_upto = 0
        with contextlib.suppress(OSError):
            self._catch_up()

    def _warn(self, exc: OSError) -> None:
        if not self._warned:
            self._warned = True
            log.warning("cannot keep the journal of notices in %s (%s); a restart may tell a player twice",
                        self.path, exc)
