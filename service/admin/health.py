"""The health check a supervisor calls: ``GET /healthz`` on ``pbem serve --health-port``.

200 with ``{"healthy": true, ...}`` while the service does its work, 503 with the reasons when
it does not: the database cannot be read, the last successful inbox poll is older than
``health_max_poll_age_seconds`` (IMAP away, the poll worker stuck), or mail is stuck (a
received mail or an answer waiting longer than ``status.STALE_AFTER``). A mail that failed for
good is NOT a health problem — restarting would not fix it; ``pbem status`` shows it.

Why a thread with the standard library's ``ThreadingHTTPServer``: the check must answer even
when the event loop is busy or blocked (that is one of the things it exists to detect), it needs
one route, and it must not add a web framework to the service.
"""

from __future__ import annotations

import json
import logging
import threading
from collections.abc import Callable
from dataclasses import dataclass, field
from datetime import datetime
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import Any

from service.admin.status import read_status
from service.schedule.runtime import Service

log = logging.getLogger(__name__)

PATH = "/healthz"


@dataclass
class Health:
    healthy: bool
    problems: list[str] = field(default_factory=list)
    last_poll: datetime | None = None

    def as_json(self) -> dict[str, Any]:
        return {"healthy": self.healthy, "problems": self.problems,
                "last_poll": self.last_poll.isoformat() if self.last_poll else None}


def starting(reason: str = "starting: waiting for the database") -> Health:
    """What the check says before the service is up (the database may still be away)."""
    return Health(False, [reason])


def evaluate(service: Service) -> Health:
    """Is ``service`` doing its work? Reads the database (a short query) and the poll time."""
    now = service.ctx.clock.now()
    problems: list[str] = []
    try:
        with service.session() as s:
            problems += read_status(s, now).stuck()
    except Exception as exc:
        first = str(exc).splitlines()[0][:200] if str(exc) else ""
        problems.append(f"database unreachable: {type(exc).__name__}: {first}")
    # the inbox is polled every poll_interval_seconds at least: never ask for more than that
    max_age = max(service.settings.health_max_poll_age_seconds, 2 * service.settings.poll_interval_seconds)
    last = service.last_poll_ok
    since = last or service.started_at
    age = (now - since).total_seconds()
    if age > max_age:
        if last is None:
            problems.append(f"no successful inbox poll since the start {age:.0f} s ago (limit {max_age:.0f} s)")
        else:
            problems.append(f"last successful inbox poll {age:.0f} s ago (limit {max_age:.0f} s)")
    return Health(not problems, problems, last)


class HealthServer:
    """``GET /healthz`` in a daemon thread; ``probe`` says how the service is right now.

    ``probe`` can be replaced while serving (``starting`` until the service is built)."""

    def __init__(self, host: str, port: int, probe: Callable[[], Health]) -> None:
        self.probe = probe
        outer = self

        class Handler(BaseHTTPRequestHandler):
            def do_GET(self) -> None:
                if self.path.split("?", 1)[0] != PATH:
                    self._answer(404, {"error": f"not found; the health check is {PATH}"})
                    return
                try:
                    health = outer.probe()
                except Exception as exc:  # the check itself must answer, never hang up
                    health = Health(False, [f"health check failed: {type(exc).__name__}: {exc}"])
                self._answer(200 if health.healthy else 503, health.as_json())

            def _answer(self, code: int, body: dict[str, Any]) -> None:
                data = (json.dumps(body) + "\n").encode()
                self.send_response(code)
                self.send_header("Content-Type", "application/json")
                self.send_header("Content-Length", str(len(data)))
                self.send_header("Cache-Control", "no-store")
                self.end_headers()
                self.wfile.write(data)

            def log_message(self, format: str, *args: Any) -> None:
                log.debug("healthz: " + format, *args)

        self.server = ThreadingHTTPServer((host, port), Handler)  # raises OSError when the port is taken
        self.server.daemon_threads = True
        self.port = int(self.server.server_address[1])
        self._thread = threading.Thread(target=self.server.serve_forever, name="pbem-healthz", daemon=True)

    def start(self) -> HealthServer:
        self._thread.start()
        return self

    def stop(self) -> None:
        self.server.shutdown()
        self.server.server_close()
        self._thread.join(5)
