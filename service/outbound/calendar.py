"""Deadlines as iCalendar events (RFC 5545), for players who wrote ``calendar on``.

The ``icalendar`` library writes the file (line folding, escaping, UTC date-times and the
VALARM blocks are easy to get subtly wrong by hand, and calendar clients are strict).
One decision is one event: its UID is derived from the decision's reply key (stable for
that decision, unguessable, and different for the next one). ``SEQUENCE`` counts minutes
since the epoch when the event is issued, so every later version of the same event — a
deadline moved by an absence or the operator — has a higher one and replaces the earlier in
the player's calendar; a made decision is sent as ``METHOD:CANCEL`` with the same UID.
"""

from __future__ import annotations

from datetime import datetime, timedelta

from icalendar import Alarm, Calendar
from icalendar import Event as VEvent

PRODID = "-//pbem//deadlines//EN"


def event_uid(reply_key: str, domain: str) -> str:
    return f"deadline-{reply_key}@{domain}"


def _calendar(method: str) -> Calendar:
    cal = Calendar()
    cal.add("prodid", PRODID)
    cal.add("version", "2.0")
    cal.add("method", method)
    return cal


def deadline_event(*, uid: str, deadline: datetime, now: datetime, summary: str, description: str,
                   reminders: tuple[float, ...]) -> bytes:
    """A PUBLISH calendar with one 15-minute event ending at ``deadline``, an alarm per reminder."""
    cal = _calendar("PUBLISH")
    event = VEvent()
    event.add("uid", uid)
    event.add("dtstamp", now)
    event.add("sequence", int(now.timestamp() // 60))
    event.add("dtstart", deadline - timedelta(minutes=15))
    event.add("dtend", deadline)
    event.add("summary", summary)
    event.add("description", description)
    event.add("status", "CONFIRMED")
    event.add("transp", "TRANSPARENT")
    for hours in reminders:
        alarm = Alarm()
        alarm.add("action", "DISPLAY")
        alarm.add("description", summary)
        alarm.add("trigger", -timedelta(hours=hours), parameters={"RELATED": "END"})
        event.add_component(alarm)
    cal.add_component(event)
    return bytes(cal.to_ical())


def cancelled_event(*, uid: str, now: datetime, summary: str) -> bytes:
    """The event ``uid`` cancelled (the decision was made)."""
    cal = _calendar("CANCEL")
    event = VEvent()
    event.add("uid", uid)
    event.add("dtstamp", now)
    event.add("sequence", int(now.timestamp() // 60))
    event.add("dtstart", now)
    event.add("summary", summary)
    event.add("status", "CANCELLED")
    cal.add_component(event)
    return bytes(cal.to_ical())
