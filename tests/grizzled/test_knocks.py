"""Every Hard Knock effect of GR-8 (and Merry Christmas, GR-7), plus the conflict rules GR-59/60."""

from __future__ import annotations

from engines.grizzled import rules
from engines.grizzled.scenario import position
from engines.grizzled.state import CHRISTMAS, INTENSITY, SUPPORT, TURN
from tests.grizzled.helpers import commands, do, faces, filler


def withdraws(state: object, seat: int) -> list[str]:
    return [c for c in commands(state, seat) if c.startswith("withdraw")]  # type: ignore[arg-type]


def test_GR_8_trauma_counts_as_its_threat_in_the_mission() -> None:
    """GR-8: "Trauma ×3 (Rain, Snow, Night), Phobia ×3 (Whistle, Gas Mask, Shell): count as their
    threat for GR-37 while the holder is in the Mission." """
    s = position(3, hands=[["trauma rain"], [], []], nml=["rain whistle"], trials=filler(2))
    s, _ = do(s, 0, "play trauma rain")
    assert rules.threat_counts(s)["rain"] == 2 and not s.failed


def test_GR_8_clumsy_draws_and_plays_on_withdrawal_without_trap() -> None:
    """GR-8: "Clumsy: as part of withdrawing, the holder draws and plays a Trial card, whose Trap
    never triggers." """
    s = position(3, hands=[["snow gas"], ["night gas"], []], knocks=[["clumsy"], [], []],
                 trials=["whistle shell", "rain whistle trap"])
    s, _ = do(s, 0, "withdraw left")
    assert faces(s.nml) == ["rain whistle trap"] and faces(s.trials) == ["whistle shell"]
    assert s.withdrawn[0] and s.turn == 1
    knocked = position(3, hands=[["snow gas"], ["night gas"], []], knocks=[["clumsy"], [], []],
                       trials=["whistle shell", "phobia gas"], nml=["snow gas", "rain gas"])
    knocked, _ = do(knocked, 0, "withdraw left")
    assert faces(knocked.knocks[0]) == ["clumsy", "phobia gas"] and not knocked.failed  # withdrawn: no count


def test_GR_8_fragile_blocks_others_with_cards_while_holder_is_in() -> None:
    """GR-8: "Fragile: while the holder is in the Mission, other players holding cards cannot
    withdraw." """
    s = position(3, hands=[["snow gas"], ["night gas"], []], knocks=[[], ["fragile"], []])
    assert withdraws(s, 0) == []
    s.hands[0] = []
    assert withdraws(s, 0) == ["withdraw left", "withdraw right"]
    out = position(3, hands=[["snow gas"], ["night gas"], []], knocks=[[], ["fragile"], []],
                   withdrawn=[False, True, False])
    assert withdraws(out, 0) == ["withdraw left", "withdraw right"]


def test_GR_8_hard_headed_cannot_withdraw_with_two_cards() -> None:
    """GR-8: "Hard-headed: cannot withdraw while holding 2+ cards." """
    s = position(3, hands=[["snow gas", "rain gas"], [], []], knocks=[["hardheaded"], [], []])
    assert withdraws(s, 0) == []
    s, _ = do(s, 0, "play snow gas")
    s.turn = 0
    assert withdraws(s, 0) == ["withdraw left", "withdraw right"]


def test_GR_8_fearful_must_withdraw_while_a_threat_counts_two() -> None:
    """GR-8: "Fearful: must withdraw on their turn while any threat count is 2." GR-36: "that
    withdrawal is their action, and they may choose no other." """
    s = position(3, hands=[["snow gas"], [], []], knocks=[["fearful"], [], []], nml=["rain whistle", "rain gas"])
    assert commands(s, 0) == ["withdraw left", "withdraw right"]
    calm = position(3, hands=[["snow gas"], [], []], knocks=[["fearful"], [], []], nml=["rain whistle"])
    assert "play snow gas" in commands(calm, 0)


def test_GR_8_panicked_tile_is_picked_at_random() -> None:
    """GR-8: "Panicked: their Support tile is picked at random." (With cards in hand: an empty
    hand ignores the Hard Knock, GR-36.)"""
    picked = set()
    for seed in range(20):
        s = position(3, hands=[["rain gas"], ["snow gas"], []], knocks=[["panicked"], [], []], seed=seed)
        assert withdraws(s, 0) == ["withdraw"]
        s, _ = do(s, 0, "withdraw")
        assert s.placed_tile[0] in ("left", "right") and len(s.tiles[0]) == 1
        picked.add(s.placed_tile[0])
    assert picked == {"left", "right"}


def test_GR_8_absent_minded_removes_a_tile_before_withdrawing() -> None:
    """GR-8: "Absent-minded: before withdrawing, removes one of their tiles." (With cards in hand:
    an empty hand ignores the Hard Knock, GR-36.)"""
    s = position(3, hands=[["rain gas"], ["snow gas"], []], knocks=[["absentminded"], [], []],
                 tiles=[["left", "right", "right"], [], []])
    assert withdraws(s, 0) == ["withdraw right drop left", "withdraw left drop right", "withdraw right drop right"]
    s, _ = do(s, 0, "withdraw left drop right")
    assert s.placed_tile[0] == "left" and s.tiles[0] == ["right"]
    one = position(3, hands=[["rain gas"], ["snow gas"], []], knocks=[["absentminded"], [], []],
                   tiles=[["left"], [], []])
    assert withdraws(one, 0) == ["withdraw drop left"]
    one, _ = do(one, 0, "withdraw drop left")
    assert one.placed_tile[0] is None and one.tiles[0] == []


def test_GR_8_selfish_tile_supports_the_giver() -> None:
    """GR-8: "Selfish: the tile they place supports themselves." (With cards in hand: an empty hand
    ignores the Hard Knock, GR-36.)"""
    s = position(3, hands=[["rain gas"], [], []], knocks=[["selfish"], [], []], tiles=[["left", "right"], [], []],
                 charm_ready=[False, True, True], withdrawn=[False, True, True], trials=filler(2))
    s, _ = do(s, 0, "withdraw left")
    assert s.phase == SUPPORT and s.turn == 0 and sorted(s.tiles[0]) == ["left", "right"]


def test_GR_8_frenzied_draws_two_extra_after_the_deal() -> None:
    """GR-8: "Frenzied: draws 2 extra Trial cards after the deal." """
    s = position(3, phase=INTENSITY, knocks=[[], ["frenzied"], []], trials=filler(8))
    s, _ = do(s, 0, "intensity 2")
    assert [len(h) for h in s.hands] == [2, 4, 2] and s.trials == []


def test_GR_8_demoralized_adds_one_card_to_the_morale_drop() -> None:
    """GR-8: "Demoralized: the Morale Drop moves 1 extra card." """
    s = position(3, knocks=[["demoralized"], [], []], tiles=[[], [], []], withdrawn=[True, True, False],
                 turn=2, trials=filler(1), reserve=20)
    s, _ = do(s, 2, "withdraw")
    assert len(s.reserve) == 20 - 4


def test_GR_8_tyrannical_takes_and_keeps_the_leader_token() -> None:
    """GR-8: "Tyrannical: at GR-54 the Leader token goes to, or stays with, the holder (a Speech
    token is given only if it changed hands)." """
    s = position(3, knocks=[[], [], ["tyrannical"]], tiles=[[], [], []], withdrawn=[True, True, False],
                 turn=2, trials=filler(1), leader=0)
    s, _ = do(s, 2, "withdraw")
    assert s.leader == 2 and s.speech_held == [1, 0, 0]
    kept = position(3, knocks=[[], [], ["tyrannical"]], tiles=[[], [], []], withdrawn=[True, True, False],
                    turn=2, trials=filler(1), leader=2)
    kept, _ = do(kept, 2, "withdraw")
    assert kept.leader == 2 and kept.speech_held == [0, 0, 0]


def test_GR_59_earlier_hard_knock_wins_a_conflict() -> None:
    """GR-59: "If two Hard Knocks held by the same player conflict, the one received earlier takes
    precedence." Hard-headed (forbids) before Fearful (forces), and the other way round."""
    hot = ["rain whistle", "rain gas"]
    first = position(3, hands=[["snow gas", "night shell"], [], []], knocks=[["hardheaded", "fearful"], [], []], nml=hot)
    assert withdraws(first, 0) == [] and "play snow gas" in commands(first, 0)
    later = position(3, hands=[["snow gas", "night shell"], [], []], knocks=[["fearful", "hardheaded"], [], []], nml=hot)
    assert commands(later, 0) == ["withdraw left", "withdraw right"]


def test_GR_60_active_players_hard_knock_applies_first() -> None:
    """GR-60: "If Hard Knocks of different players conflict, the active player's Hard Knocks apply
    first." Fearful forces the active player out although another player is Fragile."""
    s = position(3, hands=[["snow gas"], ["night shell"], []], knocks=[["fearful"], ["fragile"], []],
                 nml=["rain whistle", "rain gas"])
    assert commands(s, 0) == ["withdraw left", "withdraw right"]


def test_GR_7_merry_christmas_removes_a_hard_knock_from_any_player() -> None:
    """GR-7: "Merry Christmas: when played it is removed and its player removes one Hard Knock
    from any player." """
    s = position(3, hands=[["christmas"], [], []], knocks=[[], ["wounded"], ["mute"]], trials=filler(2))
    s, _ = do(s, 0, "play christmas")
    assert s.phase == CHRISTMAS and sorted(commands(s, 0)) == ["heal mute", "heal wounded"]
    s, _ = do(s, 0, "heal wounded")
    assert s.knocks[1] == [] and s.hands[0] == [] and s.phase == TURN and s.turn == 1
    assert all(rules.card(c).face != "christmas" for c in s.trials + s.nml)
    nothing = position(3, hands=[["christmas"], [], []], trials=filler(2))
    nothing, _ = do(nothing, 0, "play christmas")
    assert nothing.phase == TURN and nothing.turn == 1
