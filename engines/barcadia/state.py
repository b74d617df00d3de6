"""The Barcadia game state: plain JSON data, one object per game position.

Rooms (index 0 = the Starting Point) are short lists ``[tile, up, known, beaten, traps, drops]``
indexed by the constants below — compact because the service stores, and the conformance
suite round-trips, the whole state at every move. ``layout[i]`` is room i's hex; the
neighbour lists (``adj``) are derived from it and cached, never stored. ``known`` marks a face-down tile everybody has already seen
(an undefeated Monster turned back, HB-27); a never-seen face-down tile is a secret.
"""

from __future__ import annotations

import json
from dataclasses import dataclass, field
from typing import Any

from engines.barcadia.hexes import adjacency

_ADJ_CACHE: dict[int, tuple[list[list[int]], tuple[tuple[int, ...], ...], int]] = {}

TILE, UP, KNOWN, BEATEN, TRAPS, DROPS = range(6)

# The stored form: sorted keys, no spaces, UTF-8 text. Made once; the cycle check is off
# because a state is a tree of plain data (it would cost a third of the encoding time).
_ENCODER = json.JSONEncoder(sort_keys=True, separators=(",", ":"), ensure_ascii=False, check_circular=False)

PHASE_CHARACTERS = "characters"  # HB-68: players choose their characters, secretly and all at once
PHASE_PLACE = "place"
PHASE_TURN = "turn"
PHASE_WINDOW = "window"
PHASE_OVER = "over"


def new_turn_flags(actions: int = 1) -> dict[str, Any]:
    """What the active player has used this turn (HB-19)."""
    return {"duels": 1, "teleports": 1, "actions": actions, "acted": False, "bonus": [], "disarm": 0,
            "over": False}


@dataclass
class BarcadiaState:
    players: list[str]
    options: dict[str, Any]
    rng: int
    layout: list[list[int]]
    rooms: list[list[Any]]
    pos: list[int]
    hp: list[int]
    hands: list[list[str]]
    powerups: list[list[str]]
    characters: list[str]
    autopass: list[bool]
    shield: list[int]
    loot_deck: list[str]
    loot_discard: list[str]
    powerup_deck: list[str]
    traps_left: int
    house_deck: list[str] = field(default_factory=list)
    house_rule: str = ""
    phase: str = PHASE_TURN
    turn_seat: int = 0
    turns: int = 0
    turn: dict[str, Any] = field(default_factory=new_turn_flags)
    pending: list[dict[str, Any]] = field(default_factory=list)
    window: dict[str, Any] = field(default_factory=dict)
    placing: dict[str, Any] = field(default_factory=dict)
    start_rolls: list[list[int]] = field(default_factory=list)
    # Test-only: rolls to use before the RNG (scenario tests set them; real games never do).
    loaded_dice: list[int] = field(default_factory=list)
    winner: int = -1
    end_reason: str = ""
    version: int = 0
    step_version: int = 0

    def to_json(self) -> str:
        return _ENCODER.encode(self.__dict__)

    @staticmethod
    def from_json(text: str) -> BarcadiaState:
        return BarcadiaState(**json.loads(text))

    def clone(self) -> BarcadiaState:
        """A copy of everything that moves; ``layout`` and ``options`` never change in play
        and are shared (which also keeps the adjacency cache warm).

        Why so hand-made: the engine clones on every ``apply``. Rooms are copied one level
        deep only: a room's ``drops`` list is shared, so the rules replace it, never append
        to it. ``window`` is shared: the rules give the state a new window dict rather than
        change one (``flow.choose_in_window`` copies before it records a choice).
        """
        d = dict(self.__dict__)
        d["rooms"] = [r[:] for r in self.rooms]
        for key in ("pos", "hp", "characters", "autopass", "shield", "loot_deck", "loot_discard", "powerup_deck",
                    "house_deck", "loaded_dice"):
            d[key] = d[key][:]
        d["hands"] = [h[:] for h in self.hands]
        d["powerups"] = [p[:] for p in self.powerups]
        d["turn"] = dict(self.turn, bonus=[list(b) for b in self.turn["bonus"]])
        d["pending"] = [dict(p) for p in self.pending]
        d["window"] = self.window  # copy-on-write: the rules replace it, or copy before a change
        d["placing"] = {k: list(v) for k, v in self.placing.items()}
        s = object.__new__(BarcadiaState)
        s.__dict__.update(d)
        return s

    @property
    def adj(self) -> tuple[tuple[int, ...], ...]:
        """Neighbour room numbers per room (HB-9/10), cached per layout object."""
        hit = _ADJ_CACHE.get(id(self.layout))
        if hit is not None and hit[0] is self.layout and hit[2] == len(self.layout):
            return hit[1]
        adj = adjacency(tuple((h[0], h[1]) for h in self.layout[1:]))
        if len(_ADJ_CACHE) > 512:
            _ADJ_CACHE.clear()
        _ADJ_CACHE[id(self.layout)] = (self.layout, adj, len(self.layout))
        return adj

    @property
    def n(self) -> int:
        return len(self.players)

    def occupants(self, room: int) -> list[int]:
        return [s for s, p in enumerate(self.pos) if p == room]

    def is_occupied(self, room: int) -> bool:
        return room != 0 and room in self.pos
