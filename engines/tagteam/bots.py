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
from engines.tagteam.content import Content
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


def rehearse(content: Content, s: TTState, seat: int, my_deck: list[str], their_deck: list[str]) -> float:
    """Play one Fight on a copy of the boards and score it for ``seat``."""
    teams = [[f.clone() for f in team] for team in s.teams]
    active = list(s.active)
    decks = [my_deck, their_deck] if seat == 0 else [their_deck, my_deck]
    index = {f.id: (t, i) for t, team in enumerate(teams) for i, f in enumerate(team)}
    for k in range(max(len(decks[0]), len(decks[1]))):
        cards = []
        for t in (0, 1):
            cid = decks[t][k] if k < len(decks[t]) else None
            card = content.cards.get(cid) if cid is not None else None
            if card is not None and card.fighter in index:
                active[t] = index[card.fighter][1]
            else:
                card = None
            cards.append(card)
        Resolver(content, teams, active, cards).run_turn()
        if any(f.hp == 0 for team in teams for f in team):
            break
    return score(teams, seat)


def known_opponent_deck(s: TTState, seat: int) -> list[str]:
    """The opponent's Fight Deck as the last Fight revealed it (public knowledge)."""
    return [str(turn[1 - seat]) for turn in s.last_fight if turn[1 - seat] is not None]


def candidate_positions(n: int, limit: int = 7) -> list[int]:
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
        deck = s.fight[seat]
        drawn = s.draw[seat]
        theirs = known_opponent_deck(s, seat)
        best: tuple[int, int] = (1, 0)
        best_value = -1e9
        value_of: dict[int, float] = {}
        for pick in (1, 2, 3):
            if drawn[pick - 1] in (drawn[i] for i in range(pick - 1)):
                continue  # a duplicate of a card already tried
            top = -1e9
            for pos in candidate_positions(len(deck)):
                trial = [*deck[:pos], drawn[pick - 1], *deck[pos:]]
                value = rehearse(self.content, s, seat, trial, theirs)
                top = max(top, value)
                if value > best_value:
                    best, best_value = (pick, pos), value
            value_of[pick] = top
        pick, pos = best
        # the better of the other two comes back first from under the Build Deck
        others = sorted((i for i in (1, 2, 3) if i != pick), key=lambda i: -value_of.get(i, -1e9))
        return Action("add", (pick, pos, others[0], others[1]))
