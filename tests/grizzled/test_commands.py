"""Reading what players write: English and Vietnamese, with or without diacritics."""

from __future__ import annotations

import pytest

from engines.contract import Action, AmbiguousCommand, IllegalCommand, InvalidCommand
from engines.grizzled.engine import ENGINE
from engines.grizzled.scenario import position
from engines.grizzled.state import INTENSITY
from tests.grizzled.helpers import filler

HAND = ["snow gas", "rain shell trap", "rain shell", "mute"]


def turn_position():  # type: ignore[no-untyped-def]
    return position(3, characters=["charles", "felix", "gustave"], hands=[HAND, [], []],
                    nml=["rain snow", "rain whistle"], speech_held=[1, 0, 0], tiles=[["left", "right"], [], []])


@pytest.mark.parametrize(
    ("text", "action"),
    [
        ("play rain shell", Action("play", ("rain shell",))),
        ("PLAY Shell, Rain", Action("play", ("rain shell",))),
        ("play rain shell trap", Action("play", ("rain shell trap",))),
        ("đánh mưa đạn pháo", Action("play", ("rain shell",))),
        ("danh mua dan phao bay", Action("play", ("rain shell trap",))),
        ("play gas mask snow", Action("play", ("snow gas",))),
        ("play mute", Action("play", ("mute",))),
        ("chơi câm lặng", Action("play", ("mute",))),
        ("charm rain whistle", Action("charm", ("rain whistle",))),
        ("bùa mưa còi", Action("charm", ("rain whistle",))),
        ("speech gas", Action("speech", ("gas",))),
        ("phát biểu mặt nạ khí", Action("speech", ("gas",))),
        ("phat bieu tuyet", Action("speech", ("snow",))),
        ("withdraw left", Action("withdraw", ("left", None))),
        ("rút lui phải", Action("withdraw", ("right", None))),
        ("rut lui trai", Action("withdraw", ("left", None))),
    ],
)
def test_commands_in_both_languages(text: str, action: Action) -> None:
    assert ENGINE.parse(turn_position(), 0, text) == action


def test_play_n_plays_the_nth_card_of_the_hand_as_the_view_numbers_it() -> None:
    s = turn_position()
    hand = ENGINE.view(s, 0)["hand"]
    for i, face in enumerate(hand, 1):
        assert ENGINE.parse(s, 0, f"play {i}") == Action("play", (face,))
    assert "3. " in ENGINE.render_view(ENGINE.view(s, 0), "en")
    with pytest.raises(IllegalCommand):
        ENGINE.parse(s, 0, "play 5")


def test_short_forms_need_one_fitting_choice() -> None:
    s = turn_position()
    with pytest.raises(AmbiguousCommand) as err:
        ENGINE.parse(s, 0, "charm")  # two Rain cards in No Man's Land
    assert sorted(err.value.examples) == ["charm rain snow", "charm rain whistle"]
    with pytest.raises(AmbiguousCommand):
        ENGINE.parse(s, 0, "withdraw")
    assert ENGINE.parse(s, 0, "play snow") == Action("play", ("snow gas",))


def test_intensity_command_and_large_numbers() -> None:
    s = position(3, phase=INTENSITY, mission=1, trials=filler(6))
    assert ENGINE.parse(s, 0, "intensity 3") == Action("intensity", (3,))
    assert ENGINE.parse(s, 0, "cường độ 3") == Action("intensity", (3,))
    with pytest.raises(IllegalCommand) as err:  # 6 cards: 3 deals them all (GR-21), 40 is not read as 3
        ENGINE.parse(s, 0, "intensity 40")
    assert "only possible Intensity is 3" in err.value.message.en and err.value.examples == ["intensity 3"]


def test_errors_say_what_to_write() -> None:
    s = turn_position()
    with pytest.raises(InvalidCommand) as bad:
        ENGINE.parse(s, 0, "fly away")
    assert "play rain shell" in bad.value.message.en and bad.value.message.vi
    with pytest.raises(InvalidCommand):
        ENGINE.parse(s, 0, "play banana")
    with pytest.raises(IllegalCommand) as illegal:
        ENGINE.parse(s, 0, "play night whistle")
    assert illegal.value.examples
    with pytest.raises(IllegalCommand):
        ENGINE.parse(s, 1, "play 1")  # not Bob's turn


def test_every_choice_round_trips_and_has_both_labels() -> None:
    s = turn_position()
    for choice in ENGINE.legal_actions(s, 0):
        assert ENGINE.parse(s, 0, choice.command) == choice.action
        assert choice.label.en and choice.label.vi and choice.label.en != choice.label.vi


def test_unreadable_commands_come_with_examples_for_now() -> None:
    s = turn_position()
    with pytest.raises(InvalidCommand) as err:
        ENGINE.parse(s, 0, "play rain, shell maybe")
    assert "maybe" in err.value.message.en and "play rain shell" in err.value.examples
    # a polite filler at the end is no longer a stray word (engines.wording.strip_fillers)
    assert ENGINE.parse(s, 0, "play rain, shell please") == Action("play", ("rain shell",))
