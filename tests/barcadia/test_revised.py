"""The clauses revised, clarified or added in the second rules pass (issue 13, Barcadia part).

One named test per clause and case, in the style of ``test_scenarios.py``: each builds its
position with ``tests.barcadia.support.position``, loads the dice it needs and quotes the
clause it checks. Every test here failed on the engine before the second pass.
"""

from __future__ import annotations

from engines.barcadia.engine import ENGINE
from engines.barcadia.state import PHASE_OVER, PHASE_TURN
from tests.barcadia.support import ALICE, BOB, CHI, play, position

# ---------------------------------------------------------------------------
# HB-71: no turn limit by default; a limit, when set, ranks by Power-Ups, then HP


def test_HB_71_no_turn_limit_by_default() -> None:
    """HB-71: "There is no turn limit in the source. A game has none by default" — the 200th turn
    ends like any other and the next player's turn begins."""
    assert ENGINE.resolve_options(None)["turn_limit"] == 0
    s = position(turns=199)
    s, text = play(s, ALICE, "pass")
    assert s.phase == PHASE_TURN and s.turn_seat == BOB and s.turns == 200
    assert ENGINE.outcome(s) is None and "turns have been played" not in text


def test_HB_71_turn_limit_ranks_by_power_ups_then_hp() -> None:
    """HB-71: "`turn_limit` stays an option ..., and when it ends a game the outcome ranks players by
    Power-Ups, then HP" — Chi (2 Power-Ups, 70 HP) leads Bob (2, 50 HP), Alice (1) and Dung (0)."""
    s = position(options={"turn_limit": 5}, turns=4, hp=[100, 50, 70, 100],
                 powerups=[["banner"], ["gauntlets", "war-ring"], ["lucky-coin", "banner"], []])
    s, _ = play(s, ALICE, "pass")
    outcome = ENGINE.outcome(s)
    assert s.phase == PHASE_OVER and outcome is not None
    assert outcome.winners == {CHI} and not outcome.draw
    assert "1. Chi (2 Power-Ups, 70 HP); 2. Bob (2 Power-Ups, 50 HP); 3. Alice" in outcome.reason.en
    assert ENGINE.view(s, BOB)["ranking"] == [CHI, BOB, ALICE, 3]
    assert "Ranking by Power-Ups, then HP: 1. Chi" in ENGINE.render_view(ENGINE.view(s, BOB), "en")


def test_HB_71_a_tie_at_the_top_of_the_ranking_is_a_draw() -> None:
    """HB-71: the ranking decides the game; equal Power-Ups and HP at the top decide nothing."""
    s = position(options={"turn_limit": 1}, hp=[60, 60, 100, 100],
                 powerups=[["banner"], ["gauntlets"], [], []])
    s, _ = play(s, ALICE, "pass")
    outcome = ENGINE.outcome(s)
    assert outcome is not None and outcome.draw and not outcome.winners
    assert "tie at the top" in outcome.reason.en
