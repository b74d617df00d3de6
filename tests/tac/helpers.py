"""Small helpers shared by the TAC rule tests."""

from __future__ import annotations

from engines.contract import Event
from engines.tac.board import WAIT, field_name
from engines.tac.engine import ENGINE
from engines.tac.plays import MARBLE_BY_NAME
from engines.tac.state import TacState

E = ENGINE


def commands(state: TacState, seat: int | None = None) -> set[str]:
    """Canonical commands of every legal action of ``seat`` (default: the seat to act)."""
    return {c.command for c in E.legal_actions(state, state.turn if seat is None else seat)}


def play(state: TacState, text: str, seat: int | None = None) -> TacState:
    """Parse and apply one command the way the service does."""
    return play_events(state, text, seat)[0]


def play_events(state: TacState, text: str, seat: int | None = None) -> tuple[TacState, list[Event]]:
    seat = state.turn if seat is None else seat
    action = E.parse(state, seat, text)
    return E.apply(state, seat, action)


def at(state: TacState, marble: str) -> str:
    """Where a marble is: ``"15"``, ``"AH2"`` or ``"waiting"``."""
    m = MARBLE_BY_NAME[marble]
    return field_name(m, state.pos[m])


def waiting(state: TacState, marble: str) -> bool:
    return state.pos[MARBLE_BY_NAME[marble]] == WAIT


def fresh(state: TacState, marble: str) -> bool:
    return state.fresh[MARBLE_BY_NAME[marble]]
