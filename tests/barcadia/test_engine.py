"""Engine-level behaviour: options, outcomes, views, secrecy, modules, player placement, bots."""

from __future__ import annotations

import json
import random

import pytest

from engines.barcadia import moves
from engines.barcadia.engine import ENGINE, play_bots
from engines.barcadia.state import PHASE_OVER, PHASE_PLACE, TILE, UP
from engines.bots import RandomBot
from tests.barcadia.support import ALICE, BOB, PLAYERS, face_up, play, position


def test_options_are_checked() -> None:
    with pytest.raises(ValueError):
        ENGINE.new_game(PLAYERS, {"layout": "spiral"}, 1)
    with pytest.raises(ValueError):
        ENGINE.new_game(PLAYERS, {"turn_limit": -1}, 1)
    with pytest.raises(ValueError):
        ENGINE.new_game(["Solo"], None, 1)


def test_turn_limit_option_ends_random_play() -> None:
    """HB-71: the option ``turn_limit`` ends a game after that many turns, ranked (not drawn by rule)."""
    s = ENGINE.new_game(PLAYERS, {"turn_limit": 6}, 3)
    s, _ = play_bots(ENGINE, s, [RandomBot()] * 4, random.Random(3))
    outcome = ENGINE.outcome(s)
    assert s.phase == PHASE_OVER and outcome is not None and s.turns == 6 and s.end_reason == "limit"
    assert outcome.draw or len(outcome.winners) == 1


def test_same_seed_same_game_and_json_round_trip() -> None:
    a = ENGINE.new_game(PLAYERS, None, 11)
    b = ENGINE.new_game(PLAYERS, None, 11)
    assert ENGINE.to_json(a) == ENGINE.to_json(b)
    assert ENGINE.to_json(ENGINE.from_json(ENGINE.to_json(a))) == ENGINE.to_json(a)
    assert ENGINE.to_json(ENGINE.new_game(PLAYERS, None, 12)) != ENGINE.to_json(a)


def test_views_hide_face_down_rooms_and_other_hands() -> None:
    s = position({1: "goblin", 2: "dragon"}, hands=[["dash"], ["sloppy"], [], []])
    face_up(s, 1)
    mine = ENGINE.view(s, ALICE)
    text = json.dumps(mine)
    assert mine["rooms"][1]["tile"] == "goblin" and "tile" not in mine["rooms"][2]
    assert "dragon" not in text and "sloppy" not in text and "dash" in text
    assert ENGINE.view(s, None)["hand"] is None


def test_render_shows_a_map_with_players_and_revealed_rooms() -> None:
    s = position({1: "goblin"}, pos=[1, 0, 0, 0], hands=[["dash"], [], [], []])
    face_up(s, 1, beaten=True)
    for lang, word, card in (("en", "Dungeon map", "Dash"), ("vi", "Bản đồ hầm ngục", "Lao Nhanh")):
        text = ENGINE.render_view(ENGINE.view(s, ALICE), lang)
        # players are seat numbers in brackets: never a letter that reads as a room kind ("1MA", "12MB")
        assert word in text and " 1M(1)" in text and "SP(234)" in text and card in text


def test_plant_markers_cover_hands_rooms_decks_and_rng() -> None:
    s = ENGINE.new_game(PLAYERS, None, 5)
    planted, markers = ENGINE.plant_markers(s)
    assert markers[ALICE] and markers[None]
    assert planted.rooms[1][TILE].startswith("MARK") and str(planted.rng) in markers[None]


def test_HB_68_signature_moves_module() -> None:
    """HB-68: "each player starts with their character's card face up ... it doesn't count toward
    the Power-Up limit or requirement" — the Barbarian's +2 beats a level 12 Monster with a 10."""
    s = ENGINE.new_game(PLAYERS, {"signature_moves": True, "characters": "random"}, 2)
    assert len(set(s.characters)) == 4 and "" not in s.characters
    t = position({1: "goblin"}, characters=["barbarian", "knight", "rogue", "wizard"], loaded_dice=[10])
    t, text = play(t, ALICE, "reveal 1")
    assert "rolled 10+2=12 against level 12" in text and t.powerups[ALICE] == []


def test_HB_69_house_rule_changes_on_a_natural_20() -> None:
    """HB-69: "one card on the SP binds everyone; any natural 20 replaces it with the next card"."""
    s = ENGINE.new_game(PLAYERS, {"house_rules": True}, 2)
    assert s.house_rule and s.house_deck
    t = position({1: "goblin"}, options={"house_rules": True}, loaded_dice=[20])
    t.house_rule, t.house_deck = "brawl-night", ["rusty-traps", "sharp-traps"]
    t, text = play(t, ALICE, "reveal 1")
    assert t.house_rule == "rusty-traps" and "House Rule is now Rusty Traps" in text


def test_HB_15_players_place_the_rooms_face_down() -> None:
    """HB-15/16: "Players place them one at a time, face down, each on an empty hex adjacent to the SP
    or a placed room. Nobody, not even the placer, learns a room's type." """
    s = ENGINE.new_game(PLAYERS, {"layout": "players"}, 4)
    assert s.phase == PHASE_PLACE and len(s.rooms) == 1
    placer = next(iter(ENGINE.to_act(s)))
    first = ENGINE.legal_actions(s, placer)[0]
    s2, _ = ENGINE.apply(s, placer, first.action)
    assert len(s2.rooms) == 2 and not s2.rooms[1][UP]
    assert "tile" not in ENGINE.view(s2, placer)["rooms"][1]
    assert ENGINE.to_act(s2) == {(placer + 1) % 4}
    s3, _ = play_bots(ENGINE, s, [RandomBot()] * 4, random.Random(4))
    assert s3.phase == PHASE_OVER and len(s3.rooms) == 51


def test_default_action_is_legal_and_bots_are_named() -> None:
    assert {"random", "heuristic"} <= set(ENGINE.bots())
    s = ENGINE.new_game(PLAYERS, None, 8)
    for _ in range(60):
        seats = sorted(ENGINE.to_act(s))
        if not seats:
            break
        action = ENGINE.default_action(s, seats[0])
        assert action in moves.legal(s, seats[0])
        s, _ = ENGINE.apply(s, seats[0], action)


def test_HB_22_turn_ends_when_nothing_but_passing_remains() -> None:
    """HB-22 OPEN: "the engine ends the turn when no legal option remains"."""
    s = position({1: "goblin"}, loaded_dice=[15], loot_deck=["thirst-aid"])
    s, _ = play(s, ALICE, "reveal 1")
    assert s.hands[ALICE] == ["thirst-aid"], "at full health Thirst Aid is not playable: nobody is asked"
    assert s.turn_seat == BOB and s.phase == "turn"


def test_menu_is_short_but_every_room_stays_writable() -> None:
    """Service note: the mail menu stays readable; a Trap still reaches any room by text."""
    s = position(hands=[["trap"], [], [], []])
    s.phase, s.turn_seat = "window", BOB
    s.window = {"open": True, "next": [], "asked": [ALICE], "chosen": {}}
    menu = ENGINE.menu(s, ALICE)
    legal = ENGINE.legal_actions(s, ALICE)
    assert len(menu) < len(legal) and {c.command for c in menu} >= {"pass", "autopass"}
    assert "trap 29" not in {c.command for c in menu}
    assert ENGINE.parse(s, ALICE, "trap 29").args == ("trap", 29)
