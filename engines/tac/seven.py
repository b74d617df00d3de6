"""The 7: seven single steps split over controlled marbles (TAC-44..48, TAC-39).

A split is an ordered list of parts ``(marble, steps, end)``; each part is checked in the
position the earlier parts left (TAC-47). On the ring every single step knocks whatever
stands on the field it reaches (TAC-45); into and inside a home no marble is passed or
knocked (TAC-46). ``HomeSteps`` holds the two TAC-39 options: whether a home marble may also
step backward, and whether a marble with no empty field ahead is stuck after every single step
or only once the whole 7 is finished.

``outcomes`` lists every distinct resulting position once (different splits that end in the
same position are the same move for the players), with one canonical split: the fewest parts,
then the first in marble/step order. The search lets a marble move again after another one
has, so it reaches every position some written split reaches (tests compare it with a
step-by-step enumeration). ``simulate`` checks any written split, so a player may also write
other orders or single steps.
"""

from __future__ import annotations

from dataclasses import dataclass

from engines.tac import rules
from engines.tac.board import HOME, WAIT, Board, controlled_seat, owner, start
from engines.tac.rules import HOME_SIZE, RING_SIZE

Part = tuple[int, int, int]  # marble, steps, end field
Key = tuple[tuple[int, ...], tuple[bool, ...]]


@dataclass(frozen=True)
class HomeSteps:
    """How a 7 steps inside a home (TAC-39, options ``seven_in_home`` and ``seven_stuck``)."""

    back: bool = True  # "both-ways": a home marble may step backward too
    stuck_after: bool = False  # "after-the-seven": stuck is judged only once the 7 is finished


# The search runs on compact position keys: 32 bytes, ``pos + 1`` of the 16 marbles (WAIT is 0)
# then their ``fresh`` flags. A 7 visits thousands of positions; bytes hash once and compare
# fast, and only the few positions it ends in become ``Board`` objects.
Packed = bytes


def _pack(board: Board) -> Packed:
    return bytes([p + 1 for p in board.pos] + [1 if f else 0 for f in board.fresh])


def _unpack(packed: Packed) -> Board:
    return Board([x - 1 for x in packed[:16]], [x == 1 for x in packed[16:]])


def _steps_from(packed: Packed, marble: int, home: HomeSteps) -> list[Packed]:
    """Every position after one single step of ``marble``."""
    p = packed[marble] - 1
    seat = owner(marble)
    mine = packed[4 * seat:4 * seat + 4]
    out: list[Packed] = []
    if 0 <= p < HOME:
        nxt = bytearray(packed)
        target = (p + 1) % RING_SIZE
        hit = packed.find(target + 1, 0, 16)
        while hit != -1:  # knocked back to its waiting area
            nxt[hit] = 0
            nxt[16 + hit] = 0
            hit = packed.find(target + 1, hit + 1, 16)
        nxt[marble] = target + 1
        nxt[16 + marble] = 0
        out.append(bytes(nxt))
        if p == start(seat) and not packed[16 + marble] and HOME + 1 not in mine:
            into = bytearray(packed)
            into[marble] = HOME + 1
            out.append(bytes(into))
        return out
    if p >= HOME:
        i = p - HOME
        ahead = i + 1 < HOME_SIZE and HOME + i + 2 not in mine  # not stuck (TAC-35)
        if ahead:
            fwd = bytearray(packed)
            fwd[marble] = p + 2
            out.append(bytes(fwd))
        # backward: never out of the home, never over a marble; a stuck marble may not move,
        # unless stuck is judged only after the whole 7 (TAC-39)
        if home.back and i > 0 and HOME + i not in mine and (ahead or home.stuck_after):
            back = bytearray(packed)
            back[marble] = p
            out.append(bytes(back))
    return out


def _part_keys(packed: Packed, marble: int, max_steps: int, home: HomeSteps) -> list[list[Packed]]:
    """:func:`part_results` on packed positions."""
    layers: list[list[Packed]] = [[packed]]
    for _ in range(max_steps):
        seen: dict[Packed, None] = {}
        for b in layers[-1]:
            for nb in _steps_from(b, marble, home):
                seen.setdefault(nb)
        layers.append(list(seen))
        if not seen:
            for _ in range(len(layers), max_steps + 1):
                layers.append([])
            break
    return layers


def part_results(board: Board, marble: int, max_steps: int, home: HomeSteps) -> list[list[Board]]:
    """``result[k]`` = distinct positions after exactly ``k`` single steps of ``marble``."""
    layers = _part_keys(_pack(board), marble, max_steps, home)
    return [[board], *([_unpack(k) for k in layer] for layer in layers[1:])]


def outcomes(board: Board, seat: int, home: HomeSteps, total: int = 7) -> dict[Key, tuple[tuple[Part, ...], Board]]:
    """Every reachable end position with its canonical split (fewest parts, then marble/step order).

    Breadth-first over the number of parts: a position with ``left`` steps still to go is
    expanded once, from the first split that reached it. Two parts of one marble in a row are
    never needed (the merged part reaches the same positions), but a marble may move again
    after another one has.
    """
    ends: dict[Packed, tuple[Part, ...]] = {}
    first = _pack(board)
    reached: set[tuple[Packed, int]] = {(first, total)}
    layer: list[tuple[tuple[Part, ...], Packed, int]] = [((), first, total)]
    # a position is reached with different amounts left: its single-marble results are shared
    parts_cache: dict[tuple[Packed, int], list[list[Packed]]] = {}
    fixed_ctrl = None if rules.SEVEN_LEFTOVER_TO_PARTNER else controlled_seat(board, seat)
    partner_seat = (seat + 2) % 4
    while layer:
        following: list[tuple[tuple[Part, ...], Packed, int]] = []
        for parts, key, left in layer:
            # whose marbles the 7 moves now: may switch to the partner's mid-move (TAC-48)
            ctrl = fixed_ctrl if fixed_ctrl is not None else (
                partner_seat if min(key[4 * seat:4 * seat + 4]) > HOME else seat)
            last = parts[-1][0] if parts else None
            for m in range(4 * ctrl, 4 * ctrl + 4):
                if m == last or key[m] == 0:
                    continue
                cached = parts_cache.get((key, m))
                if cached is None or len(cached) <= left:
                    cached = parts_cache[(key, m)] = _part_keys(key, m, left, home)
                for k in range(1, left + 1):
                    for nkey in cached[k]:
                        if (nkey, left - k) in reached:
                            continue
                        reached.add((nkey, left - k))
                        split = (*parts, (m, k, nkey[m] - 1))
                        if k == left:
                            ends[nkey] = split
                        else:
                            following.append((split, nkey, left - k))
        layer = following
    results: dict[Key, tuple[tuple[Part, ...], Board]] = {}
    for packed, split in ends.items():
        after = _unpack(packed)
        results[after.key()] = (split, after)
    return results


def _controller(board: Board, start_board: Board, seat: int) -> int:
    """Whose marbles the 7 moves now: may switch to the partner's mid-move (TAC-48)."""
    return controlled_seat(board if rules.SEVEN_LEFTOVER_TO_PARTNER else start_board, seat)


class SplitError(ValueError):
    """A written split cannot be carried out; the message says which part fails."""


def simulate(board: Board, seat: int, parts: list[tuple[int, int, int | None]], home: HomeSteps,
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
        ends = part_results(b, marble, k, home)[k]
        if end is None:
            chosen = [nb for nb in ends if 0 <= nb.pos[marble] < HOME] or ends
        else:
            chosen = [nb for nb in ends if nb.pos[marble] == end]
        if len(chosen) != 1:
            raise SplitError("that marble cannot make those steps")
        b = chosen[0]
        done.append((marble, k, b.pos[marble]))
    return tuple(done), b
