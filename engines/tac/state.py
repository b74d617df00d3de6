"""The TAC game state: plain data with a JSON round-trip; the RNG state is one int inside it."""

from __future__ import annotations

import json
from dataclasses import dataclass, field, fields
from typing import Any

from engines.tac.board import Board


@dataclass(eq=False)
class TacState:
    """One position of a TAC game.

    ``phase``: ``exchange`` (secret simultaneous partner exchange), ``play`` or ``over``.
    ``pending``: a second step of the current turn — ``{"kind": "use", "card": c, ...}`` after a
    TAC (use the retrieved card), or ``{"kind": "devil", "victim": v}`` after a Devil.
    ``last``: the previous turn, for the TAC (TAC-54, TAC-74, TAC-82): who, the effective card,
    and the position before it. ``threat``: the team whose winning move the player to act must
    TAC (TAC-75). ``cache`` holds derived data (legal actions) and is never serialised.
    """

    players: list[str]
    options: dict[str, str]
    rng: int
    deck: list[str]
    pile: list[str]
    hands: list[list[str]]
    pos: list[int]
    fresh: list[bool]
    dealer: int
    deals: int = 0
    shuffle_deal: int = 0
    phase: str = "exchange"
    turn: int = 0
    skipped: bool = False
    pending: dict[str, Any] | None = None
    gifts: dict[str, str] = field(default_factory=dict)
    can: list[bool] = field(default_factory=lambda: [False] * 4)
    last: dict[str, Any] | None = None
    threat: int | None = None
    winners: int | None = None
    last_play: dict[str, Any] | None = None
    turns: int = 0
    version: int = 0
    step_version: int = 0
    cache: dict[Any, Any] = field(default_factory=dict, repr=False)

    @property
    def board(self) -> Board:
        """A copy of the marble position (mutating it does not change the state)."""
        return Board(self.pos.copy(), self.fresh.copy())

    def set_board(self, board: Board) -> None:
        self.pos = board.pos.copy()
        self.fresh = board.fresh.copy()

    def clone(self) -> TacState:
        """A copy safe to change: every list and dict is new; the cache starts empty."""
        return TacState(
            players=self.players, options=self.options, rng=self.rng, deck=self.deck.copy(),
            pile=self.pile.copy(), hands=[h.copy() for h in self.hands], pos=self.pos.copy(),
            fresh=self.fresh.copy(), dealer=self.dealer, deals=self.deals, shuffle_deal=self.shuffle_deal,
            phase=self.phase, turn=self.turn, skipped=self.skipped,
            pending=None if self.pending is None else dict(self.pending), gifts=dict(self.gifts),
            can=self.can.copy(), last=self.last, threat=self.threat, winners=self.winners,
            last_play=self.last_play, turns=self.turns, version=self.version, step_version=self.step_version,
        )

    def to_json(self) -> str:
        data = {name: getattr(self, name) for name in _FIELDS}
        # The draw and discard piles are long lists of short words: one string each keeps the
        # JSON small and fast (the service stores a state per move; the suites serialise every step).
        data["deck"] = " ".join(self.deck)
        data["pile"] = " ".join(self.pile)
        return json.dumps(data, separators=(",", ":"), ensure_ascii=False)

    @staticmethod
    def from_json(text: str) -> TacState:
        data = json.loads(text)
        data.pop("cache", None)
        data["deck"] = data["deck"].split()
        data["pile"] = data["pile"].split()
        return TacState(**data)


_FIELDS: tuple[str, ...] = tuple(f.name for f in fields(TacState) if f.name != "cache")
