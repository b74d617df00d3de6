"""Bots (issue item 7): the heuristic team must beat a random team in at least 80 % of 500 games."""

from __future__ import annotations

import random

import pytest

from engines.bots import RandomBot
from engines.tac.bots import HeuristicBot
from engines.tac.engine import ENGINE as E

NAMES = ["H1", "R1", "H2", "R2"]


def heuristic_vs_random(seed: int, version: str = "base") -> bool:
    """One game, heuristic bots on seats 0 and 2, random bots on 1 and 3; True if 0+2 win."""
    rng = random.Random(seed)
    bots = [HeuristicBot(), RandomBot(), HeuristicBot(), RandomBot()]
    s = E.new_game(NAMES, {"version": version}, seed)
    for _ in range(20_000):
        acting = E.to_act(s)
        if not acting:
            break
        seat = min(acting)
        s, _ = E.apply(s, seat, bots[seat].choose(E, s, seat, rng))
    outcome = E.outcome(s)
    assert outcome is not None, f"seed {seed}: no end"
    return 0 in outcome.winners


def test_bots_offers_random_and_heuristic_and_default_uses_heuristic() -> None:
    assert {"random", "heuristic"} <= set(E.bots())
    s = E.new_game(NAMES, None, 9)
    assert E.default_action(s, 0) in {c.action for c in E.legal_actions(s, 0)}


def test_heuristic_beats_random_quick() -> None:
    wins = sum(heuristic_vs_random(seed) for seed in range(12))
    assert wins >= 9


@pytest.mark.slow
def test_heuristic_team_beats_random_team_in_80_percent_of_500_games() -> None:
    games = 500
    wins = sum(heuristic_vs_random(10_000 + seed, "master" if seed % 2 else "base") for seed in range(games))
    rate = wins / games
    print(f"\nTAC heuristic team vs random team: {wins}/{games} = {rate:.1%}")
    assert rate >= 0.80
