"""The Tag Team engine on the contract: secret simultaneous steps, commands, views."""

from __future__ import annotations

import random
from dataclasses import replace

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from engines.contract import AmbiguousCommand, CommandError, IllegalCommand, InvalidCommand
from engines.tagteam.engine import ENGINE, TagTeamEngine
from engines.tagteam.state import TTState


def to_build(engine: TagTeamEngine = ENGINE, seed: int = 4, rounds: int = 1) -> TTState:
    """A first-game position at the Build! step of the given round (the first seed from ``seed``
    whose heuristic game gets that far)."""
    bot = engine.bots()["heuristic"]
    for attempt in range(seed, seed + 50):
        s = engine.new_game(["Alice", "Bob"], {"draft": "first_game"}, attempt)
        rng = random.Random(attempt)
        while engine.to_act(s) and not (s.phase == "build" and s.round >= rounds):
            seat = min(engine.to_act(s))
            s, _ = engine.apply(s, seat, bot.choose(engine, s, seat, rng))
        if s.phase == "build":
            return s
    raise AssertionError(f"no game reached round {rounds}")


@pytest.mark.parametrize("mode", ["standard", "competitive", "free", "first_game", "random"])
def test_TT_75_a_round_resolves_the_same_whoever_chooses_first(mode: str) -> None:
    """TT-75: "Both players build simultaneously and independently." Every secret step (draft picks,
    setup order, build) must give the same state whichever seat's choice arrives first."""
    rng = random.Random(mode)
    s = ENGINE.new_game(["Alice", "Bob"], {"draft": mode}, 21)
    steps = 0
    while ENGINE.to_act(s) and steps < 12:
        a0 = rng.choice(ENGINE.legal_actions(s, 0)).action
        a1 = rng.choice(ENGINE.legal_actions(s, 1)).action
        first, _ = ENGINE.apply(s, 0, a0)
        first, _ = ENGINE.apply(first, 1, a1)
        second, _ = ENGINE.apply(s, 1, a1)
        second, _ = ENGINE.apply(second, 0, a0)
        assert ENGINE.to_json(first) == ENGINE.to_json(second)
        s = first
        steps += 1
    assert steps >= 3


def test_TT_75_decision_key_survives_the_other_seat_and_a_replacement() -> None:
    """TT-75 with DESIGN.md: a seat's menu stays valid while the other seat chooses, and a seat may
    replace its own secret choice until the last seat has chosen."""
    s = to_build()
    key0, key1 = ENGINE.decision_key(s, 0), ENGINE.decision_key(s, 1)
    s1, events = ENGINE.apply(s, 1, ENGINE.parse(s, 1, "add 1 top"))
    assert ENGINE.decision_key(s1, 0) == key0 and ENGINE.decision_key(s1, 1) == key1
    assert ENGINE.to_act(s1) == frozenset({0})
    assert ENGINE.legal_actions(s1, 1), "a seat that chose may still replace its choice"
    public = [e.text.en for e in events if e.visible_to is None]
    assert public == ["Bob has chosen."]
    s2, _ = ENGINE.apply(s1, 1, ENGINE.parse(s1, 1, "add 2 bottom"))
    assert ENGINE.decision_key(s2, 0) == key0 and s2.pending[1] is not None
    assert s2.pending[1][1:3] == [2, len(s.fight[1])]
    s3, _ = ENGINE.apply(s2, 0, ENGINE.parse(s2, 0, "add 3 top"))
    assert ENGINE.decision_key(s3, 0) != key0 or ENGINE.is_over(s3)


def test_TT_71_build_commands_people_write() -> None:
    """TT-71/TT-73: one card, any of the n+1 positions, the other two under the Build Deck in a
    chosen order — written as `add 2 top`, `add terror after 3`, `bottom 3 1`, in English or Vietnamese."""
    s = to_build(rounds=3)
    n = len(s.fight[0])
    assert n >= 4
    assert ENGINE.parse(s, 0, "add 2 top").args == (2, 0, 1, 3)
    assert ENGINE.parse(s, 0, "ADD 2 BOTTOM, bottom 3 1").args == (2, n, 3, 1)
    assert ENGINE.parse(s, 0, "add 1 after 3 bottom 3 2").args == (1, 3, 3, 2)
    assert ENGINE.parse(s, 0, "add 1 before 2").args == (1, 1, 2, 3)
    assert ENGINE.parse(s, 0, "thêm 2 trên cùng, dưới 3 1").args == (2, 0, 3, 1)
    assert ENGINE.parse(s, 0, "them 3 sau 2").args == (3, 2, 1, 2)
    assert ENGINE.parse(s, 0, "thêm 1 dưới cùng, bỏ 3 2").args == (1, n, 3, 2)
    assert ENGINE.parse(s, 0, "add 1 top discard 3 2").args == (1, 0, 3, 2)
    assert ENGINE.parse(s, 0, "add 3 bottom 2 1").args == (3, n, 2, 1)
    name = ENGINE.content.cards[s.draw[0][0]].name.split()[-1]
    if sum(name.lower() in ENGINE.content.cards[c].name.lower() for c in s.draw[0]) == 1:
        assert ENGINE.parse(s, 0, f"add {name} after 1").args[:2] == (1, 1)
    with pytest.raises(InvalidCommand):
        ENGINE.parse(s, 0, "bottom 3 1")  # nothing chosen yet: say which card to add
    s1, _ = ENGINE.apply(s, 0, ENGINE.parse(s, 0, "add 2 after 1"))
    assert ENGINE.parse(s1, 0, "bottom 3 1").args == (2, 1, 3, 1)
    for bad, error in (("add 4 top", IllegalCommand), (f"add 1 after {n + 1}", IllegalCommand),
                       ("add 1 top, bottom 1 2", IllegalCommand), ("add 1", InvalidCommand),
                       ("fly away", InvalidCommand)):
        with pytest.raises(error) as info:
            ENGINE.parse(s, 0, bad)
        assert info.value.message.vi and info.value.examples


def test_TT_71_ambiguous_card_name_is_refused() -> None:
    """A card name that fits two different drawn cards must be refused, not guessed; a name is
    matched by whole words ("charge", "holy charge"), never by letters inside a word."""
    s = to_build()
    draw = [["boudica.chariot", "joan.holy_charge", s.draw[0][2]], s.draw[1]]
    s = replace(s, draw=draw)
    with pytest.raises(AmbiguousCommand):
        ENGINE.parse(s, 0, "add charge top")
    assert ENGINE.parse(s, 0, "add holy charge top").args[:2] == (2, 0)
    assert ENGINE.parse(s, 0, "add chariot after 1").args[:2] == (1, 1)
    with pytest.raises(InvalidCommand):
        ENGINE.parse(s, 0, "add char top")  # letters inside a name are no name


def test_TT_71_menu_is_compact_and_legal_actions_complete() -> None:
    """The build choice (card, position, discard order) as a dozen menu items; every option legal."""
    s = to_build(rounds=4)
    n = len(s.fight[0])
    legal = ENGINE.legal_actions(s, 0)
    assert len(legal) == 3 * (n + 1) * 2
    menu = ENGINE.menu(s, 0)
    assert 6 <= len(menu) <= 13 and {m.action for m in menu} <= {c.action for c in legal}
    text = ENGINE.render_view(ENGINE.view(s, 0), "en")
    assert "add CARD WHERE" in text and "after N" in text
    assert "thêm THẺ" in ENGINE.render_view(ENGINE.view(s, 0), "vi")


def test_TT_7_draft_and_setup_commands() -> None:
    """Draft `pick joan`, `discard wong`; setup `order 2 1`; Vietnamese with and without diacritics."""
    s = ENGINE.new_game(["Alice", "Bob"], {"draft": "competitive"}, 2)
    a, b = s.hands[0][:2]
    name_a = ENGINE.content.fighters[a].name
    assert ENGINE.parse(s, 0, f"pick {name_a} discard {b}").args == (a, b)
    assert ENGINE.parse(s, 0, f"chọn {a} bỏ {b}").args == (a, b)
    with pytest.raises(InvalidCommand):
        ENGINE.parse(s, 0, f"pick {a}")  # a competitive first pick needs a discard
    s1, _ = ENGINE.apply(s, 0, ENGINE.parse(s, 0, f"pick {a} discard {b}"))
    c = s.hands[0][2]
    assert ENGINE.parse(s1, 0, f"discard {c}").args == (a, c)
    with pytest.raises(IllegalCommand):
        ENGINE.parse(s, 0, f"pick {s.hands[1][0]} discard {b}")  # not in this hand
    f = ENGINE.new_game(["Alice", "Bob"], {"draft": "first_game"}, 2)
    assert ENGINE.parse(f, 0, "order 2 1").args == (2, 1)
    assert ENGINE.parse(f, 0, "thứ tự 2 1").args == (2, 1)
    assert ENGINE.parse(f, 0, "thu tu 1 2").args == (1, 2)
    assert ENGINE.parse(f, 1, "order wong bodvar").args == (2, 1)
    with pytest.raises(CommandError):
        ENGINE.parse(f, 0, "order 3 3")


def test_TT_75_views_hide_the_opponents_secrets() -> None:
    """TT-75: "of a build, the opponent learns only the Fight Deck's new size and any announced
    Instant Bonus. Drawn cards, choice, position and discard order stay hidden.\""""
    s = to_build(rounds=2)
    s, _ = ENGINE.apply(s, 0, ENGINE.parse(s, 0, "add 2 top, bottom 3 1"))
    mine, theirs, observer = ENGINE.view(s, 0), ENGINE.view(s, 1), ENGINE.view(s, None)
    assert [c["id"] for c in mine["fight_deck"]] == s.fight[0]
    assert [c["id"] for c in mine["draw"]] == s.draw[0] and mine["my_choice"]
    for v in (theirs, observer):
        assert v["fight_sizes"][0] == len(s.fight[0])
        assert all(c["id"] not in s.draw[0] for c in v["draw"])
        assert v["my_choice"] != mine["my_choice"]
    assert observer["fight_deck"] == [] and observer["draw"] == []


def test_default_action_and_bots() -> None:
    s = to_build()
    assert ENGINE.default_action(s, 0) in {c.action for c in ENGINE.legal_actions(s, 0)}
    assert {"random", "heuristic"} <= set(ENGINE.bots())
    with pytest.raises(ValueError):
        ENGINE.new_game(["a", "b", "c"], None, 1)
    with pytest.raises(ValueError):
        ENGINE.new_game(["a", "b"], {"draft": "chaos"}, 1)


_FUZZ_STATES: dict[str, TTState] = {}


def _fuzz_state(phase: str) -> TTState:
    if phase not in _FUZZ_STATES:
        if phase == "build":
            _FUZZ_STATES[phase] = to_build(rounds=2)
        else:
            _FUZZ_STATES[phase] = ENGINE.new_game(["Alice", "Bob"], {"draft": phase}, 9)
    return _FUZZ_STATES[phase]


WORDS = ["add", "pick", "discard", "order", "top", "bottom", "after", "before", "thêm", "chọn", "bỏ", "dưới",
         "trên", "sau", "1", "2", "3", "4", "0", "joan", "wong", "terror", ",", ";", "thứ", "tự", "x"]


@settings(max_examples=300, deadline=None)
@given(phase=st.sampled_from(["build", "competitive", "standard", "free", "first_game"]),
       words=st.lists(st.sampled_from(WORDS), max_size=7), noise=st.text(max_size=12))
def test_parse_never_crashes(phase: str, words: list[str], noise: str) -> None:
    """Any text gives a legal action or a CommandError with a bilingual message — never a crash."""
    s = _fuzz_state(phase)
    for text in (" ".join(words), noise, " ".join(words) + noise):
        try:
            action = ENGINE.parse(s, 0, text)
        except CommandError as err:
            assert err.message.en and err.message.vi
        else:
            assert action in {c.action for c in ENGINE.legal_actions(s, 0)}


def test_board_lists_cannot_be_taken_for_menu_lines() -> None:
    """A bare number always means the menu, so no board line looks like one ("  1. X — Y")."""
    import random
    import re

    from engines.tagteam.engine import TagTeamEngine

    engine = TagTeamEngine()
    menu_line = re.compile(r"^\s*\d+\.\s")
    for seed in range(4):
        state = engine.new_game(["Ann", "Bình"], None, seed)
        rng = random.Random(seed)
        while engine.to_act(state):
            for lang in ("en", "vi"):
                for seat in (0, 1, None):
                    text = engine.render_view(engine.view(state, seat), lang)
                    assert not [line for line in text.splitlines() if menu_line.match(line)], text
            seat = min(engine.to_act(state))
            state, _ = engine.apply(state, seat, rng.choice(engine.legal_actions(state, seat)).action)
