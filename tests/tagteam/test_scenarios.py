"""The digest's scenario checks S-1..S-20 (tagteam.en.md), one test each, on track RT (TT-48).

Defaults as the digest states them: first-game Power (J 1, C 2, W 2, B 3), every marker on 14,
P1 = Joan + Ching Shih, P2 = Bödvar + Wong Fei-Hung. ``card("J", ...)`` is a made-up card.
"""

from __future__ import annotations

from dataclasses import replace

import pytest

from engines.tagteam import rules
from engines.tagteam.content import Content
from engines.tagteam.engine import TagTeamEngine
from engines.tagteam.scenario import card, fighter, position, power_of, rt_content


@pytest.fixture(scope="module")
def rt() -> Content:
    return rt_content()


def hp_after(s, turn: int) -> list[list[int]]:  # type: ignore[no-untyped-def]
    """[[J, C], [B, W]] after the given Turn (1-based) of the last Fight."""
    return s.last_fight[turn - 1][3]


def test_TT_5_first_game_setup(rt: Content) -> None:
    """S-1 [TT-5, TT-12–TT-18]: "cubes J 1, C 2, W 2, B 3; B's Bödvar side up; Special markers on J, C,
    B; 2 Concentration tokens beside W; each Fight Deck is its 2 Starting cards in the chosen order;
    each Build Deck has 18 cards, none a Starting card; every marker on Start.\""""
    engine = TagTeamEngine(rt)
    s = engine.new_game(["P1", "P2"], {"draft": "first_game"}, 7)
    (j, c), (b, w) = s.teams
    assert [j.id, c.id, b.id, w.id] == ["joan", "ching_shih", "bodvar", "wong"]
    assert [j.power, c.power, w.power, b.power] == [1, 2, 2, 3]
    assert b.side == "bodvar"
    assert [rt.fighters[f.id].special_max > 0 for f in (j, c, b, w)] == [True, True, True, False]
    assert w.tokens == {"concentration": 2} and not (j.tokens or c.tokens or b.tokens)
    assert all(f.hp == rt.fighters[f.id].sides[0].start for f in (j, c, b, w))
    starting = {f.starting_card.id for f in rt.fighters.values()}
    for seat in (0, 1):
        assert len(s.build[seat]) == 18 and not set(s.build[seat]) & starting
    s, _ = engine.apply(s, 0, engine.parse(s, 0, "order 2 1"))
    s, _ = engine.apply(s, 1, engine.parse(s, 1, "order 1 2"))
    assert s.fight[0] == ["ching_shih.terror", "joan.dieu_premier_servi"]
    assert s.fight[1] == ["bodvar.enrage", "wong.harder_they_fall"]


@pytest.mark.parametrize("seed", range(12))
def test_TT_7_standard_and_competitive_draft(rt: Content, seed: int) -> None:
    """S-2 [TT-6–TT-11]: "Standard draft: 2 different fighters per team, no fighter on both teams,
    each second pick from the 5 cards received. Competitive draft: each player receives exactly 4
    cards; no discarded fighter is on a team.\""""
    engine = TagTeamEngine(rt)
    for mode, received in (("standard", 5), ("competitive", 4)):
        s = engine.new_game(["P1", "P2"], {"draft": mode}, seed)
        assert sorted(s.hands[0] + s.hands[1]) == sorted(rt.fighters) and len(s.hands[0]) == 6
        for seat in (0, 1):
            choice = engine.legal_actions(s, seat)[(seed + seat) % 5].action
            s, _ = engine.apply(s, seat, choice)
        assert s.phase == "draft2"
        assert [len(h) for h in s.hands] == [received, received]
        passed = [list(h) for h in s.hands]
        for seat in (0, 1):
            s, _ = engine.apply(s, seat, engine.legal_actions(s, seat)[seed % received].action)
        teams = [[f.id for f in t] for t in s.teams]
        for seat in (0, 1):
            assert len(set(teams[seat])) == 2
            assert teams[seat][1] in passed[seat]
            assert not set(teams[seat]) & set(s.discards[0] + s.discards[1])
        assert not set(teams[0]) & set(teams[1])


def test_TT_11_clashing_free_choices_fall_back_to_a_standard_draft(rt: Content) -> None:
    """TT-11: "Each fighter exists once ... Clashing free choices fall back to a Standard draft.\""""
    engine = TagTeamEngine(rt)
    s = engine.new_game(["P1", "P2"], {"draft": "free"}, 3)
    s, _ = engine.apply(s, 0, engine.parse(s, 0, "pick joan wong"))
    s, _ = engine.apply(s, 1, engine.parse(s, 1, "chọn Wong Fei-Hung bödvar"))
    assert s.phase == "draft1" and s.fallback and len(s.hands[0]) == 6
    s = engine.new_game(["P1", "P2"], {"draft": "free"}, 3)
    s, _ = engine.apply(s, 0, engine.parse(s, 0, "pick joan wong"))
    s, _ = engine.apply(s, 1, engine.parse(s, 1, "pick bodvar ching"))
    assert s.phase == "setup" and [f.id for f in s.teams[1]] == ["bodvar", "ching_shih"]


def test_TT_30_simultaneous_attack_and_heal_net_out(rt: Content) -> None:
    """S-3 [TT-30, TT-33–TT-35, TT-43]: "P1 has [J:Attack, C:Attack] and P2 has [B:Heal 1, W:Heal 1].
    Turn 1: B nets 0 and stays on 14. Turn 2: W nets −1 and ends on 13. No Partner is touched.\""""
    content, s = position(rt, [[card("J", "attack"), card("C", "attack")],
                               [card("B", "heal 1"), card("W", "heal 1")]])
    rules.run_fight(content, s)
    assert hp_after(s, 1) == [[14, 14], [14, 14]]
    assert hp_after(s, 2) == [[14, 14], [14, 13]]


def test_TT_44_attack_uses_the_power_snapshot(rt: Content) -> None:
    """S-4 [TT-29, TT-44, TT-53, TT-67]: "B:'Power +2 THEN Attack' against J:Heal 1. J goes 14 → 15 →
    12, because the Attack uses the snapshot Power 3. B now has 5 cubes, and next Turn B:Attack deals 5.\""""
    content, s = position(rt, [[card("J", "heal 1"), card("C", "power +1")],
                               [card("B", "power +2", "then", "attack"), card("B", "attack")]], hp={"C": 9})
    rules.run_fight(content, s)
    assert hp_after(s, 1)[0][0] == 12
    assert power_of(s, "B") == 5
    assert hp_after(s, 2)[0][1] == 4  # C 9 -> 4: the Attack dealt 5


def test_TT_28_mandatory_self_harm_and_block_success(rt: Content) -> None:
    """S-5 [TT-28, TT-45, TT-46, TT-51, TT-63]: "Turn 1: J's own J:'Power −3 (You)' is mandatory and
    leaves J with 0 cubes. Turn 2: J:Attack against W:'Block; Success: Power +1': no HP change, the
    Block succeeds, W ends with 3 cubes.\""""
    content, s = position(rt, [[card("J", "power -3 you"), card("J", "attack")],
                               [card("B", "power +0"), card("W", "block => power +1")]])
    rules.run_fight(content, s)
    assert power_of(s, "J") == 0
    assert hp_after(s, 2) == [[14, 14], [14, 14]]
    assert power_of(s, "W") == 3


def test_TT_32_shorter_deck_reveals_nothing(rt: Content) -> None:
    """S-6 [TT-23, TT-32]: "An effect leaves P1 with 4 cards and P2 with 3. In Turn 4, P2 reveals
    nothing, and P1's Attack hits P2's Active fighter from Turn 3. The Fight! step then ends.\""""
    content, s = position(rt, [[card("J", "power +0"), card("J", "power +0"), card("C", "power +0"),
                                card("J", "attack")],
                               [card("W", "power +0"), card("B", "power +0"), card("W", "power +0")]])
    rules.run_fight(content, s)
    assert len(s.last_fight) == 4
    assert s.last_fight[3][1] is None
    assert hp_after(s, 4) == [[14, 14], [14, 13]]


def test_TT_54_direct_damage_ignores_block(rt: Content) -> None:
    """S-7 [TT-51, TT-54]: "C:'Attack + Direct Damage 1' in a single segment, against W:Block. W loses
    exactly 1.\""""
    content, s = position(rt, [[card("C", "attack", "damage 1")], [card("W", "block")]])
    rules.run_fight(content, s)
    assert hp_after(s, 1) == [[14, 14], [14, 13]]


def test_TT_67_block_after_then_starts_in_its_step(rt: Content) -> None:
    """S-8 [TT-29, TT-51, TT-67]: "B:'Attack THEN Block' against J:Attack: B loses 1 (no Block yet in
    step 1). Against C:'Power +1 THEN Attack' instead, C's step-2 Attack is negated.\""""
    content, s = position(rt, [[card("J", "attack")], [card("B", "attack", "then", "block")]])
    rules.run_fight(content, s)
    assert hp_after(s, 1)[1][0] == 13
    content, s = position(rt, [[card("C", "power +1", "then", "attack")], [card("B", "attack", "then", "block")]])
    rules.run_fight(content, s)
    assert hp_after(s, 1)[1][0] == 14


def test_TT_36_attack_on_opponents_partner(rt: Content) -> None:
    """S-9 [TT-36, TT-50, TT-51]: "C:'Attack (red Opponent's Partner icon)' against B:Block. W loses 2,
    and the Attack succeeds.\""""
    content, s = position(rt, [[card("C", "attack opponent_partner => special +1")], [card("B", "block")]])
    rules.run_fight(content, s)
    assert hp_after(s, 1) == [[14, 14], [14, 12]]
    assert s.teams[0][1].special == 1  # the Success bonus proves the Attack succeeded


def test_TT_50_attack_opponents_against_one_block(rt: Content) -> None:
    """S-10 [TT-50, TT-51, TT-68]: "B:'Attack Opponents' against J:Block: J is unharmed, C loses 3, and
    both the Attack and the Block succeed.\""""
    content, s = position(rt, [[card("J", "block => power +1")], [card("B", "attack opponents => power +1")]])
    rules.run_fight(content, s)
    assert hp_after(s, 1)[0] == [14, 11]
    assert power_of(s, "J") == 2 and power_of(s, "B") == 4


def test_TT_39_max_and_ko_bound_the_marker(rt: Content) -> None:
    """S-11 [TT-39, TT-40, TT-47]: "W on 15 heals 3 and ends on 16. J on 2 takes an Attack of 3 and
    ends on KO; the excess point is ignored.\""""
    content, s = position(rt, [[card("J", "power +0")], [card("W", "heal 3")]], hp={"W": 15})
    rules.run_fight(content, s)
    assert fighter(s, "W") == 16
    content, s = position(rt, [[card("J", "power +0")], [card("B", "attack")]], hp={"J": 2})
    rules.run_fight(content, s)
    assert fighter(s, "J") == 0


def test_TT_83_ko_mid_turn_voids_later_heal(rt: Content) -> None:
    """S-12 [TT-30, TT-41, TT-52, TT-80, TT-83]: "J on 2 plays J:'Direct Damage 1 THEN Heal 2' against
    B:Attack. J reaches KO in step 1, the step-2 Heal is void, and P1 loses at the end of the Turn.
    With a plain J:'Heal 2' instead, J nets −1, ends on 1, and play continues.\""""
    content, s = position(rt, [[card("J", "damage 1 you", "then", "heal 2")], [card("B", "attack")]], hp={"J": 2})
    rules.run_fight(content, s)
    assert fighter(s, "J") == 0
    assert s.result is not None and s.result["winners"] == [1] and not s.result["draw"]
    content, s = position(rt, [[card("J", "heal 2")], [card("B", "attack")]], hp={"J": 2})
    rules.run_fight(content, s)
    assert fighter(s, "J") == 1 and s.result is None


def test_TT_81_double_ko_is_a_draw(rt: Content) -> None:
    """S-13 [TT-81, TT-83]: "C on 2 with C:Attack against W on 2 with W:Attack: both are KO, a draw.
    Same if W's KO comes after a THEN.\""""
    for p1 in (card("C", "attack"), card("C", "power +1", "then", "attack")):
        content, s = position(rt, [[p1], [card("W", "attack")]], hp={"C": 2, "W": 2})
        rules.run_fight(content, s)
        assert fighter(s, "C") == 0 and fighter(s, "W") == 0
        assert s.result is not None and s.result["draw"] and s.result["winners"] == []


def test_TT_80_both_fighters_of_one_team_ko_loses(rt: Content) -> None:
    """S-14 [TT-80, TT-83]: "J and C on 3; B:'Attack Opponents' against J:Power +1. Both are KO: P1
    loses, not a draw.\""""
    content, s = position(rt, [[card("J", "power +1")], [card("B", "attack opponents")]], hp={"J": 3, "C": 3})
    rules.run_fight(content, s)
    assert s.result is not None and s.result["winners"] == [1] and not s.result["draw"]


def test_TT_64_stop_spaces_halt_both_ways(rt: Content) -> None:
    """S-15 [TT-47, TT-64, TT-65]: "W on 12 takes 5 and stops on 10. A later Turn's 2 damage moves W
    from 10 to 8. A Heal 3 after that stops W on 10.\""""
    content, s = position(rt, [[card("C", "damage 5"), card("C", "damage 2"), card("C", "power +0")],
                               [card("W", "power +0"), card("W", "power +0"), card("W", "heal 3")]], hp={"W": 12})
    rules.run_fight(content, s)
    assert [hp_after(s, t)[1][1] for t in (1, 2, 3)] == [10, 8, 10]


def test_TT_62_cancel_skips_the_later_segments(rt: Content) -> None:
    """S-16 [TT-56, TT-58, TT-61, TT-62]: "W on 9 against C:'Attack THEN Power +1': W lands on 7
    (Cancel), so the Power +1 is skipped (C stays at 2; W stays on 7). Had W started the Turn on 7 and
    taken 2, no Cancel would trigger.\""""
    content, s = position(rt, [[card("C", "attack", "then", "power +1")], [card("W", "power +0")]], hp={"W": 9})
    rules.run_fight(content, s)
    assert fighter(s, "W") == 7 and power_of(s, "C") == 2 and s.last_fight[0][4] == [True, False]
    content, s = position(rt, [[card("C", "attack", "then", "power +1")], [card("W", "power +0")]], hp={"W": 7})
    rules.run_fight(content, s)
    assert fighter(s, "W") == 5 and power_of(s, "C") == 3


def test_TT_57_icons_fire_after_all_markers_moved(rt: Content) -> None:
    """S-17 [TT-56, TT-57, TT-59, TT-62]: "In one step, J goes 9 → 6 and B goes 8 → 5: both Cancels
    (on 7) trigger after both markers have moved, cancelling both cards' later segments. Separately, W
    healing 5 → 8 also triggers Cancel.\""""
    content, s = position(rt, [[card("J", "damage 3", "then", "power +1")],
                               [card("B", "attack", "then", "power +1")]], hp={"J": 9, "B": 8})
    rules.run_fight(content, s)
    assert fighter(s, "J") == 6 and fighter(s, "B") == 5
    assert power_of(s, "J") == 1 and power_of(s, "B") == 3
    content, s = position(rt, [[card("C", "power +1", "then", "power +1")], [card("W", "heal 3")]], hp={"W": 5})
    rules.run_fight(content, s)
    # TT-62 revised: C's step-1 Power +1, already applied when the Cancel fires, is reverted too
    assert fighter(s, "W") == 8 and power_of(s, "C") == 2


def _with_faith_on_12(rt: Content) -> Content:
    """Track RT for Joan plus her Faith icon (Special +1) on space 12: an icon that is not a Cancel."""
    joan = rt.fighters["joan"]
    side = replace(joan.sides[0], icons={**joan.sides[0].icons, 12: ("faith",)})
    return replace(rt, fighters={**rt.fighters, "joan": replace(joan, sides=(side, *joan.sides[1:]))})


def test_TT_59_icon_fires_every_time_it_is_passed(rt: Content) -> None:
    """TT-59 (revised): "An icon space triggers **every time** a marker stops on or passes it ..., also
    a second time in the same Turn; only TT-58's start-of-Turn space is exempt." J on 13 is pushed down
    past 12 (step 1), then heals back up past 12 (step 2): Faith rises twice."""
    faith = _with_faith_on_12(rt)
    content, s = position(faith, [[card("J", "power +0", "then", "heal 2")], [card("B", "damage 2")]], hp={"J": 13})
    rules.run_fight(content, s)
    assert fighter(s, "J") == 13 and s.teams[0][0].special == 2


def test_TT_59_icon_fires_every_time_a_marker_stops_on_it(rt: Content) -> None:
    """TT-59 (revised): stopping on the same icon space twice in one Turn fires it twice: J 13 → 12
    (stops on Faith), 12 → 13, 13 → 12 (stops on Faith again)."""
    faith = _with_faith_on_12(rt)
    content, s = position(faith, [[card("J", "power +0", "then", "heal 1", "then", "power +0")],
                                  [card("B", "damage 1", "then", "power +0", "then", "damage 1")]], hp={"J": 13})
    rules.run_fight(content, s)
    assert fighter(s, "J") == 12 and s.teams[0][0].special == 2


def test_TT_58_start_of_turn_space_is_exempt_only_when_left(rt: Content) -> None:
    """TT-58: "An icon on the space a marker occupied at the start of the Turn does not trigger when the
    marker leaves that space." Our reading of TT-59's exemption: leaving never fires; coming back onto
    it later in the Turn is a new arrival and fires like any other."""
    faith = _with_faith_on_12(rt)
    content, s = position(faith, [[card("J", "power +0")], [card("B", "damage 1")]], hp={"J": 12})
    rules.run_fight(content, s)
    assert fighter(s, "J") == 11 and s.teams[0][0].special == 0
    content, s = position(faith, [[card("J", "power +0", "then", "heal 1")], [card("B", "damage 1")]], hp={"J": 12})
    rules.run_fight(content, s)
    assert fighter(s, "J") == 12 and s.teams[0][0].special == 1


def test_TT_62_cancel_reverts_what_the_card_already_did(rt: Content) -> None:
    """TT-62 (revised): "every direct effect of that card in this Turn is reverted — HP of any fighter,
    Power, Special, tokens — except the movement of the marker(s) whose arrival on the Cancel space
    triggered it". C:"Power +1, Attack, Direct Damage 2 on the Opponent's Partner" in one segment
    against W on 9: W lands on 7 and stays there; C's Power +1 and B's 2 damage are handed back."""
    content, s = position(rt, [[card("C", "power +1", "attack", "damage 2 opponent_partner")],
                               [card("W", "power +0")]], hp={"W": 9})
    rules.run_fight(content, s)
    assert fighter(s, "W") == 7 and fighter(s, "B") == 14 and power_of(s, "C") == 2
    assert s.last_fight[0][4] == [True, False]
    # both opposing markers arrive on their Cancel spaces: both movements are the cause and stay
    content, s = position(rt, [[card("C", "power +1", "attack opponents")], [card("W", "power +0")]],
                          hp={"W": 9, "B": 9})
    rules.run_fight(content, s)
    assert fighter(s, "W") == 7 and fighter(s, "B") == 7 and power_of(s, "C") == 2


def test_TT_62_cancel_reverts_earlier_segments(rt: Content) -> None:
    """TT-62 (revised): the card's effects of earlier steps are reverted as well. C on 12 plays
    C:"Heal 2 THEN Attack" against W on 9: C heals to 14 in step 1, W lands on the Cancel in step 2,
    and C's Heal is handed back (C on 12)."""
    content, s = position(rt, [[card("C", "heal 2", "then", "attack")], [card("W", "power +0")]],
                          hp={"C": 12, "W": 9})
    rules.run_fight(content, s)
    assert hp_after(s, 1) == [[14, 12], [14, 7]]


def test_TT_62_cancel_caused_by_the_victims_own_card(rt: Content) -> None:
    """TT-62 (revised): the Cancel hits the opponent's card whatever moved the marker. J on 9 plays
    J:"Direct Damage 2 (You)" and lands on 7; B's "Power +2, Heal 1 (Your Partner)" is reverted."""
    content, s = position(rt, [[card("J", "damage 2 you")], [card("B", "power +2", "heal 1 partner")]],
                          hp={"J": 9})
    rules.run_fight(content, s)
    assert fighter(s, "J") == 7 and power_of(s, "B") == 3 and fighter(s, "W") == 14


def test_TT_62_cancel_reverts_a_block_bonus_and_ends_the_block(rt: Content) -> None:
    """TT-62 (revised): "its later segments, its Blocks and any Success bonus not yet received never
    happen", and a bonus already received is a direct effect, so it is reverted. J on 9 plays
    J:"Attack THEN Attack" against W:"Block ⇒ Power +1, Direct Damage 2": the Block negates the first
    Attack and pays Power +1, J lands on 7, the Cancel takes the Power back and ends the Block, and
    the second Attack hits W."""
    content, s = position(rt, [[card("J", "attack", "then", "attack")],
                               [card("W", "block => power +1", "damage 2")]], hp={"J": 9})
    rules.run_fight(content, s)
    assert fighter(s, "J") == 7 and power_of(s, "W") == 2 and fighter(s, "W") == 13


def test_TT_62_cancel_hands_back_tokens_and_flips() -> None:
    """TT-62 (revised): tokens a cancelled card handed out go back, and a board it flipped flips back.
    Reeves's "Sheriff to the Opponent, Attack" moves Cleopatra 8 → 6 (her Cancel): the Sheriff returns
    to the box. B's "Flip to Berserker Bear, Attack" moves J 10 → 7: Bödvar is Bödvar again."""
    from engines.tagteam.content import load_content

    shipped = load_content()
    teams = (("reeves", "loew"), ("cleopatra", "boudica"))
    content, s = position(shipped, [[card("reeves", "token sheriff +1 opponent", "attack")],
                                    [card("cleopatra", "power +0")]], teams=teams, hp={"cleopatra": 8})
    rules.run_fight(content, s)
    assert fighter(s, "cleopatra") == 6
    assert all(not f.tokens.get("sheriff") for team in s.teams for f in team)
    content, s = position(rt_content(shipped), [[card("J", "power +0")], [card("B", "flip bear", "attack")]],
                          hp={"J": 10})
    rules.run_fight(content, s)
    assert fighter(s, "J") == 7 and s.teams[1][0].side == "bodvar"


def test_TT_62_log_says_what_the_cancel_reverted_and_skipped(rt: Content) -> None:
    """TT-62 (revised): "the events say exactly what the Cancel reverted and skipped; a Cancel that
    finds nothing to revert or skip says so" (both languages)."""
    content, s = position(rt, [[card("C", "power +1", "attack", "then", "power +1")], [card("W", "power +0")]],
                          hp={"W": 9})
    (event,) = rules.run_fight(content, s)
    assert "Wong Fei-Hung's Cancel ignores P1's card: reverted Ching Shih Power +1 (to 2); " \
        "skipped: Ching Shih gains 1 Power." in event.text.en
    assert "hoàn tác Sức mạnh Ching Shih +1 (thành 2); bỏ qua: Ching Shih nhận thêm 1 Sức mạnh" in event.text.vi
    content, s = position(rt, [[card("C", "attack")], [card("W", "power +0")]], hp={"W": 9})
    (event,) = rules.run_fight(content, s)
    assert "Wong Fei-Hung's Cancel ignores P1's card: nothing to revert or skip." in event.text.en
    assert "không có gì để hoàn tác hay bỏ qua" in event.text.vi


def test_TT_71_build_inserts_and_bottoms_in_order(rt: Content) -> None:
    """S-18 [TT-24, TT-70–TT-73, TT-75]: "P1's Fight Deck is [Js, Cs]. P1 draws X, Y, Z, inserts Y
    between Js and Cs, and puts Z then X on the bottom of the Build Deck. Next Round reveals Js, Y,
    Cs; the Build Deck has 17 cards ending …Z, X; P2 learns only that the deck now has 3 cards.\""""
    engine = TagTeamEngine(rt)
    s = engine.new_game(["P1", "P2"], {"draft": "first_game"}, 11)
    s, _ = engine.apply(s, 0, engine.parse(s, 0, "order 1 2"))
    s, _ = engine.apply(s, 1, engine.parse(s, 1, "order 1 2"))
    assert s.phase == "build" and s.fight[0] == ["joan.dieu_premier_servi", "ching_shih.terror"]
    x, y, z = s.draw[0]
    s, ev0 = engine.apply(s, 0, engine.parse(s, 0, "add 2 after 1, bottom 3 1"))
    s, ev1 = engine.apply(s, 1, engine.parse(s, 1, "add 1 top"))
    assert [t[0] for t in s.last_fight] == ["joan.dieu_premier_servi", y, "ching_shih.terror"]
    assert len(s.build[0]) + len(s.draw[0]) == 17 and s.build[0][-2:] == [z, x]
    before_fight = []
    for e in ev0 + ev1:
        if e.text.en.startswith("Round 2, Turn"):
            break
        if e.visible(1) and "You added" not in e.text.en:  # what P2 learns about P1
            before_fight.append(e.text.en)
    assert any("Fight Deck now 3 cards" in t for t in before_fight if t.startswith("P1"))
    assert not any(rt.cards[y].name in t or "position" in t for t in before_fight)
    view = engine.view(s, 1)
    assert view["fight_deck"] != [] and view["fight_sizes"][0] == 3
    assert all(c["id"] not in {x, z} for c in view["fight_deck"] + view["draw"])


def test_TT_78_instant_bonus_after_both_builds(rt: Content) -> None:
    """S-19 [TT-44, TT-78, TT-79]: "P1 adds a C card with Instant Bonus 'Power +1'. It applies after
    both players have added a card; P2 is told only the bonus; C's first Attack next Round deals 3.\""""
    engine_content, s = position(rt, [[card("J", "power +0")], [card("W", "power +0")]])
    bonus = card("C", "attack", instant=["power +1"])
    filler = [card("J", "power +0") for _ in range(2)]
    theirs = [card("W", "power +0") for _ in range(3)]
    content = engine_content.with_cards([bonus, *filler, *theirs])
    engine = TagTeamEngine(content)
    s.draw = [[bonus.id, filler[0].id, filler[1].id], [c.id for c in theirs]]
    rules.begin(s, "build")
    s, ev0 = engine.apply(s, 0, engine.parse(s, 0, "add 1 top"))
    assert power_of(s, "C") == 2  # not before both have added
    s, ev1 = engine.apply(s, 1, engine.parse(s, 1, "add 1 top"))
    seen = [e.text.en for e in ev0 + ev1 if e.visible(1)]
    assert any("Instant Bonus for P1's Ching Shih: Ching Shih gains 1 Power." in t for t in seen)
    assert not any(bonus.id in t or bonus.name in t for t in seen if not t.startswith("Round"))
    assert hp_after(s, 1)[1][1] == 11  # W 14 -> 11: the Attack dealt 3


def _blank(content: Content) -> Content:
    """Every card of the 4 first-game fighters does nothing (S-20's "no effects")."""
    from dataclasses import replace

    from engines.tagteam.content import parse_segments
    fighters = dict(content.fighters)
    cards = dict(content.cards)
    for fid in ("joan", "ching_shih", "bodvar", "wong"):
        f = fighters[fid]
        blank = tuple(replace(c, segments=parse_segments(["power +0"], "blank"), instant=()) for c in f.cards)
        fighters[fid] = replace(f, cards=blank)
        cards.update({c.id: c for c in blank})
    return replace(content, fighters=fighters, cards=cards)


def test_TT_84_round_17_depletes_the_build_deck(rt: Content) -> None:
    """S-20 [TT-76, TT-77, TT-82, TT-84, TT-85]: "With no KO and no effects, Round 17 plays 18 Turns,
    then its Build! step finds only 2 cards: draw, no card added. A reset then gives 4 decks of 10,
    each with its Starting card on top.\""""
    content = _blank(rt)
    engine = TagTeamEngine(content)
    s = engine.new_game(["P1", "P2"], {"draft": "first_game"}, 5)
    bot = engine.bots()["random"]
    import random
    rng = random.Random(5)
    while engine.to_act(s):
        seat = min(engine.to_act(s))
        s, _ = engine.apply(s, seat, bot.choose(engine, s, seat, rng))
        if s.phase == "build":
            assert len(s.fight[0]) == s.round + 1 and len(s.build[0]) + 3 == 19 - s.round  # TT-77
    assert s.round == 17 and len(s.last_fight) == 18
    assert [len(d) for d in s.build] == [2, 2] and [len(d) for d in s.fight] == [18, 18]
    outcome = engine.outcome(s)
    assert outcome is not None and outcome.draw and "depleted" in outcome.reason.en
    decks = rules.reset_decks(content, s)
    assert sorted(decks) == ["bodvar", "ching_shih", "joan", "wong"]
    for fid, deck in decks.items():
        assert len(deck) == 10 and deck[0] == content.fighters[fid].starting_card.id


@pytest.mark.parametrize("seed", range(40))
def test_TT_26_both_cards_resolve_simultaneously_seat_mirror(seed: int) -> None:
    """TT-26: "both players simultaneously reveal ... and simultaneously carry out its Actions." Swapping
    the seats (teams and Fight Decks) must mirror the outcome exactly, for any real cards."""
    import random

    content = rt_content()
    rng = random.Random(seed)
    fighters = sorted(content.fighters)
    rng.shuffle(fighters)
    teams = [fighters[:2], fighters[2:4]]
    decks = [[content.cards[rng.choice(content.fighter_deck(rng.choice(t)))] for _ in range(8)] for t in teams]
    _, a = position(content, decks, teams)
    _, b = position(content, decks[::-1], teams[::-1])
    rules.run_fight(content, a)
    rules.run_fight(content, b)
    assert [t[3] for t in a.last_fight] == [t[3][::-1] for t in b.last_fight]
    assert [[(f.power, f.special, f.tokens, f.side) for f in team] for team in a.teams] == \
        [[(f.power, f.special, f.tokens, f.side) for f in team] for team in b.teams[::-1]]
    if a.result is not None:
        assert b.result is not None and a.result["draw"] == b.result["draw"]
        assert a.result["winners"] == [1 - w for w in b.result["winners"]]
