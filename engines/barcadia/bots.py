"""The heuristic bot: explore for Power-Ups, then head for the Drink Hoard and fight.

Why it beats random play: it never wastes its action, walks along shortest paths to the
unexplored edge (or to the Hoard once it holds 3 Power-Ups), picks the weakest opponent to
play a Boss, keeps its most useful cards, and spends its cards where they matter.
"""

from __future__ import annotations

import random
from collections import deque

from engines.barcadia import moves
from engines.barcadia import resolutions as R
from engines.barcadia.content import content
from engines.barcadia.rules import hoard_room, roll_bonus
from engines.barcadia.state import (
    DROPS,
    KNOWN,
    PHASE_CHARACTERS,
    PHASE_PLACE,
    PHASE_WINDOW,
    TILE,
    TRAPS,
    UP,
    BarcadiaState,
)
from engines.contract import Action, Bot, Engine, Seat

POWERUP_VALUE = {
    "lucky-coin": 9, "guardian-charm": 10, "boss-crown": 7, "war-ring": 5, "gauntlets": 6, "regeneration": 6,
    "iron-belly": 5, "long-stride": 5, "deep-pockets": 4, "trap-sense": 3, "banner": 3, "duel-gloves": 2,
}
LOOT_VALUE = {
    "dash": 9, "guardian-toast": 8, "liquid-courage": 8, "hearty-stew": 7, "thirst-aid": 6, "boss-bane": 6,
    "bottle-axe": 5, "iron-flask": 5, "scavenge": 5, "shadow-step": 4, "team-huddle": 3, "sloppy": 4,
}

# HB-68: the Signature Moves the bot would rather have, best first (the Guardian decides the game;
# Monsters and Bosses bring the Power-Ups).
CHARACTER_RANK = ("wizard", "barbarian", "sorcerer", "ranger", "rogue", "knight")
# Cards worth playing while a fight waits on the bot's choice, best first (HB-51).
FIGHT_CARDS = {
    "guardian": ("guardian-toast", "liquid-courage"),
    "boss": ("boss-bane", "liquid-courage"),
    "teammate": ("team-huddle", "bottle-axe", "liquid-courage"),
}


def distances(s: BarcadiaState, goals: set[int]) -> dict[int, int]:
    """Steps from each room to the nearest goal, walking only through enterable rooms."""
    dist = {g: 0 for g in goals}
    queue = deque(goals)
    while queue:
        room = queue.popleft()
        for nb in s.adj[room]:
            if nb not in dist and (moves.enterable(s, nb) or nb in s.pos):
                dist[nb] = dist[room] + 1
                queue.append(nb)
    return dist


class HeuristicBot(Bot[BarcadiaState]):
    name = "heuristic"

    def choose(self, engine: Engine[BarcadiaState], state: BarcadiaState, seat: Seat, rng: random.Random) -> Action:
        acts = moves.legal(state, seat)
        if state.pending:
            return self.pending(state, seat, acts)
        if state.phase == PHASE_PLACE:
            return rng.choice(acts)
        if state.phase == PHASE_CHARACTERS:
            return min(acts, key=lambda a: CHARACTER_RANK.index(str(a.args[0])) if a.args[0] in CHARACTER_RANK else 99)
        if state.phase == PHASE_WINDOW:
            return self.between(state, seat, acts)
        return self.turn(state, seat, acts)

    # -- decisions of others' making -----------------------------------------------

    def pending(self, s: BarcadiaState, seat: Seat, acts: list[Action]) -> Action:
        kind = s.pending[0]["kind"]
        plays = {str(a.args[0]): a for a in acts if a.kind == "play" and len(a.args) == 1}
        acts = [a for a in acts if a.kind != "play"]
        for card in FIGHT_CARDS.get(kind, ()):  # HB-51: a bonus for the roll that waits
            if card in plays:
                return plays[card]
        if kind in FIGHT_CARDS and "hearty-stew" in plays and s.hp[seat] <= 50:
            return plays["hearty-stew"]
        if kind == "guardian":
            return Action("hoard")
        if kind == "teammate":
            return max(acts, key=lambda a: roll_bonus(s, int(str(a.args[0])), "Team"))
        if kind == "boss":
            return min(acts, key=lambda a: (roll_bonus(s, int(str(a.args[0])), "Boss"),
                                            -len(s.powerups[int(str(a.args[0]))])))
        if kind in ("overflow", "death_drop"):
            return min(acts, key=lambda a: POWERUP_VALUE.get(str(a.args[0]), 0))
        if kind == "death_keep":
            return max(acts, key=lambda a: LOOT_VALUE.get(str(a.args[0]), 1))
        if kind == "stash":
            foes = [s.layout[s.pos[o]] for o in range(s.n) if o != seat]

            def far(a: Action) -> int:
                q, r = s.layout[int(str(a.args[0]))]
                return min((abs(q - f[0]) + abs(r - f[1]) + abs(q + r - f[0] - f[1])) for f in foes)
            return max(acts, key=far)
        return acts[0]

    def between(self, s: BarcadiaState, seat: Seat, acts: list[Action]) -> Action:
        plays = {str(a.args[0]): a for a in acts if a.kind == "play"}
        if "thirst-aid" in plays and s.hp[seat] <= R.FULL_HP - 30:
            return plays["thirst-aid"]
        leader = max(range(s.n), key=lambda o: (o != seat, len(s.powerups[o]), -s.hp[o]))
        hoard = hoard_room(s)
        if len(s.powerups[leader]) >= R.POWERUPS_TO_ATTEMPT and leader != seat:
            for a in acts:
                if a.kind == "play" and a.args[0] == "trap" and a.args[1] == hoard:
                    return a
            for a in acts:
                if a.kind == "play" and a.args[0] == "sloppy" and a.args[1] == leader:
                    return a
        for a in acts:
            if a.kind == "play" and a.args[0] == "sloppy" and s.hp[int(str(a.args[1]))] <= 10 \
                    and s.powerups[int(str(a.args[1]))]:
                return a
        if "iron-flask" in plays and not s.shield[seat] and s.hp[seat] <= 50:
            return plays["iron-flask"]
        return moves.PASS

    # -- own turn -----------------------------------------------------------------------

    def turn(self, s: BarcadiaState, seat: Seat, acts: list[Action]) -> Action:
        t = s.turn
        plays = {str(a.args[0]): a for a in acts if a.kind == "play" and len(a.args) == 1}
        if "hearty-stew" in plays and s.hp[seat] <= 50:
            return plays["hearty-stew"]
        if any(a.kind == "hoard" for a in acts):
            for card in ("guardian-toast", "liquid-courage"):
                if card in plays:
                    return plays[card]
            return Action("hoard")
        ready = len(s.powerups[seat]) >= R.POWERUPS_TO_ATTEMPT
        hoard = hoard_room(s)
        if t["actions"] > 0:
            grab = [a for a in acts if a.kind == "enter" and any(s.rooms[int(str(x))][DROPS] for x in a.args)]
            if grab and not ready:
                return grab[0]
            if ready and hoard:
                goals = {nb for nb in s.adj[hoard] if moves.enterable(s, nb) or s.pos[seat] == nb}
                step = self.step_toward(s, seat, acts, goals)
                if step is not None:
                    return step
            # Ready with the Hoard still hidden: it can only lie under a tile nobody has seen yet;
            # if no such tile is in reach, clear the known rooms in the way like anyone else.
            for hunting in ([True, False] if ready and not hoard else [False]):
                reveal = self.best_reveal(s, seat, acts, unseen_only=hunting)
                if reveal is not None and reveal[0] >= 0:
                    return reveal[1]
                worth = {i for i in range(1, len(s.rooms)) if not s.rooms[i][UP]
                         and (not s.rooms[i][KNOWN] if hunting else self.reveal_score(s, seat, i) >= 0)}
                goals = {i for i in range(len(s.rooms)) if (moves.enterable(s, i) or s.pos[seat] == i)
                         and any(nb in worth for nb in s.adj[i])}
                step = self.step_toward(s, seat, acts, goals)
                if step is not None:
                    return step
            fallback = self.best_reveal(s, seat, acts)
            if fallback is not None:  # nothing better: fight what is there rather than stall
                return fallback[1]
        elif t["acted"] and "dash" in plays:
            return plays["dash"]
        return moves.PASS

    def reveal_score(self, s: BarcadiaState, seat: Seat, room: int) -> float:
        """How much a face-down room is worth revealing; negative = better avoided for now."""
        r = s.rooms[room]
        score = 5.0 - int(r[TRAPS]) * 2
        if r[KNOWN]:
            tile = content().rooms[r[TILE]]
            if tile.kind == "boss":
                score = 8.0
            elif tile.kind == "monster":
                score = 4.0 - tile.level / 5 - (3 if s.hp[seat] <= tile.damage else 0)
            elif tile.kind == "team":
                score = 1.0
        return score

    def best_reveal(self, s: BarcadiaState, seat: Seat, acts: list[Action],
                    unseen_only: bool = False) -> tuple[float, Action] | None:
        best: tuple[float, Action] | None = None
        for a in acts:
            if a.kind == "reveal" and not (unseen_only and s.rooms[int(str(a.args[0]))][KNOWN]):
                score = self.reveal_score(s, seat, int(str(a.args[0])))
                if best is None or score > best[0]:
                    best = (score, a)
        return best

    def step_toward(self, s: BarcadiaState, seat: Seat, acts: list[Action], goals: set[int]) -> Action | None:
        if not goals or s.pos[seat] in goals:
            return None
        dist = distances(s, goals)
        here = dist.get(s.pos[seat], 99)
        best: tuple[int, Action] | None = None
        for a in acts:
            if a.kind == "enter":
                d = dist.get(int(str(a.args[-1])), 99)
            elif a.kind == "portal" and not s.is_occupied(int(str(a.args[0]))):
                d = dist.get(int(str(a.args[0])), 99) + 0  # free: not an action
            else:
                continue
            if d < here and (best is None or d < best[0] or (d == best[0] and a.kind == "portal")):
                best = (d, a)
        return None if best is None else best[1]
