"""The shared conformance playouts with the Kickstarter modules on (HB-68, HB-69).

The shared suite plays every engine with its default options only, and Signature Moves and
House Rules are off by default; these variants turn them on, so the same checks (secrecy of
the character choice included) run on the chosen and the dealt characters, the House Rules
and the players' own dungeon building. Random play is given a turn limit (HB-71) to keep
the games short: without one, all-random play runs ~1,000 steps a game.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Mapping
from typing import Any

import pytest

from engines.barcadia.engine import BarcadiaEngine
from engines.contract import Option
from tests.conformance import FAST, LIGHT, playout

VARIANTS: dict[str, dict[str, Any]] = {
    "chosen": {"signature_moves": True, "house_rules": True, "characters": "choose", "turn_limit": 200},
    "dealt-and-built": {"signature_moves": True, "house_rules": True, "characters": "random",
                        "layout": "players", "turn_limit": 200},
}


def variant(defaults: Mapping[str, Any]) -> BarcadiaEngine:
    engine = BarcadiaEngine()
    base: Mapping[str, Option] = BarcadiaEngine.options
    engine.options = {k: dataclasses.replace(opt, default=defaults.get(k, opt.default)) for k, opt in base.items()}
    return engine


@pytest.mark.parametrize("name", VARIANTS)
@pytest.mark.parametrize("players", range(2, 7))
def test_conformance_fast_modules(name: str, players: int) -> None:
    engine = variant(VARIANTS[name])
    state, _ = playout(engine, players, 700 + players, dataclasses.replace(FAST, every=5, leak_every=5))
    assert {k: state.options[k] for k in VARIANTS[name]} == VARIANTS[name]
    assert "" not in state.characters and len(set(state.characters)) == players


@pytest.mark.slow
@pytest.mark.parametrize("name", VARIANTS)
@pytest.mark.parametrize("players", range(2, 7))
def test_conformance_modules_50_seeds(name: str, players: int) -> None:
    engine = variant(VARIANTS[name])
    for seed in range(50):
        playout(engine, players, 30_000 + seed, dataclasses.replace(LIGHT, replay=seed % 10 == 0))
