"""What every mail stack shares: ``with Stack() as s:`` starts and stops it; a readable repr.

The three stacks (in-process pymap, pymap in a child process, Dovecot) differ in how they
start and stop, not in how they are used, so the context-manager plumbing lives here once.
"""

from __future__ import annotations

from types import TracebackType
from typing import Self


class StackLifecycle:
    """Mixin: subclasses define ``start() -> Self``, ``stop()``, ``domain``, ``host``, ports."""

    domain: str
    host: str
    smtp_port: int
    imap_port: int

    def start(self) -> Self:
        raise NotImplementedError  # pragma: no cover - every stack defines its own

    def stop(self) -> None:
        raise NotImplementedError  # pragma: no cover - every stack defines its own

    def __enter__(self) -> Self:
        return self.start()

    def __exit__(
        self, exc_type: type[BaseException] | None, exc: BaseException | None, tb: TracebackType | None
    ) -> None:
        self.stop()

    def __repr__(self) -> str:
        return f"<{type(self).__name__} {self.domain} smtp={self.host}:{self.smtp_port} imap={self.host}:{self.imap_port}>"
