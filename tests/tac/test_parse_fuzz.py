"""Whatever a person writes, ``parse`` answers with an action ``apply`` accepts or a CommandError."""

from __future__ import annotations

from hypothesis import given, settings
from hypothesis import strategies as st

from engines.contract import CommandError
from engines.tac.setup import position
from tests.tac.helpers import E

WORDS = ["7", "5", "4", "8", "13", "1", "12", "a", "b", "c", "d", "a1", "a2", "c1", "b1", "h1", "h2", "h5",
         "home", "back", "skip", "start", "trick", "tac", "give", "discard", "angel", "devil", "fool",
         "warrior", ":", ">", ",", "lùi", "bỏ", "mở", "0", "99", "11", "x", "a9", "c7", "-", "nhà"]

POSITIONS = [
    position("a10 a62 c40 b12", {0: ["7", "5", "4", "8", "13"], 1: ["2"]}),
    position("AH2 AH3 AH4 a62 c40", {0: ["7", "trick", "1"], 1: ["2"]}),
    position("a0* b20 d40", {0: ["trick", "warrior", "angel", "devil"], 1: ["5", "tac"]}, version="master"),
]


@settings(max_examples=300, deadline=None)
@given(st.sampled_from(range(len(POSITIONS))), st.lists(st.sampled_from(WORDS), max_size=6))
def test_parse_never_crashes(which: int, words: list[str]) -> None:
    state = POSITIONS[which]
    text = " ".join(words)
    try:
        action = E.parse(state, 0, text)
    except CommandError as err:
        assert err.message.en and err.message.vi
        return
    E.apply(state, 0, action)


@settings(max_examples=200, deadline=None)
@given(st.text(max_size=30))
def test_parse_never_crashes_on_any_text(text: str) -> None:
    try:
        action = E.parse(POSITIONS[0], 0, text)
    except CommandError as err:
        assert err.message.en and err.message.vi
        return
    E.apply(POSITIONS[0], 0, action)
