"""Warnings on menu choices that lose the game at once (GR-49, GR-53).

Why a module: a player choosing from a numbered menu should not lose a whole game by a
one-digit reply without being told. The warning is worked out by playing the choice on a copy of
the position, so it always agrees with the rules; but only from what the chooser may know:

- a choice whose result depends on a hidden card (a Trap's draw, Clumsy's draw) or on the hidden
  RNG (Panicked's random tile) gets no warning — computing one would leak the card;
- the Support tiles other players placed face down are secret until the Mission ends, so the copy
  leaves them out; when someone has placed one, the warning says the group's help may still save
  the game.
"""

from __future__ import annotations

from engines.contract import Action, Text, tr
from engines.grizzled import rules
from engines.grizzled.content import content
from engines.grizzled.state import OVER, TURN, GrizzledState


def _ends_mission(s: GrizzledState, seat: int, action: Action) -> bool:
    """Cheap first look: can this choice end the Mission without drawing a hidden card?"""
    if action.kind == "play":
        card = content().faces[str(action.args[0])]
        counts = rules.threat_counts(s)
        counts.update(card.threats)
        fails = bool(counts) and max(counts.values()) >= rules.FAILURE_COUNT
        return fails  # a Trap whose own card fails the Mission draws nothing (GR-28)
    if action.kind == "withdraw":
        last = all(s.withdrawn[p] for p in range(s.n) if p != seat)
        clumsy = rules.withdrawal_effect(s, seat, "clumsy_draw") and bool(s.trials)
        random_tile = action.args[0] is None and len(s.tiles[seat]) > (1 if action.args[1] else 0)
        return last and not clumsy and not random_tile
    return False


def warning(s: GrizzledState, seat: int, action: Action) -> Text | None:
    """A warning for a choice that loses the game at once, or ``None``."""
    if s.phase != TURN or not _ends_mission(s, seat, action):
        return None
    copy = s.clone()
    others_placed = any(copy.placed_tile[p] is not None for p in range(s.n) if p != seat)
    for p in range(s.n):
        if p != seat:
            copy.placed_tile[p] = None
            copy.placed_to[p] = None
    events: rules.Events = []
    if action.kind == "play":
        rules.play(copy, seat, str(action.args[0]), events)
    else:
        place, drop = action.args
        rules.withdraw(copy, seat, None if place is None else str(place), None if drop is None else str(drop), events)
    if copy.phase != OVER or copy.result != "lost":
        return None
    why = _why(copy)
    if others_placed:
        return tr("WARNING: loses the game unless the group's help saves it — {why}", why=why)
    return tr("WARNING: loses the game at once — {why}", why=why)


def _why(lost: GrizzledState) -> Text:
    """The loss in a few words, naming who carries the Hard Knocks."""
    if lost.reason == "knocks":
        who = next(p for p in range(lost.n) if rules.weight(lost, p) >= rules.KNOCK_LIMIT)
        name, weight = lost.players[who], rules.weight(lost, who)
        return tr("{name} carries Hard Knocks weighing {weight}", name=name, weight=weight)
    if lost.reason == "monument":
        return tr("the Morale Reserve runs out")
    return rules.REASONS[lost.reason]
