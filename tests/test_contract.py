"""The shared pieces of the engine contract: RNG, options, serialisation, and proof that the
conformance suite actually catches the defects it exists for."""

from __future__ import annotations

import json
import re
from collections import Counter
from dataclasses import replace
from typing import Any

import pytest

from engines.contract import Action, CommandError, Event, IllegalCommand, Outcome, tr
from engines.rng import Rng
from tests.conformance import FAST, check_leaks, playout
from tests.support.toy import ENGINE as TOY
from tests.support.toy import ToyEngine, ToyState, fixed_pair


def test_rng_same_seed_same_sequence_and_state_is_one_int() -> None:
    a, b = Rng(123), Rng(123)
    assert [a.below(1000) for _ in range(50)] == [b.below(1000) for _ in range(50)]
    assert isinstance(a.state, int) and a.state == b.state
    c = Rng(a.state)
    assert c.below(10**9) == a.below(10**9)


def test_rng_is_roughly_uniform_and_shuffle_is_a_permutation() -> None:
    rng = Rng(7)
    counts = Counter(rng.die(6) for _ in range(60_000))
    assert set(counts) == {1, 2, 3, 4, 5, 6}
    assert all(9_000 < n < 11_000 for n in counts.values())
    items = list(range(52))
    rng.shuffle(items)
    assert sorted(items) == list(range(52)) and items != list(range(52))
    with pytest.raises(ValueError):
        rng.below(0)


def test_options_fill_defaults_and_refuse_unknown_names_and_values() -> None:
    assert TOY.resolve_options(None) == {"rounds": 3}
    assert TOY.resolve_options({"rounds": 2}) == {"rounds": 2}
    with pytest.raises(ValueError, match="unknown option"):
        TOY.resolve_options({"colour": "red"})
    with pytest.raises(ValueError, match="not one of"):
        TOY.resolve_options({"rounds": 9})


def test_action_event_outcome_round_trip_through_json() -> None:
    action = Action("seven", ("a", 4, "c", 3))
    assert Action.from_json(json.loads(json.dumps(action.to_json()))) == action
    event = Event(fixed_pair("You drew a 7.", "Bạn rút lá 7."), frozenset({2}))
    assert Event.from_json(json.loads(json.dumps(event.to_json()))) == event
    assert event.visible(2) and not event.visible(1) and not event.visible(None)
    assert Outcome(frozenset({0, 2}), False, tr("x")).to_json()["winners"] == [0, 2]


def test_errors_carry_a_bilingual_message_and_examples() -> None:
    err = IllegalCommand(fixed_pair("Not now.", "Không phải lúc này."), ["play 3"])
    assert isinstance(err, ValueError)
    assert err.message.get("vi") == "Không phải lúc này." and err.examples == ["play 3"]


# --- the conformance suite must fail on broken engines -------------------------------


class LeakyView(ToyEngine):
    def view(self, state: ToyState, seat: int | None) -> dict[str, Any]:
        view = super().view(state, seat)
        view["debug"] = state.hands  # every hand, to everyone
        return view


class NonDeterministic(ToyEngine):
    calls = 0

    def new_game(self, players: Any, options: Any, seed: int) -> ToyState:
        NonDeterministic.calls += 1
        return super().new_game(players, options, seed + NonDeterministic.calls)


class MutatingApply(ToyEngine):
    def apply(self, state: ToyState, seat: int, action: Action) -> tuple[ToyState, list[Event]]:
        new, events = super().apply(state, seat, action)
        state.version += 1  # the defect: the caller's state changed
        return new, events


class LenientParser(ToyEngine):
    def parse(self, state: ToyState, seat: int, text: str) -> Action:
        try:
            return super().parse(state, seat, text)
        except ValueError:
            return self.legal_actions(state, seat)[0].action  # guesses instead of refusing


class RngInView(ToyEngine):
    def view(self, state: ToyState, seat: int | None) -> dict[str, Any]:
        return {**super().view(state, seat), "seed": state.rng}


@pytest.mark.parametrize(
    ("broken", "message"),
    [
        (LeakyView(), "leaks"),
        (NonDeterministic(), "not deterministic"),
        (MutatingApply(), "mutated|changed it"),
        (LenientParser(), "illegal command"),
        (RngInView(), "leaks"),
    ],
)
def test_conformance_catches_a_broken_engine(broken: ToyEngine, message: str) -> None:
    with pytest.raises(AssertionError, match=message):
        playout(broken, 3, 5, FAST)


def test_leak_check_needs_each_seat_to_see_its_own_secrets() -> None:
    class BlindView(ToyEngine):
        def view(self, state: ToyState, seat: int | None) -> dict[str, Any]:
            return {**super().view(state, seat), "hand": []}

    state = TOY.new_game(["A", "B"], None, 1)
    with pytest.raises(AssertionError, match="cannot see any of its own"):
        check_leaks(BlindView(), state, 2)
    check_leaks(TOY, replace(state), 2)


class NumberPicker(ToyEngine):
    """The defect seen in real replies: a parser that picks a number out of any sentence
    ("2 kids, 1 dog" became a move). Whole commands still parse, so only the prose check sees it."""

    def parse(self, state: ToyState, seat: int, text: str) -> Action:
        try:
            return super().parse(state, seat, text)
        except CommandError:
            for number in re.findall(r"\d+", text):
                action = Action("play", (number,))
                if action in {c.action for c in self.legal_actions(state, seat)}:
                    return action
            raise


def test_conformance_catches_a_parser_that_picks_numbers_out_of_sentences() -> None:
    broken = NumberPicker()
    state = broken.new_game(["A", "B", "C"], None, 5)
    seat = min(broken.to_act(state))
    while not any(c.action.kind == "play" for c in broken.legal_actions(state, seat)):
        state, _ = broken.apply(state, seat, broken.legal_actions(state, seat)[0].action)
        seat = min(broken.to_act(state))
    card = next(c.command for c in broken.legal_actions(state, seat) if c.action.kind == "play").split()[1]
    assert broken.parse(state, seat, f"2 kids, {card} dogs") == Action("play", (card,))  # the defect is there
    with pytest.raises(CommandError):
        TOY.parse(state, seat, f"2 kids, {card} dogs")  # and the toy itself refuses the sentence
    with pytest.raises(AssertionError, match="prose line"):
        playout(broken, 3, 5, FAST)
    playout(TOY, 3, 5, FAST)  # the same playout passes with a strict parser
