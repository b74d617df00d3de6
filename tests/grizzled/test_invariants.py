"""Invariants over many random and bot games: cards are conserved, counts stay below 3 in play."""

from __future__ import annotations

import random

import pytest

from engines.grizzled import rules
from engines.grizzled.engine import ENGINE
from engines.grizzled.state import CHRISTMAS, SPEECH, TURN, GrizzledState


def places(s: GrizzledState) -> list[str]:
    return s.trials + s.reserve + s.nml + [c for h in s.hands for c in h] + [c for k in s.knocks for c in k]


@pytest.mark.parametrize("bot", ["random", "heuristic"])
@pytest.mark.parametrize("players", [2, 3, 4, 5])
def test_GR_58_cards_are_conserved_and_removed_cards_never_return(bot: str, players: int) -> None:
    """GR-58: "A removed (discarded) card never returns to play." Every card is in exactly one
    place; the set of cards in play only ever shrinks; no threat count reaches 3 while a Mission
    goes on (GR-37: the Mission would have ended)."""
    chooser = ENGINE.bots()[bot]
    for seed in range(25):
        s = ENGINE.new_game(["A", "B", "C", "D", "E"][:players], None, seed)
        rng = random.Random(seed)
        alive = set(places(s))
        assert len(alive) == 59
        while ENGINE.to_act(s):
            seat = min(ENGINE.to_act(s))
            s, _ = ENGINE.apply(s, seat, chooser.choose(ENGINE, s, seat, rng))
            now = places(s)
            assert len(now) == len(set(now)), "a card is in two places"
            assert set(now) <= alive, "a removed card came back"
            alive = set(now)
            if s.phase in (TURN, SPEECH, CHRISTMAS):
                counts = rules.threat_counts(s)
                assert not counts or max(counts.values()) < rules.FAILURE_COUNT
        assert ENGINE.outcome(s) is not None
