"""Bots every engine can use. Engine-specific heuristic bots live in each engine package."""

from __future__ import annotations

import random
from typing import Any

from engines.contract import Action, Bot, Engine, Seat


class RandomBot(Bot[Any]):
    """Uniform over the legal actions: the baseline every heuristic bot must beat."""

    name = "random"

    def choose(self, engine: Engine[Any], state: Any, seat: Seat, rng: random.Random) -> Action:
        choices = engine.legal_actions(state, seat)
        if not choices:
            raise ValueError(f"seat {seat} has no legal action")
        return rng.choice(choices).action


def bot_rng(engine: Engine[Any], state: Any, seat: Seat) -> random.Random:
    """A deterministic ``random.Random`` for ``default_action``: same position, same move."""
    return random.Random(f"{engine.id}:{engine.state_version(state)}:{seat}")
