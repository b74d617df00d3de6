"""One Turn of the Fight! step, resolved exactly as TT-29 lays it out.

Every Action is read against the position at the start of its step and all changes of a
step land together (TT-30): that is what makes the two revealed cards truly simultaneous,
so the result never depends on which seat's card is looked at first. Attacks use the Power
snapshot of the Turn's start (TT-44). Markers then move space by space (TT-47), and the
icons they entered fire as a new wave once every marker has stopped (TT-56..TT-60).
"""

from __future__ import annotations

from collections import deque
from dataclasses import dataclass, field

from engines.tagteam.content import Act, Card, Condition, Content, Quantity, Side
from engines.tagteam.state import FighterState

Ref = tuple[int, int]  # (team, fighter index)

MAX_WAVES = 12  # icons causing icons: a safety stop far beyond any content we ship


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
    bonus: tuple[Act, ...]
    you: int
    from_card: bool
    succeeded: bool = False


@dataclass
class TurnReport:
    """What happened, for the public event log."""

    cancelled: list[bool] = field(default_factory=lambda: [False, False])
    flips: list[Ref] = field(default_factory=list)


class Resolver:
    """Resolves one Turn (or one Instant-Bonus step) on ``teams`` in place."""

    def __init__(self, content: Content, teams: list[list[FighterState]], active: list[int],
                 cards: list[Card | None]) -> None:
        self.content = content
        self.teams = teams
        self.active = active
        self.cards = cards
        self.snapshot = {(0, 0): teams[0][0].power, (0, 1): teams[0][1].power,
                         (1, 0): teams[1][0].power, (1, 1): teams[1][1].power}
        self.blocks: dict[Ref, list[BlockRecord]] = {}
        self.triggered: set[tuple[int, int, int]] = set()
        self.report = TurnReport()
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
            entries = [
                Entry(t, a, self.active[t], True)
                for t, card in enumerate(self.cards)
                if card is not None and not self.report.cancelled[t] and k < len(card.segments)
                for a in card.segments[k]
            ]
            if entries:
                self.step(entries)
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
        if entries:
            self.step(entries)

    # -- one step --------------------------------------------------------------

    def step(self, entries: list[Entry], wave: int = 0) -> None:
        hp: dict[Ref, int] = {}
        power: dict[Ref, int] = {}
        special: dict[Ref, int] = {}
        tokens: list[tuple[str, Ref, int]] = []
        flips: list[tuple[Ref, str]] = []
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
            if a.verb == "attack":
                for ref in targets:
                    if self.negate(ref, rest):
                        continue
                    taken = sum(self.content.tokens[k].attack_taken * n
                                for k, n in self.fighter(ref).tokens.items() if k in self.content.tokens)
                    hp[ref] = hp.get(ref, 0) - max(0, self.snapshot[actor] + taken)
                    success = True
            else:
                for ref in targets:
                    n = self.quantity(a.amount, actor, ref)
                    f = self.fighter(ref)
                    if a.verb == "heal":
                        if f.hp == 0:
                            continue  # TT-41/TT-52: a KO fighter cannot be healed
                        hp[ref] = hp.get(ref, 0) + n
                        success |= n > 0 and f.hp < self.side(ref).max_hp
                    elif a.verb == "damage":
                        hp[ref] = hp.get(ref, 0) - n
                        success |= n > 0 and f.hp > 0
                    elif a.verb == "power":
                        power[ref] = power.get(ref, 0) + n
                        success |= n > 0 or (n < 0 and f.power > 0)
                    elif a.verb == "special":
                        special[ref] = special.get(ref, 0) + n
                        success |= n != 0
                    elif a.verb == "token":
                        tokens.append((a.token, ref, n))
                        success |= n > 0 or f.tokens.get(a.token, 0) > 0
                    elif a.verb == "flip":
                        flips.append((ref, a.side))
                        success |= f.side != a.side
            if success:
                rest.extend(Entry(e.team, b, e.you, e.from_card) for b in a.bonus)
        if power or special or tokens or flips:
            self.apply_changes(power, special, tokens, flips)
        fired = self.move_markers(hp) if hp else []
        if fired or self.flippers:
            self.fire(fired, wave)

    def add_block(self, e: Entry) -> None:
        if e.from_card and self.report.cancelled[e.team]:
            return
        actor = (e.team, e.you if e.act.actor == "you" else 1 - e.you)
        targets = self.targets(e, e.act.target)
        if e.act.condition is not None and not self.holds(e.act.condition, actor, targets[0] if targets else None):
            return
        for ref in targets:
            self.blocks.setdefault(ref, []).append(BlockRecord(e.team, e.act.bonus, e.you, e.from_card))

    def negate(self, ref: Ref, rest: deque[Entry]) -> bool:
        """TT-51: an active Block on ``ref`` negates the Attack; its first success pays its bonus."""
        records = self.blocks.get(ref)
        if not records:
            return False
        for r in records:
            if not r.succeeded:
                r.succeeded = True
                rest.extend(Entry(r.team, b, r.you, r.from_card) for b in r.bonus)
        return True

    def apply_changes(self, power: dict[Ref, int], special: dict[Ref, int],
                      tokens: list[tuple[str, Ref, int]], flips: list[tuple[Ref, str]]) -> None:
        for ref, n in power.items():
            f = self.fighter(ref)
            f.power = max(0, f.power + n)  # TT-46
        for ref, n in special.items():
            f = self.fighter(ref)
            f.special = min(max(0, f.special + n), self.content.fighters[f.id].special_max)
        self.apply_tokens(tokens)
        for ref, side_id in flips:
            self.flip(ref, side_id)

    def apply_tokens(self, ops: list[tuple[str, Ref, int]]) -> None:
        for token_id in sorted({op[0] for op in ops}):
            kind = self.content.tokens[token_id]
            mine = [op for op in ops if op[0] == token_id]
            for _, ref, n in mine:
                if n < 0:
                    f = self.fighter(ref)
                    f.tokens[token_id] = max(0, f.tokens.get(token_id, 0) + n)
                    if not f.tokens[token_id]:
                        del f.tokens[token_id]
            gains = [(ref, n) for _, ref, n in mine if n > 0]
            if kind.count == 1:
                places = {ref for ref, _ in gains}
                if len(places) != 1:
                    continue  # none, or TT-31: two places for one unique token means neither
                (ref,) = places
                for team in self.teams:
                    for f in team:
                        f.tokens.pop(token_id, None)
                self.fighter(ref).tokens[token_id] = 1
                continue
            for ref, n in gains:
                in_play = sum(f.tokens.get(token_id, 0) for team in self.teams for f in team)
                add = min(n, kind.count - in_play)
                if add > 0:
                    f = self.fighter(ref)
                    f.tokens[token_id] = f.tokens.get(token_id, 0) + add

    def flip(self, ref: Ref, side_id: str) -> None:
        f = self.fighter(ref)
        if f.side == side_id:
            return
        f.side = side_id
        f.hp = min(f.hp, self.side(ref).max_hp)
        self.report.flips.append(ref)

    def move_markers(self, deltas: dict[Ref, int]) -> list[tuple[Ref, str]]:
        """TT-47/TT-64: space by space; Stop halts; Max and KO bound. Returns icons entered."""
        fired: list[tuple[Ref, str]] = []
        for ref, delta in deltas.items():
            f = self.fighter(ref)
            if delta == 0 or (delta > 0 and f.hp == 0):
                continue
            side = self.side(ref)
            step = 1 if delta > 0 else -1
            pos = f.hp
            for _ in range(abs(delta)):
                nxt = pos + step
                if nxt < 0 or nxt > side.max_hp:
                    break
                pos = nxt
                icons = side.icons.get(pos)
                if not icons:
                    continue
                if "stop" in icons:
                    break  # a Stop space triggers nothing else (TT-64)
                key = (ref[0], ref[1], pos)
                if key not in self.triggered:  # TT-59: once per space per marker per Turn
                    self.triggered.add(key)
                    fired.extend((ref, icon) for icon in icons)
            f.hp = pos
        return fired

    def fire(self, fired: list[tuple[Ref, str]], wave: int) -> None:
        """TT-56..TT-62: icons act once every marker has stopped; their moves are a new wave."""
        entries: list[Entry] = []
        for ref, icon in fired:
            if icon == "cancel":
                self.cancel(1 - ref[0])
            else:
                f = self.fighter(ref)
                acts = self.content.fighters[f.id].icon_effects.get(icon, ())
                entries += [Entry(ref[0], a, ref[1], False) for a in acts]
        for t, i in self.flippers:
            side = self.side((t, i))
            if side.flip_when is not None and side.flip_to and self.holds(side.flip_when, (t, i), None):
                self.flip((t, i), side.flip_to)
                entries += [Entry(t, a, i, False) for a in side.on_flip]
        if entries and wave < MAX_WAVES:
            self.step(entries, wave + 1)

    def cancel(self, team: int) -> None:
        """TT-61/TT-62: from now on the card of ``team`` is ignored; its Blocks end."""
        if self.cards[team] is None or self.report.cancelled[team]:
            return
        self.report.cancelled[team] = True
        for ref, records in self.blocks.items():
            self.blocks[ref] = [r for r in records if not (r.from_card and r.team == team)]
