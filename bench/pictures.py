"""``python -m bench.pictures``: CPU per board picture, per engine, and how much of it is PNG.

A turn mail draws its seat's board (``service.outbound.pictures``) before the reply's commit,
so a picture's cost is on every turn's latency. Positions come from seeded random playouts
(every fourth position, the acting seat's view); CPU time of this thread, so a busy machine
moves the figures less than wall time would. A benchmark, not a test.
"""

from __future__ import annotations

import random
import statistics
import sys
import time
from typing import Any

import engines
from service.outbound import pictures
from service.outbound.pictures import canvas

PLAYERS = {"tac": 4, "tagteam": 2, "grizzled": 5, "barcadia": 6}


def views(engine_id: str, steps: int = 80, seed: int = 7) -> list[dict[str, Any]]:
    """Every fourth position of a seeded random playout, from the acting seat."""
    engine = engines.get(engine_id)
    state = engine.new_game([f"P{i}" for i in range(PLAYERS[engine_id])], None, seed)
    rng = random.Random(seed)
    out: list[dict[str, Any]] = []
    for step in range(steps):
        acting = sorted(engine.to_act(state))
        if not acting:
            break
        if step % 4 == 0:
            out.append(engine.view(state, acting[0]))
        state, _ = engine.apply(state, acting[0], rng.choice(engine.legal_actions(state, acting[0])).action)
    return out


def run(echo: Any = print) -> None:
    png_cpu = [0.0]
    encode = canvas.png

    def timed_png(image: Any) -> bytes:
        started = time.thread_time()
        try:
            return encode(image)
        finally:
            png_cpu[0] += time.thread_time() - started

    for engine_id in PLAYERS:
        module = sys.modules.get(f"{pictures.__name__}.{engine_id}") or __import__(
            f"{pictures.__name__}.{engine_id}", fromlist=["draw"])
        module.png = timed_png  # type: ignore[attr-defined]
        draw = pictures.drawer_for(engine_id)
        assert draw is not None
        positions = views(engine_id)
        png_cpu[0] = 0.0
        cpu: list[float] = []
        sizes: list[int] = []
        for view in positions:
            started = time.thread_time()
            sizes.append(len(draw(view, "en").png))
            cpu.append(time.thread_time() - started)
        module.png = encode  # type: ignore[attr-defined]
        echo(f"{engine_id:<9} {len(positions):>3} pictures: CPU median {1000 * statistics.median(cpu):5.1f} ms "
             f"(PNG {1000 * png_cpu[0] / len(positions):4.1f} ms), size median {statistics.median(sizes) / 1024:.1f} KB")


if __name__ == "__main__":
    run()
