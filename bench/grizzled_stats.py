"""The Grizzled: win rate of a bot team per player count, and the engine's speed.

    .venv/bin/python -m bench.grizzled_stats                 # 1,000 games per cell
    .venv/bin/python -m bench.grizzled_stats --games 200 --players 4
    .venv/bin/python -m bench.grizzled_stats --characters random   # Grizzled dealt, not chosen (GR-11)

Every seat of a team is played by the same bot (``heuristic`` = the co-operative bot that
``default_action`` uses, ``random`` = uniform over legal actions). Game g of a cell uses seed
``seed + g``, so a table is reproducible.
"""

from __future__ import annotations

import argparse
import random
import time
from collections import Counter
from dataclasses import dataclass, field

from engines.grizzled.engine import ENGINE

NAMES = ["Alice", "Bob", "Chi", "Dung", "Eve"]


@dataclass
class TeamStats:
    bot: str
    players: int
    games: int = 0
    wins: int = 0
    reasons: Counter[str] = field(default_factory=Counter)
    missions: int = 0
    steps: int = 0
    seconds: float = 0.0

    @property
    def win_rate(self) -> float:
        return self.wins / self.games if self.games else 0.0


def play_team(bot_name: str, players: int, games: int, seed: int = 0, characters: str | None = None) -> TeamStats:
    """Play ``games`` games with every seat run by ``bot_name``; ``characters`` is the engine option
    (None = its default)."""
    options = None if characters is None else {"characters": characters}
    bot = ENGINE.bots()[bot_name]
    stats = TeamStats(bot_name, players)
    start = time.perf_counter()
    for g in range(games):
        state = ENGINE.new_game(NAMES[:players], options, seed + g)
        rng = random.Random(seed + g)
        while True:
            to_act = ENGINE.to_act(state)
            if not to_act:
                break
            seat = min(to_act)
            state, _ = ENGINE.apply(state, seat, bot.choose(ENGINE, state, seat, rng))
            stats.steps += 1
        stats.games += 1
        stats.wins += state.result == "won"
        stats.reasons[state.reason] += 1
        stats.missions += state.mission
    stats.seconds = time.perf_counter() - start
    return stats


def table(rows: list[TeamStats]) -> str:
    head = (f"{'players':>7} {'team':>9} {'games':>5} {'win %':>6} {'lost: monument':>14} {'lost: knocks':>12} "
            f"{'missions':>8} {'steps/game':>10} {'ms/game':>7} {'µs/step':>7}")
    lines = [head, "-" * len(head)]
    for r in rows:
        lines.append(
            f"{r.players:>7} {r.bot:>9} {r.games:>5} {100 * r.win_rate:>6.1f} {r.reasons['monument']:>14} "
            f"{r.reasons['knocks']:>12} {r.missions / r.games:>8.2f} {r.steps / r.games:>10.1f} "
            f"{1000 * r.seconds / r.games:>7.2f} {1e6 * r.seconds / max(r.steps, 1):>7.0f}"
        )
    return "\n".join(lines)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0] if __doc__ else None)
    parser.add_argument("--games", type=int, default=1000)
    parser.add_argument("--players", type=int, nargs="*", default=[2, 3, 4, 5])
    parser.add_argument("--bots", nargs="*", default=["heuristic", "random"])
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--characters", choices=ENGINE.options["characters"].choices, default=None,
                        help="the characters option (default: the engine's)")
    args = parser.parse_args()
    rows = [play_team(bot, n, args.games, args.seed, args.characters) for n in args.players for bot in args.bots]
    print(table(rows))


if __name__ == "__main__":
    main()
