"""A reply line is a TAC command only when the WHOLE line is one (polite fillers aside)."""

from __future__ import annotations

import random

import pytest

from engines.contract import Action, CommandError, InvalidCommand
from engines.tac import commands as notation
from engines.tac.content import fold
from engines.tac.setup import position
from engines.wording import LEADING, TRAILING
from tests.conformance import PROSE
from tests.tac.helpers import E

SENTENCES = [
    "2 kids, 1 dog",
    "bỏ cuộc thì không bao giờ nhé, cường độ 3",
    "I think 3 is better than 4",
    "play it cool",
    "let me think about 7 a4",
    "order 2 1 would be nice",
    "I'll take the rain card later maybe",
    "5 a1 would be nice",
    "honestly, 13 start",
    "7 a1 4 a2 3 maybe",
    "give 12 tomorrow",
    "tac thì hay",
    "the 5 is better",
]

POSITIONS = [
    position("a10 a62 c40 b12", {0: ["7", "5", "4", "8", "13"], 1: ["2"]}),
    position("a10 a20 c3", {0: ["7", "12", "tac"]}),
    position("a0* b20 d40", {0: ["trick", "warrior", "angel", "devil"], 1: ["5", "tac"]}, version="master"),
]


@pytest.mark.parametrize("text", SENTENCES)
@pytest.mark.parametrize("which", range(len(POSITIONS)))
def test_whole_line_commands_only_sentences_never_parse(which: int, text: str) -> None:
    with pytest.raises(CommandError) as err:
        E.parse(POSITIONS[which], 0, text)
    assert err.value.message.en and err.value.message.vi


def test_whole_line_commands_only_the_refusal_says_what_to_write() -> None:
    with pytest.raises(InvalidCommand) as err:
        E.parse(POSITIONS[0], 0, "5 a1 would be nice")
    assert "whole line" in err.value.message.en and "cả dòng" in err.value.message.vi
    assert err.value.examples


@pytest.mark.parametrize(
    ("text", "action"),
    [
        ("5 a1 please", Action("move", ("5", "a1", 15))),
        ("ok 5 a1, thanks!", Action("move", ("5", "a1", 15))),
        ("5 a1 nhé", Action("move", ("5", "a1", 15))),
        ("please play the 5 with a1", Action("move", ("5", "a1", 15))),
        ("13 mở ạ", Action("open", ("13", "a"))),
    ],
)
def test_whole_line_commands_only_fillers_around_commands(text: str, action: Action) -> None:
    s = position("a10", {0: ["5", "13"]})
    assert E.parse(s, 0, text) == action


def test_whole_line_commands_only_nha_is_home_not_a_filler() -> None:
    """"nha" ends many polite lines, but in TAC "nhà" typed without diacritics is the home."""
    s = position("a62", {0: ["3"]})
    home, ring = Action("move", ("3", "a1", 64)), Action("move", ("3", "a1", 1))
    for text in ("3 a1 nha", "3 a1 vao nha", "3 a1 nhà nhé", "3 a1 nha nhe", "ok 3 a1 nha, thanks"):
        assert E.parse(s, 0, text) == home, text
    assert E.parse(s, 0, "3 a1 ring please") == ring


def test_whole_line_commands_only_random_prose_with_command_words() -> None:
    """Seeded: prose words (English, Vietnamese) mixed with TAC words, marbles and numbers never
    parse; each legal command, with fillers around, still does."""
    known = notation.vocabulary()  # the built-in words plus every catalog's command words and card names
    vocab = {w for words in (*known.verbs.values(), notation.HOME_WORDS, notation.RING_WORDS, notation.FILLER, known.cards)
             for phrase in words for w in phrase.split()}
    vocab |= {fold(w) for f in (*LEADING, *TRAILING) for w in f.split()}
    assert not [p for p in PROSE if set(fold(p).split()) & vocab], "a prose word is a command word"
    rng = random.Random(20261201)
    command_words = ["7", "5", "4", "8", "13", "a1", "a2", "c1", "b", "h1", "home", "back", "skip", "start", "trick",
                     "tac", "give", "discard", "angel", "lùi", "mở", "nhà", "play", "the", "with"]
    fillers = [("", ""), ("ok ", " please"), ("", " nhé"), ("please ", ", thanks!"), ("", " ạ")]
    for _ in range(300):
        s = rng.choice(POSITIONS)
        words = rng.sample(PROSE, rng.randint(1, 3)) + rng.sample(command_words, rng.randint(1, 4))
        words += [str(rng.randint(0, 13)) for _ in range(rng.randint(0, 2))]
        rng.shuffle(words)
        before, after = rng.choice(fillers)
        with pytest.raises(CommandError):
            E.parse(s, 0, before + " ".join(words) + after)
        for choice in rng.sample(E.legal_actions(s, 0), 2):
            assert E.parse(s, 0, before + choice.command + after) == choice.action
