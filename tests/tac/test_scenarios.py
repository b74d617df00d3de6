"""The 25 "Scenario checks" of shared/rules/tac.en.md, one test each, named after the clause.

Positions use the digest's notation through ``engines.tac.setup.position``: ``a10`` = an A
marble on field 10, ``AH2`` = A's home field 2, ``a0*`` = fresh. Marble names in commands are
``a1``..``d4`` in the order the marbles are listed for each colour.
"""

from __future__ import annotations

import pytest

from engines.contract import IllegalCommand
from engines.tac.setup import position
from tests.tac.helpers import E, at, commands, fresh, play, waiting


def test_TAC_32_home_entry_is_optional() -> None:
    """Scenario 1 — "a60; A plays 6 → AH2 or field 2, both legal." (TAC-10, TAC-26, TAC-32)"""
    s = position("a60", {0: ["6"]})
    assert commands(s) == {"6 a1 2", "6 a1 h2"}
    assert at(play(s, "6 a1 home"), "a1") == "AH2"
    assert at(play(s, "6 a1 2"), "a1") == "2"


def test_TAC_33_fresh_marble_may_not_enter_home() -> None:
    """Scenario 2 — "fresh a0; A plays 3 → a3 only; AH3 illegal." (TAC-33)"""
    s = position("a0*", {0: ["3"]})
    assert commands(s) == {"3 a1"}
    with pytest.raises(IllegalCommand):
        E.parse(s, 0, "3 a1 h3")
    assert at(play(s, "3 a1"), "a1") == "3"


def test_TAC_43_four_trick_clears_fresh_and_saves_a_lap() -> None:
    """Scenario 3 — "fresh a0; A plays 4 → a60, no longer fresh; a later 6 may reach AH2." (TAC-41, TAC-43)"""
    s = position("a0*", {0: ["4", "6"]})
    s = play(s, "4 back a1")
    assert at(s, "a1") == "60" and not fresh(s, "a1")
    assert s.turn == 0  # only A holds cards
    assert "6 a1 h2" in commands(s)
    assert at(play(s, "6 a1 h2"), "a1") == "AH2"


def test_TAC_27_no_passing_forces_a_discard() -> None:
    """Scenario 4 — "a10, b12; A holds 5, 9, 10 → all would pass b12; A discards one card face up."
    (TAC-20, TAC-22, TAC-23, TAC-27)"""
    s = position("a10 b12", {0: ["5", "9", "10"], 1: ["2"]})
    assert commands(s) == {"discard 5", "discard 9", "discard 10"}
    after = play(s, "discard 9")
    assert after.pile[-1] == "9" and sorted(after.hands[0]) == ["10", "5"]
    assert at(after, "a1") == "10" and at(after, "b1") == "12"
    assert after.turn == 1


def test_TAC_41_four_knocks_backward() -> None:
    """Scenario 5 — "a20, c16; A plays 4 → a16; C's marble to its waiting area." (TAC-41, TAC-28, TAC-30)"""
    s = play(position("a20 c16", {0: ["4"]}), "4 back a1")
    assert at(s, "a1") == "16" and waiting(s, "c1")


@pytest.mark.parametrize("occupant", ["b0", "a0"])
def test_TAC_31_opening_knocks_the_start_field_occupant(occupant: str) -> None:
    """Scenario 6 — "b0; A opens with a 1 → fresh a0; B's marble to its waiting area. Same if the
    occupant is A's own." (TAC-40, TAC-31)"""
    s = play(position(occupant, {0: ["1"]}), "1 start")
    knocked = "b1" if occupant == "b0" else "a1"
    opened = "a1" if occupant == "b0" else "a2"
    assert waiting(s, knocked)
    assert at(s, opened) == "0" and fresh(s, opened)


def test_TAC_27_blocked_entrance() -> None:
    """Scenario 7 — "a62, d0; A plays 3 → illegal (AH1 and field 1 both pass field 0); a 2 would
    knock d0." (TAC-10, TAC-27, TAC-30)"""
    assert commands(position("a62 d0", {0: ["3"]})) == {"discard 3"}
    s = position("a62 d0", {0: ["2"]})
    assert commands(s) == {"2 a1"}
    s = play(s, "2 a1")
    assert at(s, "a1") == "0" and waiting(s, "d1")


def test_TAC_34_no_passing_inside_the_home() -> None:
    """Scenario 8 — "a63, AH2 occupied; A plays 5 → AH4 illegal (passes AH2); only field 4." (TAC-34, TAC-32)"""
    s = position("a63 AH2", {0: ["5"]})
    assert commands(s) == {"5 a1"}
    assert at(play(s, "5 a1"), "a1") == "4"


def test_TAC_36_home_marbles_move_with_exact_cards() -> None:
    """Scenario 9 — "A has AH1 and AH3, nothing on the ring → a 1 may move AH1→AH2 or AH3→AH4 (or
    open); a 2 or 3 is unplayable." (TAC-34, TAC-35, TAC-36, TAC-39)"""
    s = position("AH1 AH3", {0: ["1"]})
    assert commands(s) == {"1 start", "1 a1", "1 a2"}
    assert at(play(s, "1 a1"), "a1") == "AH2"
    assert at(play(s, "1 a2"), "a2") == "AH4"
    assert commands(position("AH1 AH3", {0: ["2", "3"]})) == {"discard 2", "discard 3"}


def test_TAC_45_seven_knocks_every_passed_marble() -> None:
    """Scenario 10 — "a10, b12, a20; A plays 7 as a10→a15 then a20→a22 → b12 knocked." (TAC-44, TAC-45, TAC-47)"""
    s = play(position("a10 b12 a20", {0: ["7"]}), "7 a1:5 a2:2")
    assert at(s, "a1") == "15" and at(s, "a2") == "22" and waiting(s, "b1")


def test_TAC_44_seven_needs_all_steps() -> None:
    """Scenario 11 — "A's only marble outside the waiting area is on AH4 (stuck) → the 7 is unplayable;
    on AH1 with the rest of the home empty it is playable only by rearranging inside the home
    (TAC-39 default), and unplayable under forward-only." (TAC-20, TAC-39, TAC-44)"""
    assert commands(position("AH4", {0: ["7"]})) == {"discard 7"}
    both = commands(position("AH1", {0: ["7"]}))
    assert both == {"7 a1:7>h2", "7 a1:7>h4"}
    assert commands(position("AH1", {0: ["7"]}, seven_in_home="forward-only")) == {"discard 7"}


def test_TAC_48_seven_leftover_steps_go_to_the_partner() -> None:
    """Scenario 12 — "AH2–AH4 full, a62, c40; A plays 7 as a62→AH1 (3) then c40→c44 (4) → legal; A now
    controls C's marbles." (TAC-47, TAC-48, TAC-84)"""
    s = position("AH2 AH3 AH4 a62 c40", {0: ["7", "1"]})
    assert "7 a4:3>h1 c1:4" in commands(s)
    s = play(s, "7 a4:3>h1 c1:4")
    assert at(s, "a4") == "AH1" and at(s, "c1") == "44"
    assert commands(s) == {"1 start", "1 c1"}  # the 1 now works for C's marbles


def test_TAC_49_eight_skips_the_next_player() -> None:
    """Scenario 13 — "a5; A plays 8 as skip → B discards a card of B's choice face up; C plays next. With
    no A ring marble the skip is illegal." (TAC-49, TAC-50)"""
    s = position("a5", {0: ["8"], 1: ["9", "10"], 2: ["2"], 3: ["2"]})
    s = play(s, "8 skip")
    assert s.turn == 1 and s.skipped
    assert commands(s) == {"discard 9", "discard 10"}
    s = play(s, "discard 10")
    assert s.turn == 2 and s.pile[-1] == "10"
    assert "8 skip" not in commands(position("AH1", {0: ["8"], 1: ["9"]}))


def test_TAC_69_answering_a_skip_with_tac() -> None:
    """Scenario 14 — "as 13, B holds a TAC → B may TAC (skip cancelled; B moves 8 or skips C) or simply
    discard." (TAC-69)"""
    s = position("a5 b20", {0: ["8"], 1: ["tac", "9"], 2: ["2"], 3: ["2"]})
    s = play(s, "8 skip")
    assert commands(s) == {"discard 9", "discard tac", "tac"}
    t = play(s, "tac")
    assert commands(t) == {"8 b1", "8 skip"}
    assert at(play(t, "8 b1"), "b1") == "28"
    skipped_c = play(t, "8 skip")
    assert skipped_c.turn == 2 and skipped_c.skipped
    assert play(s, "discard 9").turn == 2


def test_TAC_52_trickser_swaps_any_two_ring_marbles() -> None:
    """Scenario 15 — "a5, b20, d40; A swaps b20 and d40 → d20, b40. Without an A ring marble,
    unplayable." (TAC-52)"""
    s = play(position("a5 b20 d40", {0: ["trick"]}), "trick b1 d1")
    assert at(s, "d1") == "20" and at(s, "b1") == "40" and at(s, "a1") == "5"
    assert commands(position("b20 d40", {0: ["trick"]})) == {"discard trick"}


def test_TAC_54_tac_undoes_a_knock() -> None:
    """Scenario 16 — "B's 5 moves b10→b15, knocking a15; C plays TAC → b10 and a15 restored; C must use
    the 5 (e.g. c33→c38); with no legal 5 the TAC is unplayable." (TAC-54, TAC-55, TAC-68)"""
    s = position("a15 b10 c33", {1: ["5"], 2: ["tac"], 3: ["2"], 0: ["2"]}, turn=1)
    s = play(s, "5 b1")
    assert waiting(s, "a1") and at(s, "b1") == "15"
    assert commands(s) == {"tac"}
    s = play(s, "tac")
    assert at(s, "a1") == "15" and at(s, "b1") == "10"
    assert commands(s) == {"5 c1"}
    s = play(s, "5 c1")
    assert at(s, "c1") == "38" and at(s, "b1") == "10" and at(s, "a1") == "15"
    lone = play(position("a15 b10", {1: ["5"], 2: ["tac"], 3: ["2"]}, turn=1), "5 b1")
    assert commands(lone) == {"discard tac"}


def test_TAC_68_tac_takes_a_marble_back_out_of_the_home() -> None:
    """Scenario 17 — "D's 5 moves d45→DH2 (46, 47, 48, DH1); A plays TAC → d45 restored; A uses the 5."
    (TAC-37, TAC-54, TAC-68)"""
    s = position("a10 d45", {3: ["5"], 0: ["tac"], 1: ["2"]}, turn=3)
    s = play(s, "5 d1 home")
    assert at(s, "d1") == "DH2"
    s = play(s, "tac")
    assert at(s, "d1") == "45"
    s = play(s, "5 a1")
    assert at(s, "a1") == "15" and at(s, "d1") == "45"


def test_TAC_64_tac_is_never_the_first_card_of_a_deal() -> None:
    """Scenario 18 — "a TAC as the first card of a deal is illegal." (TAC-64)"""
    s = position("a10 b20", {0: ["tac", "2"]})
    assert "tac" not in commands(s)
    game = E.new_game(["A", "B", "C", "D"], None, 3)
    assert game.last is None


def test_TAC_74_tac_chain() -> None:
    """Scenario 19 — "A's 9 moves a3→a12; B's TAC → a3, B moves b18→b27; C's TAC → b18 and a12 restored,
    C moves c34→c43." (TAC-74)"""
    s = position("a3 b18 c34", {0: ["9"], 1: ["tac"], 2: ["tac"], 3: ["2"]})
    s = play(s, "9 a1")
    s = play(play(s, "tac"), "9 b1")
    assert at(s, "a1") == "3" and at(s, "b1") == "27"
    s = play(s, "tac")
    assert at(s, "a1") == "12" and at(s, "b1") == "18"
    s = play(s, "9 c1")
    assert (at(s, "a1"), at(s, "b1"), at(s, "c1")) == ("12", "18", "43")


def test_TAC_70_tac_after_a_discard_takes_over_the_card() -> None:
    """Scenario 20 — "B cannot play and discards a 12; C plays TAC → nothing undone; C plays it as a 12."
    (TAC-23, TAC-70, TAC-71)"""
    s = position("a5 c10", {1: ["12"], 2: ["tac"], 3: ["2"]}, turn=1)
    assert commands(s) == {"discard 12"}
    s = play(s, "discard 12")
    s = play(s, "tac")
    assert at(s, "a1") == "5" and at(s, "c1") == "10"
    assert commands(s) == {"12 c1"}
    assert at(play(s, "12 c1"), "c1") == "22"


def test_TAC_75_tac_must_undo_the_winning_move() -> None:
    """Scenario 21 — "C finished, AH2–AH4 full; A's 3 moves a62→AH1. B holds a TAC and could use a 3 → B
    must TAC: a62 restored, B plays the 3; D may not TAC that. Had B no legal 3, A+C win."
    (TAC-75, TAC-76, TAC-85)"""
    marbles = "AH2 AH3 AH4 a62 CH1 CH2 CH3 CH4"
    s = position(marbles + " b20", {0: ["3"], 1: ["tac", "5"], 2: ["tac"], 3: ["tac"]})
    s = play(s, "3 a4 home")
    assert E.outcome(s) is None and s.turn == 1
    assert commands(s) == {"tac"}  # the 5 may not be played instead
    s = play(s, "tac")
    assert at(s, "a4") == "62"
    s = play(s, "3 b1")
    assert at(s, "b1") == "23" and s.turn == 2
    assert "tac" not in commands(s)  # nobody may undo the TAC that cancelled a winning move
    lost = play(position(marbles, {0: ["3"], 1: ["tac", "5"], 2: ["2"], 3: ["2"]}), "3 a4 home")
    outcome = E.outcome(lost)
    assert outcome is not None and outcome.winners == frozenset({0, 2})


def test_TAC_72_tac_reverses_a_trickser_and_restores_fresh() -> None:
    """Scenario 22 — "fresh a0; D's Trickser swaps a0 and b10; A plays TAC → a0 (fresh again) and b10
    restored; A then swaps any two ring marbles." (TAC-72, TAC-73, TAC-33, TAC-52)"""
    s = position("a0* b10 d30", {3: ["trick"], 0: ["tac"], 1: ["2"]}, turn=3)
    s = play(s, "trick a1 b1")
    assert at(s, "a1") == "10" and not fresh(s, "a1")
    s = play(s, "tac")
    assert at(s, "a1") == "0" and fresh(s, "a1") and at(s, "b1") == "10"
    assert commands(s) == {"trick a1 b1", "trick a1 d1", "trick b1 d1"}
    s = play(s, "trick b1 d1")
    assert at(s, "b1") == "30" and at(s, "d1") == "10"


def test_TAC_60_warrior_knocks_the_marble_ahead() -> None:
    """Scenario 23 — "a10, c14; A plays Warrior on a10 → c14 knocked; A's marble to 14." (TAC-60)"""
    s = play(position("a10 c14", {0: ["warrior"]}, version="master"), "warrior a1")
    assert at(s, "a1") == "14" and waiting(s, "c1")


def test_TAC_56_angel_opens_for_the_next_player() -> None:
    """Scenario 24 — "B's waiting area non-empty, d16 on B's S; A plays Angel → fresh b16, d16 knocked.
    With B's waiting area empty, A would move a B ring marble 1 or 13." (TAC-56, TAC-57)"""
    s = play(position("d16", {0: ["angel"], 1: ["2"]}, version="master"), "angel")
    assert at(s, "b1") == "16" and fresh(s, "b1") and waiting(s, "d1")
    full = position("b20 b36 b50 BH1", {0: ["angel"], 1: ["2"]}, version="master")
    assert commands(full) == {"angel 1 b1", "angel 13 b1", "angel 1 b2", "angel 13 b2", "angel 1 b3",
                              "angel 13 b3"}
    assert at(play(full, "angel 13 b2"), "b2") == "49"


def test_TAC_63_fool_passes_every_hand_to_the_right() -> None:
    """Scenario 25 — "A plays Fool → A gets B's hand, B gets C's, C gets D's, D gets A's rest; A then
    takes another normal turn." (TAC-63, TAC-25)"""
    s = position("a10", {0: ["fool", "2"], 1: ["3", "4"], 2: ["5"], 3: ["6", "9"]}, version="master")
    s = play(s, "fool")
    assert s.hands == [["3", "4"], ["5"], ["6", "9"], ["2"]]
    assert s.turn == 0
    assert "3 a1" in commands(s)
