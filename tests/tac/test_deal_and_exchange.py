"""Dealing, announcements and the secret partner exchange (TAC-3..6, TAC-13..17, TAC-25, TAC-87)."""

from __future__ import annotations

from collections import Counter

import pytest

from engines.contract import Action, IllegalCommand
from engines.tac import content as cardlib
from engines.tac.engine import ENGINE as E
from engines.tac.state import TacState

NAMES = ["Alice", "Bob", "Chi", "Dung"]


def all_cards(s: TacState) -> Counter[str]:
    return Counter(s.deck + s.pile + [c for h in s.hands for c in h])


def test_TAC_4_deck_composition() -> None:
    """TAC-4: "Basic deck: 1×9; 2–6 ×7 each; 7×8; 8, 9, 10, 12 ×7 each; 13×9; Trickser×7; TAC×4 = 100,
    with no 11. Master cards: Engel, Teufel, Krieger, Narr, one each." """
    base = Counter(cardlib.deck("base"))
    assert sum(base.values()) == 100 and "11" not in base
    assert base["1"] == 9 and base["13"] == 9 and base["7"] == 8 and base["trick"] == 7 and base["tac"] == 4
    master = Counter(cardlib.deck("master"))
    assert sum(master.values()) == 104
    assert all(master[c] == 1 for c in ("angel", "devil", "warrior", "fool"))


def test_TAC_5_and_6_start_position_and_five_cards() -> None:
    """TAC-5: "every marble is in its owner's waiting area"; TAC-6: "each player is dealt five"."""
    s = E.new_game(NAMES, None, 1)
    assert all(p == -1 for p in s.pos)
    assert [len(h) for h in s.hands] == [5, 5, 5, 5]
    assert all_cards(s) == Counter(cardlib.deck("base"))


def test_TAC_16_announcement_is_computed_and_public() -> None:
    """TAC-16: "each player declares only whether their hand holds a 1 or 13 … The engine computes and
    publishes this yes/no." """
    for seed in range(5):
        s = E.new_game(NAMES, None, seed)
        expected = [any(c in ("1", "13") for c in h) for h in s.hands]
        assert s.can == expected
        assert E.view(s, None)["announcements"] == expected


def test_TAC_17_exchange_is_secret_simultaneous_and_replaceable() -> None:
    """TAC-17: "Each player then gives exactly one card face down to their partner. The exchange is
    mandatory and simultaneous: each commits a card before seeing the one received." """
    s = E.new_game(NAMES, None, 7)
    assert E.to_act(s) == frozenset({0, 1, 2, 3})
    keys = [E.decision_key(s, p) for p in range(4)]
    hands = [list(h) for h in s.hands]
    gift0 = hands[0][0]
    s, events = E.apply(s, 0, Action("give", (gift0,)))
    assert [e for e in events if e.visible_to is None and gift0 in e.text.en.split()] == []
    assert E.to_act(s) == frozenset({1, 2, 3})
    assert [E.decision_key(s, p) for p in range(4)] == keys
    assert E.legal_actions(s, 0), "a seat that chose may still replace its choice"
    partner_view = E.view(s, 2)
    assert partner_view["exchange"]["your_gift"] is None and partner_view["hand"] == sorted(
        hands[2], key=cardlib.sort_key)
    replace = hands[0][-1]
    s, _ = E.apply(s, 0, Action("give", (replace,)))
    assert [E.decision_key(s, p) for p in range(4)] == keys
    for p in (1, 2, 3):
        s, _ = E.apply(s, p, Action("give", (hands[p][0],)))
    assert s.phase == "play"
    expected0 = Counter(hands[0]) - Counter([replace]) + Counter([hands[2][0]])
    assert Counter(s.hands[0]) == expected0
    assert Counter(s.hands[2]) == Counter(hands[2]) - Counter([hands[2][0]]) + Counter([replace])
    assert s.turn == (s.dealer + 1) % 4


def test_TAC_17_give_only_cards_you_hold() -> None:
    """TAC-17: the gift must be a card of your hand."""
    s = E.new_game(NAMES, None, 7)
    missing = next(c for c in ("1", "2", "3", "5", "9", "tac") if c not in s.hands[0])
    with pytest.raises(IllegalCommand):
        E.parse(s, 0, f"give {missing}")


def _play_out_deal(s: TacState) -> TacState:
    """Finish the exchange and every turn of the current deal with the heuristic bot."""
    deal = s.deals
    bot = E.bots()["heuristic"]
    import random

    rng = random.Random(0)
    while s.deals == deal and E.to_act(s):
        seat = min(E.to_act(s))
        s, _ = E.apply(s, seat, bot.choose(E, s, seat, rng))
    return s


def test_TAC_13_dealer_rotates_and_first_player_follows_dealer() -> None:
    """TAC-13: "When all hands are empty, the next player clockwise deals." TAC-15: "the player after the
    dealer plays first and deals next." """
    s = E.new_game(NAMES, None, 11)
    first_dealer = s.dealer
    assert s.turn == (first_dealer + 1) % 4
    s = _play_out_deal(s)
    if E.outcome(s) is None:
        assert s.dealer == (first_dealer + 1) % 4 and s.deals == 2
        assert all(len(h) == 5 for h in s.hands)


def test_TAC_14_and_87_reshuffle_only_when_the_pile_is_exhausted_master_round_of_six() -> None:
    """TAC-14: "Played cards are reshuffled only when the draw pile is exhausted"; TAC-87: "four deals of
    five, then a fifth deal of six each, the master round (80 + 24 = 104)." """
    s = E.new_game(NAMES, {"version": "master"}, 5)
    sizes = []
    for _ in range(5):
        sizes.append(len(s.hands[0]))
        assert all_cards(s) == Counter(cardlib.deck("master"))
        s = _play_out_deal(s)
        if E.outcome(s) is not None:
            pytest.skip("game ended early")
    assert sizes == [5, 5, 5, 5, 6]
    assert s.deals == 6 and len(s.deck) == 104 - 20


def test_TAC_25_player_with_empty_hand_is_skipped() -> None:
    """TAC-25: "a player with an empty hand is skipped; the deal ends when all hands are empty." """
    from engines.tac.setup import position

    s = position("a10 c20", {0: ["2"], 2: ["3"]})
    s, _ = E.apply(s, 0, E.parse(s, 0, "2 a1"))
    assert s.turn == 2


def test_card_data_is_validated_on_load() -> None:
    """Content is data: a broken ``cards.toml`` fails loudly, naming the problem."""
    from importlib import resources

    good = resources.files("engines.tac").joinpath("data", "cards.toml").read_text("utf-8")
    assert set(cardlib.load_cards(good)) == set(cardlib.CARDS)
    with pytest.raises(cardlib.CardDataError, match="deck sizes"):
        cardlib.load_cards(good.replace("count = 9\norder = 1\n", "count = 8\norder = 1\n", 1))
    with pytest.raises(cardlib.CardDataError, match="unknown card id '11'"):
        cardlib.load_cards(good + '\n[cards."11"]\ncount = 1\norder = 11\nen = "11"\nvi = "11"\n')
    with pytest.raises(cardlib.CardDataError, match="needs en"):
        cardlib.load_cards(good.replace('en = "Trickser"\n', "", 1))
