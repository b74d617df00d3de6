"""The content files hold the published numbers (FACTS.md) and broken files are refused."""

from __future__ import annotations

import copy
import tomllib
from collections import Counter
from importlib import resources
from typing import Any

import pytest

from engines.grizzled.content import ContentError, content, parse_content


def raw() -> dict[str, dict[str, Any]]:
    base = resources.files("engines.grizzled").joinpath("data")
    return {n: tomllib.loads(base.joinpath(f"{n}.toml").read_text("utf-8"))
            for n in ("threats", "knocks", "cards", "characters", "tiles")}


def test_GR_7_fifty_nine_trials_with_published_threat_data() -> None:
    """GR-7: "39 Threat cards ... (each threat on 14 cards); a Trap on one card of each
    weather+attack pair; 19 Hard Knocks (GR-8); 1 SPECIAL, Merry Christmas." """
    cards = list(content().cards.values())
    kinds = Counter(c.kind for c in cards)
    assert kinds == {"threat": 39, "hard_knock": 19, "special": 1}
    per_threat = Counter(t for c in cards if c.kind == "threat" for t in c.threats)
    assert set(per_threat.values()) == {14} and len(per_threat) == 6
    traps = [c for c in cards if c.trap]
    assert len(traps) == 9 and len({c.threats for c in traps}) == 9
    assert all(len(c.threats) == 2 for c in traps)


def test_GR_8_nineteen_hard_knocks_and_their_weights() -> None:
    """GR-8: Trauma ×3, Phobia ×3, and 13 single cards; Wounded weighs 2, all others 1."""
    knocks = Counter(c.knock for c in content().cards.values() if c.kind == "hard_knock")
    assert knocks["trauma"] == 3 and knocks["phobia"] == 3 and sum(knocks.values()) == 19
    assert {k: v.weight for k, v in content().knocks.items() if v.weight != 1} == {"wounded": 2}


def test_GR_9_and_10_characters_and_tiles() -> None:
    """GR-9: six characters with a charm each; GR-10: 6 L1, 6 R1, 2 L2, 2 R2."""
    assert {c.name: c.charm for c in content().characters}["Félix Moreau"] == "night"
    assert {t.id: t.count for t in content().tiles.values()} == {"left": 6, "right": 6, "left2": 2, "right2": 2}


@pytest.mark.parametrize(
    ("file", "breaks", "message"),
    [
        ("cards", lambda d: d["card"].pop(), "expected 59"),
        ("cards", lambda d: d["card"][0].update(threats=["rain", "rain"]), "different known threats"),
        ("cards", lambda d: d["card"][0].update(threats=["fog"]), "different known threats"),
        ("cards", lambda d: d["card"][44].pop("threat"), "needs exactly one threat"),
        ("cards", lambda d: d["card"][50].update(knock="sleepy"), "unknown hard knock"),
        ("knocks", lambda d: d["knock"][3].update(effect="explode"), "unknown effect"),
        ("characters", lambda d: d["character"][0].update(charm="fog"), "not a threat"),
        ("tiles", lambda d: d["tile"][0].update(count=7), "total 16"),
    ],
)
def test_broken_content_is_refused_with_a_clear_error(file: str, breaks: Any, message: str) -> None:
    data = copy.deepcopy(raw())
    breaks(data[file])
    with pytest.raises(ContentError, match=message):
        parse_content(data)


def test_shipped_content_parses() -> None:
    assert len(parse_content(raw()).cards) == 59
