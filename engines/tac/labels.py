"""One-line bilingual labels for menu entries."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from engines.contract import Action, Text, tr
from engines.tac import content as cardlib
from engines.tac.board import WAIT, Board, field_name, marble_name
from engines.tac.plays import action_card
from engines.tac.state import TacState


def changes(before: Board, after: Board, lang: str = "en") -> tuple[list[str], list[str]]:
    """Marbles that moved (``a1 10→15``) and marbles knocked to their waiting areas."""
    moved: list[str] = []
    knocked: list[str] = []
    for m in range(16):
        if before.pos[m] != after.pos[m]:
            if after.pos[m] == WAIT:
                knocked.append(marble_name(m))
            else:
                moved.append(f"{marble_name(m)} {field_name(m, before.pos[m], lang)}→{field_name(m, after.pos[m], lang)}")
    return moved, knocked


class LazyLabel(Text):
    """A menu label written on first read: ``legal_actions`` lists every way to play a hand (a 7
    alone has hundreds), a random or bot player picks one, and a mail reads a dozen. Built from
    the same ``label`` call, so it is equal to, hashes and reads exactly like the eager Text; the
    arguments it closes over are the cached legal position's own (never changed once listed)."""

    __slots__ = ("_make",)

    def __init__(self, make: Callable[[], Text]) -> None:
        object.__setattr__(self, "_make", make)

    def __getattr__(self, name: str) -> Any:
        """Called for a Text slot not yet filled: write the label once, then read it."""
        if name not in ("msgid", "args", "context", "literal"):
            raise AttributeError(name)
        made = self._make()
        for slot in ("msgid", "args", "context", "literal"):
            object.__setattr__(self, slot, getattr(made, slot))
        return getattr(made, name)


def lazy_label(state: TacState, seat: int, action: Action, before: Board, after: Board | None) -> Text:
    """:func:`label`, written when first read (see :class:`LazyLabel`)."""
    return LazyLabel(lambda: label(state, seat, action, before, after))


def label(state: TacState, seat: int, action: Action, before: Board, after: Board | None) -> Text:
    kind = action.kind
    names = state.players
    if kind == "give":
        c = str(action.args[0])
        mate = names[(seat + 2) % 4]
        return tr("give your {name} to {mate}", mate=mate, name=cardlib.name_text(c))
    if kind == "discard":
        c = str(action.args[0])
        return tr("discard {name} without effect", name=cardlib.name_text(c))
    if kind == "tac":
        if state.pending is not None:
            return tr("play their TAC: the Devil turns on the next player")
        rec = state.last or {}
        card = str(rec.get("eff"))
        who = names[int(rec.get("seat", seat))]
        if rec.get("discarded"):  # TAC-70: nothing to undo, only the card's function
            return tr("TAC: nothing to undo; use the {name} of {who}'s discard", who=who, name=cardlib.name_text(card))
        return tr("TAC: undo {who}'s turn and use its {name}", who=who, name=cardlib.name_text(card))
    if kind == "devil":
        nxt = names[(seat + 1) % 4]
        return tr("Devil: look at {nxt}'s hand and play their turn", nxt=nxt)
    if kind == "fool":
        return tr("Fool: every hand passes to the right, then you play again")
    if kind == "skip":
        nxt = names[(seat + 1) % 4]
        return tr("8: {nxt} skips their turn", nxt=nxt)
    card = action_card(action)
    if after is None:
        return tr("play {name}", name=cardlib.name_text(card))
    moved, knocked = changes(before, after)
    moves = moves_text(before, after)
    if kind in ("open",) or (kind == "angel" and action.args[:1] == ("start",)):
        said = tr("{name}: open, {moves}", moves=moves, name=cardlib.name_text(card))
    elif moved:
        said = tr("{name}: {moves}", moves=moves, name=cardlib.name_text(card))
    else:
        said = tr("{name}: no marble moves", name=cardlib.name_text(card))
    if knocked:
        hit = ", ".join(knocked)
        said = tr("{said} (knocks {hit})", said=said, hit=hit)
    return said


def moves_text(before: Board, after: Board) -> Text:
    """The marbles' moves (``a1 10→15, b2 waiting→16``) as facts: a template no catalog
    translates, filled in the reader's language (the waiting area is a word) when read."""
    parts: list[str] = []
    args: dict[str, str | Text] = {}
    for m in range(16):
        if before.pos[m] != after.pos[m] and after.pos[m] != WAIT:
            i = len(parts)
            parts.append(f"{{m{i}}} {{a{i}}}→{{b{i}}}")
            args |= {f"m{i}": marble_name(m), f"a{i}": _field(m, before.pos[m]), f"b{i}": _field(m, after.pos[m])}
    return Text(", ".join(parts), args=args)


def _field(marble: int, p: int) -> str | Text:
    return tr("waiting") if p == WAIT else field_name(marble, p)
