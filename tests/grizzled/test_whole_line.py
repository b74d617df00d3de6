"""A reply line is a Grizzled command only when the WHOLE line is one (polite fillers aside)."""

from __future__ import annotations

import random

import pytest

from engines.contract import Action, CommandError, InvalidCommand
from engines.grizzled.commands import normalize, verb_table, word_table
from engines.grizzled.engine import ENGINE
from engines.grizzled.scenario import position
from engines.grizzled.state import INTENSITY
from engines.wording import LEADING, TRAILING, fold
from tests.conformance import PROSE
from tests.grizzled.helpers import filler
from tests.grizzled.test_commands import turn_position

SENTENCES = [
    "2 kids, 1 dog",
    "bỏ cuộc thì không bao giờ nhé, cường độ 3",  # "give up? never" — not Intensity 3
    "I think 3 is better than 4",
    "play it cool",
    "let me think about 7 a4",
    "order 2 1 would be nice",
    "I'll take the rain card later maybe",
    "intensity 3 would be nice",
    "cường độ 3 thì hay hơn",
    "honestly, intensity 3",
    "play rain shell tomorrow",
    "withdraw? not yet",
    "maybe play 2",
]


def intensity_position():  # type: ignore[no-untyped-def]
    return position(3, phase=INTENSITY, mission=1, trials=filler(8))


@pytest.mark.parametrize("text", SENTENCES)
def test_whole_line_commands_only_sentences_never_parse(text: str) -> None:
    for s in (intensity_position(), turn_position()):
        with pytest.raises(CommandError) as err:
            ENGINE.parse(s, 0, text)
        assert err.value.message.en and err.value.message.vi


def test_whole_line_commands_only_the_give_up_sentence_is_invalid_and_says_what_to_write() -> None:
    with pytest.raises(InvalidCommand) as err:
        ENGINE.parse(intensity_position(), 0, "bỏ cuộc thì không bao giờ nhé, cường độ 3")
    assert "whole line" in err.value.message.en and "cả dòng" in err.value.message.vi
    assert "intensity 3" in err.value.examples


@pytest.mark.parametrize(
    ("text", "action"),
    [
        ("intensity 3 please", Action("intensity", (3,))),
        ("cường độ 3 nhé", Action("intensity", (3,))),
        ("ok, cuong do 3, thanks!", Action("intensity", (3,))),
        ("Cường độ 3 ạ", Action("intensity", (3,))),
    ],
)
def test_whole_line_commands_only_fillers_around_an_intensity(text: str, action: Action) -> None:
    assert ENGINE.parse(intensity_position(), 0, text) == action


@pytest.mark.parametrize(
    ("text", "action"),
    [
        ("play mute, thanks!", Action("play", ("mute",))),
        ("play rain shell please", Action("play", ("rain shell",))),
        ("đánh mưa đạn pháo nhé", Action("play", ("rain shell",))),
        ("please speech gas", Action("speech", ("gas",))),
        ("rút lui trái đi", Action("withdraw", ("left", None))),
        ("play 4 please", Action("play", ("mute",))),
    ],
)
def test_whole_line_commands_only_fillers_around_a_turn_command(text: str, action: Action) -> None:
    assert ENGINE.parse(turn_position(), 0, text) == action


def test_whole_line_commands_only_play_rain_thanks() -> None:
    """The issue's own example: with one Rain card in hand, "play rain, thanks!" plays it."""
    s = position(3, characters=["charles", "felix", "gustave"], hands=[["rain shell", "mute"], [], []],
                 nml=["snow night"], speech_held=[1, 0, 0], tiles=[["left", "right"], [], []])
    assert ENGINE.parse(s, 0, "play rain, thanks!") == Action("play", ("rain shell",))
    assert ENGINE.parse(s, 0, "đánh mưa nhé") == Action("play", ("rain shell",))
    with pytest.raises(InvalidCommand):
        ENGINE.parse(s, 0, "I'll take the rain card later maybe")
    with pytest.raises(InvalidCommand):
        ENGINE.parse(s, 0, "play rain later maybe")


def test_whole_line_commands_only_random_prose_with_command_words() -> None:
    """Seeded: prose words (English, Vietnamese) mixed with command words and numbers never parse;
    the same command words alone, with fillers around, still do."""
    vocab = {w for table in (verb_table(), word_table()) for key in table for w in key}
    fillers = {fold(w) for f in (*LEADING, *TRAILING) for w in f.split()}
    assert not [p for p in PROSE if set(normalize(p)) & (vocab | fillers)], "a prose word is a command word"
    rng = random.Random(20261201)
    command_words = ["play", "đánh", "intensity", "cường độ", "charm", "bùa", "speech", "phát biểu", "withdraw",
                     "rút lui", "rain", "mưa", "shell", "đạn pháo", "gas", "left", "trái", "snow", "mute"]
    positions = [intensity_position(), turn_position()]
    for _ in range(400):
        s = rng.choice(positions)
        words = rng.sample(PROSE, rng.randint(1, 3)) + rng.sample(command_words, rng.randint(1, 3))
        words += [str(rng.randint(0, 9)) for _ in range(rng.randint(0, 2))]
        rng.shuffle(words)
        before, after = rng.choice([("", ""), ("ok ", " please"), ("", " nhé"), ("please ", ", thanks!")])
        line = before + " ".join(words) + after
        with pytest.raises(CommandError):
            ENGINE.parse(s, 0, line)
        for choice in ENGINE.legal_actions(s, 0)[:3]:
            assert ENGINE.parse(s, 0, before + choice.command + after) == choice.action
