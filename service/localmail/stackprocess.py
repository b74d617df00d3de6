"""``LocalMailStack`` in its own process: same interface, its CPU off the caller's GIL.

pymap parses every stored message and answers every IMAP command in Python; in the caller's
process that work competes for the GIL with the service being measured (the demo, the
benchmarks). As a child process it runs on the machine's other core, and the caller's peak
memory is the service's alone.

The child (``python -m service.localmail.stackprocess DOMAIN AUTO_CREATE QUEUE_DELIVERY``) prints one JSON line
with its ports, then serves a line protocol on stdin/stdout: ``add ADDRESS PASSWORD`` ->
``ok``, ``deliveries ADDRESS`` -> a number, ``all_deliveries`` and ``users`` -> JSON,
``wait_deliveries TOTAL SECONDS`` -> ``all_deliveries`` once their sum differs from TOTAL. EOF on stdin stops it, so the
child never outlives a crashed parent.
"""

from __future__ import annotations

import json
import subprocess
import sys
import threading
from typing import Self

from service.addresses import base_address
from service.localmail.lifecycle import StackLifecycle
from service.localmail.stack import DEFAULT_DOMAIN, LocalMailStack


class SubprocessMailStack(StackLifecycle):
    """``LocalMailStack`` run as a child process. ``with SubprocessMailStack() as stack: ...``."""

    def __init__(
        self,
        domain: str = DEFAULT_DOMAIN,
        *,
        host: str = "127.0.0.1",
        auto_create: bool = False,
        queue_delivery: bool = False,
    ):
        if host != "127.0.0.1":
            raise ValueError("the subprocess stack listens on 127.0.0.1 only")
        self.domain, self.host, self.auto_create = domain, host, auto_create
        self.queue_delivery = queue_delivery
        self.smtp_port = 0
        self.imap_port = 0
        self._process: subprocess.Popen[str] | None = None
        self._lock = threading.Lock()
        self._pending: dict[str, str] = {}

    def _ask(self, line: str) -> str:
        assert self._process is not None and self._process.stdin and self._process.stdout
        with self._lock:
            self._process.stdin.write(line + "\n")
            self._process.stdin.flush()
            answer = self._process.stdout.readline()
        if not answer:
            raise RuntimeError("the mail stack process ended")
        return answer.rstrip("\n")

    def add_user(self, address: str, password: str) -> None:
        if any(c.isspace() for c in address + password):
            raise ValueError("addresses and passwords without spaces, please")
        if self._process is None:
            self._pending[base_address(address)] = password
            return
        if self._ask(f"add {address} {password}") != "ok":
            raise RuntimeError(f"could not add {address}")

    def deliveries(self, address: str) -> int:
        return int(self._ask(f"deliveries {address}"))

    def all_deliveries(self) -> dict[str, int]:
        return {str(k): int(v) for k, v in json.loads(self._ask("all_deliveries")).items()}

    def wait_deliveries(self, seen_total: int, timeout: float) -> dict[str, int]:
        """See ``LocalMailStack.wait_deliveries`` (other questions wait meanwhile)."""
        answer = self._ask(f"wait_deliveries {int(seen_total)} {float(timeout)}")
        return {str(k): int(v) for k, v in json.loads(answer).items()}

    @property
    def users(self) -> dict[str, str]:
        if self._process is None:
            return dict(self._pending)
        return dict(json.loads(self._ask("users")))

    def start(self) -> Self:
        if self._process is not None:
            return self
        self._process = subprocess.Popen(
            [
                sys.executable,
                "-m",
                "service.localmail.stackprocess",
                self.domain,
                "1" if self.auto_create else "0",
            ],
            stdin=subprocess.PIPE,
            stdout=subprocess.PIPE,
            text=True,
            encoding="utf-8",
        )
        assert self._process.stdout is not None
        hello = self._process.stdout.readline()
        if not hello:
            self.stop()
            raise RuntimeError("the mail stack process failed to start")
        ports = json.loads(hello)
        self.smtp_port, self.imap_port = int(ports["smtp_port"]), int(ports["imap_port"])
        for address, password in self._pending.items():
            self.add_user(address, password)
        return self

    def stop(self) -> None:
        process, self._process = self._process, None
        if process is None:
            return
        if process.stdin:
            process.stdin.close()
        try:
            process.wait(10)
        except subprocess.TimeoutExpired:
            process.kill()
            process.wait(5)
        if process.stdout:
            process.stdout.close()


def serve(domain: str, auto_create: bool, queue_delivery: bool = False) -> None:
    """The child's main loop (see the module docstring for the protocol)."""
    with LocalMailStack(domain, auto_create=auto_create, queue_delivery=queue_delivery) as stack:
        print(json.dumps({"smtp_port": stack.smtp_port, "imap_port": stack.imap_port}), flush=True)
        for line in sys.stdin:
            command, *args = line.split()
            if command == "add" and len(args) == 2:
                stack.add_user(args[0], args[1])
                answer = "ok"
            elif command == "deliveries" and len(args) == 1:
                answer = str(stack.deliveries(args[0]))
            elif command == "all_deliveries":
                answer = json.dumps(stack.all_deliveries())
            elif command == "wait_deliveries" and len(args) == 2:
                answer = json.dumps(stack.wait_deliveries(int(args[0]), min(float(args[1]), 5.0)))
            elif command == "users":
                answer = json.dumps(stack.users)
            else:
                answer = "error"
            print(answer, flush=True)


if __name__ == "__main__":
    argv = [*sys.argv[1:], DEFAULT_DOMAIN, "0", "0"][:3] if len(sys.argv) < 4 else sys.argv[1:4]
    serve(argv[0], argv[1] == "1", argv[2] == "1")
