"""Prepared deals (engines/tac/scenario.py) and a recorded game replayed through them."""

from __future__ import annotations

import json
from collections import Counter
from pathlib import Path

import pytest

from engines.tac.content import deck
from engines.tac.scenario import deal_hands, prepared_game
from engines.tac.state import TacState
from tests.tac.helpers import E, commands, play
from tests.tac.replay import PLAYERS, dump, record, replay

FIXTURE = Path(__file__).parent / "fixtures" / "tac_master_seed2.json"

HANDS = [["1", "13", "5", "7", "tac"], ["2", "2", "2", "2", "2"], ["3", "3", "3", "3", "3"], ["4", "4", "4", "4", "4"]]
REST = sorted((Counter(deck("base")) - Counter(c for h in HANDS for c in h)).elements())  # the other 80


def test_recorded_game_replays_to_its_outcome_and_final_position() -> None:
    """A whole game from a file of deals and canonical commands: every deal that starts a shuffle is
    prepared from the file, the deals between come out of the prepared draw pile as recorded."""
    rec = json.loads(FIXTURE.read_text(encoding="utf-8"))
    state = replay(rec)
    outcome = E.outcome(state)
    assert outcome is not None and sorted(outcome.winners) == rec["winners"]
    assert json.loads(json.dumps(E.view(state, None))) == rec["final_view"]
    assert sum(len(d["moves"]) for d in rec["deals"]) > 200 and len(rec["deals"]) > 5  # two shuffles


def test_recorder_round_trips() -> None:
    """``record`` → ``dump`` → ``replay`` gives the recorded game (the recorder itself, on another seed)."""
    rec = json.loads(dump(record(7, "base")))
    state = replay(rec)
    assert json.loads(json.dumps(E.view(state, None))) == rec["final_view"]


def _finish_deal(s: TacState) -> TacState:
    """Give the first card of each hand, then play the first legal action until the deal is over."""
    deal = s.deals
    for seat in range(4):
        s = play(s, f"give {s.hands[seat][0]}", seat)
    while s.deals == deal:
        s, _ = E.apply(s, s.turn, E.legal_actions(s, s.turn)[0].action)
    return s


def test_prepared_game_deals_the_hands_and_then_the_pile() -> None:
    """The pile is given next card first; the next deal gives the seat after the dealer the first five."""
    s = prepared_game(PLAYERS, None, dealer=3, hands=HANDS, pile=REST)
    assert s.hands == HANDS and s.dealer == 3 and s.phase == "exchange"
    assert s.can == [True, False, False, False]  # TAC-16 follows the given hands
    s = _finish_deal(s)
    assert s.deals == 2 and s.dealer == 0
    assert [s.hands[seat] for seat in (1, 2, 3, 0)] == [REST[i:i + 5] for i in range(0, 20, 5)]


def test_a_mid_deal_position_from_prepared_hands() -> None:
    """A test reaches a mid-deal position by playing commands from known hands, without JSON."""
    s = prepared_game(PLAYERS, None, dealer=3, hands=HANDS)
    for seat, gift in enumerate(["5", "2", "3", "4"]):
        s = play(s, f"give {gift}", seat)
    assert s.turn == 0 and "tac" not in commands(s)  # TAC-64: never the first card of a deal
    s = play(s, "13 start")
    assert s.turn == 1 and commands(s) == {"discard 2", "discard 4"}  # Bob got Dung's 4, no marble out
    s = play(s, "discard 4")
    assert s.turn == 2 and commands(s) == {"discard 3", "discard 5"}  # Chi got Alice's 5
    assert s.pile == ["13", "4"]


def test_the_next_deal_can_be_prepared_too() -> None:
    s = _finish_deal(prepared_game(PLAYERS, None, dealer=3, hands=HANDS, seed=5))
    left = sorted([c for h in s.hands for c in h] + s.deck)
    hands = [left[i:i + 5] for i in range(0, 20, 5)]
    s = deal_hands(s, hands)
    assert s.hands == hands and sorted([c for h in s.hands for c in h] + s.deck) == left
    assert s.can == [any(c in ("1", "13") for c in h) for h in hands]


@pytest.mark.parametrize(("hands", "message"), [
    ([["1", "1", "1", "1", "1"], ["1", "1", "1", "1", "1"], ["2"] * 5, ["3"] * 5], "not left to deal"),
    ([["1"] * 4, ["2"] * 5, ["3"] * 5, ["4"] * 5], "gives 5 cards"),
    ([["fool", "1", "1", "1", "1"], ["2"] * 5, ["3"] * 5, ["4"] * 5], "no such card"),
    ([["2"] * 5] * 3, "four hands"),
])
def test_bad_prepared_deals_are_refused(hands: list[list[str]], message: str) -> None:
    with pytest.raises(ValueError, match=message):
        prepared_game(PLAYERS, None, dealer=0, hands=hands)


def test_a_pile_must_hold_exactly_the_rest() -> None:
    with pytest.raises(ValueError, match="exactly the cards"):
        prepared_game(PLAYERS, None, dealer=0, hands=HANDS, pile=REST[1:])


def test_a_deal_cannot_be_prepared_once_the_exchange_began() -> None:
    s = play(prepared_game(PLAYERS, None, dealer=0, hands=HANDS), "give 2", 1)
    with pytest.raises(ValueError, match="before anyone gives"):
        deal_hands(s, HANDS)
