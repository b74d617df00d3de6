"""``pbem serve --workers N``: N worker processes on one PostgreSQL, kept running.

Each worker is an ordinary ``pbem serve --worker-id ID-i`` child process: the workers share
the work through the database (claims with SKIP LOCKED, the mailbox's advisory lock, job
locks — ``service.store.claims``/``locks``), so a worker that dies loses nothing and the
others carry on; this supervisor starts a new one in its place after a second. SIGTERM or
SIGINT stops every worker (each finishes its round) and then the supervisor.
"""

from __future__ import annotations

import logging
import signal
import subprocess
import sys
import time
from pathlib import Path

log = logging.getLogger(__name__)


def run_workers(count: int, base_id: str, config: Path | None, verbose: bool, health_port: int = 0) -> int:
    """Run ``count`` workers until told to stop; returns the exit code for the supervisor.

    With a health port P configured, worker i answers ``/healthz`` on P + i - 1 (each worker
    is a process of its own with its own health)."""
    stopping = False

    def command(n: int) -> list[str]:
        args = [sys.executable, "-m", "service.cli", "serve", "--worker-id", f"{base_id}-{n}"]
        if config is not None:
            args += ["--config", str(config)]
        if health_port:
            args += ["--health-port", str(health_port + n - 1)]
        return args + (["--verbose"] if verbose else [])

    def stop(_signum: int, _frame: object) -> None:
        nonlocal stopping
        stopping = True

    signal.signal(signal.SIGTERM, stop)
    signal.signal(signal.SIGINT, stop)
    children = {n: subprocess.Popen(command(n)) for n in range(1, count + 1)}
    log.info("started %d workers: %s", count, ", ".join(f"{base_id}-{n} (pid {p.pid})" for n, p in children.items()))
    failures = 0
    while not stopping:
        time.sleep(0.2)
        for n, proc in list(children.items()):
            code = proc.poll()
            if code is None or stopping:
                continue
            if code in (2, 78):  # a bad configuration (usage, EX_CONFIG): every new worker would fail the same way
                log.error("worker %s-%d exited with a configuration error; stopping", base_id, n)
                stopping, failures = True, 2
                break
            log.warning("worker %s-%d (pid %d) exited with %s; starting a new one in 1 s", base_id, n, proc.pid, code)
            time.sleep(1)
            children[n] = subprocess.Popen(command(n))
    for proc in children.values():
        if proc.poll() is None:
            proc.send_signal(signal.SIGTERM)
    for proc in children.values():
        try:
            proc.wait(timeout=60)
        except subprocess.TimeoutExpired:
            proc.kill()
            proc.wait()
    return failures
