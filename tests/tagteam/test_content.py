"""Content as data (TT-87..TT-89): the shipped files load, and broken files fail with clear errors."""

from __future__ import annotations

import copy
import tomllib
from importlib import resources
from typing import Any

import pytest

from engines.tagteam.content import PIECES, ContentError, build_content, load_content, parse_act


def files() -> dict[str, dict[str, Any]]:
    folder = resources.files("engines.tagteam") / "data"
    return {e.name: tomllib.loads(e.read_text(encoding="utf-8")) for e in folder.iterdir() if e.name.endswith(".toml")}


def test_TT_1_twelve_fighters_of_ten_cards() -> None:
    """TT-1: "There are 12 fighters. Each has a board, a Draft card and a 10-card deck (120 Fight cards in all).\""""
    content = load_content()
    assert len(content.fighters) == 12
    assert sum(len(content.fighter_deck(f)) for f in content.fighters) == 120
    for data in files().values():
        assert data["schema_version"] == 1 and data["content_version"]
        assert "design" in data and ("own design" in data["design"])


def test_TT_14_first_game_fighters_keep_the_seed() -> None:
    """TT-14/TT-16: first-game base power J 1, C 2, W 2, B 3 and their named Starting cards."""
    content = load_content()
    seed = {"joan": (1, "Dieu Premier Servi"), "ching_shih": (2, "Terror of the Seas"),
            "bodvar": (3, "Enrage"), "wong": (2, "...The harder they fall")}
    for fid, (power, start) in seed.items():
        assert content.fighters[fid].base_power == power
        assert content.fighters[fid].starting_card.name == start
    assert [s.name for s in content.fighters["bodvar"].sides] == ["Bödvar", "Berserker Bear"]
    assert content.tokens["concentration"].start == 2


def test_TT_2_token_kinds_match_the_box() -> None:
    """TT-2: "Sheriff ×1, Golem's Presence ×1, Serpent ×1, Concentration ×2, Aflame! ×5, Scheme ×11"."""
    content = load_content()
    assert {k: t.count for k, t in content.tokens.items()} == {
        k: v for k, v in PIECES.items() if k not in ("special_marker", "health_marker")}


def broken(name: str, change: Any) -> str:
    data = copy.deepcopy(files())
    change(data[name])
    with pytest.raises(ContentError) as info:
        build_content(data)
    return str(info.value)


def test_TT_88_validation_reports_file_and_reason() -> None:
    """TT-88: frequencies sum to 10; one Starting card of Frequency 1; 1 ≤ Start ≤ Max; no icon on KO;
    every token a card refers to is declared; any 4 fighters fit the pieces of TT-2."""
    def freq(d: dict[str, Any]) -> None:
        d["cards"][1]["frequency"] += 1
    assert "joan.toml" in broken("joan.toml", freq) and "not 10" in broken("joan.toml", freq)

    def two_starts(d: dict[str, Any]) -> None:
        d["cards"][1]["starting"] = True
    assert "Starting" in broken("wong.toml", two_starts)

    def start_high(d: dict[str, Any]) -> None:
        d["sides"][0]["start"] = 99
    assert "Start 99" in broken("reeves.toml", start_high)

    def ko_icon(d: dict[str, Any]) -> None:
        d["sides"][0]["icons"]["0"] = "cancel"
    assert "KO" in broken("musashi.toml", ko_icon)

    def undeclared(d: dict[str, Any]) -> None:
        d["cards"][1]["actions"] = ["token serpent +1 opponent"]
    assert "not declared" in broken("joan.toml", undeclared)

    def too_many(d: dict[str, Any]) -> None:
        d["tokens"][0]["count"] = 12
    assert "the box has" in broken("machiavelli.toml", too_many)

    def bad_verb(d: dict[str, Any]) -> None:
        d["cards"][2]["actions"] = ["punch 3"]
    message = broken("ba_trieu.toml", bad_verb)
    assert "ba_trieu.toml" in message and "punch 3" in message


def test_TT_49_action_language() -> None:
    """TT-49: "An Action has a verb, an amount, an actor (You by default, or Your Partner) and a target"."""
    a = parse_act("attack opponents by partner => power +1; heal 2 partner", "t")
    assert (a.verb, a.target, a.actor) == ("attack", "opponents", "partner")
    assert [b.verb for b in a.bonus] == ["power", "heal"] and a.bonus[1].target == "partner"
    d = parse_act("damage target.tokens:aflame opponent if actor.hp<=6", "t")
    assert d.amount.name == "tokens:aflame" and d.amount.subject == "target"
    assert d.condition is not None and d.condition.op == "<=" and d.condition.right == 6
    for bad in ("block opponent", "attack you", "heal", "power +x", "attack if hp"):
        with pytest.raises(ContentError):
            parse_act(bad, "t")


def test_TT_59_loader_rejects_a_track_where_icon_movement_could_loop() -> None:
    """TT-59 (revised): "To keep waves finite, the content loader rejects a track on which icon-caused
    movement could reach the same icon again within one wave chain." Icons fire every time, so a Heal
    icon that a marker can pass going down heals it back over itself; two fighters whose icons damage
    each other ping-pong. An icon on Max that pushes the marker down never comes back to itself."""
    def bounce(d: dict[str, Any]) -> None:
        d["sides"][0]["icons"]["12"] = "bounce"
        d["icon_effects"] = {"bounce": ["heal 2"]}
    message = broken("wong.toml", bounce)
    assert message.startswith("wong.toml: icon-caused movement could loop (TT-59)")
    assert "side wong space 12 bounce [heal 2] → wong.toml side wong space 12 bounce [heal 2]" in message

    data = copy.deepcopy(files())
    data["wong.toml"]["sides"][0]["icons"]["12"] = "kick"
    data["wong.toml"]["icon_effects"] = {"kick": ["damage 1 opponent"]}
    build_content(data)  # one icon that hits another fighter cannot come back by itself
    data["joan.toml"]["icon_effects"]["faith"] = ["special +1", "damage 1 opponent"]
    with pytest.raises(ContentError, match=r"joan\.toml side joan space 12 faith .* → wong\.toml side wong "
                                           r"space 12 kick \[damage 1 opponent\] → joan\.toml"):
        build_content(data)

    data = copy.deepcopy(files())
    data["wong.toml"]["sides"][0]["icons"]["16"] = "burn"
    data["wong.toml"]["icon_effects"] = {"burn": ["damage 1"]}
    assert build_content(data).fighters["wong"].sides[0].icons[16] == ("burn",)
