"""The clauses revised, clarified or added in the second rules pass (issue 13, Barcadia part).

One named test per clause and case, in the style of ``test_scenarios.py``: each builds its
position with ``tests.barcadia.support.position``, loads the dice it needs and quotes the
clause it checks. Every test here failed on the engine before the second pass.
"""

from __future__ import annotations

from engines.barcadia.engine import ENGINE
from engines.barcadia.state import PHASE_OVER, PHASE_TURN, TRAPS
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


# ---------------------------------------------------------------------------
# HB-51 (clarified): a roll bonus "for your next roll" is spent by the first roll it applies to


def test_HB_51_liquid_courage_is_spent_by_the_first_trap_roll() -> None:
    """HB-51: "a roll bonus 'for your next roll' is spent by the first roll it applies to" — Liquid
    Courage (+2 to any roll) lifts the first disarm roll only: the second trap and the Goblin
    (level 12) meet bare dice."""
    s = position({1: "goblin"}, hands=[["liquid-courage"], [], [], []], loaded_dice=[9, 9, 10])
    s.rooms[1][TRAPS] = 2
    s, _ = play(s, ALICE, "play liquid-courage")
    s, text = play(s, ALICE, "reveal 1")
    assert "rolled 9+2=11 against 10: a trap in room 1 is disarmed" in text
    assert "rolled 9 against 10: a trap in room 1 goes off" in text
    assert "rolled 10 against level 12: the Goblin wins" in text
    assert s.hp[ALICE] == 100 - 10 - 20 and s.turn["bonus"] == []


def test_HB_51_a_monster_bonus_waits_for_its_own_roll() -> None:
    """HB-51: the bonus is spent by the first roll *it applies to* — a trap roll leaves Bottle-axe
    (+3 against Monsters) for the Goblin fight."""
    s = position({1: "goblin"}, hands=[["bottle-axe"], [], [], []], loaded_dice=[12, 9])
    s.rooms[1][TRAPS] = 1
    s, _ = play(s, ALICE, "play bottle-axe")
    s, text = play(s, ALICE, "reveal 1")
    assert "rolled 12 against 10: a trap in room 1 is disarmed" in text
    assert "rolled 9+3=12 against level 12: the Goblin is beaten" in text


def test_HB_51_a_tied_boss_roll_spends_the_bonus() -> None:
    """HB-51 with HB-39 ("ties reroll"): the tied roll is the first roll the bonus applied to, so the
    reroll is bare — Boss Bane's +3 makes 12 a 15 that ties Bob's 15; then 14 beats 13."""
    s = position({1: "minotaur"}, hands=[["boss-bane"], [], [], []], loaded_dice=[12, 15, 14, 13])
    s, _ = play(s, ALICE, "play boss-bane")
    s, _ = play(s, ALICE, "reveal 1")
    s, text = play(s, ALICE, "boss bob")
    assert "Alice rolled 12+3=15 and Bob rolled 15: a tie" in text
    assert "Alice rolled 14 against Bob's 13: Alice wins" in text
