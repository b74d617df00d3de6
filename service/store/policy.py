"""A game's deadline policy as data, and the time arithmetic of a deadline.

Kept in ``store`` because saving a state sets the next deadline (``games.save_state``) and
the store may not import the scheduler; ``service.schedule.deadlines`` re-exports
``DeadlinePolicy`` with the functions that change a running game's clock.

The policy is stored on the game as JSON (``Game.policy``; "" means the configured
defaults, so changing the configuration changes every game that never chose its own).
"""

from __future__ import annotations

import json
import math
from dataclasses import asdict, dataclass, replace
from datetime import datetime, timedelta
from typing import Any

from engines.contract import tr
from service.config import Settings

ON_MISS = ("wait", "default", "skip")


class PolicyError(ValueError):
    """A policy that cannot be used; the message names the bad field."""


@dataclass(frozen=True)
class DeadlinePolicy:
    """Time per decision, reminders before it, grace after it, weekends, what a miss does.

    ``hours``: time per decision. ``reminders``: hours before the deadline at which the
    player is reminded (merged with their other games into one mail). ``grace_hours``:
    after the deadline the player is *late* (reminded, at most once a day) but nothing is
    played for them yet. ``weekend_pause``: Saturday and Sunday (UTC) do not count.
    ``on_miss``: ``wait`` (remind and tell the operator, play nothing), ``default`` (the
    engine's default/bot move) or ``skip`` (the engine's pass where its rules have one,
    else the default move).
    """

    hours: float = 72.0
    reminders: tuple[float, ...] = (24.0, 2.0)
    grace_hours: float = 0.0
    weekend_pause: bool = False
    on_miss: str = "default"

    def __post_init__(self) -> None:
        if not (isinstance(self.hours, int | float) and math.isfinite(self.hours) and 0 < self.hours <= 24 * 60):
            raise PolicyError("hours: must be more than 0 and at most 1440 (60 days)")
        if any(not (0 < r < self.hours) for r in self.reminders):
            raise PolicyError("reminders: each must be more than 0 and less than hours")
        if not (0 <= self.grace_hours <= 24 * 30):
            raise PolicyError("grace_hours: must be between 0 and 720")
        if self.on_miss not in ON_MISS:
            raise PolicyError(f"on_miss: must be one of {', '.join(ON_MISS)}")
        object.__setattr__(self, "reminders", tuple(sorted({float(r) for r in self.reminders}, reverse=True)))

    @classmethod
    def defaults(cls, settings: Settings) -> DeadlinePolicy:
        """The configured default policy (reminders that do not fit the time are dropped)."""
        hours = settings.turn_hours
        return cls(hours=hours, reminders=tuple(r for r in settings.reminder_hours if 0 < r < hours),
                   grace_hours=settings.grace_hours, weekend_pause=settings.weekend_pause,
                   on_miss=settings.on_miss)

    def to_json(self) -> str:
        data = asdict(self)
        data["reminders"] = list(self.reminders)
        return json.dumps(data, sort_keys=True)

    @classmethod
    def from_json(cls, text: str, settings: Settings) -> DeadlinePolicy:
        """The stored policy ("" = the defaults); unknown keys are refused."""
        if not text:
            return cls.defaults(settings)
        data: dict[str, Any] = json.loads(text)
        return cls.defaults(settings).with_values(data)

    def with_values(self, values: dict[str, Any]) -> DeadlinePolicy:
        unknown = sorted(set(values) - {"hours", "reminders", "grace_hours", "weekend_pause", "on_miss"})
        if unknown:
            raise PolicyError(f"unknown field(s): {', '.join(unknown)}")
        if "reminders" in values:
            values = {**values, "reminders": tuple(float(r) for r in values["reminders"])}
        return self._fitted(values)

    def _fitted(self, values: dict[str, Any]) -> DeadlinePolicy:
        """``replace`` that drops the old reminders a new, shorter time no longer fits."""
        if "hours" in values and "reminders" not in values:
            values = {**values, "reminders": tuple(r for r in self.reminders if r < values["hours"])}
        return replace(self, **values)

    @classmethod
    def parse(cls, text: str, base: DeadlinePolicy) -> DeadlinePolicy:
        """``base`` changed by ``hours=48 reminders=24,2 grace=12 weekend=on miss=wait``.

        The form an operator or a league writes on a command line; ``reminders=none`` turns
        reminders off. Raises ``PolicyError`` naming the bad word.
        """
        values: dict[str, Any] = {}
        for word in text.replace(";", " ").split():
            name, sep, value = word.partition("=")
            name = name.strip().lower().replace("-", "_")
            if not sep or not value:
                raise PolicyError(f"{word!r}: write name=value, e.g. hours=48")
            try:
                if name in ("hours", "time"):
                    values["hours"] = float(value.rstrip("h"))
                elif name in ("grace", "grace_hours"):
                    values["grace_hours"] = float(value.rstrip("h"))
                elif name in ("reminders", "remind"):
                    values["reminders"] = () if value.lower() in ("none", "off", "-") else tuple(
                        float(v.rstrip("h")) for v in value.split(","))
                elif name in ("weekend", "weekend_pause"):
                    if value.lower() not in ("on", "off", "yes", "no", "true", "false"):
                        raise PolicyError(f"{word!r}: weekend=on or weekend=off")
                    values["weekend_pause"] = value.lower() in ("on", "yes", "true")
                elif name in ("miss", "on_miss"):
                    values["on_miss"] = value.lower()
                else:
                    raise PolicyError(f"{word!r}: unknown; use hours, reminders, grace, weekend, miss")
            except ValueError as exc:
                if isinstance(exc, PolicyError):
                    raise
                raise PolicyError(f"{word!r}: not a number") from None
        return base._fitted(values)

    def describe(self, lang: str = "en") -> str:
        """One line for a mail or the admin's screen."""
        rem = ", ".join(f"{r:g} h" for r in self.reminders) or tr("none")[lang]
        weekend = tr("; weekends do not count")[lang] if self.weekend_pause else ""
        miss = {"wait": tr("wait for the player"),
                "default": tr("a default move is played"),
                "skip": tr("the turn is skipped")}[self.on_miss][lang]
        return tr("{hours:g} h per decision; reminders {rem} before; grace {grace_hours:g} h{weekend}; a missed deadline: {miss}", hours=self.hours, rem=rem, grace_hours=self.grace_hours, weekend=weekend, miss=miss)[lang]


def policy_of(game: Any, settings: Settings) -> DeadlinePolicy:
    """The policy of ``game`` (a ``Game`` row), defaults filled in from the settings."""
    return DeadlinePolicy.from_json(getattr(game, "policy", "") or "", settings)


def _is_weekend(when: datetime) -> bool:
    return when.weekday() >= 5


def deadline_after(start: datetime, hours: float, weekend_pause: bool = False) -> datetime:
    """``start`` plus ``hours`` of running time; with ``weekend_pause`` Saturdays and Sundays
    (UTC) do not run, so 72 h from Friday noon end on Tuesday noon."""
    if not weekend_pause:
        return start + timedelta(hours=hours)
    left = timedelta(hours=hours)
    now = start
    while left > timedelta(0):
        if _is_weekend(now):
            midnight = now.replace(hour=0, minute=0, second=0, microsecond=0)
            now = midnight + timedelta(days=7 - now.weekday())  # Monday 00:00
            continue
        midnight = now.replace(hour=0, minute=0, second=0, microsecond=0)
        saturday = midnight + timedelta(days=5 - now.weekday())
        step = min(left, saturday - now)
        now += step
        left -= step
    return now


def miss_time(deadline: datetime, policy: DeadlinePolicy) -> datetime:
    """When a missed deadline is acted on: the deadline plus the grace."""
    return deadline + timedelta(hours=policy.grace_hours)
