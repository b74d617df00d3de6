"""Helpers for Barcadia rule tests: build a position, load the dice, play a command."""

from __future__ import annotations

from typing import Any

from engines.barcadia.engine import ENGINE
from engines.barcadia.scenario import build_position
from engines.barcadia.state import BEATEN, KNOWN, UP, BarcadiaState
from engines.contract import Event

PLAYERS = ["Alice", "Bob", "Chi", "Dung"]
ALICE, BOB, CHI, DUNG = range(4)
FILLER = "slime"


def position(rooms: dict[int, str] | None = None, count: int = 30, players: list[str] | None = None,
             **fields: Any) -> BarcadiaState:
    """A game on the test ring layout: rooms 1-12 touch the SP, 13+ form the next ring.

    ``rooms`` maps room numbers to tile ids; other rooms hold a harmless filler Monster.
    Alice (seat 0) is to play unless ``turn_seat`` says otherwise.
    """
    tiles = [FILLER] * count
    for room, tile in (rooms or {}).items():
        tiles[room - 1] = tile
    names = players or PLAYERS
    defaults: dict[str, Any] = {"turn_seat": 0, "pos": [0] * len(names), "hands": [[] for _ in names],
                                "powerups": [[] for _ in names]}
    defaults.update(fields)
    return build_position(names, tiles, **defaults)


def face_up(s: BarcadiaState, room: int, beaten: bool = False) -> None:
    s.rooms[room][UP] = True
    s.rooms[room][KNOWN] = True
    s.rooms[room][BEATEN] = beaten


def play(s: BarcadiaState, seat: int, text: str) -> tuple[BarcadiaState, str]:
    """Parse and apply a command as the service would; returns the state and the English events."""
    action = ENGINE.parse(s, seat, text)
    s2, events = ENGINE.apply(s, seat, action)
    return s2, told(events)


def told(events: list[Event]) -> str:
    return "\n".join(e.text.en for e in events)


def commands(s: BarcadiaState, seat: int) -> set[str]:
    return {c.command for c in ENGINE.legal_actions(s, seat)}
