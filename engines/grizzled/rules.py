"""The rules of The Grizzled as functions on a working copy of the state.

Queries (``threat_counts``, ``withdraw_rule``, ``turn_options`` …) never change the state.
Mutators change the working copy the engine made for one ``apply`` and append the events
people will read. Every OPEN resolution of the digest lives in exactly one function here,
named in its docstring, so a designer's decision changes one place.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterator

from engines import i18n
from engines.contract import Event, Text, tr
from engines.grizzled.content import Card, Character, content
from engines.grizzled.state import CHRISTMAS, INTENSITY, OVER, SPEECH, SUPPORT, TURN, GrizzledState
from engines.rng import Rng

FIRST_MISSION_MIN_INTENSITY = 3  # GR-20
FAILURE_COUNT = 3  # GR-37
KNOCK_LIMIT = 4  # GR-49
MORALE_MIN = 3  # GR-51
HELP_REMOVE_SUCCESS = 2  # GR-45
HELP_REMOVE_FAILURE = 1  # GR-46
SPEECH_TOKENS = {2: 5, 3: 5, 4: 4, 5: 3}  # GR-14

# Why a result: keys of REASONS, stored in the state.
REASONS: dict[str, Text] = {
    "peace": tr("Peace: the Trials pile and every hand are empty. The team wins together!"),
    "monument": tr("The Morale Reserve is empty and the Monument shows. The team loses."),
    "knocks": tr("A Grizzled carries Hard Knocks weighing 4 or more. The team loses."),
}

Events = list[Event]


def card(cid: str) -> Card:
    return content().cards[cid]


def name(s: GrizzledState, seat: int) -> str:
    return s.players[seat]


def say(events: Events, text: Text, to: int | None = None) -> None:
    """Record a sentence (a catalog message) for everyone, or for seat ``to`` only."""
    events.append(Event(text, None if to is None else frozenset({to})))


def face_text(face: str) -> Text:
    """A card face in words, per language (a Text, so it can be a message's argument)."""
    return content().face_text(face)


def face_en(face: str) -> str:
    return content().face_text(face).en


# ---------------------------------------------------------------------------
# Queries


def in_mission(s: GrizzledState, seat: int) -> bool:
    return not s.withdrawn[seat]


def seats_in(s: GrizzledState) -> list[int]:
    return [p for p in range(s.n) if not s.withdrawn[p]]


def knock_effects(s: GrizzledState, seat: int) -> Iterator[tuple[str, int]]:
    """(effect, amount) of the seat's Hard Knocks in the order received (GR-59)."""
    kinds = content().knocks
    for cid in s.knocks[seat]:
        kt = kinds[card(cid).knock or ""]
        yield kt.effect, kt.amount


def has_effect(s: GrizzledState, seat: int, effect: str, *, in_play_only: bool = True) -> bool:
    """Whether a Hard Knock of ``seat`` with ``effect`` acts now.

    During a Mission a withdrawn player's Hard Knocks do nothing (GR-35); effects that act
    between Missions (Demoralized, Tyrannical, Frenzied at the deal) pass ``in_play_only=False``.
    """
    if in_play_only and s.phase in (TURN, SPEECH, CHRISTMAS) and s.withdrawn[seat]:
        return False
    return any(e == effect for e, _ in knock_effects(s, seat))


def ignores_knocks(s: GrizzledState, seat: int) -> bool:
    """GR-36 (revised): a player whose hand is empty when they act withdraws ignoring every effect
    of the active Hard Knocks — no ban (Prideful, Hard-headed, another's Fragile), no force
    (Fearful), no draw (Clumsy), no tile taken (Absent-minded), chosen at random (Panicked) or
    turned back to the giver (Selfish). The clause is about withdrawing: Mute, which forbids only a
    Speech, still acts."""
    return not s.hands[seat]


def withdrawal_effect(s: GrizzledState, seat: int, effect: str) -> bool:
    """Whether a Hard Knock ``effect`` of ``seat`` acts on its withdrawal now (GR-8, GR-35, GR-36)."""
    return not ignores_knocks(s, seat) and has_effect(s, seat, effect)


def threat_counts(s: GrizzledState) -> Counter[str]:
    """GR-37: NML cards plus Phobia/Trauma in play on players still in the Mission."""
    counts: Counter[str] = Counter()
    for cid in s.nml:
        counts.update(card(cid).threats)
    for seat in range(s.n):
        if s.withdrawn[seat]:
            continue
        for cid in s.knocks[seat]:
            counts.update(card(cid).threats)
    return counts


def mission_failed(s: GrizzledState) -> bool:
    counts = threat_counts(s)
    return bool(counts) and max(counts.values()) >= FAILURE_COUNT


def weight(s: GrizzledState, seat: int) -> int:
    kinds = content().knocks
    return sum(kinds[card(cid).knock or ""].weight for cid in s.knocks[seat])


def min_intensity(s: GrizzledState) -> int:
    return FIRST_MISSION_MIN_INTENSITY if s.mission == 1 else 1


def max_intensity(s: GrizzledState) -> int:
    """GR-21 OPEN: no maximum applies, but the deal stops when the pile runs out (GR-22): this
    many rounds deal the whole Trials pile, and more would deal the same cards. So the choice
    stops here, and a larger number is refused with what is possible — never read as another."""
    return max(min_intensity(s), -(-len(s.trials) // s.n))


def deal_counts(s: GrizzledState, intensity: int) -> list[int]:
    """Cards each seat receives at this Intensity (GR-22: one per player per round from the
    Leader clockwise, stopping when the pile runs out), before Frenzied's extra cards."""
    total = min(intensity * s.n, len(s.trials))
    return [total // s.n + ((p - s.leader) % s.n < total % s.n) for p in range(s.n)]


def withdraw_rule(s: GrizzledState, seat: int) -> str:
    """``"free"``, ``"forced"`` or ``"forbidden"`` for the seat on its turn (GR-8, GR-36, GR-59, GR-60)."""
    return withdraw_cause(s, seat)[0]


def withdraw_cause(s: GrizzledState, seat: int) -> tuple[str, int | None, str | None]:
    """(rule, holder, Hard Knock card id) deciding whether the seat may withdraw: the holder's Hard
    Knock is why the rule is ``"forced"`` or ``"forbidden"`` (``None`` when ``"free"``), so a
    mail can say why an option is missing or forced.

    The seat's own Hard Knocks decide first (active player first, GR-60), the earliest
    relevant one winning (GR-59); then another player's Fragile. An empty hand is neither banned
    nor forced (GR-36, ``ignores_knocks``).
    """
    if ignores_knocks(s, seat):
        return "free", None, None
    hand = len(s.hands[seat])
    others_in = any(not s.withdrawn[p] for p in range(s.n) if p != seat)
    kinds = content().knocks
    for cid in s.knocks[seat]:
        kt = kinds[card(cid).knock or ""]
        effect, amount = kt.effect, kt.amount
        if effect == "fearful":
            counts = threat_counts(s)
            if counts and max(counts.values()) >= amount:
                return "forced", seat, cid
        elif (effect == "hard_headed" and hand >= amount) or (effect == "prideful" and others_in):
            return "forbidden", seat, cid
    for p in range(s.n):
        if p != seat and has_effect(s, p, "fragile"):
            cid = next(c for c in s.knocks[p] if kinds[card(c).knock or ""].effect == "fragile")
            return "forbidden", p, cid
    return "free", None, None


def failing_threats(s: GrizzledState) -> list[str]:
    """The threats that count ``FAILURE_COUNT`` or more now, in display order (GR-37)."""
    counts = threat_counts(s)
    return [t for t in content().threat_ids if counts.get(t, 0) >= FAILURE_COUNT]


def can_speak(s: GrizzledState, seat: int) -> bool:
    return s.speech_held[seat] > 0 and not has_effect(s, seat, "no_speech")


def character(cid: str) -> Character:
    for ch in content().characters:
        if ch.id == cid:
            return ch
    raise KeyError(cid)


def character_text(cid: str) -> Text:
    """``Félix Moreau (lucky charm: Night)`` in both languages."""
    ch = character(cid)
    charm = content().threat_name(ch.charm)
    return tr("{name} (lucky charm: {charm})", name=ch.name, charm=charm)


def charm_char(s: GrizzledState, seat: int) -> str:
    return character(s.characters[seat]).charm


def clash_order(s: GrizzledState) -> list[int]:
    """GR-11 OPEN: who counts as *first* when two players ask for the same Grizzled.

    The digest says "the one who asked first keeps it". Asking is secret and simultaneous, so
    first means first in the game's own turn order — the first Mission Leader, then clockwise
    (GR-15, GR-22, GR-24) — not the first reply the service happened to read. Everyone knows
    this order before choosing, and the result never depends on which mail arrived first, as
    for every other simultaneous step. Change who counts as first here and only here.
    """
    return [(s.leader + i) % s.n for i in range(s.n)]


def free_characters(s: GrizzledState) -> list[str]:
    """The Grizzled nobody has yet, in content order: what a chooser may ask for (GR-11)."""
    taken = set(s.characters)
    return [ch.id for ch in content().characters if ch.id not in taken]


def charm_targets(s: GrizzledState, seat: int) -> list[str]:
    """Distinct NML faces the seat's lucky charm may remove (GR-30: a matching card is required)."""
    if not s.charm_ready[seat]:
        return []
    threat = charm_char(s, seat)
    return sorted({card(c).face for c in s.nml if threat in card(c).threats}, key=content().face_order)


def hand_faces(s: GrizzledState, seat: int) -> list[str]:
    return sorted({card(c).face for c in s.hands[seat]}, key=content().face_order)


def withdraw_options(s: GrizzledState, seat: int) -> list[tuple[str | None, str | None]]:
    """(tile placed, tile removed first) pairs; ``None`` place = no tile or a random one (Panicked)."""
    tiles = s.tiles[seat]
    if not tiles:
        return [(None, None)]
    absent = withdrawal_effect(s, seat, "absent_minded")
    panicked = withdrawal_effect(s, seat, "panicked")
    order = list(content().tiles)
    out: list[tuple[str | None, str | None]] = []
    drops: list[str | None] = [t for t in order if t in tiles] if absent else [None]
    for drop in drops:
        left = list(tiles)
        if drop is not None:
            left.remove(drop)
        if panicked or not left:
            out.append((None, drop))
        else:
            out.extend((t, drop) for t in order if t in left)
    return out


def support_options(s: GrizzledState, seat: int) -> list[tuple[str, tuple[str, ...]]]:
    """What the helped seat may choose (GR-45, GR-46, GR-47: it picks, and may decline)."""
    faces = [card(c).face for c in s.knocks[seat]]
    most = HELP_REMOVE_FAILURE if s.failed else HELP_REMOVE_SUCCESS
    out: list[tuple[str, tuple[str, ...]]] = [("remove", (f,)) for f in faces]
    if most >= 2:
        out += [("remove", (a, b)) for i, a in enumerate(faces) for b in faces[i + 1 :]]
    if not s.failed and not s.charm_ready[seat]:
        out.append(("recover", ()))
    out.append(("decline", ()))
    return out


def christmas_targets(s: GrizzledState) -> list[str]:
    return [card(c).face for seat in range(s.n) for c in s.knocks[seat]]


def speech_faces(s: GrizzledState, seat: int, threat: str) -> list[str]:
    """Faces in the seat's hand that show ``threat`` (Phobia/Trauma included, GR-33)."""
    return sorted({card(c).face for c in s.hands[seat] if threat in card(c).threats}, key=content().face_order)


# ---------------------------------------------------------------------------
# Mutators


def _rng_below(s: GrizzledState, n: int) -> int:
    rng = Rng(s.rng)
    value = rng.below(n)
    s.rng = rng.state
    return value


def shuffle(s: GrizzledState, items: list[str]) -> None:
    rng = Rng(s.rng)
    rng.shuffle(items)
    s.rng = rng.state


def choose_intensity(s: GrizzledState, seat: int, intensity: int, ev: Events) -> None:
    """GR-22, GR-23: deal one card per player per round from the Leader clockwise; then Frenzied."""
    dealt = [0] * s.n
    for _ in range(intensity):
        for i in range(s.n):
            if not s.trials:
                break
            p = (s.leader + i) % s.n
            s.hands[p].append(s.trials.pop())
            dealt[p] += 1
    for i in range(s.n):
        p = (s.leader + i) % s.n
        for effect, amount in knock_effects(s, p):
            if effect == "frenzied":
                for _ in range(amount):
                    if s.trials:
                        s.hands[p].append(s.trials.pop())
                        dealt[p] += 1
    for p in range(s.n):
        new = s.hands[p][len(s.hands[p]) - dealt[p]:]
        if new:
            got = {lang: ", ".join(face_text(card(c).face).get(lang) for c in new) for lang in i18n.languages()}
            say(ev, tr("You receive: {got}.", got=got), to=p)
    shown = ", ".join(f"{name(s, p)} {dealt[p]}" for p in range(s.n))
    say(
        ev,
        tr("Mission {mission}: {name} sets Intensity {intensity}. Cards dealt: {shown}.", mission=s.mission, name=name(s, seat), intensity=intensity, shown=shown),
    )
    s.phase = TURN
    s.turn = s.leader


def _play(s: GrizzledState, seat: int, cid: str, traps: bool, ev: Events) -> str:
    """Put one card into play (GR-26). Returns "failed", "christmas" or "ok"."""
    c = card(cid)
    shown = face_text(c.face)
    if c.kind == "threat":
        s.nml.append(cid)
        say(ev, tr("{name} plays {shown} into No Man's Land.", name=name(s, seat), shown=shown))
        if mission_failed(s):
            return "failed"  # GR-28: failure ends the Mission before any Trap draw
        if c.trap and traps:
            if not s.trials:
                say(ev, tr("Trap! The Trials pile is empty: nothing is drawn."))
                return "ok"
            say(ev, tr("Trap! The top Trial card is played at once."))
            return _play(s, seat, s.trials.pop(), False, ev)  # GR-27: a second Trap is ignored
        return "ok"
    if c.kind == "hard_knock":
        s.knocks[seat].append(cid)
        say(ev, tr("{name} takes the Hard Knock {shown}.", name=name(s, seat), shown=shown))
        return "failed" if mission_failed(s) else "ok"
    say(ev, tr("{name} plays {shown}.", name=name(s, seat), shown=shown))
    return "christmas" if christmas_targets(s) else "ok"


def _after(s: GrizzledState, seat: int, result: str, ev: Events) -> None:
    if result == "failed":
        end_mission(s, True, ev)
    elif result == "christmas":
        s.phase = CHRISTMAS
        s.turn = seat
    else:
        end_turn(s, ev)


def play(s: GrizzledState, seat: int, face: str, ev: Events) -> None:
    cid = next(c for c in s.hands[seat] if card(c).face == face)
    s.hands[seat].remove(cid)
    _after(s, seat, _play(s, seat, cid, True, ev), ev)


def use_charm(s: GrizzledState, seat: int, face: str, ev: Events) -> None:
    """GR-30, GR-31: remove one matching NML card; the Grizzled card turns to its used side."""
    cid = next(c for c in s.nml if card(c).face == face)
    s.nml.remove(cid)
    s.charm_ready[seat] = False
    say(
        ev,
        tr("{name} uses the lucky charm and removes {face_text} from No Man's Land.", name=name(s, seat), face_text=face_text(face)),
    )
    end_turn(s, ev)


def choose_character(s: GrizzledState, seat: int, cid: str, ev: Events) -> None:
    """GR-11: record a secret choice (replaceable); resolve all together once every chooser chose."""
    s.picks[str(seat)] = cid
    t = character_text(cid)
    say(ev, tr("You asked for {t}. You may change your choice until everyone has chosen.", t=t), to=seat)
    if all(str(p) in s.picks for p in s.choosers):
        resolve_characters(s, ev)


def resolve_characters(s: GrizzledState, ev: Events) -> None:
    """GR-11: each Grizzled asked for goes to the first asker in ``clash_order``; the others choose
    again among the Grizzled still free. The first Mission starts once everyone has one."""
    again: list[int] = []
    for p in clash_order(s):
        if p not in s.choosers:
            continue
        cid = s.picks[str(p)]
        if cid in s.characters:
            again.append(p)
        else:
            s.characters[p] = cid
    kept = [p for p in s.choosers if p not in again]
    chosen = {lang: "; ".join(f"{name(s, p)}: {character_text(s.characters[p]).get(lang)}" for p in kept)
              for lang in i18n.languages()}
    say(ev, tr("Grizzled chosen — {chosen}.", chosen=chosen))
    for p in again:
        cid = s.picks[str(p)]
        holder = name(s, s.characters.index(cid))
        ch = character(cid).name
        say(ev, tr("{name} also asked for {ch}, but {holder} comes first in turn order from the Leader and keeps it: {name} chooses again.", name=name(s, p), ch=ch, holder=holder))
    s.picks = {}
    s.choosers = sorted(again)
    if not again:
        s.phase = INTENSITY
        s.turn = s.leader
        say(ev, tr("{name} is the first Mission Leader and chooses the Intensity.", name=name(s, s.leader)))


def speech(s: GrizzledState, seat: int, threat: str, ev: Events) -> None:
    """GR-32: the token is removed; others in the Mission holding the threat may answer."""
    s.speech_held[seat] -= 1
    t = content().threat_name(threat)
    say(
        ev,
        tr("{name} gives a speech about {t}: everyone else still in the mission may discard one card showing it.", name=name(s, seat), t=t),
    )
    s.speaker = seat
    s.speech_threat = threat
    s.responses = {}
    s.responders = [p for p in range(s.n) if p != seat and not s.withdrawn[p] and speech_faces(s, p, threat)]
    if s.responders:
        s.phase = SPEECH
    else:
        finish_speech(s, ev)


def answer_speech(s: GrizzledState, seat: int, face: str, ev: Events) -> None:
    """Record a secret answer (replaceable); resolve all answers together once everyone chose (GR-33)."""
    s.responses[str(seat)] = face
    if face:
        say(ev, tr("You will discard {face_text}.", face_text=face_text(face)), to=seat)
    else:
        say(ev, tr("You will keep your cards."), to=seat)
    if all(str(p) in s.responses for p in s.responders):
        finish_speech(s, ev)


def finish_speech(s: GrizzledState, ev: Events) -> None:
    threat = s.speech_threat or ""
    t = content().threat_name(threat)
    for p in s.responders:
        face = s.responses.get(str(p), "")
        if face:
            cid = next(c for c in s.hands[p] if card(c).face == face)
            s.hands[p].remove(cid)
            say(ev, tr("{name} discards a card showing {t}.", name=name(s, p), t=t))
            say(ev, tr("You discarded {face_text}.", face_text=face_text(face)), to=p)
        else:
            say(ev, tr("{name} keeps their cards.", name=name(s, p)))
    s.phase = TURN
    s.turn = s.speaker if s.speaker is not None else s.turn
    s.speaker = None
    s.speech_threat = None
    s.responders = []
    s.responses = {}
    end_turn(s, ev)


def tile_target(s: GrizzledState, seat: int, tile: str) -> int:
    """GR-42: counted from the giver by type, wrapping; Selfish sends it to the giver (GR-8),
    unless the giver withdraws with an empty hand (GR-36)."""
    if withdrawal_effect(s, seat, "selfish"):
        return seat
    return (seat + content().tiles[tile].offset) % s.n


def withdraw(s: GrizzledState, seat: int, place: str | None, drop: str | None, ev: Events) -> None:
    """GR-34: leave the Mission, placing one Support tile face down (secret until GR-42)."""
    tiles = content().tiles
    if drop is not None:
        s.tiles[seat].remove(drop)
        say(
            ev,
            tr("{name} is absent-minded and removes a {name2} Support tile from the game.", name=name(s, seat), name2=tiles[drop].name),
        )
    if place is None and s.tiles[seat]:
        place = s.tiles[seat][_rng_below(s, len(s.tiles[seat]))]  # Panicked (GR-8)
    if place is not None:
        target = tile_target(s, seat, place)
        s.tiles[seat].remove(place)
        s.placed_tile[seat] = place
        s.placed_to[seat] = target
        say(ev, tr("{name} withdraws and places a Support tile face down.", name=name(s, seat)))
        say(ev, tr("You placed your {name} tile: it supports {name2}.", name=tiles[place].name, name2=name(s, target)), to=seat)
    else:
        say(ev, tr("{name} withdraws without a Support tile.", name=name(s, seat)))
    clumsy = withdrawal_effect(s, seat, "clumsy_draw")
    s.withdrawn[seat] = True
    if clumsy:
        if not s.trials:
            say(ev, tr("{name} is clumsy, but the Trials pile is empty.", name=name(s, seat)))
            end_turn(s, ev)
            return
        say(ev, tr("{name} is clumsy and must play the top Trial card.", name=name(s, seat)))
        _after(s, seat, _play(s, seat, s.trials.pop(), False, ev), ev)
        return
    end_turn(s, ev)


def christmas(s: GrizzledState, seat: int, face: str, ev: Events) -> None:
    """GR-7: Merry Christmas removes one Hard Knock from any player."""
    for p in range(s.n):
        for cid in s.knocks[p]:
            if card(cid).face == face:
                s.knocks[p].remove(cid)
                say(ev, tr("Merry Christmas: {name} removes {face_text} from {name2}.", name=name(s, seat), face_text=face_text(face), name2=name(s, p)))
                s.phase = TURN
                end_turn(s, ev)
                return
    raise KeyError(face)


def end_turn(s: GrizzledState, ev: Events) -> None:
    """GR-24, GR-40: next player still in clockwise, or success when everyone has withdrawn."""
    for step in range(1, s.n + 1):
        p = (s.turn + step) % s.n
        if not s.withdrawn[p]:
            s.phase = TURN
            s.turn = p
            return
    end_mission(s, False, ev)


def end_mission(s: GrizzledState, failed: bool, ev: Events) -> None:
    """GR-39 .. GR-44: clear or reshuffle NML, reveal tiles, find the helped player."""
    s.failed = failed
    if failed:
        counts = threat_counts(s)
        named = [(content().threat_name(t), counts[t]) for t in failing_threats(s)]
        said = [tr("{t} shows {n} times", t=t, n=n) for t, n in named]
        threats = said[0]
        for more in said[1:]:
            threats = tr("{threats} and {threat_name}", threats=threats, threat_name=more)
        say(ev, tr("{threats} (3 of one threat fail a mission): the mission fails. No Man's Land is shuffled into the Trials pile.", threats=threats))
        s.trials.extend(s.nml)
        shuffle(s, s.trials)  # GR-41 OPEN: shuffle the combined pile
    else:
        say(ev, tr("Everyone has withdrawn: the mission succeeds. No Man's Land is cleared."))
    s.nml = []
    received = [0] * s.n
    tiles = content().tiles
    for p in range(s.n):
        tile, target = s.placed_tile[p], s.placed_to[p]
        if tile is None or target is None:
            continue
        s.tiles[target].append(tile)
        received[target] += 1
        say(ev, tr("{name}'s Support tile ({name2}) goes to {name3}.", name=name(s, p), name2=tiles[tile].name, name3=name(s, target)))
    s.placed_tile = [None] * s.n
    s.placed_to = [None] * s.n
    best = max(received)
    helped = [p for p in range(s.n) if received[p] == best]
    if best == 0:
        finish_support(s, ev)
        return
    if len(helped) > 1:
        say(ev, tr("Support is tied: nobody gets the group's help."))
        finish_support(s, ev)
        return
    p = helped[0]
    say(ev, tr("{name} gets the group's help.", name=name(s, p)))
    if len(support_options(s, p)) > 1:
        s.phase = SUPPORT
        s.turn = p
    else:
        finish_support(s, ev)


def take_help(s: GrizzledState, seat: int, kind: str, faces: tuple[str, ...], ev: Events) -> None:
    if kind == "remove":
        for face in faces:
            cid = next(c for c in s.knocks[seat] if card(c).face == face)
            s.knocks[seat].remove(cid)
        shown = {lang: ", ".join(face_text(f).get(lang) for f in faces) for lang in i18n.languages()}
        say(ev, tr("{name} removes {shown}.", name=name(s, seat), shown=shown))
    elif kind == "recover":
        s.charm_ready[seat] = True
        say(ev, tr("{name} recovers the lucky charm.", name=name(s, seat)))
    else:
        say(ev, tr("{name} declines the help.", name=name(s, seat)))
    finish_support(s, ev)


def _end(s: GrizzledState, result: str, reason: str, ev: Events) -> None:
    s.result = result
    s.reason = reason
    s.phase = OVER
    ev.append(Event(REASONS[reason]))


def morale_drop_size(s: GrizzledState) -> int:
    """GR-51 plus Demoralized (GR-8)."""
    extra = sum(a for p in range(s.n) for e, a in knock_effects(s, p) if e == "demoralized")
    return max(sum(len(h) for h in s.hands), MORALE_MIN) + extra


def finish_support(s: GrizzledState, ev: Events) -> None:
    """GR-49, GR-50, GR-51 .. GR-54, in the source's order."""
    if any(weight(s, p) >= KNOCK_LIMIT for p in range(s.n)):
        _end(s, "lost", "knocks", ev)
        return
    if not s.trials and not any(s.hands):
        _end(s, "won", "peace", ev)
        return
    due = morale_drop_size(s)
    moved = 0
    while moved < due and s.reserve:
        s.trials.append(s.reserve.pop())  # GR-52 OPEN: one by one, top to top, unshuffled
        moved += 1
    say(ev, tr("Morale drops: {moved} cards move from the Morale Reserve to the Trials pile.", moved=moved))
    if not s.reserve:
        _end(s, "lost", "monument", ev)
        return
    pass_leader(s, ev)
    start_mission(s)


def pass_leader(s: GrizzledState, ev: Events) -> None:
    """GR-54, with Tyrannical (GR-8): a token is given only when the token changes hands."""
    former = s.leader
    tyrant = next((p for p in range(s.n) if has_effect(s, p, "tyrannical", in_play_only=False)), None)
    s.leader = tyrant if tyrant is not None else (former + 1) % s.n
    say(ev, tr("{name} is the new Mission Leader.", name=name(s, s.leader)))
    if s.leader != former and s.speech_supply > 0:
        s.speech_supply -= 1
        s.speech_held[former] += 1
        say(ev, tr("{name} takes a Speech token.", name=name(s, former)))


def start_mission(s: GrizzledState) -> None:
    """GR-19: nobody withdrawn, NML empty; the Leader picks the Intensity."""
    s.mission += 1
    s.withdrawn = [False] * s.n
    s.nml = []
    s.phase = INTENSITY
    s.turn = s.leader
