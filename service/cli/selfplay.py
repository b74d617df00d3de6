"""Bots playing whole games against each other, through the engine contract only.

Used by ``pbem selfplay`` (try the rules, see a readable game), by ``pbem demo``'s fallback
and by the bot statistics. Pure computation: no mail, no database.
"""

from __future__ import annotations

import random
from collections import Counter
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from typing import Any

from engines.contract import Bot, Engine, Event, Outcome

NAMES = ["Alice", "Bình", "Chi", "Dũng", "Eve", "Phong"]


@dataclass
class GameRecord:
    seed: int
    players: list[str]
    bots: list[str]
    outcome: Outcome
    moves: int
    log: list[tuple[int, str, list[Event]]] = field(default_factory=list)


def seat_bots(engine: Engine[Any], players: int, lineup: Sequence[str]) -> list[Bot[Any]]:
    """Bots for each seat: ``lineup`` is repeated over the seats (``["heuristic", "random"]``
    gives alternating seats, i.e. team A+C against B+D in TAC)."""
    available = engine.bots()
    missing = [name for name in lineup if name not in available]
    if missing:
        raise ValueError(f"{engine.id} has no bot named {', '.join(missing)}; it has {', '.join(available)}")
    return [available[lineup[i % len(lineup)]] for i in range(players)]


def play_game(
    engine: Engine[Any],
    players: int,
    seed: int,
    lineup: Sequence[str] = ("heuristic",),
    options: dict[str, Any] | None = None,
    keep_log: bool = False,
    max_moves: int = 100_000,
    on_move: Callable[[], None] | None = None,
) -> GameRecord:
    """Play one game to its end. The bots' randomness is seeded from ``seed`` too."""
    names = NAMES[:players]
    bots = seat_bots(engine, players, lineup)
    state = engine.new_game(names, options, seed)
    rng = random.Random(seed)
    log: list[tuple[int, str, list[Event]]] = []
    moves = 0
    while moves < max_moves:
        to_act = engine.to_act(state)
        if not to_act:
            break
        # Secret simultaneous choices resolve the same whatever the order; a fixed order
        # keeps a seed reproducible.
        seat = min(to_act)
        action = bots[seat].choose(engine, state, seat, rng)
        command = engine.format(state, action)
        state, events = engine.apply(state, seat, action)
        moves += 1
        if keep_log:
            log.append((seat, command, events))
        if on_move:
            on_move()
    outcome = engine.outcome(state)
    if outcome is None:
        raise RuntimeError(f"{engine.id} seed {seed}: no end after {max_moves} moves")
    return GameRecord(seed, names, [b.name for b in bots], outcome, moves, log)


@dataclass
class Summary:
    games: int = 0
    draws: int = 0
    moves: int = 0
    seat_wins: Counter[int] = field(default_factory=Counter)
    bot_wins: Counter[str] = field(default_factory=Counter)
    bot_seats: Counter[str] = field(default_factory=Counter)

    def add(self, record: GameRecord) -> None:
        self.games += 1
        self.moves += record.moves
        if record.outcome.draw:
            self.draws += 1
        for seat in record.outcome.winners:
            self.seat_wins[seat] += 1
        # A bot kind "wins" a game when any seat it plays wins (teams and co-op count once).
        winners = {record.bots[s] for s in record.outcome.winners}
        for name in set(record.bots):
            self.bot_seats[name] += 1
            if name in winners:
                self.bot_wins[name] += 1

    def win_rate(self, bot: str) -> float:
        return self.bot_wins[bot] / self.bot_seats[bot] if self.bot_seats[bot] else 0.0
