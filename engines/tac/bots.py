"""The heuristic TAC bot: greedy on team progress, one ply, no peeking at hidden cards.

Why greedy works: random play wastes most moves (it stays out of its home, knocks its own
marbles, throws away openers); counting how far each team's marbles have come — with a big
bonus for home fields — is enough to beat it by a wide margin.
"""

from __future__ import annotations

import random

from engines.contract import Action, Bot, Engine, Seat
from engines.tac import flow
from engines.tac.board import HOME, WAIT, Board, owner, start
from engines.tac.state import TacState

# Cards worth keeping, worst first: what the bot gives its partner or discards.
KEEP_ORDER = ["9", "10", "12", "2", "3", "6", "5", "8", "trick", "4", "fool", "warrior", "angel", "devil",
              "7", "13", "1", "tac"]


def progress(board: Board, marble: int) -> float:
    p = board.pos[marble]
    if p == WAIT:
        return 0.0
    if p >= HOME:
        return 100.0 + 3 * (p - HOME)
    dist = (p - start(owner(marble))) % 64
    if dist == 0 and not board.fresh[marble]:
        dist = 64
    return 10.0 + dist


def evaluate(board: Board, seat: int) -> float:
    """Own team's progress minus the opponents'."""
    score = 0.0
    for m in range(16):
        sign = 1.0 if owner(m) % 2 == seat % 2 else -1.0
        score += sign * progress(board, m)
    return score


def _keep_rank(card: str) -> int:
    return KEEP_ORDER.index(card) if card in KEEP_ORDER else 0


class HeuristicBot(Bot[TacState]):
    name = "heuristic"

    def choose(self, engine: Engine[TacState], state: TacState, seat: Seat, rng: random.Random) -> Action:
        legal = flow.legal(state, seat)
        if not legal:
            raise ValueError(f"seat {seat} has no legal action")
        if state.phase == "exchange":
            return min(legal, key=lambda a: (_keep_rank(str(a.args[0])), rng.random()))
        base = evaluate(state.board, seat)
        best: tuple[float, float] | None = None
        choice: Action | None = None
        for action, after in legal.items():
            if action.kind == "discard":
                score = base - 50 + _keep_rank(str(action.args[0])) * -0.1
            elif action.kind == "tac":
                score = self._tac_score(state, seat, base)
            elif after is not None:
                score = evaluate(after, seat)
            else:
                score = base + {"skip": 0.5, "devil": 2.0, "fool": 0.0}.get(action.kind, 0.0)
            if after is not None and flow.winning_team_of(after) == seat % 2:
                score += 1000
            key = (score, rng.random())
            if best is None or key > best:
                best, choice = key, action
        assert choice is not None
        return choice

    @staticmethod
    def _tac_score(state: TacState, seat: int, base: float) -> float:
        if state.pending is not None:  # the victim's TAC under a Devil: turns the Devil around
            return base + 2.0
        uses = flow.tac_uses(state, seat)
        scores = [evaluate(after, seat) if after is not None else evaluate(flow.restored_board(state), seat)
                  for after in uses.values()]
        return (max(scores) if scores else base) + 1.0
