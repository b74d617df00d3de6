"""Throw-away PostgreSQL servers on loopback ports, for tests (MAILSTACK.md recipe: run as the
``postgres`` user, data in a temp dir, fsync off).

``running_postgres()`` starts one server per test process and stops it at exit;
``fresh_database(url)`` copies a migrated template database for one test; ``database_url_for``
picks SQLite or PostgreSQL (``PBEM_TEST_DATABASE``). ``PostgresServer`` / ``postgres_server()``
give a fault test its own server to stop, start and fill. Absent PostgreSQL skips, unless
``PBEM_REQUIRE_POSTGRES=1`` (CI), which fails instead.
"""

from __future__ import annotations

import atexit
import contextlib
import glob
import os
import shutil
import signal
import socket
import subprocess
import tempfile
import time
import uuid

import pytest

_SERVER: tuple[str, subprocess.Popen[bytes], str] | None = None


def _bin(name: str) -> str | None:
    found = sorted(glob.glob(f"/usr/lib/postgresql/*/bin/{name}"))
    return found[-1] if found else shutil.which(name)


def _free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return int(sock.getsockname()[1])


class PostgresServer:
    """``start()`` (initdb the first time), ``stop()`` (fast shutdown), ``url``, ``close()``."""

    def __init__(self, disk_mb: int | None = None) -> None:
        initdb, postgres = _bin("initdb"), _bin("postgres")
        assert initdb and postgres
        self._postgres = postgres
        base = "/dev/shm" if os.path.isdir("/dev/shm") else None
        self.root = tempfile.mkdtemp(prefix="pbem-pgf-", dir=base)
        #: a small private tmpfs under the data directory, so a test can fill the disk
        self.own_disk = bool(disk_mb) and subprocess.run(
            ["mount", "-t", "tmpfs", "-o", f"size={disk_mb}m,mode=0755", "tmpfs", self.root],
            stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL).returncode == 0
        shutil.chown(self.root, "postgres", "postgres")
        self.data = os.path.join(self.root, "data")
        subprocess.run([initdb, "-D", self.data, "-A", "trust", "-U", "postgres"], user="postgres", check=True,
                       stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        self.port = _free_port()
        self.url = f"postgresql+psycopg://postgres@127.0.0.1:{self.port}/postgres"
        self._proc: subprocess.Popen[bytes] | None = None

    def start(self) -> None:
        self._proc = subprocess.Popen([self._postgres, "-D", self.data, "-c", "listen_addresses=127.0.0.1",
                                       "-p", str(self.port), "-k", self.root, "-c", "fsync=off"],
                                      user="postgres", stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        deadline = time.monotonic() + 30
        while True:
            try:
                import psycopg

                with psycopg.connect(f"host=127.0.0.1 port={self.port} user=postgres dbname=postgres",
                                     connect_timeout=1):
                    return
            except Exception:
                if time.monotonic() > deadline:
                    raise
                time.sleep(0.05)

    def stop(self) -> None:
        proc, self._proc = self._proc, None
        if proc is not None:
            proc.send_signal(signal.SIGINT)
            proc.wait(timeout=30)

    def fill_disk(self) -> None:
        """Write a filler file until the private tmpfs is full (ENOSPC)."""
        assert self.own_disk
        with open(os.path.join(self.root, "filler"), "wb", buffering=0) as fh:
            for size in (1 << 20, 1 << 12, 1):
                with contextlib.suppress(OSError):
                    while True:
                        fh.write(b"\0" * size)
                        fh.flush()

    def free_disk(self) -> None:
        """Remove the filler; start PostgreSQL again if the full disk made it stop (as
        systemd's Restart= would)."""
        with contextlib.suppress(FileNotFoundError):
            os.remove(os.path.join(self.root, "filler"))
        if self._proc is not None and self._proc.poll() is not None:
            self._proc = None
            self.start()

    def close(self) -> None:
        with contextlib.suppress(Exception):
            self.stop()
        if self.own_disk:
            subprocess.run(["umount", "-l", self.root], stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        shutil.rmtree(self.root, ignore_errors=True)


def postgres_server(disk_mb: int | None = None) -> PostgresServer:
    """A started server, or a skip (a failure under ``PBEM_REQUIRE_POSTGRES=1``)."""
    required = os.environ.get("PBEM_REQUIRE_POSTGRES", "") not in ("", "0")
    if not (_bin("initdb") and _bin("postgres")) or os.geteuid() != 0:
        if required:
            pytest.fail("PBEM_REQUIRE_POSTGRES=1 but PostgreSQL (or root to run it as postgres) is missing")
        pytest.skip("PostgreSQL is not installed (or we cannot run it as the postgres user)")
    server = PostgresServer(disk_mb)
    server.start()
    return server


def required() -> bool:
    return os.environ.get("PBEM_REQUIRE_POSTGRES", "") not in ("", "0")


def running_postgres() -> str:
    """The admin URL of this process's PostgreSQL, started on first use."""
    global _SERVER
    if _SERVER is not None:
        return _SERVER[0]
    initdb, postgres = _bin("initdb"), _bin("postgres")
    if not (initdb and postgres) or os.geteuid() != 0:
        if required():
            pytest.fail("PBEM_REQUIRE_POSTGRES=1 but PostgreSQL (or root to run it as postgres) is missing")
        pytest.skip("PostgreSQL is not installed (or we cannot run it as the postgres user)")
    root = tempfile.mkdtemp(prefix="pbem-pg-", dir="/dev/shm" if os.path.isdir("/dev/shm") else None)
    shutil.chown(root, "postgres", "postgres")
    data = os.path.join(root, "data")
    subprocess.run([initdb, "-D", data, "-A", "trust", "-U", "postgres"], user="postgres", check=True,
                   stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    port = _free_port()
    proc = subprocess.Popen([postgres, "-D", data, "-c", "listen_addresses=127.0.0.1", "-p", str(port),
                             "-k", root, "-c", "fsync=off", "-c", "max_connections=300"], user="postgres",
                            stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    url = f"postgresql+psycopg://postgres@127.0.0.1:{port}/postgres"
    deadline = time.monotonic() + 60
    while True:
        try:
            import psycopg

            with psycopg.connect(f"host=127.0.0.1 port={port} user=postgres dbname=postgres", connect_timeout=2):
                break
        except Exception:
            if time.monotonic() > deadline or proc.poll() is not None:
                raise
            time.sleep(0.1)
    _SERVER = (url, proc, root)
    atexit.register(_stop)
    return url


def _stop() -> None:
    if _SERVER is None:
        return
    _, proc, root = _SERVER
    proc.send_signal(signal.SIGINT)
    try:
        proc.wait(timeout=30)
    except subprocess.TimeoutExpired:
        proc.kill()
    shutil.rmtree(root, ignore_errors=True)


_TEMPLATE = "pbem_migrated"


def fresh_database(admin_url: str) -> str:
    """A new database, already migrated to head, on the server of ``admin_url``; its URL.

    Copied from a template database migrated once per process: ``CREATE DATABASE … TEMPLATE``
    is a file copy, far cheaper than running every migration for every test.
    """
    import psycopg

    from service.store.db import migrate

    dsn = admin_url.replace("postgresql+psycopg://", "postgresql://")
    base = admin_url.rsplit("/", 1)[0]
    with psycopg.connect(dsn, autocommit=True) as conn:
        exists = conn.execute("SELECT 1 FROM pg_database WHERE datname = %s", (_TEMPLATE,)).fetchone()
        if not exists:
            conn.execute(f'CREATE DATABASE "{_TEMPLATE}"')
            migrate(f"{base}/{_TEMPLATE}")
        name = f"t_{uuid.uuid4().hex[:16]}"
        conn.execute(f'CREATE DATABASE "{name}" TEMPLATE "{_TEMPLATE}"')
    return f"{base}/{name}"


def database_url_for(tmp: os.PathLike[str] | str) -> str:
    """SQLite in the test's folder, or a fresh PostgreSQL database when the suite runs with
    ``PBEM_TEST_DATABASE=postgresql`` (CI runs the service tests both ways)."""
    if os.environ.get("PBEM_TEST_DATABASE", "sqlite") == "postgresql":
        return fresh_database(running_postgres())
    return f"sqlite:///{os.path.join(os.fspath(tmp), 'pbem.sqlite3')}"
