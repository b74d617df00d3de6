"""Tag Team bot statistics and balance: ``.venv/bin/python -m bench.tagteam_stats``.

- fighter balance: heuristic against heuristic with random teams; a fighter's win rate counts
  a draw as half a win, so a perfectly even fighter sits at 50 %;
- the heuristic bot against the random bot, seats alternating;
- engine speed: whole games per second and the cost of the calls the service makes.

The slow tests in ``tests/tagteam/test_stats.py`` call the same functions and assert the
thresholds of issue 3 (every fighter within 35–65 %, the bot winning at least 70 %).
"""

from __future__ import annotations

import argparse
import random
import time
from collections import Counter
from dataclasses import dataclass, field

from engines.bots import RandomBot
from engines.tagteam.engine import ENGINE, TagTeamEngine, play_bots
from engines.tagteam.state import TTState


@dataclass
class FighterRow:
    games: int = 0
    wins: int = 0
    draws: int = 0

    @property
    def rate(self) -> float:
        return (self.wins + 0.5 * self.draws) / self.games if self.games else 0.0


@dataclass
class Balance:
    games: int
    rows: dict[str, FighterRow] = field(default_factory=dict)
    draws: int = 0
    rounds: Counter[int] = field(default_factory=Counter)


def balance(games: int = 2000, seed0: int = 0, engine: TagTeamEngine = ENGINE) -> Balance:
    """Heuristic vs heuristic, random teams (draft option ``random``)."""
    bot = engine.bots()["heuristic"]
    out = Balance(games, {fid: FighterRow() for fid in sorted(engine.content.fighters)})
    for seed in range(seed0, seed0 + games):
        s = play_bots(engine, [bot, bot], seed, {"draft": "random"})
        assert s.result is not None
        out.rounds[s.round] += 1
        out.draws += bool(s.result["draw"])
        for seat, team in enumerate(s.teams):
            for f in team:
                row = out.rows[f.id]
                row.games += 1
                row.wins += seat in s.result["winners"]
                row.draws += bool(s.result["draw"])
    return out


@dataclass
class VersusRandom:
    games: int
    wins: int = 0
    draws: int = 0
    losses: int = 0

    @property
    def rate(self) -> float:
        return self.wins / self.games


def versus_random(games: int = 1000, seed0: int = 0, engine: TagTeamEngine = ENGINE,
                  draft: str = "standard") -> VersusRandom:
    """The heuristic bot against the random bot; it takes seat 0 in even games, seat 1 in odd."""
    heuristic, rand = engine.bots()["heuristic"], RandomBot()
    out = VersusRandom(games)
    for k in range(games):
        seat = k % 2
        bots = [heuristic, rand] if seat == 0 else [rand, heuristic]
        s = play_bots(engine, bots, seed0 + k, {"draft": draft})
        assert s.result is not None
        if s.result["draw"]:
            out.draws += 1
        elif seat in s.result["winners"]:
            out.wins += 1
        else:
            out.losses += 1
    return out


def speed(games: int = 200, engine: TagTeamEngine = ENGINE) -> dict[str, float]:
    """Milliseconds per whole game and per service-facing call."""
    rand = RandomBot()
    out: dict[str, float] = {}
    t = time.perf_counter()
    for seed in range(games):
        play_bots(engine, [rand, rand], seed)
    out["random game (ms)"] = (time.perf_counter() - t) * 1000 / games
    heuristic = engine.bots()["heuristic"]
    t = time.perf_counter()
    for seed in range(games // 4):
        play_bots(engine, [heuristic, heuristic], seed, {"draft": "random"})
    out["heuristic game (ms)"] = (time.perf_counter() - t) * 1000 / (games // 4)
    # a late build position: legal_actions / menu / parse / apply / view+render
    s = late_build_position(engine)
    calls = {
        "legal_actions (ms)": lambda: engine.legal_actions(s, 0),
        "menu (ms)": lambda: engine.menu(s, 0),
        "parse (ms)": lambda: engine.parse(s, 0, "add 2 after 3, bottom 3 1"),
        "apply build (ms)": lambda: engine.apply(s, 0, engine.parse(s, 0, "add 2 after 3")),
        "view+render (ms)": lambda: engine.render_view(engine.view(s, 0), "vi"),
        "to_json+from_json (ms)": lambda: engine.from_json(engine.to_json(s)),
        "default_action (ms)": lambda: engine.default_action(s, 0),
    }
    for name, call in calls.items():
        n = 200
        t = time.perf_counter()
        for _ in range(n):
            call()
        out[name] = (time.perf_counter() - t) * 1000 / n
    out["legal actions in that position"] = float(len(engine.legal_actions(s, 0)))
    out["menu items"] = float(len(engine.menu(s, 0)))
    return out


def late_build_position(engine: TagTeamEngine, size: int = 6) -> TTState:
    """The first seeded heuristic game that reaches a Build! step with ``size`` Fight cards."""
    heuristic = engine.bots()["heuristic"]
    best = None
    for seed in range(200):
        s = engine.new_game(["Alice", "Bob"], {"draft": "random"}, seed)
        rng = random.Random(seed)
        while engine.to_act(s):
            if s.phase == "build":
                best = s
                if len(s.fight[0]) >= size:
                    return s
            seat = min(engine.to_act(s))
            s, _ = engine.apply(s, seat, heuristic.choose(engine, s, seat, rng))
    assert best is not None
    return best


def print_balance(b: Balance) -> None:
    print(f"Fighter win rates, heuristic vs heuristic, random teams, {b.games} games "
          f"(draw = half a win; {b.draws} draws)")
    print(f"{'fighter':<14}{'games':>7}{'wins':>7}{'draws':>7}{'rate':>8}")
    for fid, row in sorted(b.rows.items(), key=lambda kv: -kv[1].rate):
        print(f"{fid:<14}{row.games:>7}{row.wins:>7}{row.draws:>7}{row.rate:>8.1%}")
    print("game length in rounds: " + ", ".join(f"{r}: {n}" for r, n in sorted(b.rounds.items())))


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--balance-games", type=int, default=2000)
    parser.add_argument("--versus-games", type=int, default=1000)
    parser.add_argument("--speed-games", type=int, default=200)
    args = parser.parse_args()
    t = time.perf_counter()
    print_balance(balance(args.balance_games))
    print(f"({time.perf_counter() - t:.0f} s)\n")
    t = time.perf_counter()
    for draft in ("standard", "random"):
        v = versus_random(args.versus_games, draft=draft)
        print(f"heuristic vs random, {v.games} games, draft={draft}: {v.wins} wins, {v.draws} draws, "
              f"{v.losses} losses — win rate {v.rate:.1%}")
    print(f"({time.perf_counter() - t:.0f} s)\n")
    for name, value in speed(args.speed_games).items():
        print(f"{name:<34}{value:>10.3f}")


if __name__ == "__main__":
    main()
