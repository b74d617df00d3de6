"""An event loop on a thread of its own for the SMTP conversation (``outbox_process = false``,
or a test clock; otherwise the rounds run in ``smtpprocess``).

Why: a reply is processed synchronously (parse, apply, render, commit) on the service's
event loop, so while it runs no SMTP response can be read there. ``pbem serve`` runs its
SMTP client (aiosmtplib, the same code as everywhere) on this thread instead: a whole outbox
round (``send_due``: claim a mail, hand it to SMTP, record it — each in its own small commit,
as before) runs here, and meanwhile the next reply is processed on the service's loop. The
two threads share the database engine (its pool gives each its own connection; SQLite's busy
timeout orders their writes) and nothing else: the outbox's ``Sender`` is only touched by the
round running here, one round at a time (the service's flush lock).
"""

from __future__ import annotations

import asyncio
import threading
from collections.abc import Coroutine
from typing import Any, TypeVar

T = TypeVar("T")


class SmtpThread:
    """A running event loop on a daemon thread; ``run`` awaits a coroutine on it."""

    def __init__(self, name: str = "pbem-smtp") -> None:
        self.loop = asyncio.new_event_loop()
        self._thread = threading.Thread(target=self._serve, name=name, daemon=True)
        self._thread.start()

    def _serve(self) -> None:
        asyncio.set_event_loop(self.loop)
        self.loop.run_forever()

    async def run(self, work: Coroutine[Any, Any, T]) -> T:
        """Run ``work`` on this thread's loop and wait for it from the caller's loop."""
        return await asyncio.wrap_future(asyncio.run_coroutine_threadsafe(work, self.loop))

    def close(self) -> None:
        """Stop the loop and the thread (after what runs on it has been awaited)."""
        if self.loop.is_closed():
            return
        self.loop.call_soon_threadsafe(self.loop.stop)
        self._thread.join(timeout=10)
        if not self._thread.is_alive():
            self.loop.close()
