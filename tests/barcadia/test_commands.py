"""Commands in English and Vietnamese (with and without diacritics), directions, errors."""

from __future__ import annotations

import pytest

from engines.barcadia.engine import ENGINE
from engines.contract import Action, AmbiguousCommand, CommandError, IllegalCommand, InvalidCommand
from tests.barcadia.support import ALICE, face_up, position


@pytest.mark.parametrize("text", ["reveal 1", "Reveal 1", "lật 1", "lat 1", "LẬT MỞ 1", "open 1", "reveal n"])
def test_reveal_in_both_languages_and_by_direction(text: str) -> None:
    """From the Starting Point a direction names the room two steps from its centre: n = room 1."""
    s = position()
    assert ENGINE.parse(s, ALICE, text) == Action("reveal", (1,))


def test_directions_from_a_room_are_relative_to_it() -> None:
    s = position(pos=[1, 0, 0, 0])
    face_up(s, 1, beaten=True)
    assert s.layout[13] == [0, -3]
    assert ENGINE.parse(s, ALICE, "reveal n") == Action("reveal", (13,))
    assert ENGINE.parse(s, ALICE, "lật bắc") == Action("reveal", (13,))


def test_enter_path_with_directions_and_vietnamese() -> None:
    s = position({13: "portal-1"})
    face_up(s, 1, beaten=True)
    face_up(s, 13)
    for text in ("enter 1 13", "vào 1 13", "vao n n", "go 1 13"):
        assert ENGINE.parse(s, ALICE, text) == Action("enter", (1, 13))
    assert ENGINE.parse(s, ALICE, "enter 1") == Action("enter", (1,)), "a one-step path is its own move"


@pytest.mark.parametrize(("text", "action"), [
    ("play dash", Action("play", ("dash",))),
    ("dùng lao nhanh", Action("play", ("dash",))),
    ("dung dash", Action("play", ("dash",))),
    ("dash", Action("play", ("dash",))),
    ("pass", Action("pass")),
    ("bỏ qua", Action("pass")),
    ("bo qua", Action("pass")),
    ("end", Action("pass")),
])
def test_cards_and_pass(text: str, action: Action) -> None:
    s = position(hands=[["dash"], [], [], []])
    assert ENGINE.parse(s, ALICE, text) == action


def test_duel_by_name_prefix_and_vietnamese() -> None:
    s = position(pos=[1, 2, 0, 0])
    face_up(s, 1, beaten=True)
    face_up(s, 2, beaten=True)
    for text in ("duel bob", "Duel Bob", "đấu bob", "dau b", "duel #2"):
        assert ENGINE.parse(s, ALICE, text) == Action("duel", (1,))


def test_ambiguous_duel_lists_the_choices() -> None:
    s = position(pos=[2, 1, 3, 0])
    for room in (1, 2, 3):
        face_up(s, room, beaten=True)
    with pytest.raises(AmbiguousCommand) as err:
        ENGINE.parse(s, ALICE, "duel")
    assert "duel bob" in err.value.examples and "duel chi" in err.value.examples


@pytest.mark.parametrize(("text", "error"), [
    ("", InvalidCommand), ("fly away", InvalidCommand), ("reveal 99", IllegalCommand),
    ("hoard", IllegalCommand), ("duel zed", IllegalCommand), ("pass now please", InvalidCommand),
])
def test_errors_say_what_to_write(text: str, error: type[CommandError]) -> None:
    s = position()
    with pytest.raises(error) as err:
        ENGINE.parse(s, ALICE, text)
    assert err.value.message.en and err.value.message.vi
    if error is IllegalCommand and text != "duel zed":
        assert err.value.examples, "an illegal command comes with commands that work"


def test_format_round_trips_every_legal_action() -> None:
    s = position({13: "portal-1"}, hands=[["dash", "shifting-stones", "bottle-axe"], [], [], []])
    face_up(s, 1, beaten=True)
    face_up(s, 13)
    for choice in ENGINE.legal_actions(s, ALICE):
        assert ENGINE.parse(s, ALICE, choice.command) == choice.action
        assert choice.label.en and choice.label.vi and choice.label.en != choice.label.vi
