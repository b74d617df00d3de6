"""Setting up a new game (GR-11 .. GR-16)."""

from __future__ import annotations

from engines.grizzled import rules
from engines.grizzled.content import content
from engines.grizzled.state import CHOOSE, INTENSITY, GrizzledState
from engines.rng import Rng

TRIALS_PILE_SIZE = 25  # GR-13: the rest form the Morale Reserve
CHARACTER_MODES = ("choose", "random")  # GR-11: the players choose (default), or the Grizzled are dealt


def deal_tiles(n: int, rng: Rng) -> list[list[str]]:
    """GR-12: one of each base type per player, then one at random from what is left; the
    double types are set aside first with 2-3 players; undealt tiles leave the game."""
    tiles = content().tiles
    base = [t.id for t in tiles.values() if t.base]
    pool = []
    for t in tiles.values():
        if t.double and n <= 3:
            continue
        pool += [t.id] * (t.count - (n if t.base else 0))
    rng.shuffle(pool)
    return [[*base, pool.pop()] for _ in range(n)]


def new_state(players: list[str], seed: int, characters: str = "choose") -> GrizzledState:
    """GR-11: with ``characters="choose"`` every seat secretly chooses its Grizzled first (the
    ``CHOOSE`` phase, ``rules.choose_character``); with ``"random"`` they are dealt here. The deal
    is drawn in both modes, so one seed gives the same piles, tiles and Leader either way."""
    c = content()
    n = len(players)
    rng = Rng(seed)
    dealt = [ch.id for ch in c.characters]
    rng.shuffle(dealt)
    choosing = characters == "choose"
    cards = list(c.cards)
    rng.shuffle(cards)  # GR-13 OPEN: shuffle all 59
    trials, reserve = cards[:TRIALS_PILE_SIZE], cards[TRIALS_PILE_SIZE:]
    tiles = deal_tiles(n, rng)
    leader = rng.below(n)  # GR-15 OPEN: random first Leader
    return GrizzledState(
        players=players,
        characters=[""] * n if choosing else dealt[:n],
        rng=rng.state,
        trials=trials,
        reserve=reserve,
        hands=[[] for _ in range(n)],
        knocks=[[] for _ in range(n)],
        tiles=tiles,
        charm_ready=[True] * n,
        speech_held=[0] * n,
        speech_supply=rules.SPEECH_TOKENS[n],
        leader=leader,
        withdrawn=[False] * n,
        placed_tile=[None] * n,
        placed_to=[None] * n,
        phase=CHOOSE if choosing else INTENSITY,
        turn=leader,
        choosers=list(range(n)) if choosing else [],
    )
