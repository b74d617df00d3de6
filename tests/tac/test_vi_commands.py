"""Vietnamese menu commands: every legal action's Vietnamese form parses back to it, and the
menu a Vietnamese player reads shows them (English still works for everyone)."""

from __future__ import annotations

import random

import pytest

from engines.contract import Action
from engines.tac import commands as notation
from engines.tac.setup import position
from tests.tac.helpers import E


def _round_trip(state: object, seat: int) -> list[str]:
    shown = []
    for choice in E.legal_actions(state, seat):  # type: ignore[arg-type]
        assert choice.command_in("vi") != choice.command or choice.action.kind == "tac" or choice.command[0].isdigit(), choice.command
        assert E.parse(state, seat, choice.command_in("vi")) == choice.action, (choice.command, choice.command_in("vi"))  # type: ignore[arg-type]
        assert E.parse(state, seat, choice.command) == choice.action  # type: ignore[arg-type]
        shown.append(choice.command_in("vi"))
    return shown


@pytest.mark.parametrize(("board", "cards", "expect"), [
    ("a10", ["13", "4"], {"13 mở", "4 lùi a1"}),
    ("a10 b20", ["trick", "warrior"], {"đổi chỗ a1 b1", "chiến binh a1"}),
    ("a10", ["angel", "devil", "fool"], {"ác quỷ", "gã khờ"}),
    ("a10 a62", ["7", "5"], {"7 a1:7", "5 a1", "5 a2 h3"}),
    ("a5", ["8"], {"8 bỏ lượt"}),
])
def test_every_kind_of_move_in_vietnamese_parses_back(board: str, cards: list[str], expect: set[str]) -> None:
    s = position(board, {0: cards, 1: ["2"]})
    shown = set(_round_trip(s, 0))
    assert expect <= shown, shown


def test_vietnamese_words_read_like_the_english_ones() -> None:
    cases = [Action("give", ("12",)), Action("discard", ("9",)), Action("skip", ("8",)), Action("tac", ()),
             Action("devil", ()), Action("fool", ()), Action("warrior", ("a1",)), Action("trick", ("a1", "d2")),
             Action("angel", ()), Action("angel", ("start",))]
    for action in cases:
        vi = notation.format_in(action, {}, "vi")
        assert vi != notation.format_action(action, {}) or action.kind == "tac"
        assert notation.read(vi) == notation.read(notation.format_action(action, {})), vi


@pytest.mark.parametrize("seed", [11, 12])
def test_random_games_round_trip_in_vietnamese(seed: int) -> None:
    rng = random.Random(seed)
    s = E.new_game(["An", "Bình", "Chi", "Dũng"], None, seed)
    for _ in range(120):
        if E.outcome(s) is not None:
            break
        seat = min(E.to_act(s))
        choices = E.legal_actions(s, seat)
        for choice in rng.sample(choices, min(10, len(choices))):
            assert E.parse(s, seat, choice.command_in("vi")) == choice.action, choice.command_in("vi")
        s, _ = E.apply(s, seat, rng.choice(choices).action)


def test_the_menu_shows_vietnamese_words_to_vietnamese_readers() -> None:
    s = position("a10", {0: ["13", "4"]})
    menu = E.menu(s, 0)
    assert {c.command_in("vi") for c in menu} >= {"13 mở", "4 lùi a1"}
    assert {c.command_in("en") for c in menu} >= {"13 start", "4 back a1"}


def test_refusals_give_vietnamese_examples_in_the_vietnamese_text() -> None:
    from engines.contract import AmbiguousCommand, IllegalCommand

    s = position("a10 a30", {0: ["5", "4"]})
    with pytest.raises(AmbiguousCommand) as many:
        E.parse(s, 0, "4 a")
    assert "4 lùi a1" in many.value.message.vi and "4 back a1" in many.value.message.en
    with pytest.raises(IllegalCommand) as none:
        E.parse(s, 0, "cho 5")  # giving is for the exchange
    assert "lùi" in none.value.message.vi and "back" not in none.value.message.vi
