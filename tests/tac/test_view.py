"""Views: what each seat may see (issue items 4 and 5), rendered for a mail."""

from __future__ import annotations

import json

from engines.contract import Action
from engines.tac.setup import position
from tests.conformance import check_leaks
from tests.tac.helpers import E, play

NAMES = ["Alice", "Bob", "Chi", "Dung"]


def test_view_shows_board_hand_counts_and_nothing_secret() -> None:
    s = position("a0* b20 CH1", {0: ["5", "9"], 1: ["2", "3", "4"], 2: ["tac"]})
    v = E.view(s, 0)
    json.dumps(v)
    assert v["ring"] == {"0": "a1", "20": "b1"} and v["fresh"] == ["a1"]
    assert v["homes"]["c"] == ["c1", None, None, None]
    assert v["hand"] == ["5", "9"] and v["hand_counts"] == [2, 3, 1, 0]
    blob = json.dumps(E.view(s, 1))
    assert "tac" not in blob.replace('"game": "tac"', "")  # Chi's TAC is not in Bob's view
    text = E.render_view(v, "en")
    assert "0:a1*" in text and "Your hand: 5, 9" in text and "a1..a4" in text
    assert "Bài của bạn" in E.render_view(v, "vi")


def test_exchange_choice_is_visible_only_to_its_owner() -> None:
    s = E.new_game(NAMES, None, 2)
    card = s.hands[0][0]
    s, _ = E.apply(s, 0, Action("give", (card,)))
    assert E.view(s, 0)["exchange"]["your_gift"] == card
    for seat in (1, 2, 3, None):
        assert E.view(s, seat)["exchange"]["your_gift"] is None
        assert E.view(s, seat)["exchange"]["chosen"] == [0]


def test_planted_markers_do_not_leak_in_any_phase() -> None:
    """The conformance leak check, also during the exchange and under a Devil's peek."""
    s = E.new_game(NAMES, {"version": "master"}, 4)
    s, _ = E.apply(s, 0, Action("give", (s.hands[0][0],)))
    check_leaks(E, s, 4)
    devil = play(position("a10", {0: ["devil"], 1: ["5", "9"], 2: ["2"]}, version="master"), "devil")
    check_leaks(E, devil, 4)
    planted, markers = E.plant_markers(devil)
    assert markers[1] == []  # Bob's hand is shown to Alice by the Devil, so it is no secret from her
    assert "MARK1H0Z" not in json.dumps(E.view(planted, 2)) + E.render_view(E.view(planted, 2), "en")
