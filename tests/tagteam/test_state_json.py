"""``TTState.to_json`` writes the text ``json.dumps(asdict(state))`` wrote, for every position."""

from __future__ import annotations

import json
import random
from dataclasses import asdict

import pytest

from engines.tagteam.engine import ENGINE
from engines.tagteam.state import TTState


def _reference(state: TTState) -> str:
    """The former ``to_json``, kept here to compare with."""
    return json.dumps(asdict(state), sort_keys=True, separators=(",", ":"), ensure_ascii=False)


@pytest.mark.parametrize("draft", ["standard", "competitive", "free", "first_game", "random"])
def test_every_position_of_random_games_is_written_as_before(draft: str) -> None:
    """Whole games with random legal moves: drafts, pending secret choices, builds, fights,
    tokens, bonuses and the result all pass through ``to_json``."""
    checked = 0
    for seed in range(6):
        rng = random.Random(f"{draft}{seed}")
        s = ENGINE.new_game(["Alice", "Bob"], {"draft": draft}, seed)
        for _ in range(400):
            assert s.to_json() == _reference(s)
            assert TTState.from_json(s.to_json()) == s
            checked += 1
            if not ENGINE.to_act(s):
                break
            seat = rng.choice(sorted(ENGINE.to_act(s)))
            s, _ = ENGINE.apply(s, seat, rng.choice(ENGINE.legal_actions(s, seat)).action)
    assert checked > 50  # ~10 decisions a game, to its end ("over")


def test_a_dataclass_inside_the_position_is_written_as_asdict_wrote_it() -> None:
    s = ENGINE.new_game(["Alice", "Bob"], {"draft": "standard"}, 1)
    s.last_fight = [[s.teams[0][0].clone()]] if s.teams[0] else [[ENGINE.new_game(["A", "B"], None, 2).teams]]
    assert s.to_json() == _reference(s)
