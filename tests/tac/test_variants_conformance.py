"""The shared conformance playouts for the non-default options (master deck, forward-only 7, the 7's
stuck rule judged after the whole 7).

The shared suite plays every engine with its default options only; these variants change the
defaults so the same checks run on the master cards and on TAC-39's alternatives.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Mapping

import pytest

from engines.contract import Option
from engines.tac.engine import TacEngine
from tests.conformance import FAST, LIGHT, playout


def variant(version: str, seven_in_home: str, seven_stuck: str) -> TacEngine:
    engine = TacEngine()
    base: Mapping[str, Option] = TacEngine.options
    chosen = {"version": version, "seven_in_home": seven_in_home, "seven_stuck": seven_stuck}
    engine.options = {name: dataclasses.replace(base[name], default=value) for name, value in chosen.items()}
    return engine


VARIANTS = [
    ("master", "both-ways", "each-step"),
    ("base", "forward-only", "each-step"),
    ("master", "forward-only", "each-step"),
    ("base", "both-ways", "after-the-seven"),
    ("master", "both-ways", "after-the-seven"),
]


@pytest.mark.parametrize(("version", "seven_in_home", "seven_stuck"), VARIANTS)
def test_conformance_fast_variants(version: str, seven_in_home: str, seven_stuck: str) -> None:
    engine = variant(version, seven_in_home, seven_stuck)
    state, _ = playout(engine, 4, 500, dataclasses.replace(FAST, every=5, leak_every=5))
    assert state.options == {"version": version, "seven_in_home": seven_in_home, "seven_stuck": seven_stuck}


@pytest.mark.slow
@pytest.mark.parametrize(("version", "seven_in_home", "seven_stuck"), VARIANTS)
def test_conformance_variants_50_seeds(version: str, seven_in_home: str, seven_stuck: str) -> None:
    engine = variant(version, seven_in_home, seven_stuck)
    for seed in range(50):
        playout(engine, 4, 20_000 + seed, dataclasses.replace(LIGHT, replay=seed % 10 == 0))
