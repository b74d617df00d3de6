"""Hex geometry of the dungeon (HB-9, HB-10): flat-top hexes on an axial grid.

Room 0 is the Starting Point: seven hexes (a centre and its ring) counted as one room, so a
room touching any of them touches the Starting Point. Dungeon rooms are numbered 1..N; the
numbers are public position labels, what lies under a face-down tile is not.
"""

from __future__ import annotations

import math
from bisect import insort
from collections.abc import Sequence
from functools import lru_cache

from engines.rng import Rng

Hex = tuple[int, int]

# Flat-top axial directions, named as a player reads a map with north up.
DIRECTIONS: dict[str, Hex] = {
    "n": (0, -1), "ne": (1, -1), "se": (1, 0), "s": (0, 1), "sw": (-1, 1), "nw": (-1, 0),
}
DIRECTION_WORDS: dict[str, str] = {
    "n": "n", "north": "n", "bac": "n", "b": "n",
    "ne": "ne", "northeast": "ne", "dongbac": "ne", "db": "ne",
    "se": "se", "southeast": "se", "dongnam": "se", "dn": "se",
    "s": "s", "south": "s", "nam": "s",
    "sw": "sw", "southwest": "sw", "taynam": "sw", "tn": "sw",
    "nw": "nw", "northwest": "nw", "taybac": "nw", "tb": "nw",
}
START_POINT: tuple[Hex, ...] = ((0, 0), *DIRECTIONS.values())


def neighbours(h: Hex) -> list[Hex]:
    return [(h[0] + dq, h[1] + dr) for dq, dr in DIRECTIONS.values()]


def distance(a: Hex, b: Hex = (0, 0)) -> int:
    dq, dr = a[0] - b[0], a[1] - b[1]
    return (abs(dq) + abs(dr) + abs(dq + dr)) // 2


def random_layout(count: int, rng: Rng) -> list[Hex]:
    """``count`` connected hexes around the Starting Point, numbered outward.

    Why weighted growth: a uniformly random frontier makes long tentacles that no player can
    reach in time; weighting each frontier hex by its placed neighbours squared keeps the
    dungeon a compact blob, which is fair to every seat since all start on the SP.
    """
    placed: set[Hex] = set(START_POINT)
    rooms: list[Hex] = []
    # Kept up to date as hexes are placed (cheaper than recounting each step, same draws):
    # ``ordered`` is the frontier in sorted order, ``touching`` counts placed neighbours.
    touching: dict[Hex, int] = {}
    for h in START_POINT:
        for n in neighbours(h):
            touching[n] = touching.get(n, 0) + 1
    ordered: list[Hex] = sorted({n for h in START_POINT for n in neighbours(h)} - placed)
    in_frontier = set(ordered)
    for _ in range(count):
        weights = [touching[h] ** 2 for h in ordered]
        pick = rng.below(sum(weights))
        k = 0
        while pick >= weights[k]:
            pick -= weights[k]
            k += 1
        h = ordered.pop(k)
        in_frontier.discard(h)
        placed.add(h)
        rooms.append(h)
        for n in neighbours(h):
            touching[n] = touching.get(n, 0) + 1
            if n not in placed and n not in in_frontier:
                in_frontier.add(n)
                insort(ordered, n)
    return sorted(rooms, key=lambda h: (distance(h), math.atan2(h[1] + h[0] / 2, h[0]) % (2 * math.pi)))


def frontier(rooms: Sequence[Hex]) -> list[Hex]:
    """Empty hexes where the next tile may be placed (adjacent to the SP or a placed room)."""
    placed = set(START_POINT) | set(rooms)
    return sorted({n for h in placed for n in neighbours(h)} - placed, key=lambda h: (distance(h), h))


@lru_cache(maxsize=64)
def adjacency(rooms: tuple[Hex, ...]) -> tuple[tuple[int, ...], ...]:
    """Neighbour room indices per room index (0 = SP, i = rooms[i-1]); cached per layout."""
    index: dict[Hex, int] = {h: 0 for h in START_POINT}
    for i, h in enumerate(rooms, start=1):
        index[h] = i
    out: list[set[int]] = [set() for _ in range(len(rooms) + 1)]
    for h, i in index.items():
        for n in neighbours(h):
            j = index.get(n)
            if j is not None and j != i:
                out[i].add(j)
    return tuple(tuple(sorted(s)) for s in out)


def direction_between(a: Hex, b: Hex) -> str | None:
    delta = (b[0] - a[0], b[1] - a[1])
    for name, d in DIRECTIONS.items():
        if d == delta:
            return name
    return None
