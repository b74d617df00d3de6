"""Test helper: build any Barcadia position directly through the engine's own set-up.

Kept apart from ``setup`` because it needs the engine object (to resolve options), and the
engine imports ``setup``: here it can import both without a circle.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from engines.barcadia.engine import ENGINE
from engines.barcadia.hexes import DIRECTIONS, START_POINT, distance
from engines.barcadia.setup import empty_room, new_game, start_point
from engines.barcadia.state import PHASE_TURN, BarcadiaState


def build_position(players: Sequence[str], rooms: Sequence[str], *, seed: int = 1,
                   options: Mapping[str, Any] | None = None, **fields: Any) -> BarcadiaState:
    """Test-only: a game whose dungeon is ``rooms`` laid in a ring-by-ring line from the SP.

    ``rooms[i]`` is the tile id of room i+1; hexes are taken in the order ``random_layout`` would
    number them for a full hex ring (1-6 touch the SP ...). Keyword ``fields`` overwrite state
    fields (``pos``, ``hp``, ``hands``, ``powerups``, ``turn_seat`` ...) after set-up.
    """
    opts = ENGINE.resolve_options(options)
    s = new_game(players, opts, seed)
    hexes = ring_hexes(len(rooms))
    s.layout = [[0, 0]] + [[q, r] for q, r in hexes]
    s.rooms = [start_point()] + [empty_room(t) for t in rooms]
    s.phase = PHASE_TURN
    s.placing = {}
    for key, value in fields.items():
        if not hasattr(s, key):
            raise AttributeError(f"BarcadiaState has no field {key!r}")
        setattr(s, key, value)
    return s


def new_game_rolling(players: Sequence[str], dice: Sequence[int], *, seed: int = 1,
                     options: Mapping[str, Any] | None = None) -> BarcadiaState:
    """Test-only: a new game whose first-player roll (HB-18) comes from ``dice`` first."""
    return new_game(players, ENGINE.resolve_options(options), seed, start_dice=dice)


def ring_hexes(count: int) -> list[tuple[int, int]]:
    """Hexes around the SP ring by ring (distance 2, then 3 ...), clockwise from north."""
    out: list[tuple[int, int]] = []
    radius = 2
    sp = set(START_POINT)
    order = list(DIRECTIONS.values())
    while len(out) < count:
        # walk the ring of this radius: start north, step around six sides
        q, r = 0, -radius
        ring = []
        for side in range(6):
            dq, dr = order[(side + 2) % 6]
            for _ in range(radius):
                ring.append((q, r))
                q, r = q + dq, r + dr
        out += [h for h in ring if h not in sp and distance(h) == radius]
        radius += 1
    return out[:count]
