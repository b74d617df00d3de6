"""The one clock of the service, injectable so tests can move time by hand.

Everything that asks "what time is it" (deadlines, outbox backoff, the daily limit of error
answers, the sweep) takes a ``Clock`` — never ``datetime.now()`` directly — so a test can
jump three days ahead without sleeping. Times are timezone-aware UTC everywhere (SQLModel's
``UTCDateTime`` columns store and return them so).
"""

from __future__ import annotations

from datetime import UTC, datetime, timedelta
from typing import Protocol


class Clock(Protocol):
    def now(self) -> datetime: ...


class SystemClock:
    """Wall-clock time in UTC."""

    def now(self) -> datetime:
        return datetime.now(UTC)


class ManualClock:
    """A clock that only moves when told to (tests, simulations)."""

    def __init__(self, start: datetime | None = None) -> None:
        self._now = start or datetime(2026, 1, 1, 12, 0, tzinfo=UTC)

    def now(self) -> datetime:
        return self._now

    def advance(self, **delta: float) -> datetime:
        self._now += timedelta(**delta)
        return self._now

    def set(self, when: datetime) -> None:
        self._now = when

