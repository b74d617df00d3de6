"""Turn flow: legal actions, carrying out a turn, whose turn, the TAC's undo, the Devil, winning
(TAC-18..25, TAC-54..85). Dealing and the exchange are in ``dealing``.

Every function takes a state the caller owns (a clone) and changes it in place; the engine
clones before calling, so ``apply`` stays pure.
"""

from __future__ import annotations

from typing import Any

from engines.contract import Action, Event, Text, tr
from engines.tac import content as cardlib
from engines.tac import dealing, rules
from engines.tac.board import Board
from engines.tac.dealing import names
from engines.tac.labels import changes, moves_text
from engines.tac.plays import Context, Uses, action_card, card_uses
from engines.tac.rules import SEVEN_IN_HOME_DEFAULT, SEVEN_STUCK_DEFAULT
from engines.tac.seven import HomeSteps
from engines.tac.state import TacState


def home_steps(state: TacState) -> HomeSteps:
    """The game's TAC-39 options (states stored before ``seven_stuck`` existed read its default)."""
    return HomeSteps(back=state.options.get("seven_in_home", SEVEN_IN_HOME_DEFAULT) == "both-ways",
                     stuck_after=state.options.get("seven_stuck", SEVEN_STUCK_DEFAULT) == "after-the-seven")


def context(state: TacState, seat: int) -> Context:
    return Context(home_steps(state), bool(state.hands[(seat + 1) % 4]))


# ---------------------------------------------------------------------------
# the TAC


def tac_card(state: TacState) -> str | None:
    """The card a TAC would take over now, or None when nothing may be undone (TAC-64, 70, 75, 80).

    After a discard the TAC takes over the discarded card's function, whatever the card — a
    discarded Devil or Fool included (TAC-70, TAC-80); a played Devil or Fool cannot be taken over.
    """
    rec = state.last
    if rec is None or rec.get("no_undo") or rec.get("eff") is None:
        return None
    eff = str(rec["eff"])
    if rec.get("discarded"):
        return eff
    if eff == "devil" or (eff == "fool" and not rules.TAC_AFTER_FOOL_PLAYABLE):
        return None
    return eff


def restored_board(state: TacState) -> Board:
    rec = state.last
    assert rec is not None
    return Board(list(rec["prior_pos"]), list(rec["prior_fresh"]))


def tac_uses(state: TacState, seat: int) -> Uses:
    """Uses of the retrieved card in the restored position; empty = the TAC is unplayable (TAC-55)."""
    eff = tac_card(state)
    if eff is None:
        return {}
    return card_uses(restored_board(state), seat, eff, context(state, seat))


# ---------------------------------------------------------------------------
# legal actions


def legal(state: TacState, seat: int) -> Uses:
    """Every legal action of ``seat`` with the marble position it leads to (cached per state)."""
    key = ("legal", seat)
    if key in state.cache:
        cached: Uses = state.cache[key]
        return cached
    uses = _legal(state, seat)
    state.cache[key] = uses
    return uses


def _distinct(hand: list[str]) -> list[str]:
    return sorted(set(hand), key=cardlib.sort_key)


def _legal(state: TacState, seat: int) -> Uses:
    if state.phase == "exchange":
        return {Action("give", (c,)): None for c in _distinct(state.hands[seat])}
    if state.phase != "play" or seat != state.turn:
        return {}
    board = state.board
    pending = state.pending
    if pending is not None and pending["kind"] == "use":
        return card_uses(board, seat, str(pending["card"]), context(state, seat))
    if pending is not None and pending["kind"] == "devil":
        victim = int(pending["victim"])
        out: Uses = {}
        for c in _distinct(state.hands[victim]):
            if c == "tac" and not pending.get("after_fool"):  # TAC-81: turns the Devil around
                out[Action("tac", ())] = None
                continue
            uses = card_uses(board, victim, c, context(state, victim))
            out.update(uses if uses else {Action("discard", (c,)): None})
        return out
    hand = state.hands[seat]
    has_tac = "tac" in hand and bool(tac_uses(state, seat))
    if state.threat is not None:  # TAC-75: a winning move must be answered with a playable TAC
        return {Action("tac", ()): None} if has_tac else {}
    if state.skipped:  # TAC-69: the skipped player may, not must, answer with a TAC
        out = {Action("discard", (c,)): None for c in _distinct(hand)}
        if has_tac:
            out[Action("tac", ())] = None
        return out
    if has_tac and not rules.TAC_FORCED_ONLY_AGAINST_WIN:  # TAC-66's stricter reading, when switched on
        return {Action("tac", ()): None}
    out = {}
    for c in _distinct(hand):
        if c == "tac":
            if has_tac:
                out[Action("tac", ())] = None
            continue
        out.update(card_uses(board, seat, c, context(state, seat)))
    if not out:
        out = {Action("discard", (c,)): None for c in _distinct(hand)}
    return out


# ---------------------------------------------------------------------------
# carrying out a turn


def _snapshot(state: TacState) -> dict[str, Any]:
    return {"prior_pos": state.pos.copy(), "prior_fresh": state.fresh.copy()}


def describe(state: TacState, seat: int, action: Action, before: Board, after: Board | None) -> Text:
    """One sentence saying what a play did, naming knocked marbles: a whole catalog sentence
    per shape of play, the moves and names filled in when a mail is written."""
    who = names(state, seat)
    card = cardlib.name_text(action_card(action))
    moved, knocked = changes(before, after) if after is not None else ([], [])
    moves = moves_text(before, after) if after is not None else Text.fixed("")
    out = ", ".join(knocked)
    if action.kind == "fool":
        return tr("{who} plays {card}: every hand passes to the right; they play again.", who=who, card=card)
    if action.kind == "skip":
        return tr("{who} plays {card}: {next} is skipped.", who=who, card=card, next=names(state, (seat + 1) % 4))
    if action.kind == "angel" and not action.args:
        return tr("{who} plays {card} without effect.", who=who, card=card)
    if moved and knocked:
        return tr("{who} plays {card}: {moves}; knocked out: {out}.", who=who, card=card, moves=moves, out=out)
    if moved:
        return tr("{who} plays {card}: {moves}.", who=who, card=card, moves=moves)
    if knocked:
        return tr("{who} plays {card}; knocked out: {out}.", who=who, card=card, out=out)
    return tr("{who} plays {card}.", who=who, card=card)


def next_with_cards(state: TacState, seat: int) -> int | None:
    """The next seat clockwise holding a card (TAC-25), possibly ``seat`` itself."""
    for k in range(1, 5):
        p = (seat + k) % 4
        if state.hands[p]:
            return p
    return None


def _winning_team(board: Board) -> int | None:
    for t in (0, 1):
        if board.team_finished(t):
            return t
    return None


def finish_turn(state: TacState, actor: int, action: Action, record: dict[str, Any]) -> list[Event]:
    """Store the turn for a later TAC, then find who acts next: deal, threat or the end (TAC-75)."""
    state.last = record
    state.turns += 1
    state.skipped = False
    state.pending = None
    state.threat = None
    events: list[Event] = []
    if action.kind == "skip":
        nxt: int | None = (actor + 1) % 4
        state.skipped = True
    elif action.kind == "fool":
        nxt = actor if state.hands[actor] else next_with_cards(state, actor)
    else:
        nxt = next_with_cards(state, actor)
    win = _winning_team(state.board)
    if win is not None:
        if nxt is not None:
            state.turn = nxt
            state.skipped = False
            state.threat = win
            state.cache.clear()
            if Action("tac", ()) in legal(state, nxt):
                p = names(state, nxt)
                return [Event(tr("All eight marbles of a team are home — {p} must answer with a TAC.", p=p))]
        state.threat = None
        state.phase = "over"
        state.winners = win
        state.cache.clear()
        a, b = names(state, win), names(state, win + 2)
        return [Event(tr("{a} and {b} have all eight marbles home and win!", a=a, b=b))]
    if nxt is None:
        state.dealer = (state.dealer + 1) % 4
        return dealing.deal(state)
    state.turn = nxt
    if state.skipped:
        p = names(state, nxt)
        events.append(Event(tr("{p} is skipped: discard a card (or answer with a TAC).", p=p)))
    return events


def play(state: TacState, seat: int, action: Action, after: Board | None) -> list[Event]:
    """Carry out a legal play of ``seat`` (``after`` = the resulting marbles from ``legal``)."""
    before = state.board
    pending = state.pending
    if pending is not None and pending["kind"] == "use":
        card = str(pending["card"])
        record = {"seat": seat, "eff": card, "prior_pos": pending["prior_pos"],
                  "prior_fresh": pending["prior_fresh"], "no_undo": bool(pending.get("no_undo"))}
        return _carry_out(state, seat, action, card, before, after, record)
    if pending is not None and pending["kind"] == "devil":
        victim = int(pending["victim"])
        card = "tac" if action.kind == "tac" else action_card(action)
        state.hands[victim].remove(card)
        state.pile.append(card)
        if action.kind == "tac":
            return _devil(state, victim, tac_answer=True)
        # TAC-80: a TAC may follow a Devil only through the victim's own TAC (TAC-81); the next
        # player's "previous turn" is the victim's lost turn, which has no card to take over —
        # except that a player skipped by an 8 played on the victim's behalf may answer it (TAC-69).
        record = {"seat": victim, "eff": "8" if action.kind == "skip" else None, **_snapshot(state)}
        events = [Event(tr("{names} picks {name} from {names2}'s hand.", names=names(state, seat), names2=names(state, victim), name=cardlib.name_text(card)))]
        events += _carry_out(state, victim, action, card, before, after, record)
        if action.kind == "fool" and state.phase == "play" and state.turn == victim:
            # TAC-59: the Devil's player makes the Fool's choices too, so the extra turn the Fool
            # gives is theirs to play, on the victim's behalf, from the victim's new hand
            state.turn = seat
            state.pending = {"kind": "devil", "victim": victim, "after_fool": True}
            events.append(Event(tr("{names} also plays {names2}'s extra turn.", names=names(state, seat), names2=names(state, victim))))
        return events
    card = action_card(action)
    state.hands[seat].remove(card)
    state.pile.append(card)
    if action.kind == "tac":
        return _tac(state, seat)
    if action.kind == "discard":
        # TAC-70: a later TAC takes over the discarded card's function (nothing is undone); for a
        # discarded TAC, the function of the card that TAC would have taken over
        eff = tac_card(state) if card == "tac" else card
        record = {"seat": seat, "eff": eff, "discarded": True, **_snapshot(state)}
        state.last_play = {"seat": seat, "card": card, "discard": True}
        who = names(state, seat)
        ev = Event(tr("{who} discards {name} without effect.", who=who, name=cardlib.name_text(card)))
        return [ev, *finish_turn(state, seat, action, record)]
    if action.kind == "devil":
        state.last_play = {"seat": seat, "card": card, "discard": False}
        return _devil(state, seat, tac_answer=False)
    record = {"seat": seat, "eff": card, **_snapshot(state)}
    return _carry_out(state, seat, action, card, before, after, record)


def _carry_out(state: TacState, seat: int, action: Action, card: str, before: Board, after: Board | None,
               record: dict[str, Any]) -> list[Event]:
    if action.kind == "discard":
        state.last_play = {"seat": seat, "card": card, "discard": True}
        who = names(state, seat)
        ev = Event(tr("{name} is discarded from {who}'s hand without effect.", who=who, name=cardlib.name_text(card)))
        return [ev, *finish_turn(state, seat, action, record)]
    if after is not None:
        state.set_board(after)
    if action.kind == "fool":
        old = state.hands
        state.hands = [old[(p + 1) % 4] for p in range(4)]
    if action.kind == "devil":
        state.last_play = {"seat": seat, "card": card, "discard": False}
        return _devil(state, seat, tac_answer=False)
    said = describe(state, seat, action, before, after)
    state.last_play = {"seat": seat, "card": card, "discard": False, "text": said.to_json()}
    return [Event(said), *finish_turn(state, seat, action, record)]


def _tac(state: TacState, seat: int) -> list[Event]:
    """Undo the previous turn and let ``seat`` use its card (TAC-54, TAC-68, TAC-74, TAC-75)."""
    rec = state.last
    eff = tac_card(state)
    assert rec is not None and eff is not None
    pending: dict[str, Any] = {"kind": "use", "card": eff, **_snapshot(state), "no_undo": state.threat is not None}
    state.set_board(restored_board(state))
    state.pending = pending
    state.threat = None
    state.skipped = False
    who = names(state, seat)
    undone = names(state, int(rec["seat"]))
    state.last_play = {"seat": seat, "card": "tac", "discard": False}
    if rec.get("discarded"):  # TAC-70: nothing is undone
        return [Event(tr("{who} plays TAC on {undone}'s discard: {who} now uses the {name}.", who=who, undone=undone, name=cardlib.name_text(eff)))]
    return [Event(tr("{who} plays TAC: {undone}'s turn is undone; {who} now uses the {name}.", who=who, undone=undone, name=cardlib.name_text(eff)))]


def _devil(state: TacState, seat: int, tac_answer: bool) -> list[Event]:
    """Start a Devil turn: ``seat`` looks at the next hand and plays one of its cards (TAC-58, 81)."""
    victim = (seat + 1) % 4
    who, vic = names(state, seat), names(state, victim)
    lead = (tr("{names} picked {who}'s TAC: it turns the Devil on {vic}.", names=names(state, (seat - 1) % 4), who=who, vic=vic)
            if tac_answer else tr("{who} plays the Devil on {vic}.", who=who, vic=vic))
    if not state.hands[victim]:
        record = {"seat": seat, "eff": None, **_snapshot(state)}
        ev = Event(tr("{vic} holds no card: the Devil has no effect.", vic=vic))
        return [Event(lead), ev, *finish_turn(state, victim, Action("devil", ()), record)]
    state.turn = seat
    state.pending = {"kind": "devil", "victim": victim}
    return [Event(lead)]


def winning_team_of(board: Board) -> int | None:
    """The team with all eight marbles home in ``board``, if any."""
    return _winning_team(board)
