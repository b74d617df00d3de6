"""The 7: seven single steps split over controlled marbles (TAC-44..48, TAC-39).

A split is an ordered list of parts ``(marble, steps, end)``; each part is checked in the
position the earlier parts left (TAC-47). On the ring every single step knocks whatever
stands on the field it reaches (TAC-45); into and inside a home no marble is passed or
knocked (TAC-46). With ``both_ways`` an unlocked home marble may also step backward (TAC-39).

``outcomes`` lists one canonical split per distinct resulting position (different orders that
end in the same position are the same move for the players), trying each marble once per
split; ``simulate`` checks any written split, so a player may also write unusual orders.
"""

from __future__ import annotations

from engines.tac import rules
from engines.tac.board import HOME, WAIT, Board, controlled_seat, owner, start
from engines.tac.rules import HOME_SIZE, RING_SIZE

Part = tuple[int, int, int]  # marble, steps, end field


def _steps_from(board: Board, marble: int, both_ways: bool) -> list[Board]:
    """Every position after one single step of ``marble``."""
    p = board.pos[marble]
    seat = owner(marble)
    out: list[Board] = []
    if 0 <= p < HOME:
        nxt = board.copy()
        target = (p + 1) % RING_SIZE
        for m, q in enumerate(nxt.pos):
            if q == target:
                nxt.knock(m)
        nxt.pos[marble] = target
        nxt.fresh[marble] = False
        out.append(nxt)
        if p == start(seat) and not board.fresh[marble] and not board.home_taken(seat)[0]:
            home = board.copy()
            home.pos[marble] = HOME
            out.append(home)
        return out
    if p >= HOME:
        i = p - HOME
        taken = board.home_taken(seat)
        unlocked = i + 1 < HOME_SIZE and not taken[i + 1]
        if unlocked:
            fwd = board.copy()
            fwd.pos[marble] = p + 1
            out.append(fwd)
            if both_ways and i > 0 and not taken[i - 1]:
                back = board.copy()
                back.pos[marble] = p - 1
                out.append(back)
    return out


def part_results(board: Board, marble: int, max_steps: int, both_ways: bool) -> list[list[Board]]:
    """``result[k]`` = distinct positions after exactly ``k`` single steps of ``marble``."""
    layers: list[list[Board]] = [[board]]
    for _ in range(max_steps):
        seen: dict[tuple[tuple[int, ...], tuple[bool, ...]], Board] = {}
        for b in layers[-1]:
            for nb in _steps_from(b, marble, both_ways):
                seen.setdefault(nb.key(), nb)
        layers.append(list(seen.values()))
        if not seen:
            for _ in range(len(layers), max_steps + 1):
                layers.append([])
            break
    return layers


def outcomes(board: Board, seat: int, both_ways: bool, total: int = 7) -> dict[tuple[tuple[int, ...], tuple[bool, ...]], tuple[tuple[Part, ...], Board]]:
    """One canonical split per distinct end position (first found in marble/step order)."""
    results: dict[tuple[tuple[int, ...], tuple[bool, ...]], tuple[tuple[Part, ...], Board]] = {}
    visited: set[tuple[tuple[int, ...], tuple[bool, ...], int, frozenset[int]]] = set()
    # the same position is reached with different "used" sets: its single-marble results are shared
    parts_cache: dict[tuple[tuple[tuple[int, ...], tuple[bool, ...]], int], list[list[Board]]] = {}

    def rec(b: Board, left: int, used: frozenset[int], parts: tuple[Part, ...]) -> None:
        if left == 0:
            results.setdefault(b.key(), (parts, b))
            return
        memo = (*b.key(), left, used)
        if memo in visited:
            return
        visited.add(memo)
        ctrl = _controller(b, board, seat)
        key = b.key()
        for m in range(4 * ctrl, 4 * ctrl + 4):
            if m in used or b.pos[m] == WAIT:
                continue
            cached = parts_cache.get((key, m))
            if cached is None or len(cached) <= left:
                cached = parts_cache[(key, m)] = part_results(b, m, left, both_ways)
            layers = cached
            for k in range(1, left + 1):
                for nb in layers[k]:
                    rec(nb, left - k, used | {m}, (*parts, (m, k, nb.pos[m])))

    rec(board, total, frozenset(), ())
    return results


def _controller(board: Board, start_board: Board, seat: int) -> int:
    """Whose marbles the 7 moves now: may switch to the partner's mid-move (TAC-48)."""
    return controlled_seat(board if rules.SEVEN_LEFTOVER_TO_PARTNER else start_board, seat)


class SplitError(ValueError):
    """A written split cannot be carried out; the message says which part fails."""


def simulate(board: Board, seat: int, parts: list[tuple[int, int, int | None]], both_ways: bool,
             total: int = 7) -> tuple[tuple[Part, ...], Board]:
    """Carry out a written split; ``end`` None means "the ring field the steps reach"."""
    if sum(k for _, k, _ in parts) != total:
        raise SplitError(f"the parts must add up to {total} steps")
    b = board
    done: list[Part] = []
    for marble, k, end in parts:
        if k < 1:
            raise SplitError("every part needs at least one step")
        if owner(marble) != _controller(b, board, seat):
            raise SplitError("that marble is not yours to move now")
        if b.pos[marble] == WAIT:
            raise SplitError("that marble is in its waiting area")
        ends = part_results(b, marble, k, both_ways)[k]
        if end is None:
            chosen = [nb for nb in ends if 0 <= nb.pos[marble] < HOME] or ends
        else:
            chosen = [nb for nb in ends if nb.pos[marble] == end]
        if len(chosen) != 1:
            raise SplitError("that marble cannot make those steps")
        b = chosen[0]
        done.append((marble, k, b.pos[marble]))
    return tuple(done), b
