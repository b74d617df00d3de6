"""The co-operative bot used by ``default_action`` (and as the ``heuristic`` bot).

Why it plays the way it does. The team loses the race against the Morale Reserve when hands
stay full (every card left in hand after a Mission pushes one more card onto the Trials pile),
and it loses on Hard Knocks when the Knocks that *must* eventually be played pile up on one
Grizzled. So the bot

* chooses its Grizzled so that bots never clash (``_character``): the charms are symmetric
  (each threat shows on 14 cards), so only avoiding a second round of choosing matters;
* deals only as many cards as the team can hope to play out (``_intensity``), and deals the
  whole Trials pile once that can end the game;
* plays every card it safely can before withdrawing, choosing the order that keeps the most of
  its own hand playable and leaves No Man's Land roomy for the others (``_best_threat_play``);
* takes its Hard Knocks first (they need no room in No Man's Land, and a failed Mission would
  leave them in hand), up to a weight the team can heal, keeping Knocks that forbid withdrawing
  until its hand is small enough;
* gives a Speech while other soldiers are still in and probably hold cards of the threat that
  blocks them (every answer discards a card for good), and uses the lucky charm only when it
  turns one of its blocked cards into a playable one;
* coordinates Support without talking: every seat computes the same beneficiary (the heaviest
  Hard Knock carrier) from public facts and aims its tile there, or away from any rival, so
  that the beneficiary strictly wins the count and can remove two Hard Knocks.

Fairness: the bot reads only what the seat may know — the public table (the same facts
``engine.view(state, seat)`` shows: No Man's Land, Hard Knocks in play, charms, tokens, hand
sizes, pile sizes, who withdrew) and the seat's own hand and tiles. It never reads another
hand, the Trials pile, the Reserve, ``state.rng`` or another seat's placed tile. Where it needs
the hidden cards it uses the *unseen multiset*: every Trial card minus its own hand, No Man's
Land and the Hard Knocks in play, i.e. a uniform determinisation of everything the seat cannot
see. ``tests/grizzled/test_bots.py`` checks this by scrambling the hidden part of a state and
asserting the bot's choice does not change.
"""

from __future__ import annotations

import random
from collections import Counter
from functools import cache

from engines.contract import Action, Bot, Engine, Seat
from engines.grizzled import commands, rules
from engines.grizzled.content import Card, KnockType, content
from engines.grizzled.state import CHOOSE, CHRISTMAS, INTENSITY, SPEECH, SUPPORT, TURN, GrizzledState

# Cards per player the team should hold right after the deal (Intensity choice).
HAND_TARGET = {2: 2.2, 3: 2.4, 4: 2.0, 5: 2.2}
# Deal the whole Trials pile once it is at most this many cards per player (measured per count).
FINISH_PER_PLAYER = {2: 3, 3: 3, 4: 3, 5: 2}
# A Hard Knock may raise its holder's weight to at most this (the loss comes at 4, GR-49).
KNOCK_CAP = 3
# Play a Trap only while (chance the drawn card fails the Mission) x (cards at stake) stays below this.
TRAP_RISK = 1.0
# A Clumsy soldier withdraws before the chance that its blind draw fails the Mission exceeds this.
CLUMSY_RISK = 0.15
# A Fragile soldier withdraws once some threat count reaches this (the others cannot leave while it stays).
FRAGILE_LEAVE_AT = 2
# Before withdrawing, spend a still-ready lucky charm to free room for the soldiers still in.
CHARM_FOR_TEAM = True
# A helped soldier carrying at most this Hard Knock weight recovers the charm instead of healing.
RECOVER_MAX_WEIGHT = 0
# Safe threat cards: cost of crowding No Man's Land (sum of squared counts), bonus per threat beyond two.
SQUARE_COST = 0.5
WIDE_BONUS = 1.5
# Speech: how much more a discard of a threat already in No Man's Land is worth, per card there.
CROWD_WEIGHT = 0.25
# Give a Speech once this many discards are expected from the other soldiers still in.
SPEECH_MIN_GAIN = 0.3
# Hard Knocks that forbid withdrawing while holding this many cards or more: kept until then.
WITHDRAW_BLOCKERS = {"prideful": 1, "hard_headed": 2}
# Hard Knocks whose effect keeps hurting the team while in play: taken last, healed first.
NASTY_EFFECTS = frozenset({"demoralized", "frenzied", "counts_as_threat", "fragile", "fearful", "clumsy_draw",
                           "prideful", "hard_headed"})


def _face_card(face: str) -> Card:
    return content().faces[face]


def _knock_type(face: str) -> KnockType:
    return content().knocks[_face_card(face).knock or ""]


def _card(cid: str) -> Card:
    return content().cards[cid]


@cache
def _all_card_ids() -> tuple[str, ...]:
    return tuple(content().cards)


def unseen_cards(s: GrizzledState, seat: int) -> list[Card]:
    """Every Trial card the seat cannot see: all cards minus its hand, No Man's Land and the
    Hard Knocks in play. This is the bot's only model of other hands and the piles."""
    seen = set(s.hands[seat]) | set(s.nml)
    for k in s.knocks:
        seen.update(k)
    cards = content().cards
    return [cards[c] for c in _all_card_ids() if c not in seen]


def _fails(card: Card, counts: Counter[str]) -> bool:
    return card.kind != "special" and any(counts.get(t, 0) + 1 >= rules.FAILURE_COUNT for t in card.threats)


def _knock_badness(face: str) -> float:
    kind = _knock_type(face)
    return kind.weight * 2.0 + (1.0 if kind.effect in NASTY_EFFECTS else 0.0)


def beneficiary(s: GrizzledState) -> int:
    """The seat the whole team aims its Support tiles at: the heaviest Hard Knock carrier
    (then the most Knocks, then a used charm, then the lowest seat). Public facts only, so
    every seat computes the same answer."""
    def need(p: int) -> tuple[int, int, int, int]:
        return (rules.weight(s, p), len(s.knocks[p]), 0 if s.charm_ready[p] else 1, -p)

    return max(range(s.n), key=need)


class CoopBot(Bot[GrizzledState]):
    name = "heuristic"

    def choose(self, engine: Engine[GrizzledState], state: GrizzledState, seat: Seat, rng: random.Random) -> Action:
        options = commands.legal(state, seat)
        if not options:
            raise ValueError(f"seat {seat} has no legal action")
        if len(options) == 1:
            return options[0]
        if state.phase == CHOOSE:
            return self._character(state, seat, options)
        if state.phase == INTENSITY:
            return self._intensity(state, options)
        if state.phase == TURN:
            return self._turn(state, seat, options)
        if state.phase == SPEECH:
            return self._answer(state, options)
        if state.phase == CHRISTMAS:
            return self._christmas(state, options)
        if state.phase == SUPPORT:
            return self._help(state, seat, options)
        return options[0]

    # -- Setup and Preparation ---------------------------------------------------------

    def _character(self, s: GrizzledState, seat: int, options: list[Action]) -> Action:
        """The k-th chooser in clash order takes the k-th free Grizzled: from public facts only
        (who chooses, the Leader), every bot seat picks a different one (GR-11)."""
        order = [p for p in rules.clash_order(s) if p in s.choosers]
        return options[order.index(seat) % len(options)]

    def _intensity(self, s: GrizzledState, options: list[Action]) -> Action:
        values = [int(str(a.args[0])) for a in options]
        if len(s.trials) <= FINISH_PER_PLAYER[s.n] * s.n:
            pick = max(values)  # the pile can be emptied this Mission: deal it all
        else:
            held = sum(len(h) for h in s.hands)
            pick = round(HAND_TARGET[s.n] - held / s.n)
        pick = min(max(pick, min(values)), max(values))
        return Action("intensity", (pick,))

    # -- A turn ------------------------------------------------------------------------

    def _turn(self, s: GrizzledState, seat: int, options: list[Action]) -> Action:
        counts = rules.threat_counts(s)
        by_kind: dict[str, list[Action]] = {}
        for a in options:
            by_kind.setdefault(a.kind, []).append(a)
        plays = by_kind.get("play", [])
        withdraws = by_kind.get("withdraw", [])
        speeches = by_kind.get("speech", [])
        charms = by_kind.get("charm", [])
        others_in = [p for p in range(s.n) if p != seat and not s.withdrawn[p] and s.hands[p]]
        hand = s.hands[seat]
        if not plays:  # e.g. Fearful forces a withdrawal
            if withdraws:
                return self._withdraw(s, seat, withdraws)
            plays = []

        if withdraws and others_in and rules.has_effect(s, seat, "fragile") and (
                max(counts.values(), default=0) >= FRAGILE_LEAVE_AT or not self._safe_plays(s, seat, counts)):
            return self._withdraw(s, seat, withdraws)  # leave before the others get stuck with unplayable cards

        special = [a for a in plays if _face_card(str(a.args[0])).kind == "special"]
        if special:
            return special[0]

        if speeches and others_in:
            threat, gain = self._speech_choice(s, seat, counts, others_in)
            if gain >= SPEECH_MIN_GAIN and (not self._safe_plays(s, seat, counts) or gain >= 2 * SPEECH_MIN_GAIN):
                return Action("speech", (threat,))

        # Hard Knocks first: they need no room in No Man's Land, and a Mission that fails later
        # would leave them in hand to weigh on the Morale Drop.
        knock = self._best_knock(s, seat, counts)
        if knock is not None:
            return Action("play", (knock,))

        play = self._best_threat_play(s, seat, counts)
        if play is not None and withdraws and self._clumsy_should_leave(s, seat, counts, play):
            return self._withdraw(s, seat, withdraws)
        if play is not None:
            return Action("play", (play,))

        if charms:
            charm = self._charm(s, seat, counts, charms)
            if charm is not None:
                return charm

        if speeches and others_in:
            threat, gain = self._speech_choice(s, seat, counts, others_in)
            if gain > 0:
                return Action("speech", (threat,))
        hot = [a for a in charms if any(counts.get(t, 0) >= 2 for t in _face_card(str(a.args[0])).threats)]
        if hot and others_in and CHARM_FOR_TEAM:
            # About to leave: an unused charm is wasted, so free the most crowded threat for the others.
            return max(hot, key=lambda a: (sum(counts.get(t, 0) >= 2 for t in _face_card(str(a.args[0])).threats),
                                           len(_face_card(str(a.args[0])).threats), str(a.args[0])))
        if withdraws:
            return self._withdraw(s, seat, withdraws)
        if charms and hand:
            return charms[0]
        if speeches:
            return speeches[0]
        # Withdrawal forbidden and nothing safe: play the least dangerous card.
        return min(plays, key=lambda a: self._risk(s, seat, str(a.args[0]), counts)) if plays else options[0]

    def _clumsy_should_leave(self, s: GrizzledState, seat: int, counts: Counter[str], play: str) -> bool:
        """Clumsy draws a blind card on withdrawing: leave while No Man's Land is still roomy."""
        if not rules.has_effect(s, seat, "clumsy_draw"):
            return False
        return self._draw_risk(s, seat, counts, _face_card(play)) > CLUMSY_RISK >= self._draw_risk(s, seat, counts, None)

    def _safe_plays(self, s: GrizzledState, seat: int, counts: Counter[str]) -> list[str]:
        faces = {_card(c).face for c in s.hands[seat]}
        return [f for f in faces if _face_card(f).kind == "threat" and not _fails(_face_card(f), counts)
                and self._trap_ok(s, seat, _face_card(f), counts)]

    def _trap_ok(self, s: GrizzledState, seat: int, card: Card, counts: Counter[str]) -> bool:
        if not card.trap or not s.trials:
            return True
        return self._draw_risk(s, seat, counts, card) * (len(s.nml) + 2) <= TRAP_RISK

    def _best_threat_play(self, s: GrizzledState, seat: int, counts: Counter[str]) -> str | None:
        """The safe threat card that keeps the most of the rest of the hand playable."""
        safe = self._safe_plays(s, seat, counts)
        if not safe:
            return None
        rest_faces = [_card(c).face for c in s.hands[seat]]
        best: tuple[float, str] | None = None
        for face in safe:
            card = _face_card(face)
            after = counts.copy()
            after.update(card.threats)
            rest = list(rest_faces)
            rest.remove(face)
            playable = self._chain(rest, after)
            squares = sum(v * v for v in after.values())
            score = 10.0 * playable - SQUARE_COST * squares + WIDE_BONUS * (len(card.threats) - 2) - (2.0 if card.trap else 0.0)
            if best is None or score > best[0] or (score == best[0] and face < best[1]):
                best = (score, face)
        return best[1] if best else None

    def _chain(self, faces: list[str], counts: Counter[str]) -> int:
        """How many of these threat cards can still be played one after another (greedy, fewest threats first)."""
        now = counts.copy()
        played = 0
        threat_faces = sorted((f for f in faces if _face_card(f).kind == "threat"),
                              key=lambda f: (len(_face_card(f).threats), f))
        progress = True
        while progress:
            progress = False
            for f in list(threat_faces):
                card = _face_card(f)
                if not _fails(card, now):
                    now.update(card.threats)
                    threat_faces.remove(f)
                    played += 1
                    progress = True
                    break
        return played

    def _best_knock(self, s: GrizzledState, seat: int, counts: Counter[str]) -> str | None:
        """The least harmful Hard Knock we may take now without failing or breaking the weight cap."""
        hand = [_card(c).face for c in s.hands[seat]]
        knocks = [f for f in set(hand) if _face_card(f).kind == "hard_knock"]
        w = rules.weight(s, seat)
        fine: list[tuple[float, str]] = []
        for face in knocks:
            kind = _knock_type(face)
            left = len(hand) - 1
            if kind.effect in WITHDRAW_BLOCKERS and left >= WITHDRAW_BLOCKERS[kind.effect]:
                continue  # it would keep us in the Mission with cards we cannot play
            if w + kind.weight > KNOCK_CAP:
                continue
            if _fails(_face_card(face), counts):
                continue
            fine.append((_knock_badness(face), face))
        if not fine:
            return None
        return min(fine)[1]

    def _charm(self, s: GrizzledState, seat: int, counts: Counter[str], charms: list[Action]) -> Action | None:
        """Use the charm when removing a card makes one of our blocked threat cards playable."""
        hand = [_card(c).face for c in s.hands[seat]]
        best: tuple[int, Action] | None = None
        for a in charms:
            removed = _face_card(str(a.args[0]))
            after = counts.copy()
            after.subtract(removed.threats)
            gain = self._chain(hand, after) - self._chain(hand, counts)
            if gain > 0 and (best is None or gain > best[0]):
                best = (gain, a)
        return best[1] if best else None

    def _speech_choice(self, s: GrizzledState, seat: int, counts: Counter[str],
                       others_in: list[int]) -> tuple[str, float]:
        """The threat with the most expected discards among the others still in, and that number."""
        unseen = unseen_cards(s, seat)
        total = max(len(unseen), 1)
        best: tuple[float, str] = (-1.0, "")
        for t in content().threat_ids:
            share = sum(1 for c in unseen if t in c.threats and c.kind != "special") / total
            gain = 0.0
            for p in others_in:
                gain += 1.0 - (1.0 - share) ** len(s.hands[p])
            gain *= 1.0 + CROWD_WEIGHT * counts.get(t, 0)  # cards of a crowded threat are the ones stuck in hands
            if gain > best[0]:
                best = (gain, t)
        return best[1], best[0]

    def _risk(self, s: GrizzledState, seat: int, face: str, counts: Counter[str]) -> float:
        """For a forced play: a card that cannot fail comes first, a Hard Knock the weight
        allows next, then the failure that sends the fewest cards back to the Trials pile."""
        card = _face_card(face)
        if card.kind == "special":
            return 0.0
        if _fails(card, counts):
            return 100.0 + len(s.nml)
        if card.kind == "hard_knock":
            over = rules.weight(s, seat) + _knock_type(face).weight - KNOCK_CAP
            return 2.0 if over <= 0 else 200.0 + over
        return 1.0 + self._draw_risk(s, seat, counts, card) if card.trap else 0.5

    def _draw_risk(self, s: GrizzledState, seat: int, counts: Counter[str], played: Card | None) -> float:
        """Chance that a blind draw from the Trials pile (Trap, Clumsy) fails the Mission,
        estimated from the unseen cards after ``played`` enters No Man's Land."""
        if not s.trials:
            return 0.0
        after = counts.copy()
        if played is not None:
            after.update(played.threats)
        unseen = unseen_cards(s, seat)
        bad = sum(1 for c in unseen if c.kind != "hard_knock" and _fails(c, after))
        heavy = rules.weight(s, seat) + 1 > KNOCK_CAP  # a drawn Hard Knock would break the weight limit
        bad += sum(1 for c in unseen if c.kind == "hard_knock" and (heavy or _fails(c, after)))
        return bad / max(len(unseen), 1)

    # -- Withdrawing and Support -------------------------------------------------------

    def _withdraw(self, s: GrizzledState, seat: int, withdraws: list[Action]) -> Action:
        target = self._tile_target(s, seat, withdraws)

        def value(a: Action) -> tuple[int, int]:
            place, drop = a.args
            aims = place is not None and rules.tile_target(s, seat, str(place)) == target
            keeps_double = drop is not None and content().tiles[str(drop)].double  # absent-minded: drop a single
            return (int(aims), int(not keeps_double))

        return max(withdraws, key=value)

    def _tile_target(self, s: GrizzledState, seat: int, withdraws: list[Action]) -> int | None:
        reach = {rules.tile_target(s, seat, str(a.args[0])) for a in withdraws if a.args[0] is not None}
        if not reach:
            return None
        b = beneficiary(s)
        if b != seat and b in reach:
            return b
        # Aim where no rival of the beneficiary grows: the beneficiary sends its tile just ahead
        # of itself, the others send theirs as far behind it as they can (see module docstring).
        dist = {p: (p - b) % s.n for p in reach}
        return min(reach, key=lambda p: dist[p]) if b == seat else max(reach, key=lambda p: dist[p])

    def _answer(self, s: GrizzledState, options: list[Action]) -> Action:
        discards = [a for a in options if a.kind == "discard"]
        if not discards:
            return Action("keep", ())
        counts = rules.threat_counts(s)

        def value(a: Action) -> tuple[int, int, int]:
            card = _face_card(str(a.args[0]))
            return (card.kind == "hard_knock", _fails(card, counts), len(card.threats))

        return max(discards, key=value)

    def _christmas(self, s: GrizzledState, options: list[Action]) -> Action:
        owner = {rules.card(c).face: p for p in range(s.n) for c in s.knocks[p]}

        def value(a: Action) -> tuple[int, float]:
            face = str(a.args[0])
            return (rules.weight(s, owner[face]), _knock_badness(face))

        return max(options, key=value)

    def _help(self, s: GrizzledState, seat: int, options: list[Action]) -> Action:
        removes = [a for a in options if a.kind == "remove"]
        recover = [a for a in options if a.kind == "recover"]
        if recover and rules.weight(s, seat) <= RECOVER_MAX_WEIGHT:
            return recover[0]
        if removes:
            return max(removes, key=lambda a: (sum(_knock_badness(str(f)) for f in a.args), len(a.args)))
        return recover[0] if recover else options[-1]
