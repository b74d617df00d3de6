"""Prepared deals: a game whose cards are given, for replaying recorded games and for tests.

``prepared_game`` starts a game with a given dealer, first deal and draw pile; ``deal_hands``
replaces the hands of the deal that has just been dealt (before anyone gives a card in the
exchange), so a recorded game can be replayed deal by deal through the ordinary public API —
``parse`` and ``apply`` its commands — and a test can reach any mid-deal position by playing
commands from known hands, without touching JSON.

Hands are given per seat (``hands[0]`` is seat a's), as dealt, before the partner exchange.
The draw pile is given in the order it will be dealt: the next deal gives the seat after the
dealer ``pile[0:5]``, the seat after that ``pile[5:10]``, and so on (six each in the master
round). When the pile is used up the engine reshuffles with the game's seeded RNG, unless the
next deal is prepared too.

    >>> s = prepared_game(["A", "B", "C", "D"], None, dealer=3,
    ...                   hands=[["1", "13", "5", "7", "tac"], ["2"] * 5, ["3"] * 5, ["4"] * 5])
    >>> s.turn   # the seat after the dealer plays first, once the exchange is done
    0
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Mapping, Sequence
from typing import Any

from engines.tac import content as cardlib
from engines.tac.engine import ENGINE
from engines.tac.rules import ANNOUNCE_CARDS
from engines.tac.state import TacState


def prepared_game(players: Sequence[str], options: Mapping[str, Any] | None, *, dealer: int,
                  hands: Sequence[Sequence[str]], pile: Sequence[str] | None = None, seed: int = 0) -> TacState:
    """A new game: ``dealer`` deals ``hands`` (per seat); ``pile`` is the draw pile, next card first.

    Without ``pile`` the cards not in the hands form the draw pile in an arbitrary (seeded)
    order. ``seed`` drives later reshuffles. Raises ``ValueError`` for cards the deck does not
    hold, or a pile that is not exactly the rest of the deck.
    """
    return deal_hands(ENGINE.new_game(players, options, seed), hands, pile=pile, dealer=dealer)


def deal_hands(state: TacState, hands: Sequence[Sequence[str]], *, pile: Sequence[str] | None = None,
               dealer: int | None = None) -> TacState:
    """A copy of ``state`` in which the deal just dealt gave ``hands`` instead.

    Only at the start of a deal (the exchange open, nobody has chosen a card yet). The cards
    come from what this deal could have drawn: the dealt hands and the draw pile. ``pile``, if
    given, must be exactly the remaining cards, next card first; otherwise the remaining cards
    keep their order, with those freed from the old hands under them. ``dealer`` changes who
    dealt (and so who plays first); the announcements (TAC-16) follow the new hands.
    """
    if state.phase != "exchange" or state.gifts:
        raise ValueError("a deal can be prepared only right after it is dealt, before anyone gives a card")
    if dealer is not None and dealer not in range(4):
        raise ValueError(f"dealer must be a seat 0-3, not {dealer!r}")
    if len(hands) != 4:
        raise ValueError(f"give four hands (one per seat), not {len(hands)}")
    size = len(state.hands[(state.dealer + 1) % 4])
    for seat, hand in enumerate(hands):
        if len(hand) != size:
            raise ValueError(f"seat {seat}: this deal gives {size} cards, not {len(hand)}")
    named = {c for h in hands for c in h} | set(pile or ())
    unknown = sorted(named - set(cardlib.deck(state.options.get("version", "base"))))
    if unknown:
        raise ValueError(f"no such card in this game's deck: {', '.join(unknown)}")
    dealt = [c for h in state.hands for c in h]
    wanted = Counter(c for h in hands for c in h)
    missing = wanted - Counter(dealt + state.deck)
    if missing:
        raise ValueError(f"not left to deal in this shuffle: {', '.join(sorted(missing.elements()))}")
    if pile is not None:
        if Counter(pile) != Counter(dealt + state.deck) - wanted:
            raise ValueError("the draw pile must hold exactly the cards of this shuffle not in the hands")
        order = list(pile)
    else:
        # take the wanted cards from the old hands first, then from the top of the pile
        from_hands = wanted & Counter(dealt)
        need = wanted - from_hands
        order = []
        for card in reversed(state.deck):  # ``deck`` is popped from its end: next card last
            if need[card]:
                need[card] -= 1
            else:
                order.append(card)
        order += (Counter(dealt) - from_hands).elements()
    s = state.clone()
    s.hands = [list(h) for h in hands]
    s.deck = order[::-1]
    s.can = [any(c in ANNOUNCE_CARDS for c in h) for h in s.hands]
    if dealer is not None:
        s.dealer = dealer
        s.turn = (dealer + 1) % 4
    return s
