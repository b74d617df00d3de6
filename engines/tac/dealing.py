"""Dealing, the announcement and the secret partner exchange (TAC-6, TAC-13..17, TAC-87).

Like ``flow``, every function changes a state the caller owns (a clone).
"""

from __future__ import annotations

from engines.contract import Event, Text, tr
from engines.i18n import each_lang
from engines.rng import Rng
from engines.tac import content as cardlib
from engines.tac.board import partner
from engines.tac.rules import ANNOUNCE_CARDS, CARDS_PER_DEAL, DEALS_PER_SHUFFLE, MASTER_ROUND_CARDS
from engines.tac.state import TacState


def names(state: TacState, seat: int) -> str:
    return state.players[seat]


def deal(state: TacState) -> list[Event]:
    """Deal a new hand to everyone (TAC-6, TAC-13, TAC-14, TAC-87) and open the exchange."""
    rng = Rng(state.rng)
    master = state.options.get("version") == "master"
    if state.shuffle_deal >= DEALS_PER_SHUFFLE or not state.deck:
        state.deck = state.deck + state.pile
        state.pile = []
        rng.shuffle(state.deck)
        state.shuffle_deal = 0
    per = MASTER_ROUND_CARDS if master and state.shuffle_deal == DEALS_PER_SHUFFLE - 1 else CARDS_PER_DEAL
    for i in range(4):
        seat = (state.dealer + 1 + i) % 4
        state.hands[seat] = [state.deck.pop() for _ in range(per)]
    state.rng = rng.state
    state.shuffle_deal += 1
    state.deals += 1
    state.can = [any(c in ANNOUNCE_CARDS for c in h) for h in state.hands]
    state.phase = "exchange"
    state.gifts = {}
    state.last = None
    state.threat = None
    state.pending = None
    state.skipped = False
    state.turn = (state.dealer + 1) % 4
    state.step_version = state.version
    announced = [tr("{players}: I can", players=state.players[p]) if state.can[p] else
                 tr("{players}: I cannot", players=state.players[p])
                 for p in range(4)]
    said = each_lang(_joined, announced)
    dealer = state.players[state.dealer]
    return [
        Event(tr("Deal {deals}: {dealer} deals {per} cards each. Announcements: {said}.", deals=state.deals, dealer=dealer, per=per, said=said)),
        Event(tr("Each player now gives one card face down to their partner (`give N`).")),
    ]


def choose_gift(state: TacState, seat: int, card: str) -> list[Event]:
    """Record (or replace) a secret exchange choice; resolve once all four have chosen (TAC-17)."""
    first = str(seat) not in state.gifts
    state.gifts = {**state.gifts, str(seat): card}
    events = []
    if first:
        events.append(Event(tr("{names} has chosen a card for their partner.", names=names(state, seat))))
    mate = names(state, partner(seat))
    events.append(Event(tr("You will give your {name} to {mate}.", mate=mate, name=cardlib.name_text(card)), frozenset({seat})))
    if len(state.gifts) < 4:
        return events
    gifts = {int(k): v for k, v in state.gifts.items()}
    for p, c in gifts.items():
        state.hands[p].remove(c)
    for p, c in gifts.items():
        state.hands[partner(p)].append(c)
        to = partner(p)
        events.append(Event(tr("You received {name} from {names}.", names=names(state, p), name=cardlib.name_text(c)), frozenset({to})))
    state.gifts = {}
    state.phase = "play"
    state.turn = (state.dealer + 1) % 4
    state.step_version = state.version
    events.append(Event(tr("The exchange is done. {names} plays first.", names=names(state, state.turn))))
    return events


def _joined(texts: list[Text], lang: str) -> str:
    """Texts in ``lang``, comma-separated (for ``each_lang``)."""
    return ", ".join(t.get(lang) for t in texts)
