"""A throw-away PostgreSQL on a loopback port that a fault test can stop and start again
(MAILSTACK.md recipe: run as the ``postgres`` user, data in a temp dir, fsync off).

``postgres_server()`` skips when PostgreSQL is absent unless ``PBEM_REQUIRE_POSTGRES=1``."""

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

import pytest


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
