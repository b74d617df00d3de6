"""What a card can do in a position: every legal use, with the marble position it leads to.

One function per card family, all pure. ``card_uses`` answers "which ways exist to carry
out this card for this seat", which is what forced play (TAC-20..22), the TAC's condition
(TAC-55) and the Devil (TAC-59) all ask.
"""

from __future__ import annotations

from dataclasses import dataclass

from engines.contract import Action
from engines.tac import seven
from engines.tac.board import (
    HOME,
    LETTERS,
    WAIT,
    Board,
    backward_dests,
    controlled_seat,
    forward_dests,
    marble_name,
    move_to,
    partner,
    place_on_start,
)
from engines.tac.content import NUMBER_CARDS
from engines.tac.rules import (
    ANGEL_FINISHED_GOES_TO_PARTNER,
    SKIP_NEEDS_VICTIM_CARDS,
    TRICK_CLEARS_FRESH,
    WARRIOR_ALONE_KNOCKS_ITSELF,
)

MARBLE_BY_NAME: dict[str, int] = {marble_name(m): m for m in range(16)}


@dataclass(frozen=True)
class Context:
    """What besides the marbles decides a card's uses."""

    home: seven.HomeSteps  # TAC-39 options: how the 7 steps inside a home
    next_has_cards: bool  # TAC-51: may the 8 skip the next player?


Uses = dict[Action, Board | None]


def part_text(marble: int, steps: int, end: int) -> str:
    """One part of a 7 split: ``a1:4`` (ends on the ring) or ``a1:3>h1`` (ends in the home)."""
    text = f"{marble_name(marble)}:{steps}"
    return text + f">h{end - HOME + 1}" if end >= HOME else text


def _moves(board: Board, ctrl: int, card: str, uses: Uses) -> None:
    n = int(card)
    ring = board.ring()
    for m in range(4 * ctrl, 4 * ctrl + 4):
        if board.pos[m] == WAIT:
            continue
        dests = backward_dests(board, m, 4, ring) if card == "4" else forward_dests(board, m, n, ring)
        for dest in dests:
            after = board.copy()
            move_to(after, m, dest)
            uses[Action("move", (card, marble_name(m), dest))] = after


def _open(board: Board, ctrl: int, card: str, uses: Uses) -> None:
    waiting = board.waiting(ctrl)
    if waiting:
        after = board.copy()
        place_on_start(after, waiting[0])
        uses[Action("open", (card, LETTERS[ctrl]))] = after


def _sevens(board: Board, seat: int, ctx: Context, uses: Uses) -> None:
    for parts, after in seven.outcomes(board, seat, ctx.home).values():
        uses[Action("seven", tuple(part_text(m, k, e) for m, k, e in parts))] = after


def _tricks(board: Board, ctrl: int, uses: Uses) -> None:
    ring = sorted(m for m in range(16) if 0 <= board.pos[m] < HOME)
    if len(ring) < 2 or not board.on_ring(ctrl):
        return
    for i, a in enumerate(ring):
        for b in ring[i + 1:]:
            after = board.copy()
            after.pos[a], after.pos[b] = board.pos[b], board.pos[a]
            if TRICK_CLEARS_FRESH:
                after.fresh[a] = after.fresh[b] = False
            uses[Action("trick", (marble_name(a), marble_name(b)))] = after


def warrior_target(board: Board, marble: int) -> int:
    """The nearest marble ahead on the ring (TAC-60); the marble itself when alone (TAC-62)."""
    p = board.pos[marble]
    ring = board.ring()
    for k in range(1, 64):
        other = ring.get((p + k) % 64)
        if other is not None:
            return other
    return marble


def _warriors(board: Board, ctrl: int, uses: Uses) -> None:
    for m in board.on_ring(ctrl):
        target = warrior_target(board, m)
        after = board.copy()
        if target == m:
            if WARRIOR_ALONE_KNOCKS_ITSELF:
                after.knock(m)
        else:
            dest = board.pos[target]
            after.knock(target)
            after.pos[m] = dest
            after.fresh[m] = False
        uses[Action("warrior", (marble_name(m),))] = after


def angel_target(board: Board, seat: int) -> int:
    """Whose marbles the Angel acts on: the next player, or their partner if finished (TAC-57)."""
    target = (seat + 1) % 4
    if ANGEL_FINISHED_GOES_TO_PARTNER and board.finished(target):
        return partner(target)
    return target


def _angel(board: Board, seat: int, uses: Uses) -> None:
    target = angel_target(board, seat)
    waiting = board.waiting(target)
    if waiting:
        after = board.copy()
        place_on_start(after, waiting[0])
        uses[Action("angel", ("start",))] = after
        return
    ring = board.ring()
    for value in ("1", "13"):
        for m in board.on_ring(target):
            for dest in forward_dests(board, m, int(value), ring):
                after = board.copy()
                move_to(after, m, dest)
                uses[Action("angel", (value, marble_name(m), dest))] = after
    if not uses:
        uses[Action("angel", ())] = board.copy()


def card_uses(board: Board, seat: int, card: str, ctx: Context) -> Uses:
    """Every legal way for ``seat`` to carry out ``card`` (not the TAC: see the engine)."""
    uses: Uses = {}
    ctrl = controlled_seat(board, seat)
    if card == "7":
        _sevens(board, seat, ctx, uses)
    elif card in NUMBER_CARDS:
        if card in ("1", "13"):
            _open(board, ctrl, card, uses)
        _moves(board, ctrl, card, uses)
        if card == "8" and board.on_ring(ctrl) and (ctx.next_has_cards or not SKIP_NEEDS_VICTIM_CARDS):
            uses[Action("skip", ("8",))] = None
    elif card == "trick":
        _tricks(board, ctrl, uses)
    elif card == "warrior":
        _warriors(board, ctrl, uses)
    elif card == "angel":
        _angel(board, seat, uses)
    elif card in ("devil", "fool"):
        uses[Action(card, ())] = None
    return uses


def action_card(action: Action) -> str:
    """The card an action plays (or gives/discards)."""
    if action.kind in ("move", "open", "skip", "give", "discard"):
        return str(action.args[0])
    if action.kind == "seven":
        return "7"
    return action.kind
