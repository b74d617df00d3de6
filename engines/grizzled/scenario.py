"""Build any position by naming cards by face — for rule tests and for reproducing reports.

Not used in play. ``position(...)`` takes faces (``"rain shell"``, ``"phobia gas"``) and picks
distinct real card ids for them, so the built state obeys the content (a face can be used
only as often as cards with it exist). Unlisted cards fill the Morale Reserve.
"""

from __future__ import annotations

from collections.abc import Sequence

from engines.grizzled import rules
from engines.grizzled.content import content
from engines.grizzled.state import TURN, GrizzledState

DEFAULT_NAMES = ("Alice", "Bob", "Chi", "Dung", "Eve")


class _Ids:
    """Hands out unused card ids per face."""

    def __init__(self) -> None:
        self.free: dict[str, list[str]] = {}
        for cid, card in content().cards.items():
            self.free.setdefault(card.face, []).append(cid)

    def take(self, face: str) -> str:
        ids = self.free.get(face)
        if not ids:
            known = face in content().faces
            raise ValueError(f"no {'more ' if known else ''}card with face {face!r}")
        return ids.pop(0)

    def rest(self) -> list[str]:
        return [cid for ids in self.free.values() for cid in ids]


def position(
    players: int = 3,
    *,
    hands: Sequence[Sequence[str]] | None = None,
    knocks: Sequence[Sequence[str]] | None = None,
    nml: Sequence[str] = (),
    trials: Sequence[str] = (),
    reserve: int = 20,
    tiles: Sequence[Sequence[str]] | None = None,
    characters: Sequence[str] | None = None,
    charm_ready: Sequence[bool] | None = None,
    withdrawn: Sequence[bool] | None = None,
    placed: Sequence[str | None] | None = None,
    speech_held: Sequence[int] | None = None,
    speech_supply: int | None = None,
    leader: int = 0,
    turn: int = 0,
    mission: int = 2,
    phase: str = TURN,
    seed: int = 7,
) -> GrizzledState:
    """A position; ``trials`` lists the Trials pile bottom to top (its last face is drawn first)."""
    ids = _Ids()
    n = players
    hand_ids = [[ids.take(f) for f in h] for h in (hands or [[] for _ in range(n)])]
    knock_ids = [[ids.take(f) for f in k] for k in (knocks or [[] for _ in range(n)])]
    nml_ids = [ids.take(f) for f in nml]
    trial_ids = [ids.take(f) for f in trials]
    rest = ids.rest()
    if reserve > len(rest):
        raise ValueError(f"only {len(rest)} cards are left for a Morale Reserve of {reserve}")
    state = GrizzledState(
        players=list(DEFAULT_NAMES[:n]),
        characters=list(characters or [ch.id for ch in content().characters][:n]),
        rng=seed,
        trials=trial_ids,
        reserve=rest[:reserve],
        hands=hand_ids,
        knocks=knock_ids,
        tiles=[list(t) for t in (tiles or [["left", "right"] for _ in range(n)])],
        charm_ready=list(charm_ready or [True] * n),
        speech_held=list(speech_held or [0] * n),
        speech_supply=rules.SPEECH_TOKENS[n] if speech_supply is None else speech_supply,
        leader=leader,
        nml=nml_ids,
        withdrawn=list(withdrawn or [False] * n),
        placed_tile=[None] * n,
        placed_to=[None] * n,
        mission=mission,
        phase=phase,
        turn=turn,
    )
    for seat, tile in enumerate(placed or []):
        if tile is not None:
            state.placed_tile[seat] = tile
            state.placed_to[seat] = rules.tile_target(state, seat, tile)
    return state
