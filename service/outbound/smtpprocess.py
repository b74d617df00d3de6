"""The outbox rounds in a process of their own, asked for one round at a time.

Why a process and not only a thread (``SmtpThread``): one Python process runs Python code on
one core at a time (the GIL). While ``pbem serve`` works through a backlog, the reply pipeline
keeps that core busy and the SMTP conversation (the client's own CPU, its small commits) waits
for it: measured with ``pbem bench pipeline``, the process was CPU-bound on ~14 ms per reply
of which ~3 ms were the sender's, and the sender's answers queued behind the replies. Here
the same ``send_due`` runs in a child process on the other core, with the same claims
(``pending`` → ``sending`` under the child's own claim token), the same crash rules and the
same circuit breaker, which lives in the child between rounds.

The parent stays in charge: a round runs only when the parent asks (its outbox job, the wake
after each handled mail, the last round before stopping), and the parent's watchdog sees a
round that hangs. A child that dies is started afresh at the next round (the claim it held is
recovered like any dead process's); a cancelled round (the watchdog, a stop) ends the child, so
a late answer can never be read as the next round's. When the parent dies (kill -9) the child
exits within 0.2 s (it watches its parent's pid), and a closed pipe ends it after its round:
it never sends on its own.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import os
import signal
import socket
import subprocess
import sys
import threading
import time
from multiprocessing.connection import Connection
from typing import Any

from service.config import Settings

log = logging.getLogger(__name__)

#: how long the parent waits for a new child to be ready (imports, database, first connection)
START_SECONDS = 60.0

#: how the child is started (the socket's descriptor is appended); a test that injects faults
#: into ``pbem serve`` starts its child through its own module, with the same faults
CHILD_COMMAND = [sys.executable, "-m", "service.outbound.smtpprocess"]


class OutboxProcessDied(RuntimeError):
    """The outbox process ended in the middle of a round."""


def _die_with_parent(every: float = 0.2) -> None:
    """End this process within ``every`` seconds of its parent's death (a kill -9 of ``pbem
    serve``), as the thread that sent before ended with it, instead of after the round under
    way: a daemon thread watches for the parent's pid to change (the orphan is re-parented).
    Not ``PR_SET_PDEATHSIG``: it fires when the *thread* that started the child ends, and
    killed a healthy child whose parent runs its event loop on a thread of its own."""
    parent = os.getppid()

    def watch() -> None:
        while os.getppid() == parent:
            time.sleep(every)
        os._exit(0)

    threading.Thread(target=watch, name="pbem-outbox-parent-watch", daemon=True).start()


def _child(settings: Settings, conn: Connection, log_level: int, log_format: str | None) -> None:
    """The child's whole life: one ``send_due`` round per request until told to stop or the
    parent is gone."""
    _die_with_parent()
    signal.signal(signal.SIGINT, signal.SIG_IGN)  # Ctrl-C reaches the whole group: the parent decides
    signal.signal(signal.SIGTERM, signal.SIG_IGN)  # a supervisor's TERM too: the parent stops us in order
    logging.basicConfig(level=log_level, format=log_format or "%(asctime)s %(levelname)s %(name)s: %(message)s")
    from service.context import AppContext
    from service.outbound.outbox import Sender, send_due

    ctx = AppContext.create(settings, run_migrations=False)
    sender = Sender(keep_open=True)
    loop = asyncio.new_event_loop()
    conn.send(("ready", sender.owner))
    try:
        while True:
            try:
                request = conn.recv()
            except (EOFError, OSError):
                break  # the parent is gone: nothing is sent without it asking
            if request != "round":
                break
            try:
                sent = loop.run_until_complete(send_due(ctx, sender=sender))
            except Exception as exc:  # told to the parent, which logs it like a failed round
                conn.send(("failed", f"{type(exc).__name__}: {exc}"))
                continue
            conn.send(("done", sent, sender.cut_short))
    finally:
        loop.run_until_complete(sender.close())
        loop.close()
        ctx.db.dispose()


class SmtpProcess:
    """The parent's handle on the outbox process (started with the service, ``start_soon``,
    or at the first round; started again at the next round when it died)."""

    def __init__(self, settings: Settings) -> None:
        self._settings = settings
        self._proc: subprocess.Popen[bytes] | None = None
        self._conn: Connection | None = None
        #: the claim token of the running child (logs, tests)
        self.owner: str | None = None
        self.starts = 0
        self._starting: asyncio.Task[Connection] | None = None
        self._one_round = asyncio.Lock()

    @property
    def pid(self) -> int | None:
        return self._proc.pid if self._proc is not None else None

    async def _answer(self, conn: Connection) -> Any:
        """The child's next message, awaited without blocking the event loop."""
        loop = asyncio.get_running_loop()
        ready = loop.create_future()
        fd = conn.fileno()

        def readable() -> None:
            if not ready.done():
                ready.set_result(None)

        loop.add_reader(fd, readable)
        try:
            await ready
        finally:
            loop.remove_reader(fd)
        try:
            return conn.recv()
        except (EOFError, OSError) as exc:
            raise OutboxProcessDied("the outbox process ended") from exc

    async def _start(self) -> Connection:
        # A fresh interpreter (``python -m``), not ``multiprocessing``'s spawn: that re-runs
        # the parent's main script in the child. The settings (secrets included) go over the
        # pipe, never on a command line or in the environment.
        parent_end, child_end = socket.socketpair()
        proc = subprocess.Popen([*CHILD_COMMAND, str(child_end.fileno())],
                                pass_fds=[child_end.fileno()], stdin=subprocess.DEVNULL)
        child_end.close()
        conn = Connection(parent_end.detach())
        self._proc, self._conn = proc, conn
        self.starts += 1
        root = logging.getLogger()
        formatter = root.handlers[0].formatter if root.handlers else None
        try:
            conn.send((self._settings, root.getEffectiveLevel(), formatter._fmt if formatter else None))
            ready = await asyncio.wait_for(self._answer(conn), START_SECONDS)
        except BaseException:
            self.kill()
            raise
        self.owner = ready[1]
        log.info("outbox process %s started (claims as %s)", proc.pid, self.owner)
        return conn

    def start_soon(self) -> None:
        """Start the child now, in the background (``pbem serve`` starting up): its ~1 s of
        imports then overlaps the first poll instead of delaying the first answers."""
        if self._starting is None and self._proc is None:
            self._starting = asyncio.create_task(self._start(), name="pbem-outbox-start")

    async def _started(self) -> None:
        """Wait for a start under way (its failure is the next round's to retry)."""
        starting, self._starting = self._starting, None
        if starting is not None:
            try:
                await starting
            except Exception as exc:
                log.warning("the outbox process did not start (%s); trying again", exc)

    async def round(self) -> tuple[int, bool]:
        """One outbox round in the child: (mails sent, whether it stopped at its limit).

        One at a time: two callers at once (the outbox job and a direct ``flush_outbox``, as
        ``pbem demo`` makes) would share one pipe — each answer must reach the round that asked."""
        async with self._one_round:
            return await self._round()

    async def _round(self) -> tuple[int, bool]:
        await self._started()
        conn = self._conn
        if conn is None or self._proc is None or self._proc.poll() is not None:
            if self._proc is not None:
                log.warning("outbox process %s ended (exit code %s); starting another", self._proc.pid,
                            self._proc.returncode)
                self.kill()
            conn = await self._start()
        try:
            conn.send("round")
            answer = await self._answer(conn)
        except BaseException:  # cancelled (watchdog, stop) or died: never read a late answer
            self.kill()
            raise
        if answer[0] == "failed":
            raise RuntimeError(f"outbox round failed in the outbox process: {answer[1]}")
        return int(answer[1]), bool(answer[2])

    def kill(self) -> None:
        """End the child at once (its claim, if any, is recovered like a dead process's)."""
        proc, conn, self._proc, self._conn = self._proc, self._conn, None, None
        if conn is not None:
            conn.close()
        if proc is not None and proc.poll() is None:
            proc.kill()
            proc.wait(timeout=5)

    async def close(self) -> None:
        """Stop the child in order: it finishes nothing new, quits SMTP and exits."""
        async with self._one_round:
            await self._close()

    async def _close(self) -> None:
        await self._started()
        proc, conn, self._proc, self._conn = self._proc, self._conn, None, None
        if conn is not None:
            with contextlib.suppress(OSError):
                conn.send("stop")
            conn.close()
        if proc is not None:
            try:
                await asyncio.to_thread(proc.wait, 15)
            except subprocess.TimeoutExpired:
                proc.kill()
                await asyncio.to_thread(proc.wait, 5)


def main(fd: int) -> None:
    """``python -m service.outbound.smtpprocess FD``: the child, talking over the socket ``fd``."""
    conn = Connection(fd)
    settings, level, fmt = conn.recv()
    _child(settings, conn, level, fmt)


if __name__ == "__main__":
    main(int(sys.argv[1]))
