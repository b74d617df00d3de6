"""Commands as people write them (issue item 6): forgiving, bilingual, helpful errors."""

from __future__ import annotations

import pytest

from engines.contract import Action, AmbiguousCommand, IllegalCommand, InvalidCommand
from engines.tac.setup import position
from tests.tac.helpers import E


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("13 start", Action("open", ("13", "a"))),
        ("13 START!", Action("open", ("13", "a"))),
        ("  13   mở ", Action("open", ("13", "a"))),
        ("13 mo", Action("open", ("13", "a"))),
        ("13 a1", Action("move", ("13", "a1", 23))),
        ("13 a", Action("move", ("13", "a1", 23))),
    ],
)
def test_open_and_move_words(text: str, expected: Action) -> None:
    s = position("a10", {0: ["13"]})
    assert E.parse(s, 0, text) == expected


def test_single_colour_letter_names_the_only_fitting_marble() -> None:
    s = position("a10 b40", {0: ["5"]})
    assert E.parse(s, 0, "5 a") == Action("move", ("5", "a1", 15))
    assert E.parse(s, 0, "5, a1.") == Action("move", ("5", "a1", 15))


def test_two_marbles_of_a_colour_make_a_letter_ambiguous() -> None:
    s = position("a10 a30", {0: ["5"]})
    with pytest.raises(AmbiguousCommand) as err:
        E.parse(s, 0, "5 a")
    assert "5 a1" in err.value.examples and "5 a2" in err.value.examples


def test_four_back_in_english_and_vietnamese() -> None:
    s = position("a20", {0: ["4"]})
    expected = Action("move", ("4", "a1", 16))
    assert E.parse(s, 0, "4 back a") == expected
    assert E.parse(s, 0, "4 lùi a1") == expected
    assert E.parse(s, 0, "4 a1") == expected


def test_eight_skip_words() -> None:
    s = position("a5", {0: ["8"], 1: ["2"]})
    assert E.parse(s, 0, "8 skip") == Action("skip", ("8",))
    assert E.parse(s, 0, "8 bỏ lượt") == Action("skip", ("8",))


def test_seven_split_syntaxes() -> None:
    s = position("a10 a20 c3", {0: ["7"]})
    expected = E.parse(s, 0, "7 a1:4 a2:3")
    assert E.parse(s, 0, "7 a1 4 a2 3") == expected
    assert E.parse(s, 0, "7: a1=4, a2=3") == expected
    # a different order with the same result is the same move
    assert E.parse(s, 0, "7 a2:3 a1:4") == expected
    assert E.parse(s, 0, "7 a2") == Action("seven", ("a2:7",))


def test_seven_split_by_colour_letter_and_steps() -> None:
    """The issue's own example ``7 a4 c3``: colour a four steps, then colour c three steps (here after
    A's fourth marble reached home, TAC-48)."""
    s = position("AH2 AH3 AH4 a61 c40", {0: ["7"]})
    assert E.parse(s, 0, "7 a4 h1 c3") == Action("seven", ("a4:4>h1", "c1:3"))
    lone = position("a10 b30", {0: ["7"]})
    assert E.parse(lone, 0, "7 a4 a3") == Action("seven", ("a1:7",))
    assert E.parse(lone, 0, "7 a5, a2") == Action("seven", ("a1:7",))
    two = position("a10 a30", {0: ["7"]})
    with pytest.raises(AmbiguousCommand):
        E.parse(two, 0, "7 a4 a3")


def test_seven_into_home_needs_the_destination_mark() -> None:
    s = position("a62", {0: ["7"]})
    assert E.parse(s, 0, "7 a1:7") == Action("seven", ("a1:7",))  # stays on the ring: field 5
    # ending in the home would need a >h part; with 7 steps it cannot end in the home
    with pytest.raises(IllegalCommand):
        E.parse(s, 0, "7 a1:7>h4")


def test_trick_warrior_angel_tac_words() -> None:
    s = position("a5 d40", {0: ["trick"]})
    assert E.parse(s, 0, "trick a d") == Action("trick", ("a1", "d1"))
    assert E.parse(s, 0, "đổi chỗ a1 d1") == Action("trick", ("a1", "d1"))
    assert E.parse(s, 0, "trick d1 a1") == Action("trick", ("a1", "d1"))
    with pytest.raises(IllegalCommand):
        E.parse(s, 0, "trick a a")  # one marble cannot be swapped with itself
    m = position("a5 d40", {0: ["warrior"]}, version="master")
    assert E.parse(m, 0, "Krieger a1") == Action("warrior", ("a1",))
    assert E.parse(m, 0, "chiến binh a") == Action("warrior", ("a1",))
    angel = position("", {0: ["angel"], 1: ["2"]}, version="master")
    assert E.parse(angel, 0, "Thiên thần") == Action("angel", ("start",))
    assert E.parse(angel, 0, "thien than") == Action("angel", ("start",))


def test_discard_and_give() -> None:
    s = position("a10 b12", {0: ["5", "9"]})
    assert E.parse(s, 0, "discard 9") == Action("discard", ("9",))
    assert E.parse(s, 0, "bỏ 9") == Action("discard", ("9",))
    game = E.new_game(["A", "B", "C", "D"], None, 1)
    card = game.hands[0][0]
    word = {"tac": "TAC", "trick": "Trickser"}.get(card, card)
    assert E.parse(game, 0, f"give {word}") == Action("give", (card,))
    assert E.parse(game, 0, f"cho {word}") == Action("give", (card,))


def test_errors_quote_the_text_and_give_examples() -> None:
    s = position("a10", {0: ["5", "13"]})
    with pytest.raises(IllegalCommand) as illegal:
        E.parse(s, 0, "9 a1")
    assert "9" in illegal.value.message.en and illegal.value.examples
    assert all(E.parse(s, 0, ex) for ex in illegal.value.examples)
    with pytest.raises(InvalidCommand) as invalid:
        E.parse(s, 0, "please move my marble sideways")
    assert "sideways" in invalid.value.message.en and invalid.value.examples
    with pytest.raises(InvalidCommand):
        E.parse(s, 0, "11 a1")
    with pytest.raises(IllegalCommand):
        E.parse(s, 1, "5 a1")  # not Bob's turn


def test_menu_keeps_the_seven_compact_but_legal_actions_are_complete() -> None:
    s = position("a10 a20 a30 c40", {0: ["7"]})
    legal = E.legal_actions(s, 0)
    menu = E.menu(s, 0)
    assert len(legal) == 36  # every (x, y, z) >= 0 with x + y + z = 7: the marbles are 10 apart
    assert len(menu) <= 12 and {c.action for c in menu} <= {c.action for c in legal}
    assert Action("seven", ("a1:7",)) in {c.action for c in menu}


def test_menu_shortens_many_trickser_swaps_own_marbles_first() -> None:
    s = position("a1 b5 b9 c13 c17 d21 d25 d29", {0: ["trick"]})
    assert len(E.legal_actions(s, 0)) == 28
    menu = E.menu(s, 0)
    assert len(menu) == 12
    assert all(c.command.startswith("trick a1") for c in menu[:7])
    assert E.parse(s, 0, "trick c2 d3").kind == "trick"  # not in the menu, still legal
