"""Games in the database: creating players and games, loading and saving states, move logs.

Saving a state is an optimistic-locking ``UPDATE … WHERE version = :seen``: when two workers
race for one game, exactly one write matches and the other raises ``StaleGame`` and starts
over from the fresh state — no move is applied twice or against an old position.
"""

from __future__ import annotations

import json
from collections.abc import Sequence
from datetime import datetime
from typing import Any

from sqlalchemy import bindparam, insert, update
from sqlalchemy.orm.attributes import set_committed_value
from sqlmodel import Session, col, select

import engines
from engines import i18n
from engines.contract import Action, Engine, Event, Outcome
from service.addresses import bare_address, clean_name
from service.clock import SystemClock
from service.context import AppContext
from service.store.models import Game, GameSeat, MoveLog, Player
from service.store.policy import deadline_after, policy_of


class StaleGame(RuntimeError):
    """Another transaction changed the game first; retry with the fresh state."""


def create_player(
    session: Session, address: str, name: str, lang: str = "en", tz: str = "UTC", *, ctx: AppContext | None = None
) -> Player:
    """The player with ``address`` (created if new; an existing player is returned unchanged)."""
    address = bare_address(address)
    existing = session.exec(select(Player).where(Player.address == address)).first()
    if existing is not None:
        return existing
    if lang not in i18n.languages():
        raise ValueError(f"language must be one of {', '.join(i18n.languages())}, not {lang!r}")
    now = (ctx.clock if ctx else SystemClock()).now()
    player = Player(address=address, name=clean_name(name, address.split("@")[0]), lang=lang, tz=tz, created_at=now)
    session.add(player)
    session.flush()
    return player


def player_by_address(session: Session, address: str) -> Player | None:
    return session.exec(select(Player).where(Player.address == bare_address(address))).first()


def load(game: Game) -> tuple[Engine[Any], Any]:
    engine = engines.get(game.engine)
    return engine, engine.from_json(game.state)


def seats_of(session: Session, game_id: int) -> list[tuple[GameSeat, Player]]:
    rows = session.exec(
        select(GameSeat, Player).where(GameSeat.game_id == game_id, GameSeat.player_id == Player.id)
        .order_by(col(GameSeat.seat))
    ).all()
    return [(seat, player) for seat, player in rows]


def next_deadline(session: Session, ctx: AppContext, game: Game, engine: Engine[Any], state: Any,
                  now: datetime, seats: Sequence[tuple[GameSeat, Player]] | None = None) -> datetime | None:
    """The deadline of a decision opening at ``now`` under the game's policy.

    None while the operator has paused the game. A player who is away (``vacation``) and
    must act gets the whole time after their absence ends: their clock stands still.
    """
    if game.paused:
        return None
    policy = policy_of(game, ctx.settings)
    start = now
    to_act = engine.to_act(state)
    if to_act and game.id is not None:
        for seat_row, player in seats if seats is not None else seats_of(session, game.id):
            if (seat_row.seat in to_act and not seat_row.bot and player.away_until is not None
                    and player.away_until > start):
                start = player.away_until
    return deadline_after(start, policy.hours, policy.weekend_pause)


def save_state(session: Session, ctx: AppContext, game: Game, engine: Engine[Any], state: Any,
               seats: Sequence[tuple[GameSeat, Player]] | None = None) -> None:
    """Write ``state`` if nobody else wrote the game since we read it (else ``StaleGame``).

    The next deadline follows the game's policy (``next_deadline``). ``seats``: the game's
    ``seats_of`` when the caller holds them already (one query less per move)."""
    assert game.id is not None
    now = ctx.clock.now()
    outcome = engine.outcome(state)
    status = game.status if game.status != "active" else ("finished" if outcome is not None else "active")
    values: dict[str, Any] = {
        "state": engine.to_json(state), "version": game.version + 1, "updated_at": now, "status": status,
        "deadline": None if status != "active" else next_deadline(session, ctx, game, engine, state, now, seats),
        "turn_started_at": now,
        # paused: a move opens a new decision, which gets its whole time when resumed
        "paused_left": None if game.paused else game.paused_left,
        "outcome": json.dumps(outcome.to_json()) if outcome is not None else game.outcome,
    }
    # A Core statement on the session's connection: the ORM's bulk-update path (criteria
    # evaluation, session synchronisation) cost more than the UPDATE itself.
    result = session.connection().execute(
        _SAVE_STATE, {"game_id": game.id, "seen": game.version, **{f"new_{k}": v for k, v in values.items()}})
    if result.rowcount != 1:
        raise StaleGame(f"game {game.id} changed under us (version {game.version})")
    for name, value in values.items():
        # as committed values: the row holds them already; a plain setattr made the ORM
        # write the same columns a second time (an unchecked UPDATE) when the session flushed
        set_committed_value(game, name, value)


#: ``save_state``'s optimistic-locking UPDATE, built once (building it cost more than running it)
_SAVE_STATE = (
    update(Game)
    .where(col(Game.id) == bindparam("game_id"), col(Game.version) == bindparam("seen"))
    .values({name: bindparam(f"new_{name}") for name in
             ("state", "version", "updated_at", "status", "deadline", "turn_started_at", "paused_left", "outcome")})
)


def end_game(session: Session, ctx: AppContext, game: Game, status: str, outcome: Outcome) -> None:
    """Finish a game for a reason outside the rules (a resignation); version-checked as well."""
    assert game.id is not None
    result = session.execute(
        update(Game).where(col(Game.id) == game.id, col(Game.version) == game.version).values(
            status=status, version=game.version + 1, deadline=None, updated_at=ctx.clock.now(),
            outcome=json.dumps(outcome.to_json()))
    )
    if result.rowcount != 1:  # type: ignore[attr-defined]
        raise StaleGame(f"game {game.id} changed under us (version {game.version})")
    game.status, game.version, game.deadline = status, game.version + 1, None
    game.outcome = json.dumps(outcome.to_json())


def log_move(
    session: Session,
    ctx: AppContext,
    game: Game,
    seat: int | None,
    command: str,
    action: Action | None,
    events: Sequence[Event],
    state_version: int,
    inbound_id: int | None = None,
) -> int:
    """Append one entry to the game's move log (in the session's transaction); its id.

    A Core INSERT on the session's connection: a log entry is never read back as an object
    in the transaction that writes it (``events_since`` selects it), and the ORM's unit of
    work around one INSERT cost several times the statement. New objects the session holds
    are flushed first, so a row the entry refers to is in the database before it."""
    assert game.id is not None
    if session.new:
        session.flush()
    result = session.connection().execute(_LOG_MOVE, {
        "game_id": game.id, "seat": seat, "command": command,
        "action": json.dumps(action.to_json()) if action else None,
        "events": json.dumps([e.to_json() for e in events]), "inbound_id": inbound_id,
        "state_version": state_version, "created_at": ctx.clock.now()})
    inserted = result.inserted_primary_key
    assert inserted is not None
    return int(inserted[0])


_LOG_MOVE = insert(MoveLog).values({name: bindparam(name) for name in (
    "game_id", "seat", "command", "action", "events", "inbound_id", "state_version", "created_at")})


def stored_outcome(game: Game) -> Outcome | None:
    if not game.outcome:
        return None
    from engines.contract import Text

    data = json.loads(game.outcome)
    return Outcome(frozenset(data["winners"]), bool(data["draw"]), Text.from_json(data["reason"]))


def visible_events(session: Session, game_id: int, seat: int | None, after_id: int = 0,
                   limit: int | None = None) -> list[tuple[int, Event]]:
    """Events of the game's log newer than ``after_id`` that ``seat`` may see, oldest first."""
    out, _newest = events_since(session, game_id, seat, after_id)
    return out[-limit:] if limit else out


def events_since(session: Session, game_id: int, seat: int | None, after_id: int) -> tuple[list[tuple[int, Event]], int]:
    """``visible_events`` plus the newest log id read (``after_id`` when nothing is newer), so
    a digest and its bookmark come from one query."""
    # Core rows of the two columns needed, on the session's connection: the log is only ever
    # written by ``log_move``'s Core INSERT, so no pending ORM object can be missing here
    rows = session.connection().execute(_EVENTS_SINCE, {"game_id": game_id, "after_id": after_id}).all()
    out: list[tuple[int, Event]] = []
    newest = after_id
    for row in rows:
        assert row.id is not None
        newest = max(newest, row.id)
        for data in json.loads(row.events):
            event = Event.from_json(data)
            if event.visible(seat):
                out.append((row.id, event))
    return out, newest


_EVENTS_SINCE = (select(col(MoveLog.id), col(MoveLog.events))
                 .where(col(MoveLog.game_id) == bindparam("game_id"), col(MoveLog.id) > bindparam("after_id"))
                 .order_by(col(MoveLog.id)))
