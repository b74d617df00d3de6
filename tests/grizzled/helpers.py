"""Small helpers for the Grizzled rule tests: act by command text, read hands by face."""

from __future__ import annotations

from engines.contract import Event
from engines.grizzled import rules
from engines.grizzled.engine import ENGINE
from engines.grizzled.state import GrizzledState


def do(state: GrizzledState, seat: int, text: str) -> tuple[GrizzledState, list[Event]]:
    """Parse a command as a player wrote it and apply it."""
    return ENGINE.apply(state, seat, ENGINE.parse(state, seat, text))


def faces(cids: list[str]) -> list[str]:
    return sorted(rules.card(c).face for c in cids)


def commands(state: GrizzledState, seat: int) -> list[str]:
    return [c.command for c in ENGINE.legal_actions(state, seat)]


def text(events: list[Event], seat: int | None = None) -> str:
    """Everything ``seat`` may read of these events (None = the public part)."""
    return "\n".join(e.text.en for e in events if e.visible(seat))


SPARE = ["whistle shell", "whistle gas", "gas shell", "whistle gas shell", "snow night", "rain night",
         "rain snow night", "rain snow night whistle gas shell"]


def filler(k: int) -> list[str]:
    """``k`` threat-card faces for piles whose content does not matter (each face used at most once)."""
    return SPARE[:k]
