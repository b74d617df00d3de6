"""The heuristic bot: it rehearses the next Fight before it builds.

Because a Fight Deck is never shuffled (TT-24) and every card the opponent played was
revealed, the opponent's next Fight is known except for the one card they add now. The bot
tries each drawn card in a handful of positions, plays the next Fight out against the
opponent's revealed order with the real resolver, and keeps the build whose board looks
best. It only reads what its own view would show (the public Fight record, its own
deck and draw), never the opponent's secrets.
"""

from __future__ import annotations

import random

from engines.contract import Action, Bot, Engine, Seat
from engines.tagteam.content import Act, Card, Content
from engines.tagteam.fight import Resolver
from engines.tagteam.state import FighterState, TTState

KO_SCORE = 1000.0


def fighter_rating(content: Content, fid: str) -> float:
    """A rough draft preference: hit points, power and how much damage the deck carries."""
    f = content.fighters[fid]
    dmg = sum(c.frequency * sum(1 for seg in c.segments for a in seg if a.verb in ("attack", "damage"))
              for c in f.cards)
    return f.sides[0].start + 2.5 * f.base_power + 0.4 * dmg


def score(teams: list[list[FighterState]], seat: int) -> float:
    mine, theirs = teams[seat], teams[1 - seat]
    ko_me = any(f.hp == 0 for f in mine)
    ko_them = any(f.hp == 0 for f in theirs)
    if ko_me and not ko_them:
        return -KO_SCORE
    if ko_them and not ko_me:
        return KO_SCORE
    value = 0.0
    for sign, team in ((1, mine), (-1, theirs)):
        value += sign * (sum(f.hp for f in team) + 2 * min(f.hp for f in team) + 1.2 * sum(f.power for f in team))
    return value


Deck = list[Card | None]


class Rehearsal:
    """Fights of one seat's candidate decks against one guess of the opponent's deck.

    All candidates share the Turns before the new card, so those are played once and the
    boards kept after every Turn; each candidate then plays only from its insertion point.
    """

    def __init__(self, content: Content, s: TTState, seat: int, base: Deck, theirs: Deck) -> None:
        self.content = content
        self.seat = seat
        self.theirs = theirs
        self.index = {f.id: i for team in s.teams for i, f in enumerate(team)}
        teams = [[f.clone() for f in team] for team in s.teams]
        active = list(s.active)
        self.before: list[tuple[list[list[FighterState]], list[int], bool]] = []
        over = False
        for k in range(len(base) + 1):
            self.before.append(([[f.clone() for f in team] for team in teams], list(active), over))
            if k < len(base) and not over:
                over = self.turn(teams, active, base[k], self.their_card(k))
        self.base = base

    def their_card(self, k: int) -> Card | None:
        return self.theirs[k] if k < len(self.theirs) else None

    def turn(self, teams: list[list[FighterState]], active: list[int], mine: Card | None,
             theirs: Card | None) -> bool:
        cards = [mine, theirs] if self.seat == 0 else [theirs, mine]
        for t in (0, 1):
            card = cards[t]
            if card is not None:
                i = self.index.get(card.fighter)
                if i is None or teams[t][i].id != card.fighter:
                    cards[t] = None
                else:
                    active[t] = i
        Resolver(self.content, teams, active, cards).run_turn()
        return any(f.hp == 0 for team in teams for f in team)

    def play(self, card: Card | None, pos: int) -> float:
        """Score of the Fight with ``card`` inserted at ``pos`` of the base deck."""
        saved, act, over = self.before[pos]
        teams = [[f.clone() for f in team] for team in saved]
        active = list(act)
        deck = [*self.base[:pos], card, *self.base[pos:]] if card is not None else self.base
        k = pos
        while not over and k < max(len(deck), len(self.theirs)):
            over = self.turn(teams, active, deck[k] if k < len(deck) else None, self.their_card(k))
            k += 1
        return score(teams, self.seat)


def rehearse(content: Content, s: TTState, seat: int, my_deck: list[str], their_deck: list[str]) -> float:
    """Play one Fight on a copy of the boards and score it for ``seat``."""
    mine: Deck = [content.cards.get(c) for c in my_deck]
    theirs: Deck = [content.cards.get(c) for c in their_deck]
    return Rehearsal(content, s, seat, mine, theirs).play(None, 0)


def guesses(s: TTState, seat: int, their_len: int) -> list[tuple[Card | None, int]]:
    """What the opponent may add unseen: nothing, or a plain Attack on top, in the middle, at the end."""
    out: list[tuple[Card | None, int]] = [(None, 0)]
    if GUESSES:
        for k, pos in enumerate(sorted({0, their_len // 2, their_len} if GUESSES == 3 else {0, their_len})):
            fid = s.teams[1 - seat][k % 2].id
            out.append((Card("bot.guess", fid, "guess", 1, False, ((Act("attack", target="opponent"),),)), pos))
    return out


GUESSES = 3


def known_opponent_deck(s: TTState, seat: int) -> list[str]:
    """The opponent's Fight Deck as the last Fight revealed it (public knowledge)."""
    return [str(turn[1 - seat]) for turn in s.last_fight if turn[1 - seat] is not None]


def candidate_positions(n: int, limit: int = 5) -> list[int]:
    if n + 1 <= limit:
        return list(range(n + 1))
    step = n / (limit - 1)
    return sorted({0, n, *(round(i * step) for i in range(1, limit - 1))})


class HeuristicBot(Bot[TTState]):
    """Drafts strong fighters, denies the best one in competitive drafts, builds by rehearsal."""

    name = "heuristic"

    def __init__(self, content: Content) -> None:
        self.content = content

    def choose(self, engine: Engine[TTState], state: TTState, seat: Seat, rng: random.Random) -> Action:
        s = state

        def rate(fid: str) -> float:
            return fighter_rating(self.content, fid) + rng.random() * 0.5

        if s.phase in ("draft1", "draft2"):
            ranked = sorted(s.hands[seat], key=rate, reverse=True)
            if s.phase == "draft1" and s.draft == "competitive":
                return Action("pick_discard", (ranked[0], ranked[1]))
            return Action("pick", (ranked[0],))
        if s.phase == "free":
            a, b = sorted(sorted(self.content.fighters, key=rate, reverse=True)[:2])
            return Action("team", (a, b))
        if s.phase == "setup":
            return self.choose_order(s, seat)
        return self.choose_build(s, seat)

    def choose_order(self, s: TTState, seat: int) -> Action:
        starts = [self.content.fighters[f.id].starting_card.id for f in s.teams[seat]]
        theirs = [self.content.fighters[f.id].starting_card.id for f in s.teams[1 - seat]]
        best, best_value = (1, 2), -1e9
        for order in ((1, 2), (2, 1)):
            deck = [starts[i - 1] for i in order]
            value = sum(rehearse(self.content, s, seat, deck, opp) for opp in (theirs, theirs[::-1]))
            if value > best_value:
                best, best_value = order, value
        return Action("order", best)

    def choose_build(self, s: TTState, seat: int) -> Action:
        content = self.content
        base: Deck = [content.cards.get(c) for c in s.fight[seat]]
        drawn = s.draw[seat]
        known: Deck = [content.cards.get(c) for c in known_opponent_deck(s, seat)]
        rehearsals = []
        for guess, at in guesses(s, seat, len(known)):
            theirs = list(known)
            if guess is not None:
                theirs.insert(at, guess)
            rehearsals.append(Rehearsal(content, s, seat, base, theirs))
        best: tuple[int, int] = (1, 0)
        best_value = -1e9
        value_of: dict[int, float] = {}
        for pick in (1, 2, 3):
            if drawn[pick - 1] in drawn[:pick - 1]:
                continue  # a duplicate of a card already tried
            card = content.cards.get(drawn[pick - 1])
            top = -1e9
            for pos in candidate_positions(len(base)):
                value = sum(r.play(card, pos) for r in rehearsals)
                top = max(top, value)
                if value > best_value:
                    best, best_value = (pick, pos), value
            value_of[pick] = top
        pick, pos = best
        # the better of the other two comes back first from under the Build Deck
        others = sorted((i for i in (1, 2, 3) if i != pick), key=lambda i: -value_of.get(i, -1e9))
        return Action("add", (pick, pos, others[0], others[1]))
