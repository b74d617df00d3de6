"""Content is data validated on load: the shipped files pass, broken ones fail with clear errors."""

from __future__ import annotations

import copy
import tomllib
from collections import Counter
from typing import Any

import pytest

from engines.barcadia.content import DATA_DIR, ContentError, content, parse_content


def raw() -> dict[str, dict[str, Any]]:
    out = {}
    for name in ("rooms", "loot", "powerups", "modules"):
        with (DATA_DIR / f"{name}.toml").open("rb") as fh:
            out[name] = tomllib.load(fh)
    return out


def load(tables: dict[str, dict[str, Any]]) -> None:
    parse_content(tables["rooms"], tables["loot"], tables["powerups"], tables["modules"])


def test_shipped_content_meets_the_issue() -> None:
    """HB-2/HB-6/HB-8: 50 rooms with one Hoard, 75 Loot of >= 15 effects, 25 Power-Ups of >= 8 effects."""
    c = content()
    kinds = Counter(r.kind for r in c.rooms.values())
    assert sum(kinds.values()) == 50 and kinds["hoard"] == 1
    assert kinds["monster"] >= 10 and kinds["boss"] >= 4 and kinds["reward"] >= 4 and kinds["portal"] >= 2
    assert len(c.loot_deck()) == 75 and len({(x.effect.kind, x.effect.scope) for x in c.loot.values()}) >= 15
    assert len(c.powerup_deck()) == 25 and len({(x.effect.kind, x.effect.scope) for x in c.powerups.values()}) >= 8
    assert {x.timing for x in c.loot.values()} == {"between", "turn"}
    assert len(c.characters) == 6 and c.house_rules


def test_a_missing_drink_hoard_is_refused() -> None:
    t = raw()
    t["rooms"]["monster"].append(dict(t["rooms"]["monster"][0], id="extra"))
    t["rooms"]["hoard"] = []
    with pytest.raises(ContentError, match="Drink Hoard"):
        load(t)


def test_loot_counts_must_make_75() -> None:
    t = raw()
    t["loot"]["loot"][0]["count"] += 1
    with pytest.raises(ContentError, match="add up to 75"):
        load(t)


def test_unknown_effect_names_the_entry() -> None:
    t = copy.deepcopy(raw())
    t["powerups"]["powerup"][2]["effect"] = "fly"
    with pytest.raises(ContentError, match=r"powerups.toml powerup\[2\]: unknown effect 'fly'"):
        load(t)


def test_bad_scope_and_level_are_refused() -> None:
    t = raw()
    t["loot"]["loot"][3]["scope"] = "Dragons"
    with pytest.raises(ContentError, match="unknown scope 'Dragons'"):
        load(t)
    t = raw()
    t["rooms"]["monster"][0]["level"] = 25
    with pytest.raises(ContentError, match=r"monster\[0\]: 'level' = 25 is outside 1..20"):
        load(t)
