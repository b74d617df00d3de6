"""Carrying out actions and moving the game along: turns, pending decisions, the window.

``execute`` performs one legal action on a private copy of the state; ``advance`` then does
everything that needs nobody's decision (auto-resolving one-option choices, ending a spent
turn, opening and closing the between-turns window, starting the next turn) and stops at the
next decision.

The between-turns window (HB-26), designed for mail: only seats that hold a playable
BETWEEN_TURNS card and have not set auto-pass are asked, all at once, as a secret
simultaneous step (replaceable until the last asked seat has chosen). Choices resolve
clockwise from the next player. A seat that played is asked again while it can still play;
a seat that passed is done until the next window. ``autopass`` = pass now and in every
later window until the player turns it off on their own turn.
"""

from __future__ import annotations

from typing import Any

from engines.barcadia import moves
from engines.barcadia import resolutions as R
from engines.barcadia.content import content
from engines.barcadia.rules import (
    Events,
    boss_battle,
    card_of,
    damage,
    drop_powerup,
    duel,
    enter,
    fight_guardian,
    fight_monster,
    gain_loot,
    grant,
    heal,
    hoard_room,
    keep_one_loot,
    move_into,
    name,
    permanent_effects,
    room_label,
    say,
    spring_traps,
    team_battle,
    tile_of,
)
from engines.barcadia.setup import empty_room, open_character_choice
from engines.barcadia.state import (
    KNOWN,
    PHASE_CHARACTERS,
    PHASE_OVER,
    PHASE_PLACE,
    PHASE_TURN,
    PHASE_WINDOW,
    TRAPS,
    UP,
    BarcadiaState,
    new_turn_flags,
)
from engines.barcadia.words import played_text
from engines.contract import Action, Seat, tr, trc
from engines.rng import Rng


def execute(s: BarcadiaState, seat: Seat, a: Action, ev: Events) -> None:
    """Carry out a legal action (already checked by the engine)."""
    if s.pending and a.kind == "play":  # a card played while the turn waits (HB-51)
        play_loot(s, seat, a, ev)
    elif s.pending:
        resolve_pending(s, seat, a, ev)
    elif s.phase == PHASE_PLACE:
        place_tile(s, seat, int(str(a.args[0])), int(str(a.args[1])), ev)
    elif s.phase == PHASE_WINDOW:
        choose_in_window(s, seat, a, ev)
    elif s.phase == PHASE_CHARACTERS:
        choose_character(s, seat, a, ev)
    else:
        turn_action(s, seat, a, ev)
    advance(s, ev)


# ---------------------------------------------------------------------------
# The turn


def use_action(s: BarcadiaState) -> None:
    s.turn["actions"] -= 1
    s.turn["acted"] = True


def turn_action(s: BarcadiaState, seat: Seat, a: Action, ev: Events) -> None:
    t = s.turn
    if a.kind == "pass":
        say(ev, tr("{name} ends the turn.", name=name(s, seat)))
        t["over"] = True
    elif a.kind == "autopass":
        s.autopass[seat] = bool(a.args[0])
        say(ev, tr("Auto-pass is off: you will be asked between turns again."), frozenset({seat}))
    elif a.kind == "duel":
        t["duels"] -= 1
        duel(s, seat, int(str(a.args[0])), ev)
    elif a.kind == "portal":
        teleport(s, seat, int(str(a.args[0])), ev)
    elif a.kind == "reveal":
        use_action(s)
        reveal(s, seat, int(str(a.args[0])), ev)
    elif a.kind == "enter":
        use_action(s)
        for room in a.args:
            if not enter(s, seat, int(str(room)), ev):
                break
    elif a.kind == "hoard":
        use_action(s)
        fight_guardian(s, seat, hoard_room(s), ev)
    elif a.kind == "play":
        play_loot(s, seat, a, ev)


def teleport(s: BarcadiaState, seat: Seat, room: int, ev: Events) -> None:
    """HB-37/38: once a turn, to another face-up portal; an opponent there may be duelled."""
    s.turn["teleports"] -= 1
    occupants = [o for o in s.occupants(room) if o != seat] if room != 0 else []
    if occupants:
        if R.PORTAL_DUEL_USES_DUEL:
            s.turn["duels"] -= 1
        say(ev, tr("{name} steps through the portal to {room_label}.", name=name(s, seat), room_label=room_label(room)))
        duel(s, seat, occupants[0], ev, into=room)
        return
    say(ev, tr("{name} teleports to {room_label}.", name=name(s, seat), room_label=room_label(room)))
    enter(s, seat, room, ev)


def reveal(s: BarcadiaState, seat: Seat, room: int, ev: Events) -> None:
    """HB-23: traps, then turn the tile face up and resolve it by type (section 4)."""
    if not spring_traps(s, seat, room, ev):
        return  # died: the room stays face down (scenario 11)
    r = s.rooms[room]
    r[UP] = True
    r[KNOWN] = True
    tile = tile_of(s, room)
    assert tile is not None
    c = content()
    who, kind = name(s, seat), KIND_NAMES[tile.kind]
    if tile.level:
        say(ev, tr("{name} reveals room {room}: {name2}, a {kind} (level {level}, damage {damage}).", name=who,
                   room=room, name2=tile.name, kind=kind, level=tile.level, damage=tile.damage))
    elif tile.damage:
        say(ev, tr("{name} reveals room {room}: {name2}, a {kind} (damage {damage}).", name=who, room=room,
                   name2=tile.name, kind=kind, damage=tile.damage))
    else:
        say(ev, tr("{name} reveals room {room}: {name2}, a {kind}.", name=who, room=room, name2=tile.name, kind=kind))
    if tile.kind == "monster":
        fight_monster(s, seat, room, ev)
    elif tile.kind in ("team", "boss"):
        s.pending.append({"kind": "teammate" if tile.kind == "team" else "boss", "seat": seat, "room": room})
    elif tile.kind == "reward":
        say(ev, tr("{name} enters room {room}.", name=name(s, seat), room=room))
        move_into(s, seat, room, ev)
        grant(s, seat, tile, ev)
    elif tile.kind == "portal":
        say(ev, tr("{name} enters room {room}.", name=name(s, seat), room=room))
        move_into(s, seat, room, ev)
    elif tile.kind == "hoard":
        if len(s.powerups[seat]) >= R.POWERUPS_TO_ATTEMPT:
            s.pending.append({"kind": "guardian", "seat": seat, "room": room})
        else:
            say(ev, tr("{name} has fewer than 3 Power-Ups and stays put (Guardian level {level}).", name=name(s, seat), level=c.hoard.level))


#: A room kind's name in the reveal sentence (catalog words, msgctxt "room kind").
KIND_NAMES = {
    "monster": trc("room kind", "Monster"),
    "team": trc("room kind", "Monster Team Battle"),
    "boss": trc("room kind", "Boss"),
    "reward": trc("room kind", "Reward"),
    "portal": trc("room kind", "Magic Portal"),
    "hoard": trc("room kind", "Drink Hoard"),
}


# ---------------------------------------------------------------------------
# Loot


def play_loot(s: BarcadiaState, seat: Seat, a: Action, ev: Events) -> None:
    card = card_of(str(a.args[0]))
    args = [int(str(x)) for x in a.args[1:]]
    s.hands[seat].remove(card.id)
    s.loot_discard.append(card.id)
    e = card.effect
    # Told to everyone, so never the card's own "you" text: what it does, or whom it targets.
    does = played_text(e.kind, e.scope, e.amount)
    who = name(s, seat)
    target = name(s, args[0]) if e.kind in ("damage_player", "steal_loot") and args else ""
    if target:
        say(ev, tr("{who} plays {name} on {target}.", who=who, name=card.name, target=target))
    elif does:
        say(ev, tr("{who} plays {name} ({does}).", who=who, name=card.name, does=does))
    else:
        say(ev, tr("{who} plays {name}.", who=who, name=card.name))
    t = s.turn
    if e.kind == "heal":
        heal(s, seat, e.amount, ev)
    elif e.kind == "damage_player":
        damage(s, args[0], e.amount, "Loot", ev)
    elif e.kind == "roll_bonus":
        t["bonus"].append([e.scope, e.amount])
    elif e.kind == "extra_action":
        t["actions"] += e.amount
    elif e.kind == "trap":
        s.rooms[args[0]][TRAPS] += 1
        s.traps_left -= 1
        say(ev, tr("A trap is set in room {args}.", args=args[0]))
    elif e.kind == "disarm_target":
        t["disarm"] = e.amount
    elif e.kind == "swap_rooms":
        swap_rooms(s, args[0], args[1], ev)
    elif e.kind == "steal_loot":
        steal(s, seat, args[0], ev)
    elif e.kind == "shield":
        s.shield[seat] += e.amount
    elif e.kind == "draw_loot":
        gain_loot(s, seat, e.amount, ev)
    elif e.kind == "clear_traps":
        s.traps_left += s.rooms[args[0]][TRAPS]
        s.rooms[args[0]][TRAPS] = 0
        say(ev, tr("Room {args} is cleared of traps.", args=args[0]))
    elif e.kind == "extra_duel":
        t["duels"] += 1
    elif e.kind == "damage_adjacent":
        for o in moves.adjacent_opponents(s, seat):
            damage(s, o, e.amount, "Loot", ev)
    elif e.kind == "recall":
        say(ev, tr("{name} returns to the Starting Point.", name=name(s, seat)))
        move_into(s, seat, 0, ev)
    elif e.kind == "blink":
        enter(s, seat, args[0], ev)
    elif e.kind == "extra_teleport":
        t["teleports"] += 1


def swap_rooms(s: BarcadiaState, a: int, b: int, ev: Events) -> None:
    """Tiles change places with everything on them; positions (room numbers) stay."""
    s.rooms[a], s.rooms[b] = s.rooms[b], s.rooms[a]
    say(ev, tr("Rooms {a} and {b} swap places.", a=a, b=b))


def steal(s: BarcadiaState, seat: Seat, victim: Seat, ev: Events) -> None:
    rng = Rng(s.rng)
    i = rng.below(len(s.hands[victim]))
    s.rng = rng.state
    card = s.hands[victim].pop(i)
    s.hands[seat].append(card)
    shown = card_of(card).name
    say(ev, tr("{name} steals a Loot card from {name2}.", name=name(s, seat), name2=name(s, victim)))
    say(ev, tr("The stolen card is {shown}.", shown=shown), frozenset({seat, victim}))


# ---------------------------------------------------------------------------
# Pending decisions


def resolve_pending(s: BarcadiaState, seat: Seat, a: Action, ev: Events) -> None:
    p = s.pending.pop(0)
    kind = p["kind"]
    if kind == "teammate":
        team_battle(s, seat, int(str(a.args[0])), p["room"], ev)
    elif kind == "boss":
        boss_battle(s, seat, int(str(a.args[0])), p["room"], ev)
    elif kind == "guardian":
        if a.kind == "hoard":
            fight_guardian(s, seat, p["room"], ev)
        else:
            say(ev, tr("{name} does not fight the Guardian now.", name=name(s, seat)))
    elif kind == "overflow":
        s.pending.insert(0, {"kind": "stash", "seat": seat, "pu": a.args[0]})
    elif kind == "stash":
        drop_powerup(s, seat, str(p["pu"]), int(str(a.args[0])), ev)
        if len(s.powerups[seat]) > R.MAX_POWERUPS:
            s.pending.insert(0, {"kind": "overflow", "seat": seat})
    elif kind == "death_drop":
        drop_powerup(s, seat, str(a.args[0]), p["room"], ev)
    elif kind == "death_keep":
        keep_one_loot(s, seat, str(a.args[0]), ev)


def auto_resolve(s: BarcadiaState, ev: Events) -> bool:
    """Settle the head pending decision when it has one option (or none left); True if it did."""
    head = s.pending[0]
    seat = head["seat"]
    if head["kind"] == "overflow" and len(s.powerups[seat]) <= R.MAX_POWERUPS:
        s.pending.pop(0)
        return True
    if head["kind"] == "death_drop" and not s.powerups[seat]:
        s.pending.pop(0)
        return True
    if head["kind"] == "death_keep" and len(set(s.hands[seat])) <= 1:
        s.pending.pop(0)
        keep_one_loot(s, seat, s.hands[seat][0] if s.hands[seat] else "", ev)
        return True
    options = moves.pending_actions(s, head)
    if head["kind"] != "guardian" and len(options) == 1 and not moves.cards_while_waiting(s, head):
        resolve_pending(s, seat, options[0], ev)
        return True
    if not options:
        s.pending.pop(0)
        return True
    return False


# ---------------------------------------------------------------------------
# The window between turns


def eligible(s: BarcadiaState, seat: Seat) -> bool:
    return not s.autopass[seat] and moves.has_loot_play(s, seat, "between")


def clockwise_from_next(s: BarcadiaState) -> list[Seat]:
    return [(s.turn_seat + k) % s.n for k in range(1, s.n + 1)]


def end_turn(s: BarcadiaState) -> None:
    s.phase = PHASE_WINDOW
    s.window = {"open": False, "next": clockwise_from_next(s), "asked": [], "chosen": {}}


def record_choice(s: BarcadiaState, seat: Seat, a: Action) -> bool:
    """Record ``seat``'s secret choice in the open window; True if it is the seat's first one.

    The window gets new dicts: clones share it (``BarcadiaState.clone``)."""
    chosen: dict[str, Any] = dict(s.window["chosen"])
    first = str(seat) not in chosen
    chosen[str(seat)] = a.to_json()
    s.window = dict(s.window, chosen=chosen)
    return first


def choose_in_window(s: BarcadiaState, seat: Seat, a: Action, ev: Events) -> None:
    record_choice(s, seat, a)  # nothing public: a secret choice, and "has chosen" lines were noise
    say(ev, tr("Your between-turns choice is recorded; you may change it until everyone asked has chosen."),
        frozenset({seat}))


def resolve_window_round(s: BarcadiaState, ev: Events) -> None:
    again: list[Seat] = []
    for seat in s.window["asked"]:
        a = Action.from_json(s.window["chosen"][str(seat)])
        if a.kind == "autopass":
            s.autopass[seat] = True
            say(ev, tr("{name} passes and turns auto-pass on.", name=name(s, seat)))
        elif a.kind == "pass":
            pass  # passing changes nothing: not told (a round where all pass leaves no line)
        elif a in moves.loot_plays(s, seat, "between"):
            play_loot(s, seat, a, ev)
            again.append(seat)
        else:  # the position changed since the choice (e.g. the room filled up with traps)
            say(ev, tr("{name}'s card can no longer be played and stays in hand.", name=name(s, seat)))
            again.append(seat)  # asked again: they did not pass
    s.window = {"open": False, "next": again, "asked": [], "chosen": {}}


def open_window_round(s: BarcadiaState, ev: Events) -> bool:
    asked = [x for x in s.window["next"] if eligible(s, x)]
    if not asked:
        return False
    s.window = {"open": True, "next": [], "asked": asked, "chosen": {}}
    s.step_version = s.version
    # Told only to those asked (their mail asks them anyway); the others see what gets played.
    who = ", ".join(name(s, x) for x in asked)
    say(ev, tr("Between turns: {who} may play a between-turns card.", who=who),
        frozenset(asked))
    return True


def next_turn(s: BarcadiaState, ev: Events) -> None:
    """The Turn Tracker passes clockwise (HB-26); a turn limit, if the game has one, ends it (HB-71)."""
    s.turns += 1
    limit = int(s.options.get("turn_limit", R.DEFAULT_TURN_LIMIT))
    if limit and s.turns >= limit:
        s.phase = PHASE_OVER
        s.end_reason = "limit"
        say(ev, tr("{limit} turns have been played: the game ends and the players are ranked by Power-Ups, then HP.", limit=limit))
        return
    s.turn_seat = (s.turn_seat + 1) % s.n
    s.phase = PHASE_TURN
    s.turn = new_turn_flags()
    seat = s.turn_seat
    say(ev, tr("It is {name}'s turn.", name=name(s, seat)))
    healing = sum(e.amount for e in permanent_effects(s, seat) if e.kind == "start_heal")
    if healing and s.hp[seat] < R.FULL_HP:
        heal(s, seat, healing, ev)


def advance(s: BarcadiaState, ev: Events) -> None:
    """Do everything that needs no decision; stop at the next one."""
    for _ in range(10_000):
        if s.phase == PHASE_OVER:
            return
        if s.pending:
            if auto_resolve(s, ev):
                continue
            return
        if s.phase == PHASE_TURN:
            if s.turn["over"] or moves.turn_is_spent(s):
                end_turn(s)
                continue
            return
        if s.phase == PHASE_CHARACTERS:
            if len(s.window["chosen"]) < len(s.window["asked"]):
                return
            resolve_character_round(s, ev)
            continue
        if s.phase == PHASE_WINDOW:
            if s.window["open"]:
                if len(s.window["chosen"]) < len(s.window["asked"]):
                    return
                resolve_window_round(s, ev)
                continue
            if open_window_round(s, ev):
                return
            next_turn(s, ev)
            continue
        return
    raise RuntimeError("barcadia: the game did not settle (a bug)")


# ---------------------------------------------------------------------------
# Players choose their characters (HB-68 revised; option characters = "choose")


def choose_character(s: BarcadiaState, seat: Seat, a: Action, ev: Events) -> None:
    """A secret choice; choosing again replaces it and puts the seat last in line for a clash."""
    first = record_choice(s, seat, a)
    s.window["order"] = [x for x in s.window["order"] if x != seat] + [seat]  # ``record_choice`` made a new window
    if first:
        say(ev, tr("{name} has chosen a character.", name=name(s, seat)))
    card = content().characters[str(a.args[0])]
    say(ev, tr("Your choice, the {name}, is recorded; you may change it until everyone has chosen. If two players want the same character, the one who chose first gets it.", name=card.name), frozenset({seat}))


def resolve_character_round(s: BarcadiaState, ev: Events) -> None:
    """Everyone asked has chosen: in the order the choices came in, each gets their character
    unless an earlier choice took it; those are asked again among the characters left."""
    chars = content().characters
    again: list[Seat] = []
    for seat in s.window["order"]:
        cid = str(s.window["chosen"][str(seat)][1])
        card = chars[cid]
        if cid in s.characters:
            holder = s.characters.index(cid)
            again.append(seat)
            say(ev, tr("{name} chose the {name2} too, but {name3} chose first: {name} chooses again.", name=name(s, seat), name2=card.name, name3=name(s, holder)))
            continue
        s.characters[seat] = cid
        say(ev, tr("{name} is the {name2}.", name=name(s, seat), name2=card.name))
        say(ev, card.text, frozenset({seat}))  # "Signature Move: ..."
    free = moves.free_characters(s)
    if len(again) == 1 and len(free) == 1:  # the last character left: nothing to choose
        s.characters[again[0]] = free[0]
        card = chars[free[0]]
        say(ev, tr("{name} is the {name2}, the one character left.", name=name(s, again[0]), name2=card.name))
        say(ev, card.text, frozenset({again[0]}))
        again = []
    if again:
        open_character_choice(s, sorted(again))
        return
    s.window = {}
    s.phase = PHASE_PLACE if s.placing else PHASE_TURN
    if s.phase == PHASE_TURN:
        say(ev, tr("Every hero has a character. {name} goes first.", name=name(s, s.turn_seat)))
    else:
        say(ev, tr("Every hero has a character. Now the dungeon is built, room by room."))


# ---------------------------------------------------------------------------
# Players place the tiles (option layout = "players", HB-15/16)


def place_tile(s: BarcadiaState, seat: Seat, q: int, r: int, ev: Events) -> None:
    order: list[int] = s.placing["order"]
    tiles: list[str] = s.placing["tiles"]
    s.layout = [*s.layout, [q, r]]  # a new list: layouts are shared between states, never mutated
    s.rooms.append(empty_room(tiles.pop()))
    order.pop(0)
    say(ev, tr("{name} places room {value} face down at {q},{r}.", name=name(s, seat), value=len(s.rooms) - 1, q=q, r=r))
    if not order:
        s.phase = PHASE_TURN
        s.placing = {}
        say(ev, tr("The dungeon is built. {name} goes first.", name=name(s, s.turn_seat)))
