"""Heroes of Barcadia: the heuristic bot against random players, self-play balance, engine speed.

    .venv/bin/python -m bench.barcadia_stats                       # everything, 1,000 games a table
    .venv/bin/python -m bench.barcadia_stats --games 200 --only bot

Tables:
- ``bot``: one heuristic bot against 3 random players (4 players). The bot's seat rotates
  (game g puts it in seat g % 4) so the first-player roll favours nobody. Reports its win
  rate, the games without a winner (none since HB-71: a game has no turn limit by default, so
  only the step cap of ``play_bots`` could leave one unfinished), and the average game length
  in turns (every seat's turn counts once) and in rounds.
- ``balance``: heuristic bots in every seat, 2-6 players: win rate per seat, game length.
- ``speed``: engine CPU cost per applied action and per ``legal_actions`` call in random play.
Game g of a table uses seed ``seed + g``, so a table is reproducible.
"""

from __future__ import annotations

import argparse
import random
import time
from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass, field

from engines.barcadia.engine import ENGINE, play_bots
from engines.barcadia.state import BarcadiaState
from engines.contract import Bot

NAMES = ["Alice", "Bob", "Chi", "Dung", "Eve", "Phong"]


@dataclass
class Table:
    games: int = 0
    wins: Counter[int] = field(default_factory=Counter)
    draws: int = 0
    turns: int = 0
    steps: int = 0
    seconds: float = 0.0

    def avg_turns(self) -> float:
        return self.turns / self.games if self.games else 0.0


def play(state: BarcadiaState, bots: Sequence[Bot[BarcadiaState]], rng: random.Random) -> tuple[BarcadiaState, int]:
    return play_bots(ENGINE, state, bots, rng)


def bot_vs_random(games: int, seed: int = 0, players: int = 4) -> Table:
    """The heuristic bot in seat g % players, random players elsewhere; ``wins[0]`` = the bot's wins."""
    bots = ENGINE.bots()
    table = Table()
    start = time.perf_counter()
    for g in range(games):
        bot_seat = g % players
        lineup = [bots["heuristic"] if s == bot_seat else bots["random"] for s in range(players)]
        state = ENGINE.new_game(NAMES[:players], None, seed + g)
        state, steps = play(state, lineup, random.Random(seed + g))
        table.games += 1
        table.steps += steps
        table.turns += state.turns
        if state.winner < 0:
            table.draws += 1
        else:
            table.wins[0 if state.winner == bot_seat else 1] += 1
    table.seconds = time.perf_counter() - start
    return table


def self_play(players: int, games: int, seed: int = 0) -> Table:
    bot = ENGINE.bots()["heuristic"]
    table = Table()
    start = time.perf_counter()
    for g in range(games):
        state = ENGINE.new_game(NAMES[:players], None, seed + g)
        state, steps = play(state, [bot] * players, random.Random(seed + g))
        table.games += 1
        table.steps += steps
        table.turns += state.turns
        if state.winner < 0:
            table.draws += 1
        else:
            table.wins[state.winner] += 1
    table.seconds = time.perf_counter() - start
    return table


def speed(games: int, players: int = 4, seed: int = 0) -> dict[str, float]:
    """Random play, in CPU time (the machine is shared): microseconds per apply and per
    legal_actions (with labels), actions and milliseconds per game."""
    bot = ENGINE.bots()["random"]
    applies = legals = 0
    t_apply = t_legal = 0.0
    start = time.process_time()
    for g in range(games):
        state = ENGINE.new_game(NAMES[:players], None, seed + g)
        rng = random.Random(seed + g)
        while ENGINE.to_act(state):
            seat = min(ENGINE.to_act(state))
            t0 = time.process_time()
            ENGINE.legal_actions(state, seat)
            t_legal += time.process_time() - t0
            legals += 1
            action = bot.choose(ENGINE, state, seat, rng)
            t0 = time.process_time()
            state, _ = ENGINE.apply(state, seat, action)
            t_apply += time.process_time() - t0
            applies += 1
    total = time.process_time() - start
    return {"us_per_apply": 1e6 * t_apply / applies, "us_per_legal_actions": 1e6 * t_legal / legals,
            "steps_per_game": applies / games, "seconds_per_game": total / games}


def main(argv: Sequence[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--games", type=int, default=1000)
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--only", choices=("bot", "balance", "speed"), default=None)
    args = parser.parse_args(argv)
    if args.only in (None, "bot"):
        t = bot_vs_random(args.games, args.seed)
        print(f"heuristic bot vs 3 random players, {t.games} games (seeds {args.seed}..{args.seed + t.games - 1}):")
        print(f"  bot wins {t.wins[0]} ({t.wins[0] / t.games:.1%}), random players win {t.wins[1]}, "
              f"no winner {t.draws}")
        print(f"  average game length {t.avg_turns():.1f} turns ({t.avg_turns() / 4:.1f} rounds), "
              f"{t.steps / t.games:.0f} actions, {t.seconds / t.games * 1000:.0f} ms a game")
    if args.only in (None, "balance"):
        print("heuristic self-play (every seat the bot):")
        print("  players | games | win rate by seat                      | no winner | avg turns | avg rounds")
        for n in range(2, 7):
            t = self_play(n, args.games, args.seed)
            seats = " ".join(f"{t.wins[s] / t.games:5.1%}" for s in range(n))
            print(f"  {n:7d} | {t.games:5d} | {seats:37s} | {t.draws:9d} | {t.avg_turns():9.1f} | {t.avg_turns() / n:10.1f}")
    if args.only in (None, "speed"):
        for n in (2, 4, 6):
            r = speed(max(1, args.games // 50), n, args.seed)
            print(f"random play, {n} players (CPU time): {r['us_per_apply']:.0f} us/apply, "
                  f"{r['us_per_legal_actions']:.0f} us/legal_actions, {r['steps_per_game']:.0f} actions/game, "
                  f"{r['seconds_per_game'] * 1000:.0f} ms/game")


if __name__ == "__main__":
    main()
