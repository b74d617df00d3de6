"""Further clause tests: single cards, master cards, control of the partner's marbles."""

from __future__ import annotations

import pytest

from engines.contract import IllegalCommand
from engines.tac.setup import position
from tests.tac.helpers import E, at, commands, fresh, play, waiting


def test_TAC_38_four_may_go_backward_into_the_home() -> None:
    """TAC-38: "a non-fresh ring marble moving backward may pass onto its own S and continue into its
    home (S → H1 → …), or stay on the ring." """
    s = position("a2", {0: ["4"]})
    assert commands(s) == {"4 back a1 62", "4 back a1 h2"}
    assert at(play(s, "4 back a1 h2"), "a1") == "AH2"


def test_TAC_38_four_never_moves_a_home_marble() -> None:
    """TAC-38: "the 4 never moves a marble already in home"."""
    assert commands(position("AH3", {0: ["4"]})) == {"discard 4"}


def test_TAC_45_seven_knocks_own_marbles_too() -> None:
    """TAC-45: "a marble moving with the 7 knocks every marble on each field it passes or lands on, any
    colour, own included; one 7 may knock several." """
    s = play(position("a10 a12 c14", {0: ["7"]}), "7 a1:7")
    assert at(s, "a1") == "17" and waiting(s, "a2") and waiting(s, "c1")


def test_TAC_47_knocked_marble_gets_no_later_steps() -> None:
    """TAC-47: "a marble knocked earlier in the same 7 gets no later steps"."""
    s = position("a10 a12", {0: ["7"]})
    assert "7 a1:5 a2:2" not in commands(s)
    # the parser says why instead of silently reordering
    with pytest.raises(IllegalCommand):
        E.parse(s, 0, "7 a1:5 a2:2")


def test_TAC_48_split_illegal_when_leftover_steps_cannot_be_used() -> None:
    """TAC-48: "if they cannot be, that split is illegal" — no partner marble to take the rest."""
    s = position("AH2 AH3 AH4 a62", {0: ["7"]})
    assert commands(s) == {"7 a4:7"}  # entering the home would leave 4 steps unused


def test_TAC_51_no_skip_when_the_next_player_has_no_card() -> None:
    """TAC-51: "no skip when the player to be skipped holds no card"."""
    s = position("a5", {0: ["8"], 2: ["2"]})
    assert commands(s) == {"8 a1"}


def test_TAC_53_trickser_onto_own_start_is_not_fresh() -> None:
    """TAC-53: "swapped marbles are never fresh afterwards (one swapped onto its own S may enter home from
    there)"; "swapping two same-coloured marbles is legal"."""
    s = position("a10 b0", {0: ["trick", "2"]})
    s = play(s, "trick a1 b1")
    assert at(s, "a1") == "0" and not fresh(s, "a1")
    assert "2 a1 h2" in commands(s)
    assert "trick a1 a2" in commands(position("a10 a20", {0: ["trick"]}))


def test_TAC_62_warrior_alone_knocks_itself() -> None:
    """TAC-62: "if no other marble is on the ring, the picked marble goes round and knocks itself"."""
    s = play(position("a10", {0: ["warrior"]}, version="master"), "warrior a1")
    assert waiting(s, "a1")


def test_TAC_61_warrior_without_ring_marble_is_discarded() -> None:
    """TAC-61: "Without a controlled ring marble the Warrior has no effect: it is unplayable and may be
    discarded"; TAC-88: Angel, Devil and Fool are always playable."""
    assert commands(position("b10", {0: ["warrior"]}, version="master")) == {"discard warrior"}
    assert commands(position("", {0: ["fool", "9"], 1: ["2"]}, version="master")) == {"fool"}
    assert commands(position("", {0: ["devil", "9"], 1: ["2"]}, version="master")) == {"devil"}


def test_TAC_57_angel_for_a_finished_player_acts_on_the_partner() -> None:
    """TAC-57: "if the next player is finished, act on their partner's marbles"."""
    s = play(position("BH1 BH2 BH3 BH4", {0: ["angel"], 1: ["2"]}, version="master"), "angel start")
    assert at(s, "d1") == "48" and fresh(s, "d1")


def test_TAC_58_devil_plays_the_next_players_turn() -> None:
    """TAC-58: "Its player looks at the next player's hand, picks one card and plays it as that player's
    move on their behalf; that player then loses their turn." TAC-59: legality from the victim's seat."""
    s = position("a10 b20", {0: ["devil", "2"], 1: ["5", "9"], 2: ["3"], 3: ["2"]}, version="master")
    s = play(s, "devil")
    assert s.turn == 0
    assert E.view(s, 0)["pending"]["victim_hand"] == ["5", "9"]
    assert "victim_hand" not in E.view(s, 2)["pending"]
    assert commands(s) == {"5 b1", "9 b1"}
    s = play(s, "9 b1")
    assert at(s, "b1") == "29" and s.hands[1] == ["5"]
    assert s.turn == 2  # Bob lost his turn


def test_TAC_59_devil_unplayable_pick_is_discarded() -> None:
    """TAC-59: "an unplayable pick is discarded without effect; an empty hand means no effect"."""
    s = play(position("a10", {0: ["devil"], 1: ["5"], 2: ["3"]}, version="master"), "devil")
    assert commands(s) == {"discard 5"}
    s = play(s, "discard 5")
    assert s.hands[1] == [] and s.turn == 2


def test_TAC_81_devil_picking_the_victims_tac_turns_it_around() -> None:
    """TAC-81: "that TAC undoes the Devil (no marble moved) and takes over its function for the victim:
    the victim looks at the following player's hand and plays that player's turn"."""
    s = position("c10", {0: ["devil", "2"], 1: ["tac", "9"], 2: ["5"], 3: ["2"]}, version="master")
    s = play(play(s, "devil"), "tac")
    assert s.turn == 1 and s.pending == {"kind": "devil", "victim": 2}
    assert commands(s) == {"5 c1"}
    s = play(s, "5 c1")
    assert at(s, "c1") == "15" and s.turn == 3


def test_TAC_84_finished_player_moves_partner_marbles() -> None:
    """TAC-84: "A player controls their own marbles until all four are home; then they must play for
    their partner's marbles"."""
    s = position("AH1 AH2 AH3 AH4 c20", {0: ["5", "1"]})
    assert commands(s) == {"5 c1", "1 c1", "1 start"}
    assert at(play(s, "1 start"), "c2") == "32"


def test_TAC_65_playable_tac_may_not_be_discarded() -> None:
    """TAC-65: "A playable TAC counts under TAC-21: it may not be discarded while playable"; TAC-67: "For a
    retrieved 1, 8 or 13, the TAC player picks the function." """
    s = position("b10 c40", {1: ["13"], 2: ["tac", "9"], 3: ["2"]}, turn=1)
    s = play(s, "13 b1")
    assert "discard tac" not in commands(s) and "tac" in commands(s)
    s = play(s, "tac")
    assert commands(s) == {"13 start", "13 c1"}


def test_TAC_20_no_partial_moves_in_the_home() -> None:
    """TAC-20: "A move longer than the distance the marble can legally travel is illegal: no partial
    moves, no bouncing back." """
    assert commands(position("AH2", {0: ["3"]})) == {"discard 3"}


def test_TAC_80_no_tac_after_a_devil_unless_the_victims_tac_was_picked() -> None:
    """TAC-80: "A TAC follows a Devil only if the Devil's player picked the victim's TAC." TAC-59: "The
    victim's lost turn is the previous turn for the next player's TAC" — it has no card to take over."""
    s = position("a10 b20 c30", {0: ["devil", "2"], 1: ["5"], 2: ["tac", "9"], 3: ["2"]}, version="master")
    s = play(play(s, "devil"), "5 b1")
    assert s.turn == 2
    assert "tac" not in commands(s)


def test_TAC_28_landing_knocks_any_colour_including_partner() -> None:
    """TAC-28: "A marble ending its move on an occupied ring field knocks the occupant back to its owner's
    waiting area, whatever its colour (own and partner's included)." """
    s = play(position("a10 c15", {0: ["5"]}), "5 a1")
    assert at(s, "a1") == "15" and waiting(s, "c1")


def test_TAC_46_seven_never_knocks_in_homes_or_waiting_areas() -> None:
    """TAC-12: "Marbles in waiting areas or homes are off the ring: they never block ring movement and are
    never knocked"; TAC-46: "Steps into or inside home follow TAC-33 and TAC-34: no passing, no knocking." """
    s = position("a61 AH3", {0: ["7"]})
    assert "7 a1:7" in commands(s)
    assert "7 a1:7>h4" not in commands(s)  # would pass AH3
    after = play(s, "7 a1:4>h1 a2:3>h4")  # a2: AH3 back to AH2, then on to AH4
    assert at(after, "a1") == "AH1" and at(after, "a2") == "AH4"


def test_TAC_85_team_victory() -> None:
    """TAC-83/85: "Partners win or lose together"; "The first team with all eight marbles home wins"."""
    s = position("AH2 AH3 AH4 a63 CH1 CH2 CH3 CH4", {0: ["2"], 1: ["3"]})
    s = play(s, "2 a4 home")
    outcome = E.outcome(s)
    assert outcome is not None and outcome.winners == frozenset({0, 2}) and not outcome.draw
    assert E.to_act(s) == frozenset()


def test_TAC_79_tac_after_an_angel_performs_it_for_the_own_next_player() -> None:
    """TAC-79: "After an Angel, it is undone and the TAC player performs it for their own next player." """
    s = position("a10", {3: ["angel"], 0: ["tac", "2"], 1: ["2"]}, turn=3, version="master")
    s = play(s, "angel start")
    assert at(s, "a2") == "0" and fresh(s, "a2")
    s = play(s, "tac")
    assert waiting(s, "a2")
    s = play(s, "angel start")
    assert at(s, "b1") == "16" and fresh(s, "b1")


def test_TAC_78_tac_after_a_warrior() -> None:
    """TAC-78: "After a Warrior, both marbles go back; the TAC player then knocks the marble ahead of one of
    their own ring marbles." """
    s = position("a10 b14 c30", {1: ["warrior"], 2: ["tac"], 3: ["2"]}, turn=1, version="master")
    s = play(s, "warrior b1")
    assert at(s, "b1") == "30" and waiting(s, "c1")
    s = play(s, "tac")
    assert at(s, "b1") == "14" and at(s, "c1") == "30"
    s = play(s, "warrior c1")
    assert at(s, "c1") == "10" and waiting(s, "a1")


def test_TAC_77_tac_after_a_fool_undoes_the_card_played_after_it() -> None:
    """TAC-77: "After a Fool, the hand exchange stands; the TAC undoes and takes over the card played after
    it." """
    s = position("a10 b20", {0: ["fool"], 1: ["5"], 2: ["tac"], 3: ["2"]}, version="master")
    s = play(s, "fool")
    assert s.hands == [["5"], ["tac"], ["2"], []]
    s = play(s, "5 a1")
    assert at(s, "a1") == "15" and s.turn == 1
    s = play(s, "tac")
    assert at(s, "a1") == "10" and s.hands[1] == []  # the hand exchange stands
    assert commands(s) == {"5 b1"}
    assert at(play(s, "5 b1"), "b1") == "25"


def test_open_resolutions_are_switches_in_one_place(monkeypatch: pytest.MonkeyPatch) -> None:
    """tac.en.md: "implement each proposed resolution, each in ONE place so it can change" —
    flipping a constant in engines/tac/rules.py changes the rule everywhere."""
    from engines.tac import rules

    monkeypatch.setattr(rules, "HOME_ENTRY_OPTIONAL", False)  # TAC-32
    assert commands(position("a60", {0: ["6"]})) == {"6 a1"}
    monkeypatch.setattr(rules, "SEVEN_LEFTOVER_TO_PARTNER", False)  # TAC-48
    assert "7 a4:3>h1 c1:4" not in commands(position("AH2 AH3 AH4 a62 c40", {0: ["7"]}))
    monkeypatch.setattr(rules, "TAC_FORCED_ONLY_AGAINST_WIN", False)  # TAC-66's stricter reading
    s = play(position("b10 c40", {1: ["5"], 2: ["tac", "9"], 3: ["2"]}, turn=1), "5 b1")
    assert commands(s) == {"tac"}
