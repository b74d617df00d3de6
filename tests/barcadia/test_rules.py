"""Clause tests beyond the digest's scenario list (OPEN resolutions and card effects)."""

from __future__ import annotations

from engines.barcadia.engine import ENGINE
from engines.barcadia.state import TRAPS, UP
from tests.barcadia.support import ALICE, BOB, CHI, face_up, play, position, told


def test_HB_47_hoard_traps_resolve_at_each_attempt() -> None:
    """HB-47: "Drink Hoard traps resolve at the start of each attempt; the fight happens only if the
    player survives." """
    s = position({1: "hoard"}, hp=[10, 100, 100, 100], powerups=[["banner", "gauntlets", "lucky-coin"], [], [], []],
                 loaded_dice=[2])
    face_up(s, 1)
    s.rooms[1][TRAPS] = 1
    s, text = play(s, ALICE, "hoard")
    assert "goes off" in text and "Guardian" not in text.split("goes off")[1].split("dies")[0]
    assert ENGINE.outcome(s) is None and s.pos[ALICE] == 0 and s.rooms[1][TRAPS] == 0


def test_HB_52_no_loot_anywhere_means_no_draw() -> None:
    """HB-52 OPEN: "if both are empty, the draw is skipped"."""
    s = position({1: "goblin"}, loaded_dice=[20], loot_deck=[], loot_discard=[])
    s, text = play(s, ALICE, "reveal 1")
    assert "No Loot card is left" in text and s.hands[ALICE] == []


def test_HB_55_empty_power_up_deck_gives_nothing() -> None:
    """HB-55 OPEN: "if the Power-Up deck is empty, a Power-Up reward gives nothing"."""
    s = position({1: "treasure-1"}, powerup_deck=[])
    s, text = play(s, ALICE, "reveal 1")
    assert "Power-Up deck is empty" in text and s.powerups[ALICE] == [] and s.pos[ALICE] == 1


def test_HB_66_another_players_death_does_not_end_the_turn() -> None:
    """HB-66 OPEN: "another player's death does not interrupt the turn" — the Boss-player dies and the
    revealer's turn goes on (her Dash is still playable)."""
    s = position({1: "minotaur", 2: "portal-1"}, hp=[100, 10, 100, 100], hands=[["dash"], [], [], []],
                 loaded_dice=[18, 2])
    s, text = play(s, ALICE, "reveal 1")
    s, text = play(s, ALICE, "boss bob")
    assert "Bob dies" in text and s.turn_seat == ALICE and s.phase == "turn"
    assert "play dash" in {c.command for c in ENGINE.legal_actions(s, ALICE)}


def test_HB_38_portal_duel_only_before_the_action() -> None:
    """HB-38/HB-56: duelling through a portal is a duel, so only before the action."""
    s = position({13: "portal-1", 1: "supplies-1"}, pos=[0, 13, 0, 0], loot_deck=["dash", "dash"])
    face_up(s, 13)
    s.hands[ALICE] = ["dash"]
    s, _ = play(s, ALICE, "play dash")
    s, _ = play(s, ALICE, "reveal 1")
    assert s.pos[ALICE] == 1 and "portal 13" not in {c.command for c in ENGINE.legal_actions(s, ALICE)}


def test_steal_tells_the_card_only_to_thief_and_victim() -> None:
    """Pickpocket: the stolen card is a secret of the two players involved."""
    s = position(pos=[1, 2, 0, 0], hands=[["pickpocket"], ["dash"], [], []])
    face_up(s, 1, beaten=True)
    face_up(s, 2, beaten=True)
    action = ENGINE.parse(s, ALICE, "play pickpocket bob")
    s2, events = ENGINE.apply(s, ALICE, action)
    assert s2.hands[ALICE] == ["dash"] and s2.hands[BOB] == []
    secret = [e for e in events if "Dash" in e.text.en]
    assert secret and all(e.visible_to == {ALICE, BOB} for e in secret)
    assert not any("Dash" in e.text.en for e in events if e.visible(CHI))


def test_shifting_stones_swaps_two_rooms_never_the_sp() -> None:
    """HB-8: "move/swap rooms (never the Starting Point)"."""
    s = position({1: "goblin", 2: "portal-1"}, hands=[["shifting-stones"], [], [], []])
    options = {c.command for c in ENGINE.legal_actions(s, ALICE) if "shifting" in c.command}
    assert "play shifting-stones 1 2" in options and not any(" sp" in o or " 0" in o for o in options)
    s, text = play(s, ALICE, "play shifting-stones 1 2")
    assert s.rooms[1][0] == "portal-1" and s.rooms[2][0] == "goblin" and "swap places" in text


def test_every_roll_is_told() -> None:
    """Issue 5: "every roll is told in the next mails" — each die appears in a public event."""
    s = position({1: "orc-warband"}, loaded_dice=[7, 9])
    s, _ = play(s, ALICE, "reveal 1")
    s2, events = ENGINE.apply(s, ALICE, ENGINE.parse(s, ALICE, "team bob"))
    public = told([e for e in events if e.visible_to is None])
    assert "rolled 7" in public and "rolled 9" in public and not s2.rooms[1][UP]
