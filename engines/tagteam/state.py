"""The Tag Team position as plain data (JSON round-trip, RNG inside as one int).

Secrets live in clearly named fields so views and ``plant_markers`` can reason about them:
``hands``/``discards``/``pending``/``fight``/``draw`` belong to one seat each; ``build`` order
and ``rng`` belong to nobody.
"""

from __future__ import annotations

import json
from dataclasses import asdict, dataclass, field, fields, is_dataclass
from typing import Any


@dataclass(slots=True)
class FighterState:
    id: str
    side: str
    hp: int
    power: int
    special: int = 0
    tokens: dict[str, int] = field(default_factory=dict)

    def clone(self) -> FighterState:
        return FighterState(self.id, self.side, self.hp, self.power, self.special, dict(self.tokens))


@dataclass(slots=True)
class TTState:
    players: list[str]
    draft: str
    rng: int
    phase: str  # draft1 | draft2 | free | setup | build | over
    version: int = 0
    step_version: int = 0
    round: int = 0
    hands: list[list[str]] = field(default_factory=lambda: [[], []])  # draft cards held (secret)
    discards: list[list[str]] = field(default_factory=lambda: [[], []])  # face-down draft discards
    picks: list[list[str]] = field(default_factory=lambda: [[], []])  # revealed picks (public)
    pending: list[list[Any] | None] = field(default_factory=lambda: [None, None])  # secret choices
    teams: list[list[FighterState]] = field(default_factory=lambda: [[], []])
    fight: list[list[str]] = field(default_factory=lambda: [[], []])  # Fight Decks, top first
    build: list[list[str]] = field(default_factory=lambda: [[], []])  # Build Decks, top first
    draw: list[list[str]] = field(default_factory=lambda: [[], []])  # the 3 drawn cards
    active: list[int] = field(default_factory=lambda: [0, 0])
    last_fight: list[list[Any]] = field(default_factory=list)  # public record of the last Fight
    bonuses: list[list[str]] = field(default_factory=lambda: [[], []])  # last announced Instant Bonuses
    fallback: bool = False  # free choices clashed: a Standard draft replaced them (TT-11)
    result: dict[str, Any] | None = None

    def clone(self) -> TTState:
        """A deep copy by hand: several times faster than ``copy.deepcopy``."""
        return TTState(
            list(self.players), self.draft, self.rng, self.phase, self.version, self.step_version,
            self.round, [list(h) for h in self.hands], [list(d) for d in self.discards],
            [list(p) for p in self.picks], [None if p is None else list(p) for p in self.pending],
            [[f.clone() for f in team] for team in self.teams], [list(d) for d in self.fight],
            [list(d) for d in self.build], [list(d) for d in self.draw], list(self.active),
            [list(t) for t in self.last_fight], [list(b) for b in self.bonuses], self.fallback,
            None if self.result is None else dict(self.result),
        )

    def to_json(self) -> str:
        """The position as JSON, keys sorted: the same text ``json.dumps(asdict(self))`` writes.

        The fields are handed to ``json`` as they are, only the fighters made dicts by hand:
        ``asdict`` deep-copied the whole position first, most of the cost of saving a move."""
        data = {name: getattr(self, name) for name in _TT_FIELDS}
        data["teams"] = [[{name: getattr(f, name) for name in _FIGHTER_FIELDS} for f in team] for team in self.teams]
        return json.dumps(data, sort_keys=True, separators=(",", ":"), ensure_ascii=False, default=_as_dict)

    @staticmethod
    def from_json(text: str) -> TTState:
        data = json.loads(text)
        data["teams"] = [[FighterState(**f) for f in team] for team in data["teams"]]
        return TTState(**data)


#: The fields of TTState and of FighterState, in their order (``to_json``).
_TT_FIELDS = tuple(f.name for f in fields(TTState))
_FIGHTER_FIELDS = tuple(f.name for f in fields(FighterState))


def _as_dict(value: Any) -> Any:
    """A dataclass found inside the position becomes a dict, as ``asdict`` made it."""
    if is_dataclass(value) and not isinstance(value, type):
        return asdict(value)
    raise TypeError(f"{type(value).__name__} is not JSON serializable")
