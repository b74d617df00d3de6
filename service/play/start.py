"""A new game: seats for known players, the engine's first state, and the first mails.

Apart from ``games`` (the records) because starting a game queues mails: the mail builder
reads game records, so records cannot import it back without an import circle.
"""

from __future__ import annotations

import json
import secrets
from collections.abc import Mapping, Sequence
from typing import Any

from sqlmodel import Session

import engines
from service.addresses import clean_name
from service.context import AppContext
from service.outbound.notify import queue_game_mails
from service.store.games import next_deadline, player_by_address
from service.store.models import Game, GameSeat, Player
from service.store.policy import DeadlinePolicy


def create_game(
    session: Session,
    engine_id: str,
    players: Sequence[str],
    options: Mapping[str, Any] | None = None,
    seed: int | None = None,
    *,
    ctx: AppContext,
    policy: str = "",
) -> Game:
    """Start a game for known players (by address, seat order) and queue the first mails.

    ``policy`` is a ``DeadlinePolicy`` as JSON ("" = the configured defaults).

    Everything happens in the caller's transaction: commit once and the game and its
    "the game starts" mails exist together, or neither does.
    """
    engine = engines.get(engine_id)
    if policy:
        DeadlinePolicy.from_json(policy, ctx.settings)  # refuse a bad policy before anything exists
    seated: list[Player] = []
    for address in players:
        player = player_by_address(session, address)
        if player is None:
            raise ValueError(f"unknown player {address}: create the player first")
        seated.append(player)
    if len({p.id for p in seated}) != len(seated):
        raise ValueError("a player can take only one seat")
    seed = secrets.randbelow(2**31) if seed is None else seed
    if not 0 <= seed < 2**31:  # the column is a 32-bit integer on PostgreSQL
        raise ValueError(f"seed must be between 0 and {2**31 - 1}")
    resolved = engine.resolve_options(options)
    state = engine.new_game([clean_name(p.name, f"Player {n + 1}") for n, p in enumerate(seated)], resolved, seed)
    now = ctx.clock.now()
    game = Game(engine=engine_id, options=json.dumps(resolved, sort_keys=True), seed=seed,
                state=engine.to_json(state), version=0, status="active", created_at=now, updated_at=now,
                policy=policy, turn_started_at=now)
    session.add(game)
    session.flush()
    assert game.id is not None
    for seat, player in enumerate(seated):
        assert player.id is not None
        session.add(GameSeat(game_id=game.id, seat=seat, player_id=player.id))
    session.flush()
    game.deadline = next_deadline(session, ctx, game, engine, state, now)
    queue_game_mails(session, ctx, game, engine, state, actor=None, started=True)
    return game
