"""The 15 "Scenario checks" of barcadia.en.md, one named test each (plus their variants).

Each builds its position with ``tests.barcadia.support.position`` and loads the dice it needs
(``loaded_dice``: the next d20 results, used before the RNG) so the outcome is exact.
"""

from __future__ import annotations

from collections import Counter, deque
from typing import Any

import pytest

from engines.barcadia import moves
from engines.barcadia.content import content
from engines.barcadia.engine import ENGINE
from engines.barcadia.state import DROPS, PHASE_TURN, PHASE_WINDOW, TRAPS, UP, BarcadiaState
from engines.contract import Action, IllegalCommand
from tests.barcadia.support import ALICE, BOB, CHI, PLAYERS, commands, face_up, play, position


def kinds_of(tiles: list[str]) -> Counter[str]:
    return Counter(content().rooms[t].kind for t in tiles)


def test_HB_S1_four_player_setup() -> None:
    """Scenario 1: "50 face-down rooms, each adjacent to the SP or another room, exactly one a
    Drink Hoard; everyone on the SP at 100 HP with 3 Loot." (HB-4, HB-12, HB-14, HB-15, HB-17)"""
    s = ENGINE.new_game(PLAYERS, None, 7)
    rooms = s.rooms[1:]
    assert len(rooms) == 50 and not any(r[UP] for r in rooms)
    seen, todo = {0}, deque([0])
    while todo:
        for nb in s.adj[todo.popleft()]:
            if nb not in seen:
                seen.add(nb)
                todo.append(nb)
    assert seen == set(range(51)), "every room is connected to the SP through placed rooms"
    assert kinds_of([r[0] for r in rooms])["hoard"] == 1
    assert s.pos == [0] * 4 and s.hp == [100] * 4
    assert [len(h) for h in s.hands] == [3, 3, 3, 3]


def test_HB_S2_two_player_removal() -> None:
    """Scenario 2: "30 rooms, with 10 fewer Monsters, 4 fewer Bosses, 4 fewer Rewards and 2 fewer
    Portals; the Drink Hoard is present." (HB-13)"""
    full = kinds_of(list(content().rooms))
    s = ENGINE.new_game(PLAYERS[:2], None, 3)
    small = kinds_of([r[0] for r in s.rooms[1:]])
    assert len(s.rooms) - 1 == 30
    assert full - small == Counter({"monster": 10, "boss": 4, "reward": 4, "portal": 2})
    assert small["hoard"] == 1 and small["team"] == full["team"]
    off = ENGINE.new_game(PLAYERS[:2], {"small_game_removal": False}, 3)
    assert len(off.rooms) - 1 == 50


def test_HB_S3_start_point_adjacency_and_sharing() -> None:
    """Scenario 3: "a player on the SP can reveal a room touching only one outer SP hex. Six players
    may share the SP; nobody may enter an occupied Reward room." (HB-10, HB-11)"""
    s = position()
    assert s.layout[3] == [2, -2]  # touches only the SP hex (1, -1)
    assert "reveal 3" in commands(s, ALICE)
    six = ENGINE.new_game(["A1", "B2", "C3", "D4", "E5", "F6"], None, 1)
    assert six.pos == [0] * 6
    s = position({1: "supplies-1", 2: "goblin"}, pos=[2, 1, 0, 0])
    face_up(s, 1)
    face_up(s, 2, beaten=True)
    assert not any(c.startswith("enter 1") for c in commands(s, ALICE))
    with pytest.raises(IllegalCommand):
        play(s, ALICE, "enter 1")
    s.pos = [1, 0, 0, 0]
    assert "enter sp" in commands(s, ALICE), "the SP is always enterable, occupied or not"


def test_HB_S4_monster_beaten_on_its_level() -> None:
    """Scenario 4: "a roll of 12 defeats it; the player enters and gains 1 Loot, and a later entrant
    fights nothing and gains nothing." (HB-29, HB-31)"""
    s = position({1: "goblin"}, loaded_dice=[12])
    s, text = play(s, ALICE, "reveal 1")
    assert "rolled 12 against level 12: the Goblin is beaten" in text
    assert s.pos[ALICE] == 1 and len(s.hands[ALICE]) == 1 and s.rooms[1][UP]
    s.pos[ALICE] = 0
    s.turn_seat, s.phase, s.turn = BOB, PHASE_TURN, dict(s.turn, actions=1, acted=False, over=False)
    s, text = play(s, BOB, "enter 1")
    assert s.pos[BOB] == 1 and s.hands[BOB] == [] and "rolled" not in text


def test_HB_S4_monster_wins_below_its_level() -> None:
    """Scenario 4: "A roll of 11 turns the tile face down; the player stays and drops from 100 to
    80 HP." (HB-30)"""
    s = position({1: "goblin"}, loaded_dice=[11])
    s, text = play(s, ALICE, "reveal 1")
    assert "rolled 11 against level 12" in text
    assert not s.rooms[1][UP] and s.pos[ALICE] == 0 and s.hp[ALICE] == 80


def test_HB_S5_team_battle_won() -> None:
    """Scenario 5: "rolls of 13 + 12 win, the revealer moves in, the teammate stays, and both gain
    the reward." (HB-32)"""
    s = position({1: "orc-warband"}, pos=[0, 5, 0, 0], loaded_dice=[13, 12])
    assert content().rooms["orc-warband"].level == 25
    s, _ = play(s, ALICE, "reveal 1")
    assert ENGINE.to_act(s) == {ALICE} and "team bob" in commands(s, ALICE)
    s, text = play(s, ALICE, "team bob")
    assert "25 against level 25" in text
    assert s.pos[ALICE] == 1 and s.pos[BOB] == 5
    assert len(s.powerups[ALICE]) == 1 and len(s.powerups[BOB]) == 1


def test_HB_S5_team_battle_lost() -> None:
    """Scenario 5: "Rolls of 13 + 11 lose; both take the damage and the tile turns face down." (HB-32)"""
    s = position({1: "orc-warband"}, loaded_dice=[13, 11])
    s, _ = play(s, ALICE, "reveal 1")
    s, _ = play(s, ALICE, "team chi")
    assert s.hp[ALICE] == 80 and s.hp[CHI] == 80 and s.hp[BOB] == 100
    assert not s.rooms[1][UP] and s.pos[ALICE] == 0


def test_HB_S6_boss_tie_rerolls_and_power_up_counts() -> None:
    """Scenario 6: "15 against 15 forces a reroll. The revealer, holding a +2 Boss Power-Up, then rolls
    13 (15) against 14 and wins: they enter and gain the reward; the Boss-player takes the Boss's
    damage." (HB-39, HB-40)"""
    s = position({1: "minotaur"}, powerups=[["boss-crown"], [], [], []], loaded_dice=[13, 15, 13, 14])
    s, _ = play(s, ALICE, "reveal 1")
    s, text = play(s, ALICE, "boss bob")
    assert "a tie, both roll again" in text
    assert "rolled 13+2=15 against Bob's 14: Alice wins" in text
    assert s.pos[ALICE] == 1 and len(s.powerups[ALICE]) == 2
    assert s.hp[BOB] == 100 - content().rooms["minotaur"].damage


def test_HB_S7_movement_two_steps_through_revealed_rooms() -> None:
    """Scenario 7: "2 steps through a defeated Monster into a Portal succeed; a step into an occupied
    room or the Drink Hoard is rejected; stopping after 1 step ends the action." (HB-24, HB-42)"""
    s = position({1: "goblin", 13: "portal-1", 2: "hoard", 12: "skeleton"}, pos=[0, 12, 0, 0])
    face_up(s, 1, beaten=True)
    face_up(s, 13)
    face_up(s, 2)
    face_up(s, 12, beaten=True)
    assert 13 in s.adj[1]
    s2, _ = play(s, ALICE, "enter 1 13")
    assert s2.pos[ALICE] == 13
    for bad in ("enter 12", "enter 2", "enter 1 2"):
        with pytest.raises(IllegalCommand):
            play(s, ALICE, bad)
    s3, _ = play(s, ALICE, "enter 1")
    assert s3.pos[ALICE] == 1 and s3.turn_seat == BOB, "one step used the whole action; the turn passed on"


def test_HB_S8_teleport() -> None:
    """Scenario 8: "a player on the SP teleports to a Portal without using the action, then reveals a
    room next to it. A second teleport that turn is rejected, as is a teleport onto an occupied
    Portal except as a duel." (HB-35..HB-38)"""
    s = position({13: "portal-1", 20: "portal-2", 14: "supplies-1"}, pos=[0, 20, 0, 0])
    face_up(s, 13)
    face_up(s, 20)
    s, text = play(s, ALICE, "portal 13")
    assert s.pos[ALICE] == 13 and s.turn["actions"] == 1 and "teleports" in text
    assert 14 in s.adj[13]
    with pytest.raises(IllegalCommand):
        play(s, ALICE, "portal sp")
    s, _ = play(s, ALICE, "reveal 14")
    assert s.pos[ALICE] == 14
    t = position({13: "portal-1", 20: "portal-2"}, pos=[0, 20, 0, 0], loaded_dice=[18, 4])
    face_up(t, 13)
    face_up(t, 20)
    assert "portal 20" in commands(t, ALICE)
    t, text = play(t, ALICE, "portal 20")
    assert "duels Bob" in text and t.pos[ALICE] == 20 and t.pos[BOB] == 0 and t.hp[BOB] == 90


def test_HB_S9_duel_lost_then_act() -> None:
    """Scenario 9: "the attacker rolls 6 against 17, loses 10 HP, stays put, and still acts. A second
    duel, or a duel after the action, is rejected. A winning attacker swaps rooms." (HB-56..HB-58)"""
    s = position(pos=[1, 2, 0, 0], loaded_dice=[6, 17])
    for room in (1, 2):
        face_up(s, room, beaten=True)
    s, text = play(s, ALICE, "duel bob")
    assert "rolled 6 against Bob's 17" in text
    assert s.hp[ALICE] == 90 and s.pos[ALICE] == 1 and s.turn["actions"] == 1
    with pytest.raises(IllegalCommand):
        play(s, ALICE, "duel bob")
    t = position(pos=[1, 2, 0, 0], loaded_dice=[17, 6])
    for room in (1, 2):
        face_up(t, room, beaten=True)
    t, _ = play(t, ALICE, "duel bob")
    assert t.pos[ALICE] == 2 and t.pos[BOB] == 1 and t.hp[BOB] == 90
    u = position({14: "supplies-1"}, pos=[1, 2, 0, 0], hands=[["dash"], [], [], []])
    for room in (1, 2):
        face_up(u, room, beaten=True)
    u, _ = play(u, ALICE, "play dash")
    u, _ = play(u, ALICE, "reveal 14")  # Rewards need no dice; the action is used
    assert u.pos[ALICE] == 14
    u.pos[BOB] = 15
    with pytest.raises(IllegalCommand):
        play(u, ALICE, "duel bob")


def test_HB_S10_traps_before_a_reveal() -> None:
    """Scenario 10: "a face-down room has 2 traps. Rolls of 14 and 3 cost 10 HP, remove both traps,
    and the reveal goes ahead." (HB-61)"""
    s = position({1: "supplies-1"}, loaded_dice=[14, 3])
    s.rooms[1][TRAPS] = 2
    s, text = play(s, ALICE, "reveal 1")
    assert "rolled 14 against 10: a trap in room 1 is disarmed" in text
    assert "rolled 3 against 10: a trap in room 1 goes off" in text
    assert s.hp[ALICE] == 90 and s.rooms[1][TRAPS] == 0 and s.rooms[1][UP] and s.pos[ALICE] == 1


def window_for(s_kwargs: dict[str, Any], seat: int = ALICE) -> BarcadiaState:
    """A between-turns window after Bob's turn in which only ``seat`` is asked."""
    s = position(**s_kwargs)
    s.phase = PHASE_WINDOW
    s.turn_seat = BOB
    s.window = {"open": True, "next": [], "asked": [seat], "chosen": {}}
    return s


def test_HB_S10_trap_placement_limits() -> None:
    """Scenario 10: "A trap on an occupied room, on the SP, or as a room's 4th is rejected; a trap on
    the face-up Drink Hoard is allowed." (HB-60)"""
    s = window_for({"rooms": {4: "hoard"}, "pos": [0, 2, 0, 0], "hands": [["trap"], [], [], []]})
    face_up(s, 4)
    s.rooms[3][TRAPS] = 3
    for bad in ("trap sp", "trap 2", "trap 3"):
        with pytest.raises(IllegalCommand):
            play(s, ALICE, bad)
    s2, _ = play(s, ALICE, "trap 4")
    assert s2.rooms[4][TRAPS] == 1


def test_HB_S11_trap_death() -> None:
    """Scenario 11: "a player at 10 HP fails a disarm, dies, returns to the SP at 100, and the room stays
    face down; their turn ends." (HB-61, HB-63..HB-66)"""
    s = position({1: "goblin"}, pos=[2, 0, 0, 0], hp=[10, 100, 100, 100], loaded_dice=[3])
    face_up(s, 2, beaten=True)
    s.rooms[1][TRAPS] = 1
    s, text = play(s, ALICE, "reveal 1")
    assert "dies" in text
    assert s.pos[ALICE] == 0 and s.hp[ALICE] == 100 and not s.rooms[1][UP]
    assert s.turn_seat != ALICE or s.phase == PHASE_WINDOW


def test_HB_S12_power_up_overflow() -> None:
    """Scenario 12: "a player with 3 Power-Ups beats a Boss and must place one of the 4 in an
    unoccupied room (not the SP or the face-up Drink Hoard); the next entrant gains it." (HB-54)"""
    s = position({1: "minotaur", 5: "hoard"}, powerups=[["lucky-coin", "banner", "gauntlets"], [], [], []],
                 loaded_dice=[15, 5])
    face_up(s, 5)
    s, _ = play(s, ALICE, "reveal 1")
    s, _ = play(s, ALICE, "boss bob")
    assert len(s.powerups[ALICE]) == 4 and ENGINE.to_act(s) == {ALICE}
    s, _ = play(s, ALICE, "drop banner")
    for bad in ("put sp", "put 5", "put 1"):
        with pytest.raises(IllegalCommand):
            play(s, ALICE, bad)
    s, _ = play(s, ALICE, "put 2")
    assert s.rooms[2][DROPS] == ["banner"] and len(s.powerups[ALICE]) == 3
    face_up(s, 2, beaten=True)
    s.phase, s.turn_seat, s.pending = PHASE_TURN, BOB, []
    s.turn = dict(s.turn, actions=1, acted=False, over=False)
    s, _ = play(s, BOB, "enter 2")
    assert s.powerups[BOB] == ["banner"] and s.rooms[2][DROPS] == []


def test_HB_S13_death_drops_in_room_and_keeps_one_loot() -> None:
    """Scenario 13: "a player dies in a room, leaves their chosen Power-Up there and keeps 1 Loot."
    (HB-64, HB-65)"""
    s = position({1: "goblin"}, pos=[2, 0, 0, 0], hp=[10, 100, 100, 100], loaded_dice=[1],
                 powerups=[["lucky-coin", "banner"], [], [], []], hands=[["dash", "sloppy", "trap"], [], [], []])
    face_up(s, 2, beaten=True)
    s, _ = play(s, ALICE, "reveal 1")
    assert ENGINE.to_act(s) == {ALICE}
    s, _ = play(s, ALICE, "drop lucky-coin")
    s, _ = play(s, ALICE, "keep dash")
    assert s.rooms[2][DROPS] == ["lucky-coin"] and s.powerups[ALICE] == ["banner"]
    assert s.hands[ALICE] == ["dash"] and s.hp[ALICE] == 100 and s.pos[ALICE] == 0


def test_HB_S13_boss_player_dying_on_the_sp() -> None:
    """Scenario 13: "A Boss-player killed while on the SP sends the Power-Up to the bottom of the deck.
    Both return at 100 HP." (HB-64)"""
    s = position({1: "minotaur"}, hp=[100, 20, 100, 100], powerups=[[], ["war-ring"], [], []], loaded_dice=[15, 3])
    s, _ = play(s, ALICE, "reveal 1")
    s, text = play(s, ALICE, "boss bob")
    assert "Bob dies" in text
    assert s.powerups[BOB] == [] and s.powerup_deck[0] == "war-ring"
    assert s.hp[BOB] == 100 and s.pos[BOB] == 0


def test_HB_S14_hoard_revealed_too_early() -> None:
    """Scenario 14: "revealing it with 2 Power-Ups leaves it face up and the player unmoved." (HB-42, HB-43)"""
    s = position({1: "hoard"}, powerups=[["banner", "gauntlets"], [], [], []])
    s, text = play(s, ALICE, "reveal 1")
    assert s.rooms[1][UP] and s.pos[ALICE] == 0 and "stays put" in text


@pytest.mark.parametrize(("die", "wins"), [(14, False), (15, True)])
def test_HB_S14_guardian_ignores_boss_only_bonus(die: int, wins: bool) -> None:
    """Scenario 14: "Later, adjacent with 3 Power-Ups, a Boss-only +2 is ignored; a roll at or above the
    level wins the game, and a lower roll costs the Guardian's damage." (HB-44..HB-46, HB-67)"""
    s = position({1: "hoard"}, powerups=[["boss-crown", "banner", "gauntlets"], [], [], []], loaded_dice=[die])
    face_up(s, 1)
    s, text = play(s, ALICE, "hoard")
    outcome = ENGINE.outcome(s)
    if wins:
        assert outcome is not None and outcome.winners == {ALICE} and s.pos[ALICE] == 1
        assert ENGINE.to_act(s) == frozenset()
    else:
        assert outcome is None and s.hp[ALICE] == 100 - content().hoard.damage and s.pos[ALICE] == 0
        assert f"rolled {die} against level 15" in text


def test_HB_S15_loot_timing_and_tracker() -> None:
    """Scenario 15: "a BETWEEN_TURNS card is rejected during the owner's turn and accepted between turns.
    A draw from an empty deck reshuffles the discard, and the Turn Tracker moves clockwise."
    (HB-26, HB-50, HB-52)"""
    s = position({1: "goblin"}, hp=[50, 100, 100, 100], hands=[["thirst-aid"], [], [], []], loaded_dice=[12])
    with pytest.raises(IllegalCommand):
        play(s, ALICE, "play thirst-aid")
    s.loot_discard, s.loot_deck = list(s.loot_deck), []
    s, text = play(s, ALICE, "reveal 1")
    assert "shuffled into a new deck" in text and len(s.hands[ALICE]) == 2
    if s.phase == PHASE_TURN:  # the drawn card may still be playable this turn
        s, _ = play(s, ALICE, "pass")
    assert s.phase == PHASE_WINDOW and ENGINE.to_act(s) == {ALICE}
    s, _ = play(s, ALICE, "play thirst-aid")
    assert s.hp[ALICE] == 60
    if s.phase == PHASE_WINDOW:  # asked again while a between-turns card remains
        s, _ = play(s, ALICE, "pass")
    assert s.phase == PHASE_TURN and s.turn_seat == BOB


def test_HB_26_only_holders_are_asked_and_autopass_sticks() -> None:
    """HB-26 (window design): "Between turns, every player may play any number of BETWEEN_TURNS Loot
    cards" — by mail only holders of a playable one are asked, together; auto-pass stops the asking."""
    s = position({1: "supplies-1"}, hands=[[], ["sloppy"], ["trap"], ["dash"]], loot_deck=["dash", "dash"])
    s, _ = play(s, ALICE, "reveal 1")
    s, _ = play(s, ALICE, "pass")
    assert s.phase == PHASE_WINDOW and ENGINE.to_act(s) == {BOB, CHI}
    key = ENGINE.decision_key(s, CHI)
    s, _ = play(s, BOB, "autopass")
    assert ENGINE.to_act(s) == {CHI} and ENGINE.decision_key(s, CHI) == key
    assert "pass" in commands(s, BOB), "a seat that chose may replace its choice"
    s, _ = play(s, CHI, "pass")
    assert s.phase == PHASE_TURN and s.turn_seat == BOB and s.autopass[BOB]
    assert Action("autopass", (False,)) in moves.legal(s, BOB)


def test_HB_50_simultaneous_choices_resolve_clockwise_from_next_player() -> None:
    """HB-26: "From the next player clockwise ..." — both Sloppy cards resolve, Bob's first."""
    s = position({1: "supplies-1"}, hands=[[], ["sloppy"], ["sloppy"], []], loot_deck=["dash", "dash"])
    s, _ = play(s, ALICE, "reveal 1")
    s, _ = play(s, ALICE, "pass")
    s, _ = play(s, CHI, "play sloppy bob")
    s, text = play(s, BOB, "play sloppy chi")
    assert text.index("Bob plays Sloppy") < text.index("Chi plays Sloppy")
    assert s.hp[BOB] == 90 and s.hp[CHI] == 90


def test_HB_60_a_trap_that_no_longer_fits_stays_in_hand_and_its_owner_is_asked_again() -> None:
    """HB-60: "at most 3 per room" — two simultaneous Traps on a room holding 2: the second fizzles."""
    s = position({1: "supplies-1"}, hands=[[], ["trap"], ["trap"], []], loot_deck=["dash", "dash"])
    s.rooms[20][TRAPS] = 2
    s, _ = play(s, ALICE, "reveal 1")
    s, _ = play(s, ALICE, "pass")
    s, _ = play(s, BOB, "trap 20")
    s, text = play(s, CHI, "trap 20")
    assert "Bob plays Trap" in text and "Chi's card can no longer be played" in text
    assert s.rooms[20][TRAPS] == 3 and s.hands[CHI] == ["trap"] and ENGINE.to_act(s) == {CHI}
