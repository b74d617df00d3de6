"""Issue 3's measured thresholds, as slow tests that also print their tables.

Reproduce the full report with ``.venv/bin/python -m bench.tagteam_stats``.
"""

from __future__ import annotations

import pytest

from bench.tagteam_stats import balance, print_balance, versus_random


@pytest.mark.slow
def test_every_fighter_wins_35_to_65_percent_over_2000_random_team_games() -> None:
    """Issue 3: "over 2,000 bot games with random teams, every fighter's win rate stays within 35–65 %"
    (heuristic against heuristic; a draw counts as half a win)."""
    result = balance(2000)
    print_balance(result)
    assert sum(r.games for r in result.rows.values()) == 4 * 2000
    for fid, row in result.rows.items():
        assert 0.35 <= row.rate <= 0.65, f"{fid} wins {row.rate:.1%}"


@pytest.mark.slow
def test_heuristic_bot_beats_random_in_70_percent_of_1000_games() -> None:
    """Issue 3: "A bot that beats a random player in at least 70 % of 1,000 games" (draws are not wins)."""
    result = versus_random(1000)
    print(f"heuristic vs random: {result.wins} wins, {result.draws} draws, {result.losses} losses "
          f"= {result.rate:.1%}")
    assert result.rate >= 0.70
