"""Golden games: the same seeds must give the very same games, move for move.

Why: the engine is tuned for speed (cached legal actions, cheap clones, precomputed tables),
and none of that may change behaviour. ``golden.json`` was recorded before the tuning; each
entry holds, for one seeded random game (the conformance suite's way of choosing seats and
moves), SHA-256 digests of the final ``to_json``, of the (seat, command) log, of every event
text, and -- for the ``deep`` seeds -- of every offered choice (command + both labels), of the
menus and of the views and rendered mail bodies along the way. Seed 0 of each player count
also keeps its final JSON and command log in full, to read a difference rather than only
detect it. A few bot games pin the heuristic bot too. Digests keep the fixture small;
``python -m tests.barcadia.test_golden 4 7`` prints the final JSON and log of any game.

Random games are given ``turn_limit`` 200 (``RANDOM_OPTIONS``): since HB-71 a game has no limit
by default, and all-random play then runs ~1,000 steps (up to ~12,000) before somebody stumbles
on the Guardian; the limit keeps the fixture small and the test quick, and pins the limit's
ranking (HB-71) too. The bot games use the default options and end by a win.

Regenerate only on an intended rule change: ``python -m tests.barcadia.test_golden --write``.
"""

from __future__ import annotations

import hashlib
import json
import random
import sys
from pathlib import Path
from typing import Any

import pytest

from engines.barcadia.engine import ENGINE, play_bots
from engines.barcadia.state import BarcadiaState
from engines.bots import RandomBot
from engines.contract import Event
from tests.conformance import player_names

FIXTURE = Path(__file__).with_name("golden.json")
SEEDS = range(20)
DEEP_SEEDS = range(3)  # every choice, menu and (sampled) view is digested for these
FULL_SEEDS = range(1)  # final JSON and command log stored in full for these
BOT_SEEDS = range(3)
VIEW_EVERY = 20
RANDOM_OPTIONS = {"turn_limit": 200}


def _digest(parts: list[str]) -> str:
    h = hashlib.sha256()
    for p in parts:
        h.update(p.encode())
        h.update(b"\x00")
    return h.hexdigest()


def _event_text(e: Event) -> str:
    seen = "all" if e.visible_to is None else ",".join(map(str, sorted(e.visible_to)))
    return f"{seen}|{e.text.en}|{e.text.vi}"


def random_game(players: int, seed: int, deep: bool) -> tuple[BarcadiaState, list[tuple[int, str]], dict[str, Any]]:
    """One random game, chosen exactly as the conformance playout chooses (seat, then move)."""
    rng = random.Random(seed)
    state = ENGINE.new_game(player_names(players), RANDOM_OPTIONS, seed)
    log: list[tuple[int, str]] = []
    events: list[str] = []
    choices: list[str] = []
    views: list[str] = []
    step = 0
    while to_act := ENGINE.to_act(state):
        seat = rng.choice(sorted(to_act))
        offered = ENGINE.legal_actions(state, seat)
        if deep:
            choices += [f"{c.command}|{c.label.en}|{c.label.vi}" for c in offered]
            choices += ["menu:" + c.command for c in ENGINE.menu(state, seat)]
            choices.append(f"key:{ENGINE.decision_key(state, seat)}|default:{ENGINE.default_action(state, seat)}")
            if step % VIEW_EVERY == 0:
                for viewer in [*range(players), None]:
                    view = ENGINE.view(state, viewer)
                    views.append(json.dumps(view, sort_keys=True, ensure_ascii=False))
                    views += [ENGINE.render_view(view, lang) for lang in ("en", "vi")]
        choice = rng.choice(offered)
        command = ENGINE.format(state, choice.action)
        state, evs = ENGINE.apply(state, seat, choice.action)
        log.append((seat, command))
        events += [_event_text(e) for e in evs]
        step += 1
    outcome = ENGINE.outcome(state)
    assert outcome is not None
    record = {
        "steps": step,
        "final": _digest([ENGINE.to_json(state)]),
        "log": _digest([f"{seat}:{cmd}" for seat, cmd in log]),
        "events": _digest(events),
        "outcome": f"{sorted(outcome.winners)}|{outcome.draw}|{outcome.reason.en}",
    }
    if deep:
        record["choices"] = _digest(choices)
        record["views"] = _digest(views)
    if seed in FULL_SEEDS:  # kept whole, so a difference can be read, not just detected
        record["final_json"] = ENGINE.to_json(state)
        record["log_text"] = [f"{seat}: {cmd}" for seat, cmd in log]
    return state, log, record


def bot_game(players: int, seed: int) -> dict[str, Any]:
    """Heuristic bots in every seat but the last (a random player)."""
    engine_bots = ENGINE.bots()
    seats = [engine_bots["heuristic"]] * (players - 1) + [RandomBot()]
    state = ENGINE.new_game(player_names(players), None, seed)
    final, steps = play_bots(ENGINE, state, seats, random.Random(seed))
    return {"steps": steps, "final": _digest([ENGINE.to_json(final)])}


def record_all() -> dict[str, Any]:
    out: dict[str, Any] = {}
    for players in range(2, 7):
        for seed in SEEDS:
            out[f"random/{players}/{seed}"] = random_game(players, seed, seed in DEEP_SEEDS)[2]
        for seed in BOT_SEEDS:
            out[f"bots/{players}/{seed}"] = bot_game(players, seed)
    return out


def _golden() -> dict[str, Any]:
    data: dict[str, Any] = json.loads(FIXTURE.read_text(encoding="utf-8"))
    return data


@pytest.mark.parametrize("players", range(2, 7))
def test_random_games_match_the_recorded_games(players: int) -> None:
    """Speed work must not change behaviour: each seed replays to the recorded game."""
    golden = _golden()
    for seed in SEEDS:
        key = f"random/{players}/{seed}"
        assert random_game(players, seed, seed in DEEP_SEEDS)[2] == golden[key], key


@pytest.mark.parametrize("players", range(2, 7))
def test_bot_games_match_the_recorded_games(players: int) -> None:
    """The heuristic bot reads the same engine tables and must choose exactly as before."""
    golden = _golden()
    for seed in BOT_SEEDS:
        key = f"bots/{players}/{seed}"
        assert bot_game(players, seed) == golden[key], key


if __name__ == "__main__":
    if "--write" in sys.argv:
        FIXTURE.write_text(json.dumps(record_all(), indent=1, sort_keys=True) + "\n", encoding="utf-8")
    else:
        final, game_log, _ = random_game(int(sys.argv[1]) if len(sys.argv) > 1 else 4,
                                         int(sys.argv[2]) if len(sys.argv) > 2 else 0, False)
        print(ENGINE.to_json(final))
        print("\n".join(f"{seat}: {cmd}" for seat, cmd in game_log))
