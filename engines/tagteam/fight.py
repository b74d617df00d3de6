"""One Turn of the Fight! step, resolved exactly as TT-29 lays it out.

Every Action is read against the position at the start of its step and all changes of a
step land together (TT-30): that is what makes the two revealed cards truly simultaneous,
so the result never depends on which seat's card is looked at first. Attacks use the Power
snapshot of the Turn's start (TT-44). Markers then move space by space (TT-47), and the
icons they entered fire as a new wave once every marker has stopped (TT-56..TT-60), every
time a marker enters them (TT-59).

A Cancel (TT-61/TT-62) makes a card "completely ignored", usually after that card has
already resolved. So every step a card took part in is kept (``Kept``: its summed changes,
each card's own part, the board just before). When a Cancel fires, each kept step is landed
again on two copies of that board, with and without the card's part; the difference is what
the card did (``Effect``), and it is handed back, except the movement that brought a marker
onto the Cancel. Only a Cancel pays for that replay; an ordinary step just keeps a snapshot.
"""

from __future__ import annotations

from collections import deque
from dataclasses import dataclass, field
from typing import NamedTuple

from engines.tagteam.content import Act, Card, Condition, Content, Quantity, Side
from engines.tagteam.state import FighterState

Ref = tuple[int, int]  # (team, fighter index)
Board = list[list[FighterState]]

MAX_WAVES = 12  # a last safety stop: the content loader already rejects tracks whose icons could loop


@dataclass(slots=True)
class Entry:
    """An Action waiting in a step: whose it is, and who "You" is for it."""

    team: int
    act: Act
    you: int
    from_card: bool


@dataclass(slots=True)
class BlockRecord:
    team: int
    act: Act
    you: int
    from_card: bool
    succeeded: bool = False


# A revealed card's own part in a step: (team, kind, fighter, amount, side or token id), the kind
# being hp, power, special, flip or token.
Share = tuple[int, str, Ref, int, str]


class Changes(NamedTuple):
    """A step's changes, summed per fighter, landing together (TT-30)."""

    hp: dict[Ref, int]
    power: dict[Ref, int]
    special: dict[Ref, int]
    flips: list[tuple[Ref, str]]
    tokens: list[tuple[str, Ref, int]]

    def less(self, shares: list[Share]) -> Changes:
        """These changes without ``shares`` (one card's part of them)."""
        hp, power, special = dict(self.hp), dict(self.power), dict(self.special)
        flips, tokens = list(self.flips), list(self.tokens)
        for _, kind, ref, n, name in shares:
            if kind == "hp":
                hp[ref] -= n
            elif kind == "power":
                power[ref] -= n
            elif kind == "special":
                special[ref] -= n
            elif kind == "flip":
                flips.remove((ref, name))
            else:
                tokens.remove((name, ref, n))
        return Changes(hp, power, special, flips, tokens)


@dataclass(slots=True)
class Kept:
    """A step a revealed card took part in, kept while that card may still be cancelled."""

    serial: int
    changes: Changes
    shares: list[Share]
    before: list[tuple[str, int, int, int, dict[str, int]]]  # the 4 fighters just before: side, hp, power,
    # special, tokens (in board order; a tuple is several times cheaper to keep than a FighterState)


@dataclass(slots=True)
class Effect:
    """What one card changed on one fighter this Turn (TT-62 hands it back).

    Each step's part is the board after the step minus the board the step would have left
    without that card, so Stop spaces, bounds and other simultaneous effects are accounted for.
    """

    hp: int = 0
    power: int = 0
    special: int = 0
    tokens: dict[str, int] = field(default_factory=dict)
    side: tuple[str, str] | None = None  # (side before, side after) when the card flipped the board

    def add(self, other: Effect) -> None:
        self.hp += other.hp
        self.power += other.power
        self.special += other.special
        for k, n in other.tokens.items():
            self.tokens[k] = self.tokens.get(k, 0) + n
        if other.side is not None:
            self.side = other.side if self.side is None else (self.side[0], other.side[1])


@dataclass(slots=True)
class Undone:
    """One line of what a Cancel reverted: ``what`` is hp, power, special, side or token:<id>."""

    ref: Ref
    what: str
    change: int  # the card's change that was reverted (0 for a side)
    now: int | str  # the value after the revert (a side id for ``side``)
    was: str = ""  # for ``side``: the side the card had flipped the board to


@dataclass
class CancelNote:
    """One Cancel that fired (TT-62), for the log.

    ``state``: ``done`` (the card is now ignored), ``already`` (an earlier Cancel this Turn got
    it) or ``no_card`` (the opponent revealed nothing).
    """

    team: int  # whose card the Cancel hits
    track: Ref  # the fighter whose Cancel space fired
    state: str = "done"
    undone: list[Undone] = field(default_factory=list)
    skipped: list[Act] = field(default_factory=list)  # the Actions that now never happen


@dataclass(slots=True)
class Step:
    """One thing that happened during a Turn, in the order it happened (issue 15: say each step).

    Pure data: ``words.step_text`` turns it into a line. ``kind`` is
    - ``hp``: the marker of ``ref`` moved ``before``→``after``; ``causes`` are the Actions of that
      one simultaneous step on it, as (verb, actor, signed amount), verb ``cancel`` for a revert;
    - ``stop``: the marker of ``ref`` was halted by the Stop space ``after``;
    - ``block``: ``ref``'s Block negated an Attack by ``other``;
    - ``power``/``special``: a value of ``ref`` went ``before``→``after``;
    - ``token``: ``ref`` held ``before`` then ``after`` tokens of kind ``name``;
    - ``flip``: ``ref`` turned to side ``name`` (HP ``before``→``after``, lowered to the new Max);
    - ``icon``: ``ref``'s marker entered space ``after`` holding icon ``name`` (its effects follow);
    - ``upkeep``: at the end of the Turn, ``ref``'s ``name`` token acts (its effects follow);
    - ``cancel``: a Cancel fired; ``note`` says what it reverted and skipped.
    """

    kind: str
    ref: Ref
    before: int = 0
    after: int = 0
    name: str = ""
    causes: list[tuple[str, Ref, int]] = field(default_factory=list)
    other: Ref | None = None
    note: CancelNote | None = None


@dataclass
class TurnReport:
    """What happened, for the public event log."""

    cancelled: list[bool] = field(default_factory=lambda: [False, False])
    flips: list[Ref] = field(default_factory=list)
    cancels: list[CancelNote] = field(default_factory=list)
    steps: list[Step] = field(default_factory=list)  # filled only when the Resolver records


class Resolver:
    """Resolves one Turn (or one Instant-Bonus step) on ``teams`` in place."""

    def __init__(self, content: Content, teams: Board, active: list[int], cards: list[Card | None],
                 record: bool = False) -> None:
        self.content = content
        self.record = record  # the log's steps: the bots' look-ahead does not pay for them
        self.teams = teams
        self.active = active
        self.cards = cards
        self.snapshot = {(0, 0): teams[0][0].power, (0, 1): teams[0][1].power,
                         (1, 0): teams[1][0].power, (1, 1): teams[1][1].power}
        self.blocks: dict[Ref, list[BlockRecord]] = {}
        self.report = TurnReport()
        self.segment = 0  # the card step being resolved: a Cancel skips the segments after it
        self.serial = 0  # numbers every step, so a Cancel knows which movement triggered it
        self.kept: list[Kept] = []  # steps a revealed card took part in (TT-62)
        flip = content.flip_fighters
        self.flippers = [(t, i) for t in (0, 1) for i in (0, 1) if teams[t][i].id in flip]

    # -- reading the board ---------------------------------------------------

    def fighter(self, ref: Ref) -> FighterState:
        return self.teams[ref[0]][ref[1]]

    def side(self, ref: Ref) -> Side:
        f = self.teams[ref[0]][ref[1]]
        return self.content.fighters[f.id].side(f.side)

    def targets(self, e: Entry, target: str) -> list[Ref]:
        t, o = e.team, 1 - e.team
        if target == "you":
            return [(t, e.you)]
        if target == "partner":
            return [(t, 1 - e.you)]
        if target == "opponent":
            return [(o, self.active[o])]
        if target == "opponent_partner":
            return [(o, 1 - self.active[o])]
        if target == "opponents":
            return [(o, self.active[o]), (o, 1 - self.active[o])]
        token = target.split(":", 1)[1]
        return [(tt, i) for tt in (0, 1) for i in (0, 1) if self.teams[tt][i].tokens.get(token, 0) > 0]

    def quantity(self, q: Quantity, actor: Ref, target: Ref | None) -> int:
        if not q.name:
            return q.sign * q.value
        ref = actor if q.subject == "actor" else target
        if ref is None:
            return 0
        f = self.fighter(ref)
        if q.name == "hp":
            value = f.hp
        elif q.name == "power":
            value = f.power
        elif q.name == "special":
            value = f.special
        else:
            value = f.tokens.get(q.name[7:], 0)
        return q.sign * value

    def holds(self, c: Condition, actor: Ref, target: Ref | None) -> bool:
        if c.side:
            return self.fighter(actor).side == c.side
        left = self.quantity(c.left, actor, target)
        return {
            ">=": left >= c.right, "<=": left <= c.right, "==": left == c.right,
            ">": left > c.right, "<": left < c.right,
        }[c.op]

    # -- the Turn --------------------------------------------------------------

    def run_turn(self) -> TurnReport:
        """TT-29 steps 3-4 for both cards, then the end-of-Turn token upkeep."""
        steps = max((len(c.segments) for c in self.cards if c is not None), default=0)
        for k in range(steps):
            self.segment = k
            entries = [
                Entry(t, a, self.active[t], True)
                for t, card in enumerate(self.cards)
                if card is not None and not self.report.cancelled[t] and k < len(card.segments)
                for a in card.segments[k]
            ]
            if entries:
                self.step(entries)
        self.segment = steps
        self.upkeep()
        return self.report

    def run_bonus(self, bonus: list[tuple[int, int, tuple[Act, ...]]]) -> None:
        """TT-79: both players' Instant Bonuses as one simultaneous step; You = the card's fighter."""
        entries = [Entry(t, a, i, False) for t, i, acts in bonus for a in acts]
        if entries:
            self.step(entries)

    def upkeep(self) -> None:
        acting = self.content.upkeep_tokens
        if not acting:
            return
        entries = []
        for t, team in enumerate(self.teams):
            for i, f in enumerate(team):
                if not f.tokens or acting.isdisjoint(f.tokens):
                    continue
                for token_id in sorted(acting.intersection(f.tokens)):
                    if f.tokens[token_id] > 0:
                        entries += [Entry(t, a, i, False) for a in self.content.tokens[token_id].upkeep]
                        if self.record:
                            self.report.steps.append(Step("upkeep", (t, i), name=token_id))
        if entries:
            self.step(entries)

    # -- one step --------------------------------------------------------------

    def step(self, entries: list[Entry], wave: int = 0) -> None:
        self.serial += 1
        hp: dict[Ref, int] = {}
        power: dict[Ref, int] = {}
        special: dict[Ref, int] = {}
        flips: list[tuple[Ref, str]] = []
        tokens: list[tuple[str, Ref, int]] = []
        shares: list[Share] = []  # the revealed cards' own parts, should a Cancel need them
        causes: dict[Ref, list[tuple[str, Ref, int]]] = {}  # the log: who moved each marker, and how
        # 4.1: Blocks take effect before anything else of the step.
        rest: deque[Entry] = deque()
        for e in entries:
            if e.act.verb == "block":
                self.add_block(e)
            else:
                rest.append(e)
        while rest:
            e = rest.popleft()
            if e.from_card and self.report.cancelled[e.team]:
                continue
            a = e.act
            actor = (e.team, e.you if a.actor == "you" else 1 - e.you)
            targets = self.targets(e, a.target)
            first = targets[0] if targets else None
            if a.condition is not None and not self.holds(a.condition, actor, first):
                continue
            success = False
            if a.verb == "block":
                self.add_block(e)
                continue
            for ref in targets:
                f = self.fighter(ref)
                kind, name = "hp", ""
                if a.verb == "attack":
                    if self.negate(ref, rest):
                        if self.record:
                            self.report.steps.append(Step("block", ref, other=actor))
                        continue
                    taken = sum(self.content.tokens[k].attack_taken * n
                                for k, n in f.tokens.items() if k in self.content.tokens)
                    n = -max(0, self.snapshot[actor] + taken)
                    success = True
                else:
                    n = self.quantity(a.amount, actor, ref)
                    if a.verb == "heal":
                        if f.hp == 0:
                            continue  # TT-41/TT-52: a KO fighter cannot be healed
                        success |= n > 0 and f.hp < self.side(ref).max_hp
                    elif a.verb == "damage":
                        n = -n
                        success |= n < 0 and f.hp > 0
                    elif a.verb == "power":
                        kind = "power"
                        success |= n > 0 or (n < 0 and f.power > 0)
                    elif a.verb == "special":
                        kind = "special"
                        success |= n != 0
                    elif a.verb == "token":
                        kind, name = "token", a.token
                        success |= n > 0 or f.tokens.get(name, 0) > 0
                    else:  # flip
                        kind, name = "flip", a.side
                        success |= f.side != name
                if kind == "hp":
                    hp[ref] = hp.get(ref, 0) + n
                    if self.record:
                        causes.setdefault(ref, []).append((a.verb, actor, n))
                elif kind == "power":
                    power[ref] = power.get(ref, 0) + n
                elif kind == "special":
                    special[ref] = special.get(ref, 0) + n
                elif kind == "token":
                    tokens.append((name, ref, n))
                else:
                    flips.append((ref, name))
                if e.from_card:
                    shares.append((e.team, kind, ref, n, name))
            if success:
                rest.extend(Entry(e.team, b, e.you, e.from_card) for b in a.bonus)
        fired: list[tuple[Ref, str]] = []
        if hp or power or special or flips or tokens:
            changes = Changes(hp, power, special, flips, tokens)
            if shares:
                before = [(f.side, f.hp, f.power, f.special, dict(f.tokens)) for team in self.teams for f in team]
                self.kept.append(Kept(self.serial, changes, shares, before))
            fired = self.land(self.teams, changes, True, causes)
        if fired or self.flippers:
            self.fire(fired, wave, self.serial)

    def add_block(self, e: Entry) -> None:
        if e.from_card and self.report.cancelled[e.team]:
            return
        actor = (e.team, e.you if e.act.actor == "you" else 1 - e.you)
        targets = self.targets(e, e.act.target)
        if e.act.condition is not None and not self.holds(e.act.condition, actor, targets[0] if targets else None):
            return
        for ref in targets:
            self.blocks.setdefault(ref, []).append(BlockRecord(e.team, e.act, e.you, e.from_card))

    def negate(self, ref: Ref, rest: deque[Entry]) -> bool:
        """TT-51: an active Block on ``ref`` negates the Attack; its first success pays its bonus."""
        records = self.blocks.get(ref)
        if not records:
            return False
        for r in records:
            if not r.succeeded:
                r.succeeded = True
                rest.extend(Entry(r.team, b, r.you, r.from_card) for b in r.act.bonus)
        return True

    def land(self, board: Board, c: Changes, real: bool,
             causes: dict[Ref, list[tuple[str, Ref, int]]] | None = None) -> list[tuple[Ref, str]]:
        """All changes of a step at once (TT-30) on ``board``; returns the icons the markers entered.

        ``real`` is False when a Cancel replays a kept step on a copy: nothing is reported then.
        ``causes`` (recording only) say which Actions moved each marker, for the log.
        """
        log = self.report.steps if real and self.record else None
        for ref, n in c.power.items():
            f = board[ref[0]][ref[1]]
            was = f.power
            f.power = max(0, f.power + n)  # TT-46
            if log is not None and f.power != was:
                log.append(Step("power", ref, was, f.power))
        for ref, n in c.special.items():
            f = board[ref[0]][ref[1]]
            was = f.special
            f.special = min(max(0, f.special + n), self.content.fighters[f.id].special_max)
            if log is not None and f.special != was:
                log.append(Step("special", ref, was, f.special))
        if c.tokens:
            held = [dict(f.tokens) for team in board for f in team] if log is not None else []
            self.apply_tokens(board, c.tokens)
            if log is not None:
                for k, f in enumerate(f for team in board for f in team):
                    for token_id in sorted({*held[k], *f.tokens}):
                        was, now = held[k].get(token_id, 0), f.tokens.get(token_id, 0)
                        if was != now:
                            log.append(Step("token", (k // 2, k % 2), was, now, token_id))
        for ref, side_id in c.flips:
            self.flip(board[ref[0]][ref[1]], side_id, ref if real else None)
        fired: list[tuple[Ref, str]] = []
        for ref, n in c.hp.items():
            f = board[ref[0]][ref[1]]
            if n == 0 or (n > 0 and f.hp == 0):
                if log is not None and n == 0 and causes and causes.get(ref):
                    log.append(Step("hp", ref, f.hp, f.hp, causes=causes[ref]))  # e.g. an Attack for 0
                continue
            side = self.content.fighters[f.id].side(f.side)
            was = f.hp
            f.hp, entered = side.walk(f.hp, n)
            if real:
                fired += [(ref, icon) for space in entered for icon in side.icons[space]]
            if log is not None:
                log.append(Step("hp", ref, was, f.hp, causes=(causes or {}).get(ref, [])))
                if f.hp != was + n and "stop" in side.icons.get(f.hp, ()):
                    log.append(Step("stop", ref, was, f.hp))
                log += [Step("icon", ref, was, space, icon) for space in entered for icon in side.icons[space]
                        if icon not in ("stop", "cancel")]  # a Cancel says itself once it fires
        return fired

    def apply_tokens(self, board: Board, ops: list[tuple[str, Ref, int]]) -> None:
        for token_id in sorted({op[0] for op in ops}):
            kind = self.content.tokens[token_id]
            mine = [op for op in ops if op[0] == token_id]
            for _, ref, n in mine:
                if n < 0:
                    f = board[ref[0]][ref[1]]
                    f.tokens[token_id] = max(0, f.tokens.get(token_id, 0) + n)
                    if not f.tokens[token_id]:
                        del f.tokens[token_id]
            gains = [(ref, n) for _, ref, n in mine if n > 0]
            if kind.count == 1:
                places = {ref for ref, _ in gains}
                if len(places) != 1:
                    continue  # none, or TT-31: two places for one unique token means neither
                (ref,) = places
                for team in board:
                    for f in team:
                        f.tokens.pop(token_id, None)
                board[ref[0]][ref[1]].tokens[token_id] = 1
                continue
            for ref, n in gains:
                self.give(board, token_id, ref, n)

    def give(self, board: Board, token_id: str, ref: Ref, n: int) -> None:
        """Up to ``n`` tokens to ``ref``, as many as the box still holds (TT-2)."""
        in_play = sum(f.tokens.get(token_id, 0) for team in board for f in team)
        add = min(n, self.content.tokens[token_id].count - in_play)
        if add > 0:
            f = board[ref[0]][ref[1]]
            f.tokens[token_id] = f.tokens.get(token_id, 0) + add

    def flip(self, f: FighterState, side_id: str, ref: Ref | None) -> None:
        if f.side == side_id:
            return
        f.side = side_id
        was = f.hp
        f.hp = min(f.hp, self.content.fighters[f.id].side(side_id).max_hp)
        if ref is not None:
            self.report.flips.append(ref)
            if self.record:
                self.report.steps.append(Step("flip", ref, was, f.hp, side_id))

    # -- icons -------------------------------------------------------------------------

    def fire(self, fired: list[tuple[Ref, str]], wave: int, serial: int) -> None:
        """TT-56..TT-62: icons act once every marker has stopped; their moves are a new wave."""
        entries: list[Entry] = []
        cancels: dict[int, list[Ref]] = {}
        for ref, icon in fired:
            if icon == "cancel":
                triggers = cancels.setdefault(1 - ref[0], [])
                if ref not in triggers:
                    triggers.append(ref)
            else:
                f = self.fighter(ref)
                acts = self.content.fighters[f.id].icon_effects.get(icon, ())
                entries += [Entry(ref[0], a, ref[1], False) for a in acts]
        if cancels:
            self.cancel(cancels, serial)
        for t, i in self.flippers:
            side = self.side((t, i))
            if side.flip_when is not None and side.flip_to and self.holds(side.flip_when, (t, i), None):
                self.flip(self.fighter((t, i)), side.flip_to, (t, i))
                entries += [Entry(t, a, i, False) for a in side.on_flip]
        if entries and wave < MAX_WAVES:
            self.step(entries, wave + 1)

    # -- Cancel ----------------------------------------------------------------------------

    def cancel(self, cancels: dict[int, list[Ref]], serial: int) -> None:
        """TT-61/TT-62: the card of each team in ``cancels`` is ignored completely.

        Everything it changed this Turn is handed back, except the movement in step ``serial`` of
        the markers whose arrival on a Cancel space triggered it; its later segments, its Blocks
        and any bonus they would pay never happen. Icons the reverted changes already triggered
        stay triggered, and a revert is no movement: it enters no space. Both teams' reverts of
        one wave land together.
        """
        back: dict[Ref, Effect] = {}
        notes: list[tuple[CancelNote, dict[Ref, Effect]]] = []
        for team in sorted(cancels):
            triggers = cancels[team]
            note = CancelNote(team, triggers[0])
            self.report.cancels.append(note)
            card = self.cards[team]
            if card is None:
                note.state = "no_card"
                continue
            if self.report.cancelled[team]:
                note.state = "already"
                continue
            self.report.cancelled[team] = True
            note.skipped = [a for seg in card.segments[self.segment + 1:] for a in seg]
            for ref, records in self.blocks.items():
                ended = [r for r in records if r.from_card and r.team == team]
                if ended:
                    note.skipped += [r.act for r in ended]
                    self.blocks[ref] = [r for r in records if not (r.from_card and r.team == team)]
            mine = self.effects(team, serial, triggers)
            for ref, eff in mine.items():
                back.setdefault(ref, Effect()).add(eff)
            notes.append((note, mine))
        hp_before = {ref: self.fighter(ref).hp for ref in back}
        self.revert(back)
        for note, mine in notes:
            for ref, eff in mine.items():
                f = self.fighter(ref)
                if eff.side is not None:
                    note.undone.append(Undone(ref, "side", 0, f.side, eff.side[1]))
                for what, change, now in (("hp", eff.hp, f.hp), ("power", eff.power, f.power),
                                          ("special", eff.special, f.special)):
                    if change:
                        note.undone.append(Undone(ref, what, change, now))
                for k, n in sorted(eff.tokens.items()):
                    if n:
                        note.undone.append(Undone(ref, f"token:{k}", n, f.tokens.get(k, 0)))
        if self.record:
            for note in self.report.cancels[-len(cancels):]:
                self.report.steps.append(Step("cancel", note.track, note=note))
            for ref, was in hp_before.items():  # what the reverts did to the markers, for the HP sums
                if self.fighter(ref).hp != was:
                    self.report.steps.append(Step("hp", ref, was, self.fighter(ref).hp,
                                                  causes=[("cancel", ref, self.fighter(ref).hp - was)]))

    def effects(self, t: int, serial: int, triggers: list[Ref]) -> dict[Ref, Effect]:
        """What team ``t``'s card changed this Turn, per fighter, less the movement of ``triggers``
        in step ``serial``: each kept step landed again on copies of the board as it was, once
        with every change and once without the card's part, and the difference summed."""
        out: dict[Ref, Effect] = {}
        for kept in self.kept:
            mine = [share for share in kept.shares if share[0] == t]
            if not mine:
                continue
            full, less = self.board_as(kept.before), self.board_as(kept.before)
            self.land(full, kept.changes, False)
            self.land(less, kept.changes.less(mine), False)
            for ti in (0, 1):
                for i in (0, 1):
                    a, b = full[ti][i], less[ti][i]
                    ref = (ti, i)
                    eff = Effect(
                        0 if kept.serial == serial and ref in triggers else a.hp - b.hp,
                        a.power - b.power, a.special - b.special,
                        {k: a.tokens.get(k, 0) - b.tokens.get(k, 0) for k in sorted({*a.tokens, *b.tokens})
                         if a.tokens.get(k, 0) != b.tokens.get(k, 0)},
                        (b.side, a.side) if a.side != b.side else None,
                    )
                    if eff.hp or eff.power or eff.special or eff.tokens or eff.side:
                        out.setdefault(ref, Effect()).add(eff)
        return out

    def board_as(self, before: list[tuple[str, int, int, int, dict[str, int]]]) -> Board:
        """A copy of the board as a kept step found it."""
        return [[FighterState(f.id, side, hp, power, special, dict(tokens))
                 for f, (side, hp, power, special, tokens) in zip(team, before[2 * t:2 * t + 2], strict=True)]
                for t, team in enumerate(self.teams)]

    def revert(self, back: dict[Ref, Effect]) -> None:
        """Hand changes back within the bounds (KO..Max, no negative cubes, the box's tokens)."""
        for ref, eff in back.items():
            f = self.fighter(ref)
            if eff.side is not None and f.side == eff.side[1]:
                f.side = eff.side[0]
            f.hp = min(max(0, f.hp - eff.hp), self.side(ref).max_hp)
            f.power = max(0, f.power - eff.power)
            f.special = min(max(0, f.special - eff.special), self.content.fighters[f.id].special_max)
            for k, n in eff.tokens.items():
                if n > 0 and f.tokens.get(k):
                    f.tokens[k] = max(0, f.tokens[k] - n)
                    if not f.tokens[k]:
                        del f.tokens[k]
        for ref, eff in back.items():
            for k, n in eff.tokens.items():
                if n < 0:
                    self.give(self.teams, k, ref, -n)
