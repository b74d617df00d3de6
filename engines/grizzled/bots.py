"""The co-operative bot used by ``default_action`` (and as the ``heuristic`` bot).

It plays fair: it reads only what its seat may know (its own hand and tiles, the public
table), never another hand or the piles' order. Its plan is a careful soldier's: keep every
threat count below 3, play Hard Knocks only while the weight stays low, use the lucky charm
when a threat reaches 2, speak before withdrawing, and send Support to whoever carries the
heaviest Hard Knocks.
"""

from __future__ import annotations

import random
from collections import Counter

from engines.contract import Action, Bot, Engine, Seat
from engines.grizzled import commands, rules
from engines.grizzled.content import Card, KnockType, content
from engines.grizzled.state import CHRISTMAS, INTENSITY, SPEECH, SUPPORT, TURN, GrizzledState

SAFE_KNOCK_WEIGHT = 3  # play a Hard Knock only while the weight after it stays at most this
TRAP_RISK = 1.0  # play a Trap only while (chance a random Trial card fails the Mission) x (cards at stake) stays below this
HANDS_TARGET = {2: 4, 3: 5, 4: 6, 5: 7}  # cards the team should hold after the deal (Intensity choice)
# Hard Knocks that hamper withdrawing are kept until they are the last card in hand.
LAST_CARD_EFFECTS = frozenset({"prideful", "fragile", "hard_headed", "clumsy_draw"})


def _face_card(face: str) -> Card:
    return content().faces[face]


def _knock_type(face: str) -> KnockType:
    return content().knocks[_face_card(face).knock or ""]


def _need(s: GrizzledState, seat: int) -> float:
    """How much a seat needs the group's help: Hard Knock weight first, a used charm second."""
    return rules.weight(s, seat) * 2 + (0 if s.charm_ready[seat] else 1) + 0.01 * len(s.knocks[seat])


def _failure_chance(counts: Counter[str]) -> float:
    """Share of all Trial cards that would fail the Mission if played now (the bot cannot see the pile)."""
    cards = content().cards.values()
    bad = sum(1 for c in cards if any(counts.get(t, 0) + 1 >= rules.FAILURE_COUNT for t in c.threats))
    return bad / len(cards)


class CoopBot(Bot[GrizzledState]):
    name = "heuristic"

    def choose(self, engine: Engine[GrizzledState], state: GrizzledState, seat: Seat, rng: random.Random) -> Action:
        options = commands.legal(state, seat)
        if not options:
            raise ValueError(f"seat {seat} has no legal action")
        if state.phase == INTENSITY:
            return self._intensity(state, options)
        if state.phase == TURN:
            return self._turn(state, seat, options)
        if state.phase == SPEECH:
            return self._answer(options)
        if state.phase == CHRISTMAS:
            return self._christmas(state, options)
        if state.phase == SUPPORT:
            return self._help(state, seat, options)
        return options[0]

    def _intensity(self, s: GrizzledState, options: list[Action]) -> Action:
        held = sum(len(h) for h in s.hands)
        target = round((HANDS_TARGET[s.n] - held) / s.n)
        values = [int(str(a.args[0])) for a in options]
        pick = min(max(target, min(values)), max(values))
        return Action("intensity", (pick,))

    def _turn(self, s: GrizzledState, seat: int, options: list[Action]) -> Action:
        counts = rules.threat_counts(s)
        plays = [a for a in options if a.kind == "play"]
        withdraws = [a for a in options if a.kind == "withdraw"]
        speeches = [a for a in options if a.kind == "speech"]
        others_in = any(not s.withdrawn[p] and s.hands[p] for p in range(s.n) if p != seat)
        if withdraws and others_in and rules.has_effect(s, seat, "fragile"):
            return max(withdraws, key=lambda a: self._tile_value(s, seat, a))  # let the others out
        hot = {t for t, n in counts.items() if n >= 2}
        if speeches and others_in and hot:
            return Action("speech", (self._speech_threat(counts),))
        best: tuple[float, Action] | None = None
        for a in plays:
            score = self._play_score(s, seat, str(a.args[0]), counts)
            if score is not None and (best is None or score < best[0]):
                best = (score, a)
        if best is not None:
            return best[1]
        charms = [a for a in options if a.kind == "charm"]
        for a in charms:
            if hot & set(_face_card(str(a.args[0])).threats):
                return a
        if speeches and others_in:
            return Action("speech", (self._speech_threat(counts),))
        if withdraws:
            return max(withdraws, key=lambda a: self._tile_value(s, seat, a))
        if charms:
            return charms[0]
        # Nothing safe and withdrawal forbidden: play the least dangerous card.
        return min(plays, key=lambda a: self._risk(str(a.args[0]), counts))

    def _play_score(self, s: GrizzledState, seat: int, face: str, counts: Counter[str]) -> float | None:
        """Lower is better; ``None`` when the card could end the Mission or the game."""
        card = _face_card(face)
        if card.kind == "special":
            return -1.0
        if card.kind == "hard_knock":
            kind = _knock_type(face)
            if kind.effect in LAST_CARD_EFFECTS and len(s.hands[seat]) > 1:
                return None
            if rules.weight(s, seat) + kind.weight > SAFE_KNOCK_WEIGHT:
                return None
            if any(counts.get(t, 0) + 1 >= rules.FAILURE_COUNT for t in card.threats):
                return None
            return 5.0 + kind.weight
        after = [counts.get(t, 0) + 1 for t in card.threats]
        if max(after) >= rules.FAILURE_COUNT:
            return None
        score = float(sum(x * x for x in after)) - len(after)
        if card.trap:
            new = counts.copy()
            new.update(card.threats)
            # A failure sends No Man's Land back to the Trials pile: weigh the chance by what it costs.
            if _failure_chance(new) * (len(s.nml) + 1) > TRAP_RISK:
                return None
            score += 3.0
        # Cards with many threats only fit an emptier No Man's Land: play them while they fit.
        return score - 2.0 * (len(after) - 2)

    def _speech_threat(self, counts: Counter[str]) -> str:
        """The threat whose cards are hardest to play now: the highest count in No Man's Land."""
        ids = content().threat_ids
        return max(ids, key=lambda t: (counts.get(t, 0), -ids.index(t)))

    def _risk(self, face: str, counts: Counter[str]) -> float:
        card = _face_card(face)
        return float(sum(counts.get(t, 0) + 1 for t in card.threats))

    def _tile_value(self, s: GrizzledState, seat: int, action: Action) -> float:
        place = action.args[0]
        if place is None:
            return 0.0
        target = rules.tile_target(s, seat, str(place))
        return _need(s, target)

    def _answer(self, options: list[Action]) -> Action:
        discards = [a for a in options if a.kind == "discard"]
        if not discards:
            return Action("keep", ())

        def value(a: Action) -> tuple[int, int]:
            card = _face_card(str(a.args[0]))
            return (card.kind == "hard_knock", len(card.threats))

        return max(discards, key=value)

    def _christmas(self, s: GrizzledState, options: list[Action]) -> Action:
        owner = {rules.card(c).face: p for p in range(s.n) for c in s.knocks[p]}

        def value(a: Action) -> tuple[float, int]:
            face = str(a.args[0])
            return (_need(s, owner[face]), _knock_type(face).weight)

        return max(options, key=value)

    def _help(self, s: GrizzledState, seat: int, options: list[Action]) -> Action:
        removes = [a for a in options if a.kind == "remove"]
        recover = [a for a in options if a.kind == "recover"]
        if recover and rules.weight(s, seat) <= 1:
            return recover[0]
        if removes:
            return max(removes, key=lambda a: sum(_knock_type(str(f)).weight for f in a.args))
        return recover[0] if recover else options[-1]
