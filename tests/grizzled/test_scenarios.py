"""The "Scenario checks" of shared/rules/grizzled.en.md, one named test each (GR-<clause>)."""

from __future__ import annotations

import pytest

from engines.contract import Action, IllegalCommand
from engines.grizzled import rules
from engines.grizzled.engine import ENGINE
from engines.grizzled.scenario import position
from engines.grizzled.state import INTENSITY, OVER, SPEECH, SUPPORT, TURN
from tests.grizzled.helpers import commands, do, faces, filler

NAMES4 = ["Alice", "Bob", "Chi", "Dung"]


def test_GR_13_four_player_setup_piles_tokens_and_tiles() -> None:
    """Scenario 1 (GR-12, GR-13, GR-14): "4-player setup: Trials 25, Reserve 34, supply 4 Speech
    tokens, none held; each player has 3 tiles including an L1 and an R1." """
    for seed in range(20):
        s = ENGINE.new_game(NAMES4, None, seed)
        assert len(s.trials) == 25 and len(s.reserve) == 34
        assert len(set(s.trials) | set(s.reserve)) == 59
        assert s.speech_supply == 4 and s.speech_held == [0, 0, 0, 0]
        for tiles in s.tiles:
            assert len(tiles) == 3 and "left" in tiles and "right" in tiles
        assert all(s.charm_ready)
        assert ENGINE.to_act(s) == {0, 1, 2, 3}  # everyone chooses a Grizzled first (GR-11)
        dealt = ENGINE.new_game(NAMES4, {"characters": "random"}, seed)
        assert len(set(dealt.characters)) == 4 and dealt.phase == INTENSITY and ENGINE.to_act(dealt) == {dealt.leader}


def test_GR_12_three_players_never_get_double_tiles() -> None:
    """Scenario 2 (GR-10, GR-12): "3-player setup: no L2 or R2 tile is ever dealt." """
    seen = set()
    for seed in range(300):
        s = ENGINE.new_game(["A", "B", "C"], None, seed)
        seen |= {t for tiles in s.tiles for t in tiles}
    assert seen == {"left", "right"}
    doubles = set()
    for seed in range(300):
        s = ENGINE.new_game(["A", "B", "C", "D", "E"], None, seed)
        doubles |= {t for tiles in s.tiles for t in tiles}
    assert {"left2", "right2"} <= doubles  # ...while with 5 players they do occur


def test_GR_14_speech_tokens_by_player_count() -> None:
    """GR-14: "Speech tokens in the common supply: 5 with 2–3 players, 4 with 4, 3 with 5." """
    got = {n: ENGINE.new_game(["A", "B", "C", "D", "E"][:n], None, 1).speech_supply for n in range(2, 6)}
    assert got == {2: 5, 3: 5, 4: 4, 5: 3}


def test_GR_20_first_mission_intensity_at_least_three_later_at_least_one() -> None:
    """Scenario 3 (GR-20): "the first Mission rejects 2 and accepts 3; the second accepts 1 and
    rejects 0." """
    first = position(3, phase=INTENSITY, mission=1, trials=filler(6))
    with pytest.raises(IllegalCommand):
        ENGINE.parse(first, 0, "intensity 2")
    with pytest.raises(IllegalCommand):
        ENGINE.apply(first, 0, Action("intensity", (2,)))
    s, _ = do(first, 0, "intensity 3")
    assert s.phase == TURN and [len(h) for h in s.hands] == [2, 2, 2]
    second = position(3, phase=INTENSITY, mission=2, trials=filler(3))
    s, _ = do(second, 0, "intensity 1")
    assert [len(h) for h in s.hands] == [1, 1, 1]
    with pytest.raises(IllegalCommand):
        ENGINE.parse(second, 0, "intensity 0")


def test_GR_22_short_deal_stops_when_the_pile_runs_out() -> None:
    """Scenario 4 (GR-22): "3 players, 4 cards in the Trials pile, Intensity 2, Leader at seat 0:
    seat 0 gets 2, seats 1 and 2 get 1." """
    s = position(3, phase=INTENSITY, mission=2, leader=0, turn=0,
                 trials=["rain shell", "snow gas", "night whistle", "rain gas"])
    s, _ = do(s, 0, "intensity 2")
    assert [len(h) for h in s.hands] == [2, 1, 1]
    assert s.trials == [] and s.turn == 0


def test_GR_41_failure_reshuffles_no_mans_land_and_keeps_hands() -> None:
    """Scenario 5 (GR-37, GR-39, GR-41): "NML holds Rain+Night and Rain; a third Rain fails the
    Mission; the Trials pile grows by 3; hands are unchanged." """
    s = position(3, hands=[["rain shell", "snow gas"], [], ["night gas"]], knocks=[[], [], ["mute"]],
                 nml=["rain night", "rain whistle"], trials=["snow whistle"],
                 withdrawn=[False, True, False], placed=[None, "left", None], turn=0)
    s, _ = do(s, 0, "play rain shell")
    assert s.failed and s.nml == []
    assert len(s.trials) == 1 + 3
    assert faces(s.trials) == sorted(["snow whistle", "rain night", "rain whistle", "rain shell"])
    assert faces(s.hands[0]) == ["snow gas"] and faces(s.hands[2]) == ["night gas"]
    assert s.phase == SUPPORT and s.turn == 2  # Chi received the only tile and is helped


def test_GR_37_phobia_counts_only_while_its_holder_is_in() -> None:
    """Scenario 6 (GR-35, GR-37, GR-38): "A holds Phobia(Shell) and withdraws; a second Shell in
    NML does not fail the Mission, a third does. Playing Phobia(Shell) while NML holds 2 Shell
    fails it at once." """
    s = position(3, hands=[["rain whistle"], ["rain shell"], ["snow shell"]],
                 knocks=[["phobia shell"], [], []], nml=["night shell"], trials=filler(3), turn=0)
    assert rules.threat_counts(s)["shell"] == 2
    s, _ = do(s, 0, "withdraw left")
    assert rules.threat_counts(s)["shell"] == 1
    s, _ = do(s, 1, "play rain shell")
    assert s.phase == TURN and not s.failed and rules.threat_counts(s)["shell"] == 2
    s, _ = do(s, 2, "play snow shell")
    assert s.failed
    s = position(3, hands=[["phobia shell"], [], []], nml=["night shell", "rain shell"], trials=filler(3))
    s, _ = do(s, 0, "play phobia shell")
    assert s.failed and faces(s.knocks[0]) == ["phobia shell"]


def test_GR_27_trap_pulls_the_top_card_into_play() -> None:
    """Scenario 7 (GR-27, GR-29): "a trapped Threat card pulls the top Trial card into play; a
    Trap on that card is ignored; a drawn Hard Knock goes to the player; with an empty Trials
    pile nothing happens." """
    s = position(3, hands=[["rain whistle trap", "snow gas"], ["night gas"], ["night gas"]],
                 trials=["night shell", "snow gas trap"])
    after, _ = do(s, 0, "play rain whistle trap")
    assert faces(after.nml) == ["rain whistle trap", "snow gas trap"]
    assert faces(after.trials) == ["night shell"]  # the second Trap drew nothing
    s = position(3, hands=[["rain whistle trap", "snow gas"], ["night gas"], ["night gas"]],
                 trials=["night shell", "wounded"])
    after, _ = do(s, 0, "play rain whistle trap")
    assert faces(after.knocks[0]) == ["wounded"] and faces(after.nml) == ["rain whistle trap"]
    s = position(3, hands=[["rain whistle trap", "snow gas"], ["night gas"], ["night gas"]], trials=[])
    after, _ = do(s, 0, "play rain whistle trap")
    assert faces(after.nml) == ["rain whistle trap"] and after.turn == 1


def test_GR_28_trap_that_fails_the_mission_draws_nothing() -> None:
    """Scenario 8 (GR-28, GR-38): "a trapped card making the third Night ends the Mission with no
    draw." """
    s = position(3, hands=[["night shell trap"], ["rain gas"], ["rain gas"]],
                 nml=["night whistle", "night gas"], trials=["snow gas", "mute"])
    mute = s.trials[-1]
    after, _ = do(s, 0, "play night shell trap")
    assert after.failed
    assert mute in after.trials and all(mute not in k for k in after.knocks)


def test_GR_30_lucky_charm_removes_one_matching_card_once() -> None:
    """Scenario 9 (GR-30, GR-31): "the charm is Rain; NML holds Rain+Snow and Night. Using it
    removes Rain+Snow only and turns the card over. Reuse before recovery is illegal, as is use
    with no Rain in NML." """
    chars = ["charles", "felix", "gustave"]  # Charles Saulière: Rain
    s = position(3, characters=chars, hands=[["snow gas"], ["night gas"], ["night gas"]],
                 nml=["rain snow", "night whistle"], trials=filler(3))
    assert [c for c in commands(s, 0) if c.startswith("charm")] == ["charm rain snow"]
    s, _ = do(s, 0, "charm")
    assert faces(s.nml) == ["night whistle"] and s.charm_ready[0] is False
    s.nml.append(position(3, nml=["rain gas"]).nml[0])
    s.turn = 0
    with pytest.raises(IllegalCommand):
        ENGINE.parse(s, 0, "charm")
    fresh = position(3, characters=chars, hands=[["snow gas"], [], []], nml=["night whistle"])
    with pytest.raises(IllegalCommand):
        ENGINE.parse(fresh, 0, "charm")


def test_GR_32_speech_lets_each_other_player_in_discard_one() -> None:
    """Scenario 10 (GR-8, GR-32, GR-33, GR-61): "A names Snow; B, in the Mission and holding two
    Snow cards and Phobia(Snow), removes exactly one; withdrawn C and A remove none; the token is
    gone. A Mute holder cannot make a Speech." (Snow is a weather threat, so the Hard Knock
    showing it is Trauma(Snow) under GR-8.)"""
    s = position(3, hands=[["snow whistle"], ["snow whistle", "snow gas", "trauma snow", "rain shell"],
                           ["snow shell"]],
                 withdrawn=[False, False, True], speech_held=[1, 0, 0], trials=filler(3))
    s, _ = do(s, 0, "speech snow")
    assert s.phase == SPEECH and ENGINE.to_act(s) == {1}
    assert sorted(commands(s, 1)) == sorted(["discard snow whistle", "discard snow gas", "discard trauma snow", "keep"])
    s, _ = do(s, 1, "discard trauma snow")
    assert faces(s.hands[1]) == ["rain shell", "snow gas", "snow whistle"]
    assert faces(s.hands[0]) == ["snow whistle"] and faces(s.hands[2]) == ["snow shell"]
    assert s.speech_held[0] == 0 and s.phase == TURN and s.turn == 1
    mute = position(3, hands=[["snow whistle"], [], []], knocks=[["mute"], [], []], speech_held=[1, 0, 0])
    assert not any(c.startswith("speech") for c in commands(mute, 0))
    with pytest.raises(IllegalCommand):
        ENGINE.parse(mute, 0, "speech snow")


def test_GR_34_withdraw_places_a_tile_when_held_and_keeps_the_hand() -> None:
    """Scenario 11 (GR-8, GR-34 – GR-36): "a player with tiles must place one, a player without
    tiles places none, and the hand is kept for the next Mission. A Prideful player with cards
    cannot withdraw while others remain; with an empty hand they can." """
    s = position(3, hands=[["rain shell"], ["snow gas"], []], tiles=[["left", "right"], [], []],
                 trials=filler(5))
    assert [c for c in commands(s, 0) if c.startswith("withdraw")] == ["withdraw left", "withdraw right"]
    s, _ = do(s, 0, "withdraw left")
    assert s.placed_tile[0] == "left" and s.tiles[0] == ["right"]
    assert [c for c in commands(s, 1) if c.startswith("withdraw")] == ["withdraw"]
    s, _ = do(s, 1, "withdraw")
    assert s.placed_tile[1] is None
    s, _ = do(s, 2, "withdraw")
    assert s.phase == INTENSITY and s.mission == 3 and s.tiles[1] == ["left"]  # help had nothing to do
    assert faces(s.hands[0]) == ["rain shell"] and faces(s.hands[1]) == ["snow gas"]
    proud = position(3, hands=[["rain shell"], ["snow gas"], []], knocks=[["prideful"], [], []])
    assert not any(c.startswith("withdraw") for c in commands(proud, 0))
    empty = position(3, hands=[[], ["snow gas"], []], knocks=[["prideful"], [], []])
    assert "withdraw left" in commands(empty, 0)
    last = position(3, hands=[["rain shell"], [], []], knocks=[["prideful"], [], []], withdrawn=[False, True, True])
    assert "withdraw left" in commands(last, 0)


def test_GR_44_support_after_success_helps_the_single_most_supported() -> None:
    """Scenario 12 (GR-42 – GR-45): "Support after success (4 players): B receives 2 tiles, C 1: B
    removes 2 Hard Knocks or recovers the charm, and recipients keep the tiles. At 1–1, nobody is
    helped, but the tiles still move." """
    base = {"players": 4, "hands": [["rain shell"], [], [], []], "trials": filler(4),
            "knocks": [[], ["mute", "wounded"], [], []], "charm_ready": [True, False, True, True],
            "tiles": [[], [], [], ["right"]], "turn": 3}
    s = position(**base, withdrawn=[True, True, True, False], placed=["left", None, "right", None])  # type: ignore[arg-type]
    s, _ = do(s, 3, "withdraw right")
    assert s.phase == SUPPORT and s.turn == 1
    assert sorted(s.tiles[1]) == ["left", "right"] and s.tiles[2] == ["right"]
    options = commands(s, 1)
    assert "remove mute wounded" in options and "recover charm" in options and "decline" in options
    s, _ = do(s, 1, "remove wounded mute")
    assert s.knocks[1] == [] and s.phase == INTENSITY
    tie = position(**base, withdrawn=[True, True, True, False], placed=["left", None, None, None])  # type: ignore[arg-type]
    tie, events = do(tie, 3, "withdraw right")
    assert tie.phase == INTENSITY and faces(tie.knocks[1]) == ["mute", "wounded"]
    assert tie.tiles[1] == ["left"] and tie.tiles[2] == ["right"]
    assert any("nobody" in e.text.en for e in events)


def test_GR_46_support_after_failure_removes_at_most_one() -> None:
    """Scenario 13 (GR-46): "A and B withdrew, both targeting C; C may remove exactly 1 Hard Knock
    and cannot recover the charm." """
    s = position(3, hands=[[], [], ["rain shell"]], knocks=[[], [], ["mute", "wounded"]],
                 charm_ready=[True, True, False], nml=["rain night", "rain whistle"], trials=["night gas"],
                 withdrawn=[True, True, False], placed=["right", "left", None], turn=2)
    s, _ = do(s, 2, "play rain shell")
    assert s.failed and s.phase == SUPPORT and s.turn == 2
    assert sorted(commands(s, 2)) == ["decline", "remove mute", "remove wounded"]
    s, _ = do(s, 2, "remove wounded")
    assert faces(s.knocks[2]) == ["mute"]


def test_GR_49_four_hard_knocks_lose_only_after_support() -> None:
    """Scenario 14 (GR-8, GR-48, GR-49): "weight 4 reached mid-Mission ends nothing. After Support,
    Wounded plus 2 others (weight 4) loses the game unless help removes enough." """
    s = position(3, hands=[["selfish", "rain gas"], ["night gas"], ["night gas"]], knocks=[["wounded", "mute"], [], []],
                 trials=filler(3))
    s, _ = do(s, 0, "play selfish")
    assert rules.weight(s, 0) == 4 and s.phase == TURN and ENGINE.outcome(s) is None
    lost = position(3, hands=[[], [], []], knocks=[["wounded", "mute", "selfish"], [], []], trials=["snow shell"],
                    tiles=[[], [], []], withdrawn=[True, True, False], turn=2)
    lost, _ = do(lost, 2, "withdraw")
    outcome = ENGINE.outcome(lost)
    assert outcome is not None and outcome.winners == frozenset() and lost.reason == "knocks"
    helped = position(3, hands=[[], [], []], knocks=[["wounded", "mute", "selfish"], [], []], trials=["snow shell"],
                      tiles=[[], [], []], withdrawn=[True, True, False], placed=[None, "right", None], turn=2)
    helped, _ = do(helped, 2, "withdraw")
    assert helped.phase == SUPPORT and helped.turn == 0
    helped, _ = do(helped, 0, "remove wounded mute")
    assert helped.phase == INTENSITY and ENGINE.outcome(helped) is None


def _end_mission(hands: list[list[str]], reserve: int, trials: list[str], **kw: object) -> tuple:
    """Everyone but seat 2 has withdrawn; seat 2 (empty-handed, no tiles) withdraws now."""
    s = position(3, hands=hands, reserve=reserve, trials=trials, tiles=[[], [], []],
                 withdrawn=[True, True, False], turn=2, **kw)  # type: ignore[arg-type]
    return do(s, 2, "withdraw")


def test_GR_51_morale_drop_moves_hand_total_at_least_three() -> None:
    """Scenario 15 (GR-50, GR-51, GR-53, GR-54): "hands of 1 move 3 cards; hands of 7 move 7; a
    Reserve of 5 with 7 due is a defeat. Empty Trials pile and hands after Support is a victory
    with no drop. The Leader passes clockwise, and the former Leader gets a token only while the
    supply has one." """
    s, _ = _end_mission([["rain shell"], [], []], 20, ["night gas"])
    assert len(s.reserve) == 17 and len(s.trials) == 4 and s.phase == INTENSITY
    assert s.leader == 1 and s.speech_held == [1, 0, 0] and s.speech_supply == 4
    seven = [["rain shell", "snow gas", "night gas"], ["rain gas", "snow shell"], ["night whistle", "rain whistle"]]
    s, _ = _end_mission(seven, 20, ["night gas"])
    assert len(s.reserve) == 13 and len(s.trials) == 8
    s, _ = _end_mission(seven, 5, ["night gas"])
    assert s.phase == OVER and s.reason == "monument" and s.reserve == []
    s, _ = _end_mission([[], [], []], 20, [])
    assert s.result == "won" and len(s.reserve) == 20
    s, _ = _end_mission([["rain shell"], [], []], 20, ["night gas"], speech_supply=0)
    assert s.leader == 1 and s.speech_held == [0, 0, 0]


def test_GR_53_a_drop_that_empties_the_reserve_exactly_loses() -> None:
    """GR-53: "The game is lost the moment the Morale Reserve is empty (Monument visible),
    including when a drop empties it exactly." """
    s, _ = _end_mission([["rain shell"], [], []], 3, ["night gas"])
    assert s.phase == OVER and s.reason == "monument" and len(s.trials) == 4


def test_GR_40_success_removes_no_mans_land_for_good() -> None:
    """GR-40: "Success: every player has withdrawn. All NML cards are removed." GR-58: "A removed
    (discarded) card never returns to play." """
    s = position(3, hands=[[], [], []], nml=["whistle gas shell", "snow night"], trials=filler(2),
                 tiles=[[], [], []], withdrawn=[True, True, False], turn=2)
    gone = set(s.nml)
    s, _ = do(s, 2, "withdraw")
    assert s.nml == [] and not s.failed
    assert not gone & set(s.trials + s.reserve + [c for h in s.hands for c in h])


def test_GR_24_turns_skip_withdrawn_players() -> None:
    """GR-24: "each player who has not withdrawn takes a turn (withdrawn players are skipped)." """
    s = position(4, hands=[["snow gas"], [], ["rain shell"], ["night whistle"]], withdrawn=[False, False, True, False],
                 trials=filler(2), turn=0)
    s, _ = do(s, 0, "play snow gas")
    assert s.turn == 1
    s, _ = do(s, 1, "withdraw left")
    assert s.turn == 3


def test_GR_45_help_may_recover_the_lucky_charm() -> None:
    """GR-45: "the helped player chooses one: remove up to 2 of their own Hard Knocks, or turn their
    Grizzled card back to the charm side." GR-31: a used charm comes back only this way."""
    s = position(3, hands=[[], [], []], trials=filler(2), charm_ready=[True, False, True], tiles=[[], [], []],
                 withdrawn=[True, True, False], placed=["left", None, None], turn=2)
    s, _ = do(s, 2, "withdraw")
    assert s.phase == SUPPORT and s.turn == 1 and commands(s, 1) == ["recover charm", "decline"]
    s, _ = do(s, 1, "recover charm")
    assert s.charm_ready == [True, True, True] and s.phase == INTENSITY


# --- Rules, second pass: the revised clauses ---------------------------------------------------


def _withdraws(state: object, seat: int) -> list[str]:
    return [c for c in commands(state, seat) if c.startswith("withdraw")]  # type: ignore[arg-type]


def test_GR_36_empty_hand_clumsy_draws_nothing_on_withdrawal() -> None:
    """GR-36 (revised): "A player with an empty hand may always withdraw, ignoring the effects of
    their active Hard Knocks … no Hard Knock … draws cards for … a player whose hand is empty when
    they act." Clumsy draws and plays a Trial card only for a holder with cards (GR-8)."""
    s = position(3, hands=[[], ["night gas"], []], knocks=[["clumsy"], [], []],
                 trials=["whistle shell", "rain whistle trap"])
    after, events = do(s, 0, "withdraw left")
    assert after.nml == [] and faces(after.trials) == ["rain whistle trap", "whistle shell"]
    assert after.withdrawn[0] and after.turn == 1 and "clumsy" not in "\n".join(e.text.en for e in events)
    holding = position(3, hands=[["snow gas"], ["night gas"], []], knocks=[["clumsy"], [], []],
                       trials=["whistle shell", "rain whistle trap"])
    holding, _ = do(holding, 0, "withdraw left")
    assert faces(holding.nml) == ["rain whistle trap"]  # with cards Clumsy still draws


def test_GR_36_empty_hand_absent_minded_keeps_every_tile() -> None:
    """GR-36 (revised): "no Hard Knock … takes a tile from a player whose hand is empty when they
    act": Absent-minded removes no Support tile, and the player places the one they choose."""
    s = position(3, hands=[[], ["snow gas"], []], knocks=[["absentminded"], [], []],
                 tiles=[["left", "right", "right"], [], []])
    assert _withdraws(s, 0) == ["withdraw left", "withdraw right"]
    s, _ = do(s, 0, "withdraw left")
    assert s.placed_tile[0] == "left" and s.tiles[0] == ["right", "right"]


def test_GR_36_empty_hand_panicked_chooses_the_tile() -> None:
    """GR-36 (revised): an empty-handed Panicked player is not subjected to a random tile: they
    choose it like anyone else (GR-34)."""
    for seed in range(10):
        s = position(3, hands=[[], ["snow gas"], []], knocks=[["panicked"], [], []], seed=seed)
        assert _withdraws(s, 0) == ["withdraw left", "withdraw right"]
        s, _ = do(s, 0, "withdraw right")
        assert s.placed_tile[0] == "right" and s.tiles[0] == ["left"]


def test_GR_36_empty_hand_selfish_tile_goes_where_it_points() -> None:
    """GR-36 (revised): an empty-handed Selfish player's tile is not turned back to themselves; it
    goes to the player its type targets (GR-42)."""
    s = position(3, hands=[[], ["snow gas"], []], knocks=[["selfish"], [], []])
    s, events = do(s, 0, "withdraw left")
    assert s.placed_to[0] == 1 and "supports Bob" in "\n".join(e.text.en for e in events if e.visible(0))


def test_GR_36_empty_hand_is_neither_banned_nor_forced() -> None:
    """GR-36 (revised): "no Hard Knock bans, forces … a player whose hand is empty when they act."
    Prideful, Hard-headed and another player's Fragile do not ban the withdrawal; Fearful does not
    force it, so the player may still use the lucky charm instead."""
    banned = position(3, hands=[[], ["snow gas"], []], knocks=[["prideful", "hardheaded"], ["fragile"], []])
    assert _withdraws(banned, 0) == ["withdraw left", "withdraw right"]
    chars = ["charles", "felix", "gustave"]  # Charles Saulière: Rain
    fearful = position(3, characters=chars, hands=[[], ["snow gas"], []], knocks=[["fearful"], [], []],
                       nml=["rain whistle", "rain gas"])
    assert "charm rain gas" in commands(fearful, 0) and "withdraw left" in commands(fearful, 0)
    holding = position(3, characters=chars, hands=[["snow shell"], ["snow gas"], []], knocks=[["fearful"], [], []],
                       nml=["rain whistle", "rain gas"])
    assert commands(holding, 0) == ["withdraw left", "withdraw right"]  # with cards Fearful still forces


def test_GR_21_intensity_never_offers_more_cards_than_the_pile_deals() -> None:
    """GR-21/GR-22: no maximum Intensity is given, but the deal stops when the pile runs out. The
    menu stops at the Intensity that deals the whole pile, and each label says what it deals."""
    s = position(3, phase=INTENSITY, mission=2, leader=1, turn=1, trials=filler(7))
    choices = {c.command: c.label.en for c in ENGINE.legal_actions(s, 1)}
    assert list(choices) == ["intensity 1", "intensity 2", "intensity 3"]
    assert "3 card(s) to each player" not in choices["intensity 3"]
    assert "7" in choices["intensity 3"] and "Bob 3, Chi 2, Alice 2" in choices["intensity 3"]
    assert "2 card(s) to each player" in choices["intensity 2"]
    dealt, _ = do(s, 1, "intensity 3")
    assert [len(h) for h in dealt.hands] == [2, 3, 2] and dealt.trials == []


def test_GR_21_an_impossible_intensity_is_refused_with_what_is_possible() -> None:
    """GR-21: `intensity 12` when 12 is not possible is an error that says what is — never silently
    another number. Too small is refused the same way (GR-20)."""
    s = position(3, phase=INTENSITY, mission=2, trials=filler(7))
    for text in ("intensity 12", "cường độ 4"):
        with pytest.raises(IllegalCommand) as err:
            ENGINE.parse(s, 0, text)
        assert "1 to 3" in err.value.message.en and "7" in err.value.message.en
        assert "1 đến 3" in err.value.message.vi
        assert "intensity 3" in err.value.examples
    first = position(3, phase=INTENSITY, mission=1, trials=[*filler(8), "rain shell"])
    with pytest.raises(IllegalCommand) as low:
        ENGINE.parse(first, 0, "intensity 2")
    assert "3 to 3" not in low.value.message.en and "at least 3" in low.value.message.en


GRIZZLED = ["felix", "gustave", "charles", "gaston", "lazare", "anselme"]  # data/characters.toml order


def _seen(state: object, seat: int | None) -> str:
    view = ENGINE.view(state, seat)  # type: ignore[arg-type]
    return str(view) + ENGINE.render_view(view, "en") + ENGINE.render_view(view, "vi")


def test_GR_11_players_choose_their_grizzled_secretly_and_at_once() -> None:
    """GR-11 (revised): "Each player chooses a different Grizzled card, charm side up" — a secret
    simultaneous choice at the start: every seat acts at once, each may replace its choice until
    the last one has chosen, and nobody sees another's choice before that."""
    s = ENGINE.new_game(NAMES4, None, 3)
    assert ENGINE.to_act(s) == {0, 1, 2, 3} and s.phase != INTENSITY
    assert commands(s, 0) == [f"choose {c}" for c in GRIZZLED]
    key = ENGINE.decision_key(s, 0)
    before = {p: ENGINE.view(s, p) for p in (1, 2, 3, None)}
    s, events = do(s, 0, "choose felix")
    assert ENGINE.to_act(s) == {1, 2, 3}
    assert {ENGINE.decision_key(s, p) for p in range(4)} == {key}
    assert "You asked for: Félix Moreau" in _seen(s, 0) and "Félix" in "\n".join(e.text.en for e in events)
    for other in (1, 2, 3, None):  # the others learn only that Alice has chosen
        view = ENGINE.view(s, other)
        assert view["choosing"]["waiting"] == [1, 2, 3] and view["to_act"] == [1, 2, 3]
        assert {k: v for k, v in view.items() if k not in ("choosing", "to_act")} == \
            {k: v for k, v in before[other].items() if k not in ("choosing", "to_act")}
        assert view["choosing"]["free"] == before[other]["choosing"]["free"]
        assert "asked for" not in _seen(s, other) and all(not e.visible(other) for e in events)
    assert commands(s, 0) == [f"choose {c}" for c in GRIZZLED], "a seat that chose may replace its choice"
    s, _ = do(s, 0, "chọn Gaston")  # replaced: Félix is free again
    s, _ = do(s, 1, "choose night")  # by the lucky charm: Félix Moreau
    s, _ = do(s, 2, "choose rain")  # Charles Saulière
    assert ENGINE.decision_key(s, 3) == key
    s, events = do(s, 3, "pick Lazare Bonticelli")
    assert s.characters == ["gaston", "felix", "charles", "lazare"] and all(s.charm_ready)
    assert s.phase == INTENSITY and ENGINE.to_act(s) == {s.leader}
    public = "\n".join(e.text.en for e in events if e.visible(None))
    assert "Alice: Gaston Fayard" in public and "Dung: Lazare Bonticelli" in public


def test_GR_11_a_clash_goes_to_the_first_in_turn_order_from_the_leader() -> None:
    """GR-11 (revised): "when two players want the same card the one who asked first keeps it and
    the other chooses again." First = first in the game's turn order, the first Mission Leader then
    clockwise (GR-24), whoever's mail came first."""
    s = ENGINE.new_game(["Alice", "Bob", "Chi"], None, 5)
    s.leader = s.turn = 1  # turn order: Bob, Chi, Alice
    s, _ = do(s, 0, "choose felix")  # Alice asks first ...
    s, _ = do(s, 2, "choose felix")  # ... but Chi comes before her from the Leader
    key = ENGINE.decision_key(s, 0)
    s, events = do(s, 1, "choose gustave")
    assert s.characters == ["", "gustave", "felix"]
    assert ENGINE.to_act(s) == {0} and ENGINE.decision_key(s, 0) != key
    assert commands(s, 0) == [f"choose {c}" for c in GRIZZLED if c not in ("felix", "gustave")]
    public = "\n".join(e.text.en for e in events if e.visible(None))
    assert "Alice also asked for Félix Moreau" in public and "Alice chooses again" in public
    with pytest.raises(IllegalCommand):
        ENGINE.parse(s, 0, "choose felix")
    s, _ = do(s, 0, "choose anselme")
    assert s.characters == ["anselme", "gustave", "felix"] and s.phase == INTENSITY and ENGINE.to_act(s) == {1}
    leader_wins = ENGINE.new_game(["Alice", "Bob", "Chi"], None, 5)
    leader_wins.leader = leader_wins.turn = 1
    for seat in (0, 2, 1):
        leader_wins, _ = do(leader_wins, seat, "choose charles")  # the Leader asks last and keeps it
    assert leader_wins.characters == ["", "charles", ""] and ENGINE.to_act(leader_wins) == {0, 2}


def test_GR_11_option_random_deals_the_grizzled_as_before() -> None:
    """GR-11 (revised): "a game option `characters=random` deals them instead (for bots and quick
    games)". The seed deals the same piles, tiles and Leader with either option."""
    before = {0: ["lazare", "charles", "anselme", "gaston"], 1: ["felix", "gustave", "gaston", "charles"],
              2: ["charles", "anselme", "felix", "gaston"]}  # what the engine dealt before the revision
    for seed, characters in before.items():
        dealt = ENGINE.new_game(NAMES4, {"characters": "random"}, seed)
        assert dealt.characters == characters and dealt.phase == INTENSITY and ENGINE.to_act(dealt) == {dealt.leader}
        chosen = ENGINE.new_game(NAMES4, {"characters": "choose"}, seed)
        assert (chosen.trials, chosen.reserve, chosen.tiles, chosen.leader) == \
            (dealt.trials, dealt.reserve, dealt.tiles, dealt.leader)
    assert ENGINE.resolve_options(None) == {"characters": "choose"}
    with pytest.raises(ValueError, match="choose, random"):
        ENGINE.new_game(NAMES4, {"characters": "auction"}, 1)


def test_score_is_the_teams_progress_through_the_trials() -> None:
    """League adjudication: every seat gets the team's progress, 1.0 for a won game."""
    from engines.grizzled.engine import ENGINE
    from engines.grizzled.setup import TRIALS_PILE_SIZE

    state = ENGINE.new_game(["A", "B", "C"], None, 4)
    fresh = ENGINE.score(state)
    assert fresh is not None and set(fresh) == {0, 1, 2} and len(set(fresh.values())) == 1
    state.trials = state.trials[: TRIALS_PILE_SIZE // 5]
    later = ENGINE.score(state)
    assert later is not None and later[0] == 0.8 > fresh[0]
    state.result = "won"
    assert ENGINE.score(state) == {0: 1.0, 1: 1.0, 2: 1.0}
