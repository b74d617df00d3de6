"""Every registered engine runs the shared conformance suite (tests/conformance.py).

Fast: a few seeds per player count with every check on every step. Slow (``-m slow``):
1,000 seeds per player count with the expensive checks sampled along the way.

Random play gets the options of ``RANDOM_PLAY_DEFAULTS`` as the engine's defaults: Heroes of
Barcadia has no turn limit by default (HB-71), and all-random play then runs ~1,000-1,600 steps a
game on average and on rare seeds past the playout's 20,000-step budget (seed 10113 with 5
players), at five times the old cost; the old limit of 200 turns keeps it bounded.
"""

from __future__ import annotations

import copy
import dataclasses
import os
from typing import Any

import pytest

import engines
from engines.contract import Engine
from tests.conformance import FAST, LIGHT, playout

RANDOM_PLAY_DEFAULTS: dict[str, dict[str, Any]] = {"barcadia": {"turn_limit": 200}}


def for_random_play(engine_id: str) -> Engine[Any]:
    """The registered engine, with ``RANDOM_PLAY_DEFAULTS`` as its option defaults."""
    engine = engines.get(engine_id)
    defaults = RANDOM_PLAY_DEFAULTS.get(engine_id)
    if not defaults:
        return engine
    variant = copy.copy(engine)
    variant.options = {k: dataclasses.replace(o, default=defaults.get(k, o.default)) for k, o in engine.options.items()}
    return variant


def cases() -> list[tuple[str, int]]:
    out = []
    for name in engines.names():
        engine = engines.get(name)
        for n in range(engine.min_players, engine.max_players + 1):
            out.append((name, n))
    return out


FAST_SEEDS = int(os.environ.get("PBEM_CONFORMANCE_FAST_SEEDS", "3"))
SLOW_SEEDS = int(os.environ.get("PBEM_CONFORMANCE_SEEDS", "1000"))


@pytest.mark.parametrize(("engine_id", "players"), cases())
def test_conformance_fast(engine_id: str, players: int) -> None:
    engine = for_random_play(engine_id)
    for seed in range(FAST_SEEDS):
        playout(engine, players, seed, FAST)


SLOW_CHUNK = 250  # seeds per slow test, so that ``-n 2`` can share one engine's seeds


# The slow chunks run longest first: ``pytest -n 2`` hands tests out in this order, two ahead per
# worker, so a long chunk handed out last keeps one core busy while the other has nothing left.
# Seconds of CPU per 250-seed chunk on the CI machine (measured; only the order depends on them).
SLOW_CHUNK_COST: dict[str, float] = {"tac": 100, "barcadia": 45, "tagteam": 12, "grizzled": 7}


def slow_cases() -> list[tuple[str, int, int]]:
    out = [(name, n, start) for name, n in cases() for start in range(0, SLOW_SEEDS, SLOW_CHUNK)]
    return sorted(out, key=lambda case: (-SLOW_CHUNK_COST.get(case[0], 0), -case[1], case[2]))


@pytest.mark.slow
@pytest.mark.parametrize(("engine_id", "players", "first"), slow_cases())
def test_conformance_1000_seeds(engine_id: str, players: int, first: int) -> None:
    engine = for_random_play(engine_id)
    for seed in range(first, min(first + SLOW_CHUNK, SLOW_SEEDS)):
        # Replaying doubles the cost: every 10th seed is enough to prove determinism here.
        playout(engine, players, 10_000 + seed, dataclasses.replace(LIGHT, replay=seed % 10 == 0))


def test_registry_lists_the_toy_and_refuses_unknown() -> None:
    assert "toy" in engines.names()
    with pytest.raises(KeyError):
        engines.get("no-such-game")
