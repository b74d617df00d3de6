"""Fighter-specific mechanics from the data files: board flips, special tracks and tokens (TT-15, TT-66)."""

from __future__ import annotations

import pytest

from engines.tagteam import rules
from engines.tagteam.content import Content, load_content
from engines.tagteam.scenario import card, fighter, position


@pytest.fixture(scope="module")
def content() -> Content:
    return load_content()


def test_TT_12_bodvar_flips_to_berserker_bear(content: Content) -> None:
    """TT-12/TT-87: Bödvar starts Bödvar side up; his flip rule (Rage 3) turns him into the Berserker Bear."""
    c, s = position(content, [[card("J", "power +0")], [card("B", "special +1")]])
    s.teams[1][0].special = 2
    rules.run_fight(c, s)
    bear = s.teams[1][0]
    assert bear.side == "bear" and bear.power == 4 and bear.hp == 16  # on_flip: power +1, heal 3 (max 16)


def test_TT_66_special_icon_moves_the_special_marker(content: Content) -> None:
    """TT-66: special icons are the fighter's own; Joan's Faith icon on 12 raises her Faith marker."""
    c, s = position(content, [[card("J", "power +0")], [card("B", "attack")]])
    rules.run_fight(c, s)
    assert fighter(s, "J") == 11 and s.teams[0][0].special == 1


def test_TT_2_sheriff_marks_the_target_for_heavier_attacks(content: Content) -> None:
    """Sheriff (our design): Reeves pins it on an opponent; each Attack on its holder deals 1 more."""
    teams = (("reeves", "loew"), ("cleopatra", "boudica"))
    c, s = position(content, [[card("reeves", "token sheriff +1 opponent", "then", "attack")], [card("cleopatra", "power +0")]],
                    teams=teams, hp={"cleopatra": 14})
    rules.run_fight(c, s)
    assert s.teams[1][0].tokens == {"sheriff": 1}
    assert fighter(s, "cleopatra") == 14 - 3  # Reeves's power 2, +1 for the Sheriff


def test_TT_31_one_unique_token_sent_two_ways_goes_nowhere(content: Content) -> None:
    """TT-31: "If two simultaneous effects cannot both happen (for example, both take one unique token),
    neither happens.\""""
    teams = (("reeves", "loew"), ("cleopatra", "boudica"))
    c, s = position(content, [[card("reeves", "token sheriff +1 opponent", "token sheriff +1 opponent_partner")],
                              [card("cleopatra", "power +0")]], teams=teams)
    rules.run_fight(c, s)
    assert all(not f.tokens.get("sheriff") for team in s.teams for f in team)


def test_golem_softens_and_serpent_bites_every_turn(content: Content) -> None:
    """Golem's Presence: each Attack on its holder deals 2 less. Serpent: its holder takes Direct Damage 1
    at the end of every Turn (our design, from the token's ``upkeep``)."""
    teams = (("loew", "cleopatra"), ("musashi", "reeves"))
    c, s = position(content, [[card("loew", "token golem +1 you"), card("cleopatra", "token serpent +1 opponent"),
                               card("loew", "power +0")],
                              [card("musashi", "power +0"), card("musashi", "attack opponent_partner"),
                               card("musashi", "power +2")]], teams=teams)
    start = {f: content.fighters[f].sides[0].start for f in ("loew", "musashi")}
    rules.run_fight(c, s)
    assert s.teams[0][0].tokens == {"golem": 1}
    assert fighter(s, "loew") == start["loew"]  # Musashi's Attack (2) on Loew, minus 2
    assert fighter(s, "musashi") == start["musashi"] - 2  # bitten at the end of Turns 2 and 3


def test_aflame_burns_its_count_then_dies_down(content: Content) -> None:
    """Aflame! (our design): at the end of every Turn its holder takes Direct Damage equal to the tokens
    held, then one token goes out."""
    teams = (("boudica", "joan"), ("musashi", "reeves"))
    c, s = position(content, [[card("boudica", "token aflame +2 opponent"), card("boudica", "power +0"),
                               card("boudica", "power +0")],
                              [card("musashi", "power +0")] * 3], teams=teams)
    start = content.fighters["musashi"].sides[0].start
    rules.run_fight(c, s)
    hp = [t[3][1][0] for t in s.last_fight]
    assert hp == [start - 2, start - 3, start - 3]
    assert not s.teams[1][0].tokens
