"""An asyncio event loop running in a daemon thread, driven from synchronous code.

The mail stacks must be usable from plain pytest tests, from typer commands and from async
code alike; owning their own loop in their own thread makes ``start()``/``stop()`` ordinary
blocking calls that work in all three, and keeps the servers responsive while the caller blocks
on an IMAP or SMTP client.
"""

from __future__ import annotations

import asyncio
import threading
from collections.abc import Coroutine
from typing import Any, TypeVar

T = TypeVar("T")


class LoopThread:
    """Start with ``start()``, submit coroutines with ``run(coro)``, end with ``stop()``."""

    def __init__(self, name: str) -> None:
        self._name = name
        self._loop: asyncio.AbstractEventLoop | None = None
        self._thread: threading.Thread | None = None

    @property
    def loop(self) -> asyncio.AbstractEventLoop:
        if self._loop is None:
            raise RuntimeError(f"{self._name} is not running")
        return self._loop

    def start(self) -> None:
        ready = threading.Event()

        def main() -> None:
            loop = asyncio.new_event_loop()
            asyncio.set_event_loop(loop)
            self._loop = loop
            ready.set()
            try:
                loop.run_forever()
            finally:
                loop.run_until_complete(loop.shutdown_asyncgens())
                loop.close()

        self._thread = threading.Thread(target=main, name=self._name, daemon=True)
        self._thread.start()
        ready.wait()

    def run(self, coro: Coroutine[Any, Any, T], timeout: float | None = 30.0) -> T:
        """Run ``coro`` on the loop and wait for its result (re-raising its exception)."""
        return asyncio.run_coroutine_threadsafe(coro, self.loop).result(timeout)

    def stop(self) -> None:
        if self._loop is None or self._thread is None:
            return
        loop = self._loop

        async def cancel_rest() -> None:
            tasks = [t for t in asyncio.all_tasks() if t is not asyncio.current_task()]
            for task in tasks:
                task.cancel()
            await asyncio.gather(*tasks, return_exceptions=True)

        try:
            asyncio.run_coroutine_threadsafe(cancel_rest(), loop).result(10)
        finally:
            loop.call_soon_threadsafe(loop.stop)
            self._thread.join(10)
            self._loop = None
            self._thread = None
