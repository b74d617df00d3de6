"""Dealing, the announcement and the secret partner exchange (TAC-6, TAC-13..17, TAC-87).

Like ``flow``, every function changes a state the caller owns (a clone).
"""

from __future__ import annotations

from engines.contract import Event, tr
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
    said_en = ", ".join(f"{state.players[p]}: {'I can' if state.can[p] else 'I cannot'}" for p in range(4))
    said_vi = ", ".join(f"{state.players[p]}: {'Tôi có thể' if state.can[p] else 'Tôi không thể'}" for p in range(4))
    dealer = state.players[state.dealer]
    return [
        Event(tr(f"Deal {state.deals}: {dealer} deals {per} cards each. Announcements: {said_en}.",
                 f"Ván chia {state.deals}: {dealer} chia mỗi người {per} lá. Thông báo: {said_vi}.")),
        Event(tr("Each player now gives one card face down to their partner (`give N`).",
                 "Mỗi người úp một lá đưa cho đồng đội (`give N` / `cho N`).")),
    ]


def choose_gift(state: TacState, seat: int, card: str) -> list[Event]:
    """Record (or replace) a secret exchange choice; resolve once all four have chosen (TAC-17)."""
    first = str(seat) not in state.gifts
    state.gifts = {**state.gifts, str(seat): card}
    events = []
    if first:
        events.append(Event(tr(f"{names(state, seat)} has chosen a card for their partner.",
                               f"{names(state, seat)} đã chọn lá bài cho đồng đội.")))
    mate = names(state, partner(seat))
    events.append(Event(tr(f"You will give your {cardlib.name(card)} to {mate}.",
                           f"Bạn sẽ đưa lá {cardlib.name(card, 'vi')} cho {mate}."), frozenset({seat})))
    if len(state.gifts) < 4:
        return events
    gifts = {int(k): v for k, v in state.gifts.items()}
    for p, c in gifts.items():
        state.hands[p].remove(c)
    for p, c in gifts.items():
        state.hands[partner(p)].append(c)
        to = partner(p)
        events.append(Event(tr(f"You received {cardlib.name(c)} from {names(state, p)}.",
                               f"Bạn nhận lá {cardlib.name(c, 'vi')} từ {names(state, p)}."), frozenset({to})))
    state.gifts = {}
    state.phase = "play"
    state.turn = (state.dealer + 1) % 4
    state.step_version = state.version
    events.append(Event(tr(f"The exchange is done. {names(state, state.turn)} plays first.",
                           f"Đã trao đổi xong. {names(state, state.turn)} đi trước.")))
    return events
