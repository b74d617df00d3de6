"""Bot statistics: the co-operative bot team against an all-random team, 1,000 games per count.

Slow (``-m slow``). Prints the table that ``python -m bench.grizzled_stats`` prints.
"""

from __future__ import annotations

import pytest

from bench.grizzled_stats import play_team, table

GAMES = 1000


@pytest.mark.slow
def test_coop_bot_team_beats_a_random_team_at_every_player_count() -> None:
    rows = [play_team(bot, n, GAMES) for n in (2, 3, 4, 5) for bot in ("heuristic", "random")]
    print("\n" + table(rows))
    by = {(r.bot, r.players): r for r in rows}
    for n in (2, 3, 4, 5):
        coop, rand = by[("heuristic", n)], by[("random", n)]
        assert coop.games == rand.games == GAMES
        # The co-op bot must play longer games than random (it survives more missions) ...
        assert coop.missions > rand.missions
        # ... and win at least as often; from 3 players on it must actually win games.
        assert coop.win_rate >= rand.win_rate
        if n >= 3:
            assert coop.win_rate > rand.win_rate


def test_a_short_bot_game_runs_to_an_outcome() -> None:
    """Fast smoke check of the statistics code itself."""
    rows = [play_team("heuristic", 4, 3), play_team("random", 4, 3)]
    assert all(r.games == 3 and sum(r.reasons.values()) == 3 for r in rows)
    assert "heuristic" in table(rows)
