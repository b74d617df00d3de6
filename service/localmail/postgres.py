"""A throw-away PostgreSQL on a loopback port, for benchmarks and tries (MAILSTACK.md recipe).

``initdb`` refuses root, so the server runs as the ``postgres`` user with its data in a
temporary directory (on /dev/shm when there is one) and ``fsync=off``: it is for measuring
and trying, never for keeping data. Stopped with SIGINT (a fast shutdown) and removed on exit.
"""

from __future__ import annotations

import contextlib
import glob
import os
import shutil
import signal
import socket
import subprocess
import tempfile
import time
from types import TracebackType


def _bin(name: str) -> str | None:
    found = sorted(glob.glob(f"/usr/lib/postgresql/*/bin/{name}"))
    return found[-1] if found else shutil.which(name)


def available() -> bool:
    """Whether a local PostgreSQL can be started here (installed, and we may run it as postgres)."""
    return bool(_bin("initdb") and _bin("postgres")) and os.geteuid() == 0


class LocalPostgres:
    """``with LocalPostgres() as pg: pg.create_database("x")`` -> a SQLAlchemy URL."""

    def __init__(self) -> None:
        initdb, postgres = _bin("initdb"), _bin("postgres")
        if not (initdb and postgres):
            raise RuntimeError("PostgreSQL is not installed (apt-get install postgresql)")
        self._initdb, self._postgres = initdb, postgres
        self.root = tempfile.mkdtemp(prefix="pbem-pg-", dir="/dev/shm" if os.path.isdir("/dev/shm") else None)
        self.port = 0
        self._proc: subprocess.Popen[bytes] | None = None

    def __enter__(self) -> LocalPostgres:
        try:
            self.start()
        except BaseException:
            self.close()
            raise
        return self

    def __exit__(self, *exc: type[BaseException] | BaseException | TracebackType | None) -> None:
        self.close()

    def start(self) -> None:
        shutil.chown(self.root, "postgres", "postgres")
        data = os.path.join(self.root, "data")
        subprocess.run([self._initdb, "-D", data, "-A", "trust", "-U", "postgres"], user="postgres", check=True,
                       stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        with socket.socket() as sock:
            sock.bind(("127.0.0.1", 0))
            self.port = int(sock.getsockname()[1])
        self._proc = subprocess.Popen(
            [self._postgres, "-D", data, "-c", "listen_addresses=127.0.0.1", "-p", str(self.port), "-k", self.root,
             "-c", "fsync=off", "-c", "max_connections=200"],
            user="postgres", stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        deadline = time.monotonic() + 30
        while True:
            try:
                self._execute("SELECT 1")
                return
            except Exception:
                if time.monotonic() > deadline or self._proc.poll() is not None:
                    raise
                time.sleep(0.05)

    def _execute(self, sql: str) -> None:
        import psycopg

        with psycopg.connect(f"host=127.0.0.1 port={self.port} user=postgres dbname=postgres",
                             connect_timeout=1, autocommit=True) as conn:
            conn.execute(sql.encode())

    def create_database(self, name: str) -> str:
        """A new empty database; returns its URL (``postgresql+psycopg://``)."""
        if not name.isidentifier():
            raise ValueError(f"not a database name: {name!r}")
        self._execute(f'CREATE DATABASE "{name}"')
        return f"postgresql+psycopg://postgres@127.0.0.1:{self.port}/{name}"

    def close(self) -> None:
        proc, self._proc = self._proc, None
        if proc is not None:
            proc.send_signal(signal.SIGINT)
            with contextlib.suppress(subprocess.TimeoutExpired):
                proc.wait(timeout=30)
            if proc.poll() is None:
                proc.kill()
                proc.wait()
        shutil.rmtree(self.root, ignore_errors=True)
