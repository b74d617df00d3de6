"""The shared conformance playouts for the non-default options (master deck, forward-only 7).

The shared suite plays every engine with its default options only; these variants change the
defaults so the same checks run on the master cards and on TAC-39's alternative.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Mapping

import pytest

from engines.contract import Option
from engines.tac.engine import TacEngine
from tests.conformance import FAST, LIGHT, playout


def variant(version: str, seven_in_home: str) -> TacEngine:
    engine = TacEngine()
    base: Mapping[str, Option] = TacEngine.options
    engine.options = {
        "version": dataclasses.replace(base["version"], default=version),
        "seven_in_home": dataclasses.replace(base["seven_in_home"], default=seven_in_home),
    }
    return engine


VARIANTS = [("master", "both-ways"), ("base", "forward-only"), ("master", "forward-only")]


@pytest.mark.parametrize(("version", "seven_in_home"), VARIANTS)
def test_conformance_fast_variants(version: str, seven_in_home: str) -> None:
    engine = variant(version, seven_in_home)
    state, _ = playout(engine, 4, 500, dataclasses.replace(FAST, every=5, leak_every=5))
    assert state.options == {"version": version, "seven_in_home": seven_in_home}


@pytest.mark.slow
@pytest.mark.parametrize(("version", "seven_in_home"), VARIANTS)
def test_conformance_variants_50_seeds(version: str, seven_in_home: str) -> None:
    engine = variant(version, seven_in_home)
    for seed in range(50):
        playout(engine, 4, 20_000 + seed, dataclasses.replace(LIGHT, replay=seed % 10 == 0))
