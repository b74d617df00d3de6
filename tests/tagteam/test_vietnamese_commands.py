"""Tag Team's Vietnamese command words: menus for Vietnamese players show them, and each parses back.

Why: a Vietnamese menu showing ``add 2 top, bottom 3 1`` teaches English to a player whose help
says ``thêm 2 trên``; a shown command that reads back as another choice would lose a build.
"""

from __future__ import annotations

import random

import pytest

from engines.tagteam.commands import COMMAND, format_action, keywords, normalize
from engines.tagteam.engine import ENGINE


@pytest.mark.parametrize("draft", ["first_game", "competitive", "free", "standard"])
def test_every_legal_action_in_vietnamese_parses_back(draft: str) -> None:
    rng = random.Random(4)
    state = ENGINE.new_game(["An", "Bình"], {"draft": draft}, 3)
    checked = 0
    while ENGINE.to_act(state):
        for seat in sorted(ENGINE.to_act(state)):
            legal = ENGINE.legal_actions(state, seat)
            sample = legal if len(legal) <= 60 else rng.sample(legal, 60)
            for choice in sample:
                vi = choice.command_in("vi")
                assert vi == format_action(choice.action, "vi")
                assert ENGINE.parse(state, seat, vi) == choice.action, vi
                checked += 1
        for seat in sorted(ENGINE.to_act(state)):
            state, _ = ENGINE.apply(state, seat, ENGINE.default_action(state, seat))
    assert checked > 20


def test_vietnamese_words_are_command_keywords() -> None:
    """The words a Vietnamese menu shows (the catalog's) are the keywords ``parse`` reads."""
    table = keywords()
    for key, word in COMMAND.items():
        shown = normalize(word.get("vi"))
        assert shown != key, f"{key!r} has no Vietnamese word in the catalog"
        assert table[shown.replace(" ", "")] == key  # a word of two (thứ tự) is read as one


def test_vietnamese_menu_and_choice_are_in_vietnamese() -> None:
    state = ENGINE.new_game(["An", "Bình"], {"draft": "first_game"}, 3)
    while state.phase != "build" and ENGINE.to_act(state):
        for seat in sorted(ENGINE.to_act(state)):
            state, _ = ENGINE.apply(state, seat, ENGINE.default_action(state, seat))
    assert state.phase == "build"
    menu = ENGINE.menu(state, 0)
    assert all(c.command_in("vi").startswith("thêm ") and "dưới" in c.command_in("vi") for c in menu)
    assert all(c.command_in("en").startswith("add ") for c in menu)
    state, events = ENGINE.apply(state, 0, menu[0].action)
    mine = [e.text.vi for e in events if e.visible_to == frozenset({0})]
    assert mine and "thêm" in mine[0] and "add" not in mine[0]
    text = ENGINE.render_view(ENGINE.view(state, 0), "vi")
    assert "Bộ bài Chiến đấu" in text and " add " not in text
