"""Where a stuck coroutine waits: the await chain of a task, for the watchdog's log line.

``Task.get_stack`` shows only the outermost frame of a suspended coroutine; what a stuck job
waits FOR (a lock, a socket read, a thread that never returns) is at the other end of the
chain of ``cr_await`` links, so the chain is walked down to the innermost awaitable (and the
future it waits on: ``Task._fut_waiter``, CPython's name for it; elsewhere the iterator shows).
"""

from __future__ import annotations

import asyncio
from pathlib import Path
from typing import Any

#: a chain longer than this is cut (a runaway recursion must not flood the log)
MAX_LINKS = 40


def await_chain(task: asyncio.Task[Any]) -> str:
    """``outer (file:line) → … → inner (file:line) → <what the innermost awaits>``."""
    links: list[str] = []
    awaited: Any = task.get_coro()
    while awaited is not None and len(links) < MAX_LINKS:
        frame = getattr(awaited, "cr_frame", None) or getattr(awaited, "gi_frame", None)
        if frame is None:  # a Future's iterator: the future itself is the task's waiter
            links.append(repr(getattr(task, "_fut_waiter", None) or awaited)[:200])
            break
        links.append(f"{frame.f_code.co_name} ({Path(frame.f_code.co_filename).name}:{frame.f_lineno})")
        awaited = getattr(awaited, "cr_await", None) or getattr(awaited, "gi_yieldfrom", None)
    return " → ".join(links) or "(not started)"
