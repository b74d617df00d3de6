"""Bot statistics: the co-operative bot team against an all-random team, 1,000 games per count.

Slow (``-m slow``). Prints the table that ``python -m bench.grizzled_stats`` prints.
"""

from __future__ import annotations

import pytest

from bench.grizzled_stats import play_team, table

GAMES = 1000


@pytest.mark.slow
@pytest.mark.parametrize("players", [2, 3, 4, 5])
def test_coop_bot_team_beats_a_random_team(players: int) -> None:
    """One player count per test so that each stays well under two minutes."""
    coop, rand = play_team("heuristic", players, GAMES), play_team("random", players, GAMES)
    print("\n" + table([coop, rand]))
    assert coop.games == rand.games == GAMES
    # The co-op bot survives more Missions than random play ...
    assert coop.missions > rand.missions
    # ... and wins at least as often; from 3 players on it must actually win games.
    assert coop.win_rate >= rand.win_rate
    if players >= 3:
        assert coop.win_rate > rand.win_rate


def test_a_short_bot_game_runs_to_an_outcome() -> None:
    """Fast smoke check of the statistics code itself."""
    rows = [play_team("heuristic", 4, 3), play_team("random", 4, 3)]
    assert all(r.games == 3 and sum(r.reasons.values()) == 3 for r in rows)
    assert "heuristic" in table(rows)
