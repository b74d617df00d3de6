"""A reply line is a Tag Team command only when the WHOLE line is one (polite fillers aside).

Seen in real replies: a signature without its `-- ` line ("2 kids, 1 dog") became `order 2 1`."""

from __future__ import annotations

import random

import pytest

from engines.contract import Action, CommandError, InvalidCommand
from engines.tagteam.commands import fillers, keywords, normalize
from engines.tagteam.engine import ENGINE
from engines.tagteam.state import TTState
from engines.wording import LEADING, TRAILING
from tests.conformance import PROSE
from tests.tagteam.test_engine import to_build

SENTENCES = [
    "2 kids, 1 dog",
    "bỏ cuộc thì không bao giờ nhé, cường độ 3",
    "I think 3 is better than 4",
    "play it cool",
    "let me think about 7 a4",
    "order 2 1 would be nice",
    "I'll take the rain card later maybe",
    "1 2 3 go",
    "order 2 1 maybe",
    "add 2 top would be nice",
    "honestly, add 2 top",
    "pick joan because she is cool",
    "thứ tự 2 1 thì hay hơn",
    "bottom 3 1 later",
    "joan and wong are my favourites",
]


def positions() -> dict[str, TTState]:
    return {
        "setup": ENGINE.new_game(["Alice", "Bob"], {"draft": "first_game"}, 2),
        "draft": ENGINE.new_game(["Alice", "Bob"], {"draft": "standard"}, 2),
        "competitive": ENGINE.new_game(["Alice", "Bob"], {"draft": "competitive"}, 2),
        "free": ENGINE.new_game(["Alice", "Bob"], {"draft": "free"}, 2),
        "build": to_build(rounds=2),
    }


POSITIONS = positions()


@pytest.mark.parametrize("text", SENTENCES)
@pytest.mark.parametrize("phase", sorted(POSITIONS))
def test_whole_line_commands_only_sentences_never_parse(phase: str, text: str) -> None:
    with pytest.raises(CommandError) as err:
        ENGINE.parse(POSITIONS[phase], 0, text)
    assert err.value.message.en and err.value.message.vi and err.value.examples


def test_whole_line_commands_only_a_signature_is_not_an_order() -> None:
    """The bug as reported: the setup parser picked 2 and 1 out of "2 kids, 1 dog"."""
    with pytest.raises(InvalidCommand) as err:
        ENGINE.parse(POSITIONS["setup"], 0, "2 kids, 1 dog")
    assert "order 2 1" in err.value.message.en and "thứ tự 2 1" in err.value.message.vi


@pytest.mark.parametrize(
    ("phase", "text", "args"),
    [
        ("setup", "order 2 1 please", (2, 1)),
        ("setup", "ok, thứ tự 2 1 nhé", (2, 1)),
        ("setup", "thu tu 1 2, thanks!", (1, 2)),
        ("setup", "order 21 please", (2, 1)),
        ("setup", "2 1 please", (2, 1)),
        ("build", "add 2 top please", (2, 0, 1, 3)),
        ("build", "thêm 2 trên cùng, dưới 3 1 nhé", (2, 0, 3, 1)),
        ("build", "ok add 2 at the top, then bottom 3 and 1, thanks a lot", (2, 0, 3, 1)),
        ("build", "add 1 after 2 ạ", (1, 2, 2, 3)),
    ],
)
def test_whole_line_commands_only_fillers_around_commands(phase: str, text: str, args: tuple[int, ...]) -> None:
    assert ENGINE.parse(POSITIONS[phase], 0, text).args == args


def test_whole_line_commands_only_fillers_around_a_draft_pick() -> None:
    s = POSITIONS["draft"]
    a = s.hands[0][0]
    name = ENGINE.content.fighters[a].name
    for text in (f"pick {a} please", f"chọn {name} nhé", f"ok {name}, thanks!"):
        assert ENGINE.parse(s, 0, text) == Action("pick", (a,))
    with pytest.raises(InvalidCommand):
        ENGINE.parse(s, 0, f"pick {a} tomorrow")


def _vocabulary() -> set[str]:
    words = set(keywords()) | set(fillers())
    for f in ENGINE.content.fighters.values():
        for name in (*f.aliases, f.id, f.name):
            words |= set(normalize(name).split())
    for cid, card in ENGINE.content.cards.items():
        words |= set(normalize(card.name).split()) | set(normalize(cid).split())
    words |= {w for filler in (*LEADING, *TRAILING) for w in normalize(filler).split()}
    return words


def test_whole_line_commands_only_random_prose_with_command_words() -> None:
    """Seeded: prose words (English, Vietnamese) mixed with command words, fighter names and
    numbers never parse, in any phase; each legal command, with fillers around, still does."""
    vocab = _vocabulary()
    assert not [p for p in PROSE if set(normalize(p).split()) & vocab], "a prose word is a command word"
    rng = random.Random(20261201)
    command_words = ["order", "thứ tự", "add", "thêm", "pick", "chọn", "discard", "bỏ", "top", "trên", "bottom",
                     "dưới", "after", "sau", "before", "joan", "wong", "bodvar", "the", "and", "then"]
    fillers = [("", ""), ("ok ", " please"), ("", " nhé"), ("please ", ", thanks!"), ("", " ạ")]
    for _ in range(300):
        phase = rng.choice(sorted(POSITIONS))
        s = POSITIONS[phase]
        words = rng.sample(PROSE, rng.randint(1, 3)) + rng.sample(command_words, rng.randint(0, 3))
        words += [str(rng.randint(0, 4)) for _ in range(rng.randint(1, 3))]
        rng.shuffle(words)
        before, after = rng.choice(fillers)
        line = before + " ".join(words) + after
        with pytest.raises(CommandError):
            ENGINE.parse(s, 0, line)
        for choice in rng.sample(ENGINE.legal_actions(s, 0), 2):
            assert ENGINE.parse(s, 0, before + choice.command + after) == choice.action
