"""The shared conformance playouts for both values of the ``characters`` option (GR-11).

The shared suite (tests/test_conformance.py) plays the default, ``choose``; here both values run
for every player count, so the dealt Grizzled of ``random`` go through the same checks.
"""

from __future__ import annotations

import dataclasses

import pytest

from engines.grizzled.engine import GrizzledEngine
from engines.grizzled.setup import CHARACTER_MODES
from engines.grizzled.state import CHOOSE, INTENSITY
from tests.conformance import FAST, LIGHT, player_names, playout

PLAYERS = [2, 3, 4, 5]


def variant(characters: str) -> GrizzledEngine:
    engine = GrizzledEngine()
    base = GrizzledEngine.options["characters"]
    engine.options = {"characters": dataclasses.replace(base, default=characters)}
    return engine


@pytest.mark.parametrize("characters", CHARACTER_MODES)
@pytest.mark.parametrize("players", PLAYERS)
def test_conformance_fast_both_character_options(characters: str, players: int) -> None:
    engine = variant(characters)
    first = engine.new_game(player_names(players), None, 0)
    assert first.phase == (CHOOSE if characters == "choose" else INTENSITY)
    for seed in range(3):
        state, log = playout(engine, players, 700 + seed, FAST)
        assert sorted(set(state.characters)) == sorted(state.characters) and all(state.characters)
        assert any(command.startswith("choose") for _, command in log) == (characters == "choose")


@pytest.mark.slow
@pytest.mark.parametrize("players", PLAYERS)
def test_conformance_random_characters_250_seeds(players: int) -> None:
    """The default (``choose``) gets 1,000 seeds per count in the shared suite."""
    engine = variant("random")
    for seed in range(250):
        playout(engine, players, 30_000 + seed, dataclasses.replace(LIGHT, replay=seed % 10 == 0))
