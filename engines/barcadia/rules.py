"""The mechanics of Barcadia: dice, damage, death, entering rooms, fights, rewards.

Every function here works on a private copy of the state (the engine clones before it calls
them) and appends what happened to ``ev``. Dice come from the RNG in the state and every roll
is told in a public event (issue 5, deliverable 2).
"""

from __future__ import annotations

from functools import cache

from engines import i18n
from engines.barcadia import resolutions as R
from engines.barcadia.content import Card, Effect, Room, content
from engines.barcadia.state import BEATEN, DROPS, PHASE_OVER, PHASE_TURN, TILE, TRAPS, UP, BarcadiaState
from engines.contract import Event, Seat, Text, tr
from engines.rng import Rng

Events = list[Event]
LOOT_DAMAGE_SCOPES = frozenset({"All"})


def say(ev: Events, text: Text, to: frozenset[Seat] | None = None) -> None:
    """Record a sentence (a catalog message) for everyone, or for the seats ``to`` only."""
    ev.append(Event(text, to))


def name(s: BarcadiaState, seat: Seat) -> str:
    return s.players[seat]


def room_label(room: int) -> Text:
    return tr("the Starting Point") if room == 0 else tr("room {room}", room=room)


def tile_of(s: BarcadiaState, room: int) -> Room | None:
    """The tile of a room (None for the SP)."""
    return None if room == 0 else content().rooms.get(s.rooms[room][TILE])


def hoard_room(s: BarcadiaState) -> int:
    """The Drink Hoard's room number, or 0 if it is not face up (its place is a secret until then)."""
    hoard = content().hoard.id
    for i, r in enumerate(s.rooms):
        if r[TILE] == hoard and r[UP] and i:
            return i
    return 0


@cache
def portal_tiles() -> frozenset[str]:
    return frozenset(content().room_ids("portal"))


def is_portal(s: BarcadiaState, room: int) -> bool:
    """HB-35: the Starting Point counts as a face-up Portal."""
    return room == 0 or (bool(s.rooms[room][UP]) and s.rooms[room][TILE] in portal_tiles())


# ---------------------------------------------------------------------------
# Effects in force (Power-Ups, Signature Moves, the House Rule)


def permanent_effects(s: BarcadiaState, seat: Seat) -> list[Effect]:
    c = content()
    out = [c.powerups[p].effect for p in s.powerups[seat] if p in c.powerups]
    if s.characters and s.characters[seat] in c.characters:
        out.append(c.characters[s.characters[seat]].effect)
    if s.house_rule in c.house_rules:
        out.append(c.house_rules[s.house_rule].effect)
    return out


def roll_bonus(s: BarcadiaState, seat: Seat, scope: str) -> int:
    scopes = R.ROLL_SCOPES[scope]
    total = sum(e.amount for e in permanent_effects(s, seat) if e.kind == "roll_bonus" and e.scope in scopes)
    if seat == s.turn_seat and s.phase == PHASE_TURN:
        total += sum(int(b[1]) for b in s.turn["bonus"] if b[0] in scopes)
    return total


def spend_bonus(s: BarcadiaState, seat: Seat, scope: str) -> None:
    """HB-51 (clarified): a Loot bonus "for your next roll" is spent by the first roll it applies
    to -- a trap roll, a fight roll, a roll that ties and is rolled again -- whatever comes first."""
    if seat == s.turn_seat and s.phase == PHASE_TURN and s.turn["bonus"]:
        scopes = R.ROLL_SCOPES[scope]
        s.turn["bonus"] = [b for b in s.turn["bonus"] if b[0] not in scopes]


def move_range(s: BarcadiaState, seat: Seat) -> int:
    return max([R.MOVE_STEPS] + [e.amount for e in permanent_effects(s, seat) if e.kind == "move_range"])


def disarm_target(s: BarcadiaState, seat: Seat) -> int:
    targets = [R.DISARM_TARGET] + [e.amount for e in permanent_effects(s, seat) if e.kind == "disarm_target"]
    if seat == s.turn_seat and s.phase == PHASE_TURN and s.turn["disarm"]:
        targets.append(int(s.turn["disarm"]))
    return min(targets)


def house_amount(s: BarcadiaState, kind: str, default: int) -> int:
    rule = content().house_rules.get(s.house_rule)
    return rule.effect.amount if rule is not None and rule.effect.kind == kind else default


def limit_key(s: BarcadiaState, seat: Seat) -> tuple[int, int]:
    """HB-71: what ranks the players when a turn limit ends the game: Power-Ups, then HP."""
    return len(s.powerups[seat]), s.hp[seat]


def limit_ranking(s: BarcadiaState) -> list[Seat]:
    """Seats best first by ``limit_key``; equal keys stay in seat order (a tie, not a rank)."""
    return sorted(range(s.n), key=lambda p: tuple(-k for k in limit_key(s, p)))


# ---------------------------------------------------------------------------
# Dice


def d20(s: BarcadiaState) -> int:
    if s.loaded_dice:  # scenario tests only
        return s.loaded_dice.pop(0)
    rng = Rng(s.rng)
    value = rng.die(R.DIE)
    s.rng = rng.state
    return value


def roll(s: BarcadiaState, seat: Seat, scope: str, ev: Events) -> tuple[int, int]:
    """One d20 plus the seat's modifiers for ``scope`` (HB-28: naturals have no combat effect);
    the Loot bonuses it used are spent (HB-51)."""
    die = d20(s)
    total = die + roll_bonus(s, seat, scope)
    spend_bonus(s, seat, scope)
    if die == R.DIE:
        natural_twenty(s, ev)
    return die, total


def shown(die: int, total: int) -> str:
    return str(die) if die == total else f"{die}{total - die:+d}={total}"


def natural_twenty(s: BarcadiaState, ev: Events) -> None:
    """HB-69: with House Rules on, any natural 20 replaces the rule with the next card."""
    if not s.options.get("house_rules") or not s.house_deck:
        return
    old = s.house_rule
    s.house_rule = s.house_deck.pop(0)
    s.house_deck.append(old)
    rule = content().house_rules[s.house_rule]
    say(ev, tr("A natural 20! The House Rule is now {name}: {text}", name=rule.name, text=rule.text))


# ---------------------------------------------------------------------------
# Health, damage and death


def heal(s: BarcadiaState, seat: Seat, amount: int, ev: Events) -> None:
    before = s.hp[seat]
    s.hp[seat] = min(R.FULL_HP, before + amount)
    say(ev, tr("{name} heals {value} HP ({before} → {hp}).", name=name(s, seat), value=s.hp[seat] - before, before=before, hp=s.hp[seat]))


def damage(s: BarcadiaState, seat: Seat, amount: int, scope: str, ev: Events) -> bool:
    """Take ``amount`` damage; returns True if the seat died (HB-63)."""
    scopes = R.ROLL_SCOPES.get(scope, LOOT_DAMAGE_SCOPES)
    cut = sum(e.amount for e in permanent_effects(s, seat) if e.kind == "damage_reduction" and e.scope in scopes)
    amount = max(0, amount - cut)
    if s.shield[seat] and amount:
        absorbed = min(s.shield[seat], amount)
        amount -= absorbed
        s.shield[seat] = 0
        say(ev, tr("{name}'s Iron Flask absorbs {absorbed} damage.", name=name(s, seat), absorbed=absorbed))
    before = s.hp[seat]
    s.hp[seat] = max(0, before - amount)
    say(ev, tr("{name} takes {amount} damage ({before} → {hp} HP).", name=name(s, seat), amount=amount, before=before, hp=s.hp[seat]))
    if s.hp[seat] > 0:
        return False
    die(s, seat, ev)
    return True


def die(s: BarcadiaState, seat: Seat, ev: Events) -> None:
    """HB-64..66: drop a Power-Up where you stood, keep one Loot card, back to the SP at FULL."""
    room = s.pos[seat]
    say(ev, tr("{name} dies in {room_label} and returns to the Starting Point at full health.", name=name(s, seat), room_label=room_label(room)))
    s.pos[seat] = 0
    s.hp[seat] = R.FULL_HP
    s.shield[seat] = 0
    if s.powerups[seat]:
        if len(set(s.powerups[seat])) == 1:
            drop_powerup(s, seat, s.powerups[seat][0], room, ev)
        else:
            s.pending.append({"kind": "death_drop", "seat": seat, "room": room})
    if len(set(s.hands[seat])) <= 1:
        keep_one_loot(s, seat, s.hands[seat][0] if s.hands[seat] else "", ev)
    else:
        s.pending.append({"kind": "death_keep", "seat": seat})
    if seat == s.turn_seat and s.phase == PHASE_TURN:
        s.turn["over"] = True  # HB-66: a dying active player's turn ends at once


def drop_powerup(s: BarcadiaState, seat: Seat, pu: str, room: int, ev: Events) -> None:
    """Leave a Power-Up in ``room``; on the SP it goes under the deck (HB-64)."""
    s.powerups[seat].remove(pu)
    card = content().powerups[pu]
    if room == 0:
        s.powerup_deck.insert(0, pu)  # the deck draws from its end: index 0 is the bottom
        say(ev, tr("{name}'s {name2} goes to the bottom of the Power-Up deck.", name=name(s, seat), name2=card.name))
        return
    say(ev, tr("{name} leaves {name2} in room {room}.", name=name(s, seat), name2=card.name, room=room))
    occupants = s.occupants(room)
    if occupants:  # HB-62: an occupied room holds no drops; its occupant takes it at once
        gain_powerup(s, occupants[0], pu, ev)
    else:
        # A new list, never append: clones share each room's drops list (see BarcadiaState.clone).
        s.rooms[room][DROPS] = [*s.rooms[room][DROPS], pu]


def keep_one_loot(s: BarcadiaState, seat: Seat, keep: str, ev: Events) -> None:
    hand = s.hands[seat]
    thrown = list(hand)
    if keep:
        thrown.remove(keep)
    s.loot_discard.extend(thrown)
    s.hands[seat] = [keep] if keep else []
    say(ev, tr("{name} discards {n} Loot card{value} and keeps {n2}.", name=name(s, seat), n=len(thrown), value='' if len(thrown) == 1 else 's', n2=len(s.hands[seat])))


# ---------------------------------------------------------------------------
# Cards gained


def gain_loot(s: BarcadiaState, seat: Seat, count: int, ev: Events) -> None:
    count += sum(e.amount for e in permanent_effects(s, seat) if e.kind == "extra_loot")
    got: list[str] = []
    for _ in range(count):
        if not s.loot_deck and s.loot_discard:  # HB-52: rebuild from the discard
            s.loot_deck = s.loot_discard
            s.loot_discard = []
            rng = Rng(s.rng)
            rng.shuffle(s.loot_deck)
            s.rng = rng.state
            say(ev, tr("The Loot deck is empty: the discard pile is shuffled into a new deck."))
        if not s.loot_deck:
            say(ev, tr("No Loot card is left to draw."))
            break
        got.append(s.loot_deck.pop())
    s.hands[seat].extend(got)
    if got:
        c = content()
        say(ev, tr("{name} gains {n} Loot card{value}.", name=name(s, seat), n=len(got), value='' if len(got) == 1 else 's'))
        gained = {lang: ", ".join(c.loot[g].name.get(lang) for g in got) for lang in i18n.languages()}
        say(ev, tr("You gain: {gained}.", gained=gained), frozenset({seat}))


def gain_powerup(s: BarcadiaState, seat: Seat, pu: str, ev: Events) -> None:
    """HB-53/54: face up before its owner; a 4th forces one to be placed in a room."""
    s.powerups[seat].append(pu)
    card = content().powerups[pu]
    # The card speaks to its holder ("+2 to your rolls"): its text goes to the holder only.
    say(ev, tr("{name} gains the Power-Up {name2}.", name=name(s, seat), name2=card.name))
    say(ev, tr("{name}: {text}", name=card.name, text=card.text), frozenset({seat}))
    queued = any(p["kind"] in ("overflow", "stash") and p["seat"] == seat for p in s.pending)
    if len(s.powerups[seat]) > R.MAX_POWERUPS and not queued:
        s.pending.append({"kind": "overflow", "seat": seat})


def draw_powerup(s: BarcadiaState, seat: Seat, ev: Events) -> None:
    if not s.powerup_deck:  # HB-55
        say(ev, tr("The Power-Up deck is empty: no Power-Up is gained."))
        return
    gain_powerup(s, seat, s.powerup_deck.pop(), ev)


def grant(s: BarcadiaState, seat: Seat, tile: Room, ev: Events) -> None:
    for deck, count in tile.reward:
        if deck == "loot":
            gain_loot(s, seat, count, ev)
        else:
            for _ in range(count):
                draw_powerup(s, seat, ev)


# ---------------------------------------------------------------------------
# Moving


def spring_traps(s: BarcadiaState, seat: Seat, room: int, ev: Events) -> bool:
    """HB-61: a d20 per trap, 10+ disarms, else 10 damage; each trap is removed. False = died."""
    target = disarm_target(s, seat)
    while s.rooms[room][TRAPS] > 0:
        s.rooms[room][TRAPS] -= 1
        s.traps_left += 1
        die_roll, total = roll(s, seat, "Trap", ev)
        if total >= target:
            say(ev, tr("{name} rolled {shown} against {target}: a trap in room {room} is disarmed.", name=name(s, seat), shown=shown(die_roll, total), target=target, room=room))
            continue
        say(ev, tr("{name} rolled {shown} against {target}: a trap in room {room} goes off.", name=name(s, seat), shown=shown(die_roll, total), target=target, room=room))
        if damage(s, seat, house_amount(s, "trap_damage", R.TRAP_DAMAGE), "Trap", ev):
            return False
    return True


def move_into(s: BarcadiaState, seat: Seat, room: int, ev: Events) -> None:
    """Stand in ``room`` and take the Power-Ups dropped there (HB-25, HB-54)."""
    s.pos[seat] = room
    drops = s.rooms[room][DROPS]
    s.rooms[room][DROPS] = []
    for pu in drops:
        gain_powerup(s, seat, pu, ev)


def enter(s: BarcadiaState, seat: Seat, room: int, ev: Events) -> bool:
    """Enter by any means: traps first, then the pick-up. False if the seat died on the way."""
    if not spring_traps(s, seat, room, ev):
        return False
    say(ev, tr("{name} enters {room_label}.", name=name(s, seat), room_label=room_label(room)))
    move_into(s, seat, room, ev)
    return True


# ---------------------------------------------------------------------------
# Fights


def fight_monster(s: BarcadiaState, seat: Seat, room: int, ev: Events) -> None:
    """HB-29/30: one d20 at or above the level wins the room and its reward."""
    tile = tile_of(s, room)
    assert tile is not None
    die_roll, total = roll(s, seat, "Monster", ev)
    won = total >= tile.level
    verdict = outcome_words(s, seat, room, tile, won)
    say(ev, tr("{name} rolled {shown} against level {level}: {verdict}.", name=name(s, seat), shown=shown(die_roll, total), level=tile.level, verdict=verdict))
    if won:
        win_room(s, seat, room, tile, ev, told=True)
    else:
        lose_room(s, room, ev, told=True)
        damage(s, seat, tile.damage, "Monster", ev)


def outcome_words(s: BarcadiaState, seat: Seat, room: int, tile: Room, won: bool) -> Text:
    """"the Skeleton is beaten; Chi enters room 3": the fight's result and what follows, one line."""
    if won:
        return tr("the {name} is beaten; {name2} enters room {room}", name=tile.name, name2=name(s, seat), room=room)
    return tr("the {name} wins; room {room} turns face down again", name=tile.name, room=room)


def win_room(s: BarcadiaState, seat: Seat, room: int, tile: Room, ev: Events, told: bool = False) -> None:
    """``told``: the verdict line already said that the winner enters."""
    s.rooms[room][BEATEN] = True
    if not told:
        say(ev, tr("{name} enters room {room}.", name=name(s, seat), room=room))
    move_into(s, seat, room, ev)
    grant(s, seat, tile, ev)


def lose_room(s: BarcadiaState, room: int, ev: Events, told: bool = False) -> None:
    """HB-27: an undefeated Monster, Team Battle or Boss turns face down again."""
    s.rooms[room][UP] = False
    if not told:
        say(ev, tr("Room {room} turns face down again.", room=room))


def team_battle(s: BarcadiaState, seat: Seat, mate: Seat, room: int, ev: Events) -> None:
    """HB-32: two d20s summed against the level; both share the reward or the damage."""
    tile = tile_of(s, room)
    assert tile is not None
    d1, t1 = roll(s, seat, "Team", ev)
    d2, t2 = roll(s, mate, "Team", ev)
    won = t1 + t2 >= tile.level
    verdict = outcome_words(s, seat, room, tile, won)
    say(ev, tr("{name} rolled {shown} and teammate {name2} rolled {shown2}: {value} against level {level}: {verdict}.", name=name(s, seat), shown=shown(d1, t1), name2=name(s, mate), shown2=shown(d2, t2), value=t1 + t2, level=tile.level, verdict=verdict))
    if won:
        win_room(s, seat, room, tile, ev, told=True)
        grant(s, mate, tile, ev)
    else:
        lose_room(s, room, ev, told=True)
        damage(s, seat, tile.damage, "Team", ev)
        damage(s, mate, tile.damage, "Team", ev)


def contest(s: BarcadiaState, a: Seat, b: Seat, scope: str, ev: Events) -> bool:
    """Both roll, ties reroll (HB-39, HB-57); True if ``a`` wins. Every roll is told."""
    while True:
        da, ta = roll(s, a, scope, ev)
        db, tb = roll(s, b, scope, ev)
        if ta == tb:
            say(ev, tr("{name} rolled {shown} and {name2} rolled {shown2}: a tie, both roll again.", name=name(s, a), shown=shown(da, ta), name2=name(s, b), shown2=shown(db, tb)))
            continue
        winner = a if ta > tb else b
        say(ev, tr("{name} rolled {shown} against {name2}'s {shown2}: {name3} wins.", name=name(s, a), shown=shown(da, ta), name2=name(s, b), shown2=shown(db, tb), name3=name(s, winner)))
        return ta > tb


def boss_battle(s: BarcadiaState, seat: Seat, boss_player: Seat, room: int, ev: Events) -> None:
    """HB-39..41: a named opponent rolls for the Boss; the loser's side takes the Boss's damage."""
    tile = tile_of(s, room)
    assert tile is not None
    say(ev, tr("{name} plays the {name2}.", name=name(s, boss_player), name2=tile.name))
    if contest(s, seat, boss_player, "Boss", ev):
        say(ev, tr("The {name} is beaten; {name2} enters room {room}.", name=tile.name, name2=name(s, seat), room=room))
        win_room(s, seat, room, tile, ev, told=True)
        damage(s, boss_player, tile.damage, "Boss", ev)
    else:
        lose_room(s, room, ev)
        damage(s, seat, tile.damage, "Boss", ev)


def fight_guardian(s: BarcadiaState, seat: Seat, room: int, ev: Events) -> None:
    """HB-44/45/47: traps first, then one d20 (Guardian/All effects only) against its level."""
    if not spring_traps(s, seat, room, ev):
        return
    hoard = content().hoard
    die_roll, total = roll(s, seat, "Guardian", ev)
    if total >= hoard.level:
        say(ev, tr("{name} rolled {shown} against level {level}: the Grand Drink Guardian is beaten! {name} takes the Drink Hoard and wins.", name=name(s, seat), shown=shown(die_roll, total), level=hoard.level))
        s.pos[seat] = room
        s.winner = seat
        s.end_reason = "guardian"
        s.phase = PHASE_OVER
        s.pending = []
        return
    say(ev, tr("{name} rolled {shown} against level {level}: the Guardian holds the Hoard.", name=name(s, seat), shown=shown(die_roll, total), level=hoard.level))
    damage(s, seat, hoard.damage, "Guardian", ev)


def duel(s: BarcadiaState, attacker: Seat, defender: Seat, ev: Events, into: int | None = None) -> None:
    """HB-57/58 (and HB-59 through a portal when ``into`` is given): 10 damage to the loser;
    a winning attacker swaps rooms with the defender."""
    target_room = s.pos[defender] if into is None else into
    home = s.pos[attacker]
    say(ev, tr("{name} duels {name2}.", name=name(s, attacker), name2=name(s, defender)))
    won = contest(s, attacker, defender, "Duel", ev)
    loser = defender if won else attacker
    died = damage(s, loser, house_amount(s, "duel_damage", R.DUEL_DAMAGE), "Duel", ev)
    if not won:
        return
    say(ev, tr("{name} takes {room_label}.", name=name(s, attacker), room_label=room_label(target_room)))
    move_into(s, attacker, target_room, ev)
    if not died:
        move_into(s, defender, home, ev)


def card_of(card_id: str) -> Card:
    return content().loot[card_id]
