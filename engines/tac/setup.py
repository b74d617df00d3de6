"""Build a position from a compact description — for rule tests and for trying the rules.

Marbles use the rulebook digest's notation (tac.en.md): ``a10`` = an A marble on ring field
10, ``AH2`` = A's home field 2, a trailing ``*`` marks a fresh marble (``a0*``). Unlisted
marbles wait in their waiting areas. Seats a, b, c, d = 0, 1, 2, 3.

    >>> s = position("a60 b12 AH2", hands={0: ["6", "9"]})
"""

from __future__ import annotations

import re
from collections.abc import Mapping, Sequence

from engines.tac.board import HOME, LETTERS, WAIT, start
from engines.tac.state import TacState

NAMES = ("Alice", "Bob", "Chi", "Dung")


def position(
    marbles: str,
    hands: Mapping[int, Sequence[str]] | None = None,
    turn: int = 0,
    version: str = "base",
    seven_in_home: str = "both-ways",
    seven_stuck: str = "each-step",
    dealer: int | None = None,
    deck: Sequence[str] = ("2",) * 20,
) -> TacState:
    """A play-phase state with the given marbles and hands; ``turn`` acts next, nothing to undo yet.

    Seats not in ``hands`` get an empty hand (they are skipped, TAC-25).
    """
    pos = [WAIT] * 16
    fresh = [False] * 16
    used = [0, 0, 0, 0]
    for token in marbles.split():
        m = re.fullmatch(r"([abcdABCD])(H?)(\d+)(\*?)", token)
        if m is None:
            raise ValueError(f"bad marble {token!r}: write a10, AH2 or a0*")
        seat = LETTERS.index(m.group(1).lower())
        if used[seat] == 4:
            raise ValueError(f"more than four {m.group(1)} marbles")
        marble = 4 * seat + used[seat]
        used[seat] += 1
        field = int(m.group(3))
        if m.group(2):
            if not 1 <= field <= 4:
                raise ValueError(f"bad home field in {token!r}")
            pos[marble] = HOME + field - 1
        else:
            if not 0 <= field < 64:
                raise ValueError(f"bad ring field in {token!r}")
            pos[marble] = field
        if m.group(4):
            if pos[marble] != start(seat):
                raise ValueError(f"{token!r}: only a marble on its own start field can be fresh")
            fresh[marble] = True
    if len(set(p for p in pos if p >= 0 and p < HOME)) != sum(1 for p in pos if 0 <= p < HOME):
        raise ValueError("two marbles on one ring field")
    given = dict(hands or {})
    return TacState(
        players=list(NAMES), options={"version": version, "seven_in_home": seven_in_home,
                                       "seven_stuck": seven_stuck}, rng=12345,
        deck=list(deck), pile=[], hands=[list(given.get(p, [])) for p in range(4)], pos=pos, fresh=fresh,
        dealer=(turn - 1) % 4 if dealer is None else dealer, deals=1, shuffle_deal=1, phase="play", turn=turn,
    )
