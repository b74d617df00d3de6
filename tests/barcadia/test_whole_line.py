"""A reply line is a Heroes of Barcadia command only when the WHOLE line is one (fillers aside)."""

from __future__ import annotations

import random

import pytest

from engines.barcadia import commands
from engines.barcadia.engine import ENGINE
from engines.barcadia.hexes import DIRECTION_WORDS
from engines.barcadia.state import BarcadiaState
from engines.contract import Action, CommandError, InvalidCommand
from engines.wording import LEADING, TRAILING, fold
from tests.barcadia.support import ALICE, face_up, position
from tests.conformance import PROSE

SENTENCES = [
    "2 kids, 1 dog",
    "bỏ cuộc thì không bao giờ nhé, cường độ 3",
    "I think 3 is better than 4",
    "play it cool",
    "let me think about 7 a4",
    "order 2 1 would be nice",
    "I'll take the rain card later maybe",
    "duel bob later maybe",  # read as `duel bob` before: only the first word after the verb counted
    "duel bob because he is cool",
    "play dash maybe",
    "dash is cool",
    "reveal 12 tomorrow",
    "pass thì hay",
    "honestly, pass",
    "autopass whenever",
    "enter 1 and then maybe 13",
]


def turn_position() -> BarcadiaState:
    s = position(pos=[1, 2, 0, 0], hands=[["dash"], [], [], []])
    face_up(s, 1, beaten=True)
    face_up(s, 2, beaten=True)
    return s


def place_position() -> BarcadiaState:
    s = ENGINE.new_game(["Alice", "Bob", "Chi", "Dung"], {"layout": "players"}, 4)
    return s


@pytest.mark.parametrize("text", SENTENCES)
def test_whole_line_commands_only_sentences_never_parse(text: str) -> None:
    with pytest.raises(CommandError) as err:
        ENGINE.parse(turn_position(), ALICE, text)
    assert err.value.message.en and err.value.message.vi


def test_whole_line_commands_only_the_old_guesses_are_refused() -> None:
    """What the parser used to pick out of a line: the first player after `duel`, the numbers
    among words after `place`, a card name followed by anything after `drop`/`keep`."""
    s = turn_position()
    with pytest.raises(InvalidCommand) as err:
        ENGINE.parse(s, ALICE, "duel bob later maybe")
    assert "whole line" in err.value.message.en and "cả dòng" in err.value.message.vi and err.value.examples
    p = place_position()
    placer = min(ENGINE.to_act(p))
    first = ENGINE.legal_actions(p, placer)[0]
    q, r = first.action.args
    assert ENGINE.parse(p, placer, f"place {q},{r} please") == first.action
    for text in (f"place {q} kids {r} dogs", f"{q} kids, {r} dogs", f"place {q},{r} would be nice"):
        with pytest.raises(InvalidCommand):
            ENGINE.parse(p, placer, text)
    with pytest.raises(InvalidCommand):
        ENGINE.parse(s, ALICE, "keep dash later maybe")


@pytest.mark.parametrize("text", ["enter 99 n", "reveal 45 n", "portal 99 nw"])
def test_whole_line_commands_only_a_direction_after_a_missing_room_is_refused(text: str) -> None:
    """Found by the random prose test: a direction after a room number beyond the map crashed."""
    with pytest.raises(CommandError):
        ENGINE.parse(turn_position(), ALICE, text)


@pytest.mark.parametrize(
    ("text", "action"),
    [
        ("duel bob please", Action("duel", (1,))),
        ("đấu bob nhé", Action("duel", (1,))),
        ("ok pass, thanks!", Action("pass")),
        ("bỏ qua ạ", Action("pass")),
        ("dash nhé", Action("play", ("dash",))),
        ("please play dash", Action("play", ("dash",))),
        ("reveal 12 please", Action("reveal", (12,))),
        ("lật 12 nhé", Action("reveal", (12,))),
    ],
)
def test_whole_line_commands_only_fillers_around_commands(text: str, action: Action) -> None:
    assert ENGINE.parse(turn_position(), ALICE, text) == action


def _vocabulary() -> set[str]:
    words = {w for phrase in commands.verbs() for w in phrase.split()}
    words |= commands.OFF_WORDS | commands.ON_WORDS | commands.SP_WORDS | set(DIRECTION_WORDS)
    for deck in ("loot", "powerup"):
        words |= {w for key in commands.card_slugs(deck) for w in key.split("-")}
    words |= {fold(w) for f in (*LEADING, *TRAILING) for w in f.split()}
    return words


def test_whole_line_commands_only_random_prose_with_command_words() -> None:
    """Seeded: prose words (English, Vietnamese) mixed with Barcadia verbs, rooms, directions,
    players and numbers never parse; each legal command, with fillers around, still does."""
    vocab = _vocabulary()
    players = ("alice", "bob", "chi", "dung")
    assert not [p for p in PROSE if set(fold(p).split()) & vocab or any(n.startswith(fold(p)) for n in players)]
    rng = random.Random(20261201)
    command_words = ["reveal", "lật", "enter", "vào", "duel", "đấu", "bob", "chi", "play", "dùng", "dash", "pass",
                     "bỏ qua", "autopass", "off", "n", "ne", "sp", "place", "keep", "drop", "trap"]
    fillers = [("", ""), ("ok ", " please"), ("", " nhé"), ("please ", ", thanks!"), ("", " ạ")]
    positions = [turn_position(), place_position()]
    for _ in range(300):
        s = rng.choice(positions)
        seat = min(ENGINE.to_act(s))
        words = rng.sample(PROSE, rng.randint(1, 3)) + rng.sample(command_words, rng.randint(1, 3))
        words += [str(rng.randint(-3, 30)) for _ in range(rng.randint(0, 2))]
        rng.shuffle(words)
        before, after = rng.choice(fillers)
        with pytest.raises(CommandError):
            ENGINE.parse(s, seat, before + " ".join(words) + after)
        for choice in rng.sample(ENGINE.legal_actions(s, seat), 2):
            assert ENGINE.parse(s, seat, before + choice.command + after) == choice.action
