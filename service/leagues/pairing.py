"""Who plays whom in a round: pure functions of the members and the league's history.

Round robin uses the circle method. Swiss pairing, TAC's rotating partners and table-making
are weighted matching problems: networkx's ``max_weight_matching`` (Edmonds' blossom
algorithm) finds the best pairs under costs for score gaps, rematches and repeated partners,
rather than a hand-written backtracking search. Tables of 3–6 (co-operative and free-for-all
games) are chosen as the least repetitive of a few hundred seeded arrangements.

Odd numbers: the member(s) left over sit out with a bye; byes go to whoever has had the fewest
(then the lowest score, then the latest to join), so they rotate fairly.
"""

from __future__ import annotations

import itertools
import random
from collections import Counter
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field

import networkx as nx  # type: ignore[import-untyped]

Pair = frozenset[int]


@dataclass
class History:
    """What earlier rounds did: points so far, who met whom, who partnered whom, byes, seats."""

    points: dict[int, float] = field(default_factory=dict)
    met: Counter[Pair] = field(default_factory=Counter)  # opponents (or table-mates)
    partnered: Counter[Pair] = field(default_factory=Counter)
    byes: Counter[int] = field(default_factory=Counter)
    first_seat: Counter[int] = field(default_factory=Counter)  # 1-v-1: games played from seat 0


@dataclass
class Round:
    """A round's games (each a list of player ids in seat order) and the byes."""

    games: list[list[int]]
    byes: list[int]


def _bye_order(players: Sequence[int], history: History) -> list[int]:
    """Who sits out first: fewest byes, then fewest points, then the latest joiner (largest id)."""
    return sorted(players, key=lambda p: (history.byes[p], history.points.get(p, 0.0), -p))


def _seat_pair(a: int, b: int, history: History) -> list[int]:
    """1-v-1 seat order: who has started fewer games takes seat 0 (first player / colour)."""
    return [a, b] if (history.first_seat[a], a) <= (history.first_seat[b], b) else [b, a]


def _circle(ring: list[int | None], round_no: int) -> list[tuple[int | None, int | None]]:
    n = len(ring)
    turn = (round_no - 1) % max(1, n - 1)
    rotated = [ring[0], *(ring[1:][-turn:] + ring[1:][:-turn] if turn else ring[1:])]
    return [(rotated[i], rotated[n - 1 - i]) for i in range(n // 2)]


def round_robin(players: Sequence[int], round_no: int) -> Round:
    """Circle method: one player stays, the others rotate; an odd field adds a bye slot.

    Seats: in each game whoever has started fewer games so far takes seat 0 (replayed over the
    earlier rounds, so the schedule is a pure function of the players and the round number).
    """
    ring: list[int | None] = list(sorted(players))
    if len(ring) % 2:
        ring.append(None)
    first: Counter[int] = Counter()
    games: list[list[int]] = []
    byes: list[int] = []
    for r in range(1, round_no + 1):
        games, byes = [], []
        for i, (a, b) in enumerate(_circle(ring, r)):
            if a is None or b is None:
                byes.append(b if a is None else a)  # type: ignore[arg-type]
                continue
            key_a, key_b = (first[a], (r + i) % 2), (first[b], (r + i + 1) % 2)
            game = [a, b] if key_a <= key_b else [b, a]
            first[game[0]] += 1
            games.append(game)
    return Round(games, byes)


def swiss(players: Sequence[int], history: History) -> Round:
    """Pairs of close scores, never a rematch while another pairing exists."""
    field_ = list(players)
    byes: list[int] = []
    if len(field_) % 2:
        bye = _bye_order(field_, history)[0]
        byes.append(bye)
        field_.remove(bye)
    graph = nx.Graph()
    graph.add_nodes_from(field_)
    for a, b in itertools.combinations(field_, 2):
        gap = abs(history.points.get(a, 0.0) - history.points.get(b, 0.0))
        rematch = history.met[frozenset((a, b))]
        graph.add_edge(a, b, weight=10_000 - 100 * gap * gap - 5_000 * rematch)
    matching = nx.max_weight_matching(graph, maxcardinality=True)
    games = sorted((_seat_pair(a, b, history) for a, b in matching), key=lambda g: min(g))
    return Round(games, byes)


def partners(players: Sequence[int], history: History) -> Round:
    """TAC: tables of four, two teams of two; partners and opponents rotate.

    First the partner pairs (a matching that avoids repeated partners and, less strongly,
    repeated opponents), then the pairs are matched into tables (avoiding teams that met).
    Seats: team one sits 0 and 2, team two 1 and 3 (TAC's partners sit opposite).
    """
    field_ = list(players)
    extra = len(field_) % 4
    byes = _bye_order(field_, history)[:extra]
    field_ = [p for p in field_ if p not in byes]
    people = nx.Graph()
    people.add_nodes_from(field_)
    for a, b in itertools.combinations(field_, 2):
        pair = frozenset((a, b))
        people.add_edge(a, b, weight=10_000 - 1_000 * history.partnered[pair] - 10 * history.met[pair])
    teams = [tuple(sorted(t)) for t in nx.max_weight_matching(people, maxcardinality=True)]
    tables = nx.Graph()
    tables.add_nodes_from(teams)
    for s, t in itertools.combinations(teams, 2):
        repeat = sum(history.met[frozenset((a, b))] for a in s for b in t)
        tables.add_edge(s, t, weight=10_000 - 100 * repeat)
    games = []
    for s, t in nx.max_weight_matching(tables, maxcardinality=True):
        games.append([s[0], t[0], s[1], t[1]])
    games.sort(key=min)
    return Round(games, byes)


def table_sizes(count: int, low: int, high: int) -> list[int]:
    """Split ``count`` players into as few, as equal tables within low..high as possible."""
    if count < low:
        return []
    tables = -(-count // high)
    while tables * low > count:
        tables -= 1
    if tables == 0:
        return []
    seated = min(count, tables * high)
    base, more = divmod(seated, tables)
    return [base + 1] * more + [base] * (tables - more)


def tables(players: Sequence[int], history: History, low: int, high: int, seed: int) -> Round:
    """Tables of ``low``..``high`` players, the least repetitive of a few hundred arrangements."""
    sizes = table_sizes(len(players), low, high)
    seated = sum(sizes)
    byes = _bye_order(players, history)[: len(players) - seated]
    field_ = sorted(p for p in players if p not in byes)
    rng = random.Random(seed)
    best: tuple[int, list[list[int]]] | None = None
    for _ in range(300):
        order = field_[:]
        rng.shuffle(order)
        groups, start = [], 0
        for size in sizes:
            groups.append(order[start:start + size])
            start += size
        cost = sum(history.met[frozenset(p)] for g in groups for p in itertools.combinations(g, 2))
        if best is None or cost < best[0]:
            best = (cost, groups)
        if cost == 0:
            break
    games = [sorted(g) for g in best[1]] if best else []
    return Round(sorted(games, key=min), byes)


def record(history: History, games: Iterable[Sequence[int]], byes: Iterable[int], teams: bool) -> None:
    """Add a round's meetings to ``history`` (points are added by the standings)."""
    for game in games:
        if teams and len(game) == 4:
            for a, b in ((game[0], game[2]), (game[1], game[3])):
                history.partnered[frozenset((a, b))] += 1
            for a in (game[0], game[2]):
                for b in (game[1], game[3]):
                    history.met[frozenset((a, b))] += 1
        else:
            for a, b in itertools.combinations(game, 2):
                history.met[frozenset((a, b))] += 1
        if len(game) == 2:
            history.first_seat[game[0]] += 1
    for p in byes:
        history.byes[p] += 1


def points_map(points: Mapping[int, float]) -> dict[int, float]:
    return dict(points)
