"""The clauses revised, clarified or added in the second rules pass (issue 13, Barcadia part).

One named test per clause and case, in the style of ``test_scenarios.py``: each builds its
position with ``tests.barcadia.support.position``, loads the dice it needs and quotes the
clause it checks. Each clause has tests that failed on the engine before the second pass; two
guard the other side of a clause and passed before too: a bonus of another scope is not spent
by a trap roll, and nobody else's choice offers the active player's cards.
"""

from __future__ import annotations

import tomllib
from typing import Any

import pytest

from engines.barcadia.content import DATA_DIR, ContentError, content, parse_content
from engines.barcadia.engine import ENGINE
from engines.barcadia.scenario import new_game_rolling
from engines.barcadia.state import PHASE_CHARACTERS, PHASE_OVER, PHASE_PLACE, PHASE_TURN, TRAPS, BarcadiaState
from tests.barcadia.support import ALICE, BOB, CHI, DUNG, PLAYERS, commands, face_up, play, position

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


def test_HB_71_the_league_score_follows_the_ranking() -> None:
    """HB-71: the ranking is there "as the league rules need" — ``score`` (what the league orders
    non-winners and adjudicates unfinished games by) follows Power-Ups, then HP."""
    s = position(hp=[100, 50, 70, 100], powerups=[["banner"], ["gauntlets", "war-ring"], ["lucky-coin", "banner"], []])
    score = ENGINE.score(s)
    assert sorted(score, key=lambda p: -score[p]) == [CHI, BOB, ALICE, DUNG]
    assert all(0.0 <= v <= 1.0 for v in score.values())


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


# ---------------------------------------------------------------------------
# HB-51 (clarified): DURING_YOUR_TURN cards while the turn waits on a choice


def test_HB_51_boss_choice_offers_a_boss_bonus() -> None:
    """HB-51: "this includes the moments when the turn waits on a choice (a Boss to fight or not, a
    teammate to call, the Guardian): every menu in the owner's turn offers the cards that can be
    played at that point" — Boss Bane is offered beside the Boss-player choice and counts."""
    s = position({1: "minotaur"}, hands=[["boss-bane"], [], [], []], loaded_dice=[12, 14])
    s, _ = play(s, ALICE, "reveal 1")
    assert {"boss bob", "boss chi", "play boss-bane"} <= commands(s, ALICE)
    assert "play boss-bane" in {c.command for c in ENGINE.menu(s, ALICE)}
    s, text = play(s, ALICE, "play boss-bane")
    assert "Alice plays Boss Bane" in text and ENGINE.to_act(s) == {ALICE} and s.pending[0]["kind"] == "boss"
    s, text = play(s, ALICE, "boss bob")
    assert "Alice rolled 12+3=15 against Bob's 14: Alice wins" in text and s.pos[ALICE] == 1


def test_HB_51_teammate_choice_offers_a_team_bonus() -> None:
    """HB-51: "a teammate to call" — Team Huddle (+4) is played after the reveal: 11+4 and 10 make 25."""
    s = position({1: "orc-warband"}, hands=[["team-huddle"], [], [], []], loaded_dice=[11, 10])
    s, _ = play(s, ALICE, "reveal 1")
    assert "play team-huddle" in commands(s, ALICE)
    s, _ = play(s, ALICE, "play team-huddle")
    s, text = play(s, ALICE, "team chi")
    assert "Alice rolled 11+4=15 and teammate Chi rolled 10: 25 against level 25" in text and s.pos[ALICE] == 1


def test_HB_51_guardian_choice_offers_guardians_toast() -> None:
    """HB-51: "the Guardian" — revealing the Hoard with 3 Power-Ups asks fight-or-wait, and the
    Guardian's Toast (+3) offered there turns a 12 into the winning 15."""
    s = position({1: "hoard"}, powerups=[["banner", "gauntlets", "iron-belly"], [], [], []],
                 hands=[["guardian-toast"], [], [], []], loaded_dice=[12])
    s, _ = play(s, ALICE, "reveal 1")
    assert {"hoard", "wait", "play guardian-toast"} <= commands(s, ALICE)
    s, _ = play(s, ALICE, "play guardian-toast")
    s, text = play(s, ALICE, "hoard")
    outcome = ENGINE.outcome(s)
    assert "rolled 12+3=15 against level 15" in text and outcome is not None and outcome.winners == {ALICE}


def test_HB_51_a_forced_choice_still_waits_for_a_card() -> None:
    """HB-51: with two players the Boss-player is forced, yet the turn still waits at that choice for
    the revealer's cards: Alice plays Dash there (her last card, so the forced choice then makes
    itself) and acts again after the fight."""
    s = position({1: "minotaur", 2: "supplies-1"}, players=["Alice", "Bob"], hands=[["dash"], []],
                 loaded_dice=[15, 3])
    s, _ = play(s, ALICE, "reveal 1")
    assert commands(s, ALICE) == {"boss bob", "play dash"}
    s, text = play(s, ALICE, "play dash")
    assert "Bob plays the Minotaur" in text and "Alice rolled 15 against Bob's 3" in text
    assert s.pos[ALICE] == 1 and s.turn_seat == ALICE and s.turn["actions"] == 1
    assert "reveal 2" in commands(s, ALICE)


def test_HB_51_no_card_moves_anything_while_a_fight_waits() -> None:
    """HB-51 OPEN (resolutions.BARRED_WHILE_A_FIGHT_WAITS): the action is under way while the Boss
    waits, so Shadow Step and Shifting Stones wait too; the heal is offered."""
    s = position({1: "minotaur", 2: "goblin", 3: "portal-1"}, hp=[50, 100, 100, 100],
                 hands=[["shadow-step", "shifting-stones", "hearty-stew"], [], [], []])
    face_up(s, 3)
    before = commands(s, ALICE)
    assert "play shadow-step 3" in before and "play shifting-stones 1 2" in before
    s, _ = play(s, ALICE, "reveal 1")
    waiting = commands(s, ALICE)
    assert "play hearty-stew" in waiting
    assert not any("shadow-step" in c or "shifting-stones" in c for c in waiting)


def test_HB_51_someone_elses_choice_offers_no_card() -> None:
    """HB-51: the cards are the owner's, in the owner's turn — Bob, asked to give up a 4th Power-Up
    won as Alice's teammate, is offered no card."""
    s = position({1: "orc-warband"}, powerups=[[], ["banner", "gauntlets", "war-ring"], [], []],
                 hands=[[], ["dash"], [], []], loaded_dice=[15, 15])
    s, _ = play(s, ALICE, "reveal 1")
    s, _ = play(s, ALICE, "team bob")
    assert ENGINE.to_act(s) == {BOB} and s.pending[0]["kind"] == "overflow"
    assert not any(c.startswith("play") for c in commands(s, BOB))


# ---------------------------------------------------------------------------
# HB-68 (revised): players choose their characters


def choosing(players: list[str] | None = None, **options: Any) -> BarcadiaState:
    return ENGINE.new_game(players or PLAYERS, {"signature_moves": True, **options}, 3)


def test_HB_68_players_choose_their_characters_in_secret() -> None:
    """HB-68: "the source hands each card to the matching player ... so players **choose** their
    character at setup (secret simultaneous choice ...)" — all four are asked at once, a choice stays
    hidden from the others until everyone has chosen, and then play begins."""
    s = choosing()
    assert s.phase == PHASE_CHARACTERS and ENGINE.to_act(s) == {0, 1, 2, 3}
    assert {f"character {c}" for c in content().characters} == commands(s, BOB)
    key = ENGINE.decision_key(s, BOB)
    s2, events = ENGINE.apply(s, ALICE, ENGINE.parse(s, ALICE, "character knight"))
    assert ENGINE.to_act(s2) == {1, 2, 3} and ENGINE.decision_key(s2, BOB) == key
    assert not any("Knight" in e.text.en for e in events if e.visible(BOB))
    assert ENGINE.view(s2, BOB)["window"]["my_choice"] is None
    assert ENGINE.view(s2, ALICE)["window"]["my_choice"] == ["character", "knight"]
    s2, _ = play(s2, BOB, "wizard")
    s2, _ = play(s2, CHI, "chọn Kẻ Trộm")
    s2, text = play(s2, DUNG, "character ranger")
    assert s2.characters == ["knight", "wizard", "rogue", "ranger"]
    assert "Alice is the Knight" in text and s2.phase == PHASE_TURN
    assert ENGINE.view(s2, CHI)["players"][0]["character"] == "knight"


def test_HB_68_a_clash_goes_to_who_chose_first() -> None:
    """HB-68: "a clash settled by who asked first" — Bob asks for the Wizard before Alice does, so
    Bob is the Wizard and Alice chooses again, without the Wizard on offer."""
    s = choosing()
    s, _ = play(s, BOB, "character wizard")
    s, _ = play(s, ALICE, "character wizard")
    s, _ = play(s, CHI, "character rogue")
    s, text = play(s, DUNG, "character ranger")
    assert "Alice chose the Wizard too, but Bob chose first" in text
    assert s.characters == ["", "wizard", "rogue", "ranger"] and ENGINE.to_act(s) == {ALICE}
    assert "character wizard" not in commands(s, ALICE)
    s, _ = play(s, ALICE, "character barbarian")
    assert s.characters[ALICE] == "barbarian" and s.phase == PHASE_TURN


def test_HB_68_changing_a_choice_asks_anew() -> None:
    """HB-68 OPEN (resolutions.CHARACTER_MODES): a changed choice is a new request — Alice asks for
    the Knight, Bob for the Wizard, then Alice changes to the Wizard: Bob asked for it first."""
    s = choosing()
    s, _ = play(s, ALICE, "character knight")
    s, _ = play(s, BOB, "character wizard")
    s, _ = play(s, ALICE, "character wizard")
    s, _ = play(s, CHI, "character rogue")
    s, _ = play(s, DUNG, "character ranger")
    assert s.characters[BOB] == "wizard" and s.characters[ALICE] == "" and ENGINE.to_act(s) == {ALICE}


def test_HB_68_the_last_character_left_needs_no_choice() -> None:
    """HB-68: six players, six characters — the one who lost a clash gets the last one at once."""
    names = ["Alice", "Bob", "Chi", "Dung", "Eve", "Phong"]
    s = choosing(names)
    for seat, char in enumerate(["barbarian", "knight", "rogue", "wizard", "sorcerer"]):
        s, _ = play(s, seat, f"character {char}")
    s, text = play(s, 5, "character knight")
    assert s.characters[5] == "ranger" and "Phong is the Ranger, the one character left" in text
    assert s.phase == PHASE_TURN


def test_HB_68_the_choice_comes_before_the_dungeon_is_built() -> None:
    """HB-68 with HB-15: with players placing the rooms, the characters are chosen first."""
    s = choosing(layout="players")
    for seat, char in enumerate(["barbarian", "knight", "rogue", "wizard"]):
        s, _ = play(s, seat, f"character {char}")
    assert s.phase == PHASE_PLACE and len(ENGINE.to_act(s)) == 1


def test_HB_68_option_characters_random_deals_them() -> None:
    """HB-68: "option `characters=random` deals them"."""
    s = choosing(characters="random")
    assert s.phase == PHASE_TURN and len(set(s.characters)) == 4 and "" not in s.characters


# ---------------------------------------------------------------------------
# HB-69 (revised): 10 House Rules; the first-player roll's natural 20 changes the rule too


def test_HB_69_the_content_holds_ten_house_rules_checked_on_load() -> None:
    """HB-69: "The Kickstarter box has 10 House Rule cards; the content file holds 10." """
    assert len(content().house_rules) == 10
    tables = {}
    for name in ("rooms", "loot", "powerups", "modules"):
        with (DATA_DIR / f"{name}.toml").open("rb") as fh:
            tables[name] = tomllib.load(fh)
    tables["modules"]["house_rule"] = tables["modules"]["house_rule"][:9]
    with pytest.raises(ContentError, match="needs the 10 House Rule cards"):
        parse_content(tables["rooms"], tables["loot"], tables["powerups"], tables["modules"])


def test_HB_69_a_new_house_rule_binds_everyone() -> None:
    """HB-69: "one card on the SP binds everyone" — under Conga Line (our design) Bob walks three
    revealed rooms with one action."""
    s = position({1: "goblin", 13: "skeleton", 14: "portal-1"}, options={"house_rules": True},
                 house_rule="conga-line", turn_seat=BOB)
    for room in (1, 13):
        face_up(s, room, beaten=True)
    face_up(s, 14)
    assert 13 in s.adj[1] and 14 in s.adj[13]
    s, _ = play(s, BOB, "enter 1 13 14")
    assert s.pos[BOB] == 14


def test_HB_69_a_natural_20_on_the_first_player_roll_changes_the_house_rule() -> None:
    """HB-69: "any natural 20 replaces it with the next card, the first-player roll included (the
    source: «Bất cứ khi nào một người chơi tung được 20»)" — the same deal with a 19 and with a 20:
    the 20 puts the first rule under the deck and the next one in force."""
    plain = new_game_rolling(PLAYERS, [19, 5, 9, 3], options={"house_rules": True})
    twenty = new_game_rolling(PLAYERS, [20, 5, 9, 3], options={"house_rules": True})
    assert plain.turn_seat == twenty.turn_seat == ALICE and twenty.start_rolls == [[20], [5], [9], [3]]
    assert twenty.house_rule == plain.house_deck[0] != plain.house_rule
    assert twenty.house_deck[-1] == plain.house_rule


def test_HB_69_every_20_of_a_tied_first_player_roll_counts() -> None:
    """HB-69 with HB-18 ("ties reroll"): Alice and Bob both roll 20, then 15 against 2: two natural
    20s, two new House Rules."""
    plain = new_game_rolling(PLAYERS, [19, 5, 9, 3], options={"house_rules": True})
    tied = new_game_rolling(PLAYERS, [20, 20, 9, 3, 15, 2], options={"house_rules": True})
    assert tied.turn_seat == ALICE and tied.start_rolls == [[20, 15], [20, 2], [9], [3]]
    assert tied.house_rule == plain.house_deck[1]
    assert tied.house_deck[-2:] == [plain.house_rule, plain.house_deck[0]]
