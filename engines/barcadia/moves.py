"""Which actions are legal now: the turn, the between-turns window and pending decisions.

Actions are ``engines.contract.Action`` values; their arguments are room numbers (0 = the
Starting Point), seat numbers, or card ids. ``commands.py`` turns them into text and back.
"""

from __future__ import annotations

from collections.abc import Iterator
from functools import lru_cache

from engines.barcadia import resolutions as R
from engines.barcadia.content import content
from engines.barcadia.hexes import frontier
from engines.barcadia.rules import hoard_room, is_portal, move_range, portal_tiles, tile_of
from engines.barcadia.state import (
    PHASE_CHARACTERS,
    PHASE_OVER,
    PHASE_PLACE,
    PHASE_TURN,
    PHASE_WINDOW,
    TILE,
    TRAPS,
    UP,
    BarcadiaState,
)
from engines.contract import Action, Seat

PASS = Action("pass")


@lru_cache(maxsize=16_384)
def _act(kind: str, args: tuple[str | int, ...]) -> Action:
    """One shared ``Action`` per (kind, args): actions are frozen values, and the same rooms,
    paths and cards come back on almost every step. Only for kinds whose arguments are room
    or seat numbers and card ids (never booleans, which would hash equal to 1 and 0)."""
    return Action(kind, args)


def legal(s: BarcadiaState, seat: Seat) -> list[Action]:
    if s.phase == PHASE_OVER:
        return []
    if s.pending:
        head = s.pending[0]
        if head["seat"] != seat:
            return []
        acts = pending_actions(s, head)
        if waits_in_own_turn(s, head):  # HB-51 (clarified)
            acts += iter_loot_plays(s, seat, "turn")
        return acts
    if s.phase == PHASE_PLACE:
        return place_actions(s) if seat == s.placing["order"][0] else []
    if s.phase == PHASE_CHARACTERS:
        return character_actions(s) if seat in s.window["asked"] else []
    if s.phase == PHASE_WINDOW:
        if seat not in s.window.get("asked", []):
            return []
        return [*loot_plays(s, seat, "between"), PASS, Action("autopass", (True,))]
    if s.phase == PHASE_TURN and seat == s.turn_seat:
        return turn_actions(s, seat)
    return []


def to_act(s: BarcadiaState) -> frozenset[Seat]:
    if s.phase == PHASE_OVER:
        return frozenset()
    if s.pending:
        return frozenset({s.pending[0]["seat"]})
    if s.phase == PHASE_PLACE:
        return frozenset({s.placing["order"][0]})
    if s.phase in (PHASE_WINDOW, PHASE_CHARACTERS):
        return frozenset(x for x in s.window.get("asked", []) if str(x) not in s.window["chosen"])
    return frozenset({s.turn_seat})


def waits_in_own_turn(s: BarcadiaState, head: dict[str, object]) -> bool:
    """HB-51 (clarified): the decision ``head`` is the active player's, in their own live turn,
    so their DURING_YOUR_TURN cards are playable at it (a dead player's turn is over, HB-66)."""
    return s.phase == PHASE_TURN and head["seat"] == s.turn_seat and not s.turn["over"]


def waiting_fight_roll(s: BarcadiaState) -> str:
    """The roll scope of the fight the active player's turn waits on ("" if none waits)."""
    if not s.pending or s.pending[0]["seat"] != s.turn_seat:
        return ""
    return R.WAITING_FIGHT_ROLL.get(s.pending[0]["kind"], "")


def cards_while_waiting(s: BarcadiaState, head: dict[str, object]) -> bool:
    """True if the owner of ``head`` could play a card instead of deciding at once."""
    return waits_in_own_turn(s, head) and has_loot_play(s, int(str(head["seat"])), "turn")


# ---------------------------------------------------------------------------


def opponents(s: BarcadiaState, seat: Seat) -> list[Seat]:
    return [o for o in range(s.n) if o != seat]


def enterable(s: BarcadiaState, room: int) -> bool:
    """HB-24: a face-up, unoccupied room (or the SP), never the Drink Hoard."""
    if room == 0:
        return True
    r = s.rooms[room]
    if not r[UP] or s.is_occupied(room):
        return False
    tile = tile_of(s, room)
    return tile is not None and tile.kind != "hoard"


def adjacent_opponents(s: BarcadiaState, seat: Seat) -> list[Seat]:
    here = s.adj[s.pos[seat]]
    return [o for o in opponents(s, seat) if s.pos[o] in here]


def duel_targets(s: BarcadiaState, seat: Seat) -> list[Seat]:
    """HB-56: an opponent in an adjacent room, never on the Starting Point."""
    return [o for o in adjacent_opponents(s, seat) if R.DUEL_ON_START_POINT or s.pos[o] != 0]


def paths(s: BarcadiaState, seat: Seat) -> list[tuple[int, ...]]:
    start = s.pos[seat]
    steps = move_range(s, seat)
    adj = s.adj
    out: list[tuple[int, ...]] = []
    # enterable() per room, asked once (walks revisit rooms); a path never returns to its start.
    open_rooms: dict[int, bool] = {start: False}

    def walk(room: int, path: tuple[int, ...]) -> None:
        for nb in adj[room]:
            ok = open_rooms.get(nb)
            if ok is None:
                ok = open_rooms[nb] = enterable(s, nb)
            if not ok or nb in path:
                continue
            p = (*path, nb)
            out.append(p)
            if len(p) < steps:
                walk(nb, p)

    walk(start, ())
    return out


def portal_rooms(s: BarcadiaState) -> list[int]:
    """The SP and every face-up Portal (``is_portal``, inlined: this runs on every turn step)."""
    portals = portal_tiles()
    return [0] + [i for i, r in enumerate(s.rooms) if i and r[UP] and r[TILE] in portals]


def stash_rooms(s: BarcadiaState) -> list[int]:
    """HB-54: an unoccupied room other than the SP or a face-up Drink Hoard."""
    hoard = hoard_room(s)
    return [i for i in range(1, len(s.rooms)) if i != hoard and not s.is_occupied(i)]


def trap_rooms(s: BarcadiaState) -> list[int]:
    """HB-60: any unoccupied room but the SP, face-down and the Drink Hoard included, < 3 traps."""
    if s.traps_left <= 0:
        return []
    return [i for i in range(1, len(s.rooms))
            if s.rooms[i][TRAPS] < R.MAX_TRAPS_PER_ROOM and not s.is_occupied(i)]


def turn_actions(s: BarcadiaState, seat: Seat) -> list[Action]:
    return list(iter_turn_actions(s, seat))


def iter_turn_actions(s: BarcadiaState, seat: Seat) -> Iterator[Action]:
    """The turn's legal actions in menu order, one at a time: ``turn_is_spent`` stops at the
    first that is not a pass, which spares the full list on most steps."""
    t = s.turn
    here = s.pos[seat]
    can_duel = t["duels"] > 0 and not t["acted"]
    if can_duel:
        for o in duel_targets(s, seat):
            yield _act("duel", (o,))
    if t["teleports"] > 0 and is_portal(s, here):
        for p in portal_rooms(s):
            if p == here:
                continue
            if p == 0 or not s.is_occupied(p) or (can_duel and R.PORTAL_DUEL_USES_DUEL):
                yield _act("portal", (p,))
    if t["actions"] > 0:
        for nb in s.adj[here]:
            if nb != 0 and not s.rooms[nb][UP]:
                yield _act("reveal", (nb,))
        for path in paths(s, seat):
            yield _act("enter", path)
        hoard = hoard_room(s)
        if hoard and hoard in s.adj[here] and len(s.powerups[seat]) >= R.POWERUPS_TO_ATTEMPT:
            yield Action("hoard")
    yield from iter_loot_plays(s, seat, "turn")
    yield PASS
    if s.autopass[seat]:
        yield Action("autopass", (False,))


def loot_plays(s: BarcadiaState, seat: Seat, timing: str) -> list[Action]:
    return list(iter_loot_plays(s, seat, timing))


def iter_loot_plays(s: BarcadiaState, seat: Seat, timing: str) -> Iterator[Action]:
    """The Loot cards ``seat`` may play now with ``timing``, card by card (see ``has_loot_play``)."""
    c = content()
    for card_id in sorted(set(s.hands[seat])):
        card = c.loot.get(card_id)
        if card is None or card.timing != timing:
            continue
        for args in effect_args(s, seat, card.effect.kind, card.effect.scope, card.effect.amount):
            yield _act("play", (card_id, *args))


def has_loot_play(s: BarcadiaState, seat: Seat, timing: str) -> bool:
    return next(iter_loot_plays(s, seat, timing), None) is not None


def effect_args(s: BarcadiaState, seat: Seat, kind: str, scope: str, amount: int) -> list[tuple[int, ...]]:
    """The argument tuples a Loot effect may take now (empty = unplayable now)."""
    t = s.turn
    mine = s.phase == PHASE_TURN and seat == s.turn_seat
    can_act = mine and t["actions"] > 0
    here = s.pos[seat]
    none: list[tuple[int, ...]] = [()]
    fight = waiting_fight_roll(s) if mine else ""
    if fight and kind in R.BARRED_WHILE_A_FIGHT_WAITS:
        return []
    if kind == "heal":
        return none if s.hp[seat] < R.FULL_HP else []
    if kind in ("damage_player",):
        return [(o,) for o in opponents(s, seat)]
    if kind == "roll_bonus":
        if scope == "Duel":
            return none if mine and t["duels"] > 0 and not t["acted"] else []
        if fight and scope in R.ROLL_SCOPES[fight]:
            return none  # for the roll of the fight that waits (HB-51)
        if scope == "Guardian":
            return none if can_act and len(s.powerups[seat]) >= R.POWERUPS_TO_ATTEMPT else []
        return none if can_act else []
    if kind == "extra_action":
        return none if mine else []
    if kind == "trap":
        return [(r,) for r in trap_rooms(s)]
    if kind == "disarm_target":
        return none if can_act and (not t["disarm"] or t["disarm"] > amount) else []
    if kind == "swap_rooms":
        free = [r for r in s.adj[here] if r != 0 and not s.is_occupied(r)]
        return [(a, b) for i, a in enumerate(free) for b in free[i + 1:]]
    if kind == "steal_loot":
        return [(o,) for o in adjacent_opponents(s, seat) if s.hands[o]]
    if kind == "shield":
        return none
    if kind == "draw_loot":
        return none if s.loot_deck or s.loot_discard else []
    if kind == "clear_traps":
        return [(r,) for r in s.adj[here] if s.rooms[r][TRAPS] > 0]
    if kind == "extra_duel":
        return none if mine and t["duels"] == 0 and not t["acted"] else []
    if kind == "damage_adjacent":
        return none if adjacent_opponents(s, seat) else []
    if kind == "recall":
        return none if here != 0 else []
    if kind == "blink":
        return [(r,) for r in s.adj[here] if enterable(s, r)]
    if kind == "extra_teleport":
        return none if mine and t["teleports"] == 0 else []
    return []


def pending_actions(s: BarcadiaState, p: dict[str, object]) -> list[Action]:
    seat = int(str(p["seat"]))
    kind = p["kind"]
    if kind == "teammate":
        return [Action("team", (o,)) for o in opponents(s, seat)]
    if kind == "boss":
        return [Action("boss", (o,)) for o in opponents(s, seat)]
    if kind == "guardian":
        return [Action("hoard"), Action("wait")]
    if kind in ("overflow", "death_drop"):
        return [Action("drop", (pu,)) for pu in sorted(set(s.powerups[seat]))]
    if kind == "stash":
        return [Action("put", (r,)) for r in stash_rooms(s)]
    if kind == "death_keep":
        return [Action("keep", (c,)) for c in sorted(set(s.hands[seat]))]
    return []


def free_characters(s: BarcadiaState) -> list[str]:
    """HB-68: the characters nobody has yet, in the content file's order."""
    return [c for c in content().characters if c not in s.characters]


def character_actions(s: BarcadiaState) -> list[Action]:
    return [_act("character", (c,)) for c in free_characters(s)]


def place_actions(s: BarcadiaState) -> list[Action]:
    placed = [(h[0], h[1]) for h in s.layout[1:]]
    return [Action("place", (q, r)) for q, r in frontier(placed)]


def turn_is_spent(s: BarcadiaState) -> bool:
    """HB-22: after the action, the engine ends the turn when nothing but passing remains."""
    if not s.turn["acted"] or s.turn["actions"] > 0:
        return False
    return all(a.kind in ("pass", "autopass") for a in iter_turn_actions(s, s.turn_seat))
