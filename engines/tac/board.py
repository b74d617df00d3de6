"""Board geometry and marble movement (TAC-7..12, TAC-20, TAC-26..48).

A position is two lists over the 16 marbles (marble ``m`` belongs to seat ``m // 4``):
``pos[m]`` is ``WAIT`` (waiting area), a ring field ``0..63`` or ``HOME + i`` for the owner's
home field H(i+1); ``fresh[m]`` marks a marble just placed on its start field (TAC-33).
Fields are absolute: seat p's start field is ``16 * p``.
"""

from __future__ import annotations

from dataclasses import dataclass

from engines.contract import tr
from engines.tac import rules
from engines.tac.rules import HOME_SIZE, RING_SIZE, START_SPACING

WAIT = -1
HOME = 64  # HOME + i = home field H(i+1) of the marble's owner
SEATS = 4
MARBLES = 16
LETTERS = "abcd"


def start(seat: int) -> int:
    return START_SPACING * seat


def owner(marble: int) -> int:
    return marble // 4


def partner(seat: int) -> int:
    return (seat + 2) % SEATS


def team(seat: int) -> int:
    return seat % 2


def marble_name(marble: int) -> str:
    """``a1``..``d4``: the seat's colour letter (a = first seat) and a number 1..4."""
    return MARBLE_NAMES[marble]


MARBLE_NAMES: tuple[str, ...] = tuple(f"{LETTERS[m // 4]}{m % 4 + 1}" for m in range(MARBLES))


def field_name(marble: int, p: int, lang: str = "en") -> str:
    """``15``, ``AH2`` or the waiting area, as shown in move descriptions."""
    if p == WAIT:
        return tr("waiting")[lang]
    if p >= HOME:
        return f"{LETTERS[owner(marble)].upper()}H{p - HOME + 1}"
    return str(p)


@dataclass
class Board:
    """One position of the 16 marbles. Mutable; copy before changing a shared one."""

    pos: list[int]
    fresh: list[bool]

    def copy(self) -> Board:
        return Board(self.pos.copy(), self.fresh.copy())

    def key(self) -> tuple[tuple[int, ...], tuple[bool, ...]]:
        return (tuple(self.pos), tuple(self.fresh))

    def ring(self) -> dict[int, int]:
        """Ring field -> marble on it."""
        return {p: m for m, p in enumerate(self.pos) if 0 <= p < HOME}

    def home_taken(self, seat: int) -> list[bool]:
        taken = [False] * HOME_SIZE
        for m in range(4 * seat, 4 * seat + 4):
            if self.pos[m] >= HOME:
                taken[self.pos[m] - HOME] = True
        return taken

    def finished(self, seat: int) -> bool:
        return min(self.pos[4 * seat:4 * seat + 4]) >= HOME

    def team_finished(self, team_id: int) -> bool:
        return self.finished(team_id) and self.finished(team_id + 2)

    def knock(self, marble: int) -> None:
        self.pos[marble] = WAIT
        self.fresh[marble] = False

    def waiting(self, seat: int) -> list[int]:
        return [m for m in range(4 * seat, 4 * seat + 4) if self.pos[m] == WAIT]

    def on_ring(self, seat: int) -> list[int]:
        return [m for m in range(4 * seat, 4 * seat + 4) if 0 <= self.pos[m] < HOME]


def controlled_seat(board: Board, seat: int) -> int:
    """Whose marbles ``seat`` moves: its own until all four are home, then the partner's (TAC-84)."""
    return partner(seat) if board.finished(seat) else seat


def forward_dests(board: Board, marble: int, n: int, ring: dict[int, int] | None = None) -> list[int]:
    """Destinations of an ordinary forward move of exactly ``n`` (TAC-10, TAC-20, TAC-27, TAC-32..35)."""
    p = board.pos[marble]
    if p == WAIT:
        return []
    seat = owner(marble)
    if p >= HOME:
        i = p - HOME
        if i + n >= HOME_SIZE:
            return []
        taken = board.home_taken(seat)
        if any(taken[j] for j in range(i + 1, i + n + 1)):
            return []
        return [p + n]
    occupied = board.ring() if ring is None else ring
    out: list[int] = []
    if all((p + k) % RING_SIZE not in occupied for k in range(1, n)):
        out.append((p + n) % RING_SIZE)
    if not board.fresh[marble]:
        to_start = (start(seat) - p) % RING_SIZE
        rest = n - to_start
        if 1 <= rest <= HOME_SIZE and all((p + k) % RING_SIZE not in occupied for k in range(1, to_start + 1)):
            taken = board.home_taken(seat)
            if not any(taken[:rest]):
                if not rules.HOME_ENTRY_OPTIONAL:
                    return [HOME + rest - 1]
                out.append(HOME + rest - 1)
    return out


def backward_dests(board: Board, marble: int, n: int = 4, ring: dict[int, int] | None = None) -> list[int]:
    """Destinations of the 4 (TAC-41, TAC-38): ring marbles only, never out of a home.

    A non-fresh marble may pass backward onto its own start field and on into its home
    (S → H1 → …); one standing on its start field goes straight in (a0 → AH4).
    """
    p = board.pos[marble]
    if not 0 <= p < HOME:
        return []
    occupied = board.ring() if ring is None else ring
    out: list[int] = []
    if all((p - k) % RING_SIZE not in occupied for k in range(1, n)):
        out.append((p - n) % RING_SIZE)
    if rules.FOUR_MAY_ENTER_HOME and not board.fresh[marble]:
        to_start = (p - start(owner(marble))) % RING_SIZE
        rest = n - to_start
        if 1 <= rest <= HOME_SIZE and all(
            (p - k) % RING_SIZE not in occupied for k in range(1, to_start + 1)
        ):
            taken = board.home_taken(owner(marble))
            if not any(taken[:rest]):
                out.append(HOME + rest - 1)
    return out


def move_to(board: Board, marble: int, dest: int) -> list[int]:
    """Move ``marble`` to ``dest`` in place, knocking a ring occupant (TAC-28). Returns the knocked."""
    knocked: list[int] = []
    if 0 <= dest < HOME:
        for m, p in enumerate(board.pos):
            if p == dest and m != marble:
                board.knock(m)
                knocked.append(m)
    board.pos[marble] = dest
    board.fresh[marble] = False
    return knocked


def place_on_start(board: Board, marble: int) -> list[int]:
    """Open: put a waiting marble on its start field, fresh, knocking any occupant (TAC-31, TAC-40)."""
    knocked = move_to(board, marble, start(owner(marble)))
    board.fresh[marble] = True
    return knocked
