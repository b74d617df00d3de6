"""Engine benchmark: random full games per second, median µs of ``legal_actions`` and ``apply``.

A benchmark, not a test: run ``pbem bench engines`` (or ``python -m bench.engines``). It runs on
one core (one process). Rates drift ±30 % run to run on a shared 2-core machine, so compare
engines measured in the same run.
"""

from __future__ import annotations

import random
import statistics
import time
from dataclasses import dataclass
from typing import Any

import engines
from engines.contract import Engine
from service.outbound.pictures import drawer_for


@dataclass
class EngineBench:
    engine: str
    players: int
    games: int
    games_per_s: float
    moves_per_game: float
    legal_actions_us: float
    apply_us: float
    picture_ms: float = 0.0


def bench_engine(engine: Engine[Any], players: int, seconds: float = 5.0, max_games: int = 1000) -> EngineBench:
    """Play random games for about ``seconds``, timing every legal_actions and apply call."""
    legal_times: list[float] = []
    apply_times: list[float] = []
    games = moves = 0
    wall = 0.0
    seed = 0
    views: list[dict[str, Any]] = []
    while games < max_games and (wall < seconds or games == 0):
        rng = random.Random(seed)
        start = time.perf_counter()
        state = engine.new_game([f"P{i}" for i in range(players)], None, seed)
        while True:
            to_act = engine.to_act(state)
            if not to_act:
                break
            seat = min(to_act)
            t0 = time.perf_counter()
            choices = engine.legal_actions(state, seat)
            t1 = time.perf_counter()
            action = rng.choice(choices).action
            t2 = time.perf_counter()
            state, _ = engine.apply(state, seat, action)
            t3 = time.perf_counter()
            if games == 0 and moves % 7 == 0 and len(views) < 30:
                views.append(engine.view(state, seat))
            legal_times.append(t1 - t0)
            apply_times.append(t3 - t2)
            moves += 1
        wall += time.perf_counter() - start
        games += 1
        seed += 1
    return EngineBench(
        engine=engine.id,
        players=players,
        games=games,
        games_per_s=games / wall,
        moves_per_game=moves / games,
        legal_actions_us=statistics.median(legal_times) * 1e6 if legal_times else 0.0,
        apply_us=statistics.median(apply_times) * 1e6 if apply_times else 0.0,
        picture_ms=picture_ms(engine.id, views),
    )


def picture_ms(engine_id: str, views: list[dict[str, Any]]) -> float:
    """Median ms to draw and encode one board picture (uncached), over positions of one game."""
    draw = drawer_for(engine_id)
    if draw is None or not views:
        return 0.0
    times = []
    for view in views:
        t0 = time.perf_counter()
        draw(view, "en")
        times.append(time.perf_counter() - t0)
    return statistics.median(times) * 1e3


def run(engine_ids: list[str] | None = None, seconds: float = 5.0) -> list[EngineBench]:
    results = []
    for name in engine_ids or engines.names(include_extra=False):
        engine = engines.get(name)
        players = engine.max_players if name != "tac" else 4
        results.append(bench_engine(engine, players, seconds))
    return results


def main() -> None:
    for r in run():
        print(
            f"{r.engine:10} {r.players}p  {r.games_per_s:8.2f} games/s  {r.moves_per_game:7.1f} moves/game  "
            f"legal_actions {r.legal_actions_us:8.1f} µs  apply {r.apply_us:8.1f} µs  "
            f"picture {r.picture_ms:6.1f} ms  ({r.games} games)"
        )


if __name__ == "__main__":
    main()
