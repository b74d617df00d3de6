"""The Grizzled game state: plain JSON-able data, nothing else.

Piles are lists whose *last* element is the top card. Seats are 0..n-1; seat + 1 is the next
player clockwise, i.e. to the left (GR-6). Per-seat dicts use string keys so that a JSON
round-trip gives back the identical state.
"""

from __future__ import annotations

import json
from dataclasses import dataclass, field
from typing import Any

# Phases of play. Each names who acts (see engine.to_act).
CHOOSE = "choose"  # the seats in `choosers` secretly choose their Grizzled at once (GR-11)
INTENSITY = "intensity"  # the Leader picks the Intensity (GR-20)
TURN = "turn"  # seat `turn` takes one action (GR-25)
SPEECH = "speech"  # other players in the Mission secretly answer a Speech (GR-32, GR-33)
CHRISTMAS = "christmas"  # seat `turn` picks the Hard Knock Merry Christmas removes (GR-7)
SUPPORT = "support"  # the helped seat `turn` chooses its help (GR-45 .. GR-47)
OVER = "over"


@dataclass
class GrizzledState:
    players: list[str]
    characters: list[str]  # character id per seat; "" while that seat is still choosing (GR-11)
    rng: int
    trials: list[str]  # card ids, top = last (on the Peace card)
    reserve: list[str]  # card ids, top = last (the Morale Reserve on the Monument card)
    hands: list[list[str]]
    knocks: list[list[str]]  # Hard Knocks in play per seat, in the order received (GR-59)
    tiles: list[list[str]]  # unplaced Support tiles per seat (tile type ids)
    charm_ready: list[bool]
    speech_held: list[int]
    speech_supply: int
    leader: int
    nml: list[str] = field(default_factory=list)  # No Man's Land, card ids
    withdrawn: list[bool] = field(default_factory=list)
    placed_tile: list[str | None] = field(default_factory=list)  # face-down tile per seat (secret)
    placed_to: list[int | None] = field(default_factory=list)  # its target, fixed when placed
    mission: int = 1
    phase: str = INTENSITY
    turn: int = 0
    speech_threat: str | None = None
    speaker: int | None = None
    responders: list[int] = field(default_factory=list)
    responses: dict[str, str] = field(default_factory=dict)  # seat -> face discarded, "" = keep
    choosers: list[int] = field(default_factory=list)  # seats choosing a Grizzled in this round (GR-11)
    picks: dict[str, str] = field(default_factory=dict)  # seat -> Grizzled asked for (secret, replaceable)
    failed: bool = False  # the Mission that just ended failed (Support uses it, GR-46)
    result: str = ""  # "", "won" or "lost"
    reason: str = ""  # key into engine reason texts
    version: int = 0
    step_version: int = 0  # version at which the current decision step began

    def to_json(self) -> str:
        return json.dumps(vars(self), sort_keys=True, separators=(",", ":"), ensure_ascii=False)

    @staticmethod
    def from_json(text: str) -> GrizzledState:
        data: dict[str, Any] = json.loads(text)
        return GrizzledState(**data)

    def clone(self) -> GrizzledState:
        """A copy whose lists can be changed freely (cheaper than deepcopy; only lists nest)."""
        return GrizzledState(
            players=self.players,  # never changed
            characters=list(self.characters),
            rng=self.rng,
            trials=list(self.trials),
            reserve=list(self.reserve),
            hands=[list(h) for h in self.hands],
            knocks=[list(k) for k in self.knocks],
            tiles=[list(t) for t in self.tiles],
            charm_ready=list(self.charm_ready),
            speech_held=list(self.speech_held),
            speech_supply=self.speech_supply,
            leader=self.leader,
            nml=list(self.nml),
            withdrawn=list(self.withdrawn),
            placed_tile=list(self.placed_tile),
            placed_to=list(self.placed_to),
            mission=self.mission,
            phase=self.phase,
            turn=self.turn,
            speech_threat=self.speech_threat,
            speaker=self.speaker,
            responders=list(self.responders),
            responses=dict(self.responses),
            choosers=list(self.choosers),
            picks=dict(self.picks),
            failed=self.failed,
            result=self.result,
            reason=self.reason,
            version=self.version,
            step_version=self.step_version,
        )

    @property
    def n(self) -> int:
        return len(self.players)
