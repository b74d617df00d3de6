"""``pbem admin undo GAME [N]``: take back the last N moves by replaying the log from the seed.

``Game.seed``, ``Game.options`` and the ``MoveLog`` actions determine every state (the engine
contract: same seed, same moves, same game), so an undo rebuilds the earlier state instead of
storing snapshots. Before anything changes, the whole log is replayed and must reproduce the
stored state exactly; otherwise the undo is refused (the log cannot be trusted to rebuild it).

Secrets stay secret: the players' mail says only how many moves were taken back and shows each
seat its own view of the restored position; the undone commands and events (a secret build or
support tile among them) go to the operator-only audit log and nowhere else.
"""

from __future__ import annotations

import json
from collections.abc import Sequence
from datetime import timedelta
from typing import Any

from sqlalchemy import update
from sqlmodel import Session, col, delete, select

from engines.contract import Action, Engine, tr
from service.admin.audit import entries, operator_name, record
from service.admin.errors import BadArgument, Refused
from service.admin.operations import open_game, pause_of, stale_is_refused, tell_seats
from service.context import AppContext
from service.store.games import StaleGame, load, seats_of
from service.store.models import Game, MoveLog, ReplyKey


def original_names(session: Session, game: Game) -> list[str]:
    """The player names the game was created with (the engine's state holds these): the current
    seat holders with every ``replace`` in the audit log undone, newest first."""
    assert game.id is not None
    names = [p.name for _, p in seats_of(session, game.id)]
    for entry in reversed(entries(session, game.id)):
        if entry.command == "replace":
            args = json.loads(entry.arguments)
            names[int(args["seat"])] = str(args["old_name"])
    return names


def replay(engine: Engine[Any], names: Sequence[str], options: dict[str, Any], seed: int,
           moves: Sequence[tuple[int, Action]]) -> Any:
    """The state reached from the seed by ``moves`` (raises the engine's error on a bad one)."""
    state = engine.new_game(list(names), options, seed)
    for seat, action in moves:
        state, _events = engine.apply(state, seat, action)
    return state


def same_state(engine: Engine[Any], state: Any, stored_json: str) -> bool:
    return bool(json.loads(engine.to_json(state)) == json.loads(stored_json))


def logged_moves(session: Session, game_id: int) -> list[MoveLog]:
    """The log rows that carry an engine action (service rows such as a resignation have none)."""
    rows = session.exec(select(MoveLog).where(MoveLog.game_id == game_id).order_by(col(MoveLog.id))).all()
    return [r for r in rows if r.action is not None]


def as_move(row: MoveLog) -> tuple[int, Action]:
    assert row.action is not None and row.seat is not None
    return row.seat, Action.from_json(json.loads(row.action))


def undo(ctx: AppContext, game_id: int, n: int = 1, *, by: str | None = None, why: str = "") -> dict[str, Any]:
    """Roll the game back ``n`` moves; every seat gets its view of the restored position."""
    if n < 1:
        raise BadArgument(f"bad number of moves {n}: give 1 or more")
    with ctx.session() as s, stale_is_refused(game_id):
        game = open_game(s, game_id)
        if game.status not in ("active", "finished"):
            raise Refused(f"game #{game_id} is {game.status}: it ended outside the rules, nothing to undo")
        if pause_of(s, game) is not None:
            raise Refused(f"game #{game_id} is paused: resume it first (pbem admin resume {game_id})")
        moves = logged_moves(s, game_id)
        if n > len(moves):
            raise BadArgument(f"game #{game_id} has only {len(moves)} move(s) to undo, not {n}")
        engine, _stored = load(game)
        names, options = original_names(s, game), json.loads(game.options)
        try:
            full = replay(engine, names, options, game.seed, [as_move(r) for r in moves])
        except Exception as exc:
            raise Refused(f"game #{game_id}: the move log does not replay ({exc}); undo is not safe") from None
        if not same_state(engine, full, game.state):
            raise Refused(f"game #{game_id}: replaying the move log does not reproduce the stored state; "
                          "undo is not safe")
        keep, undone = moves[:-n], moves[-n:]
        state = replay(engine, names, options, game.seed, [as_move(r) for r in keep])
        first_undone = undone[0].id
        assert first_undone is not None
        undone_rows = list(s.exec(select(MoveLog).where(MoveLog.game_id == game_id,
                                                        col(MoveLog.id) >= first_undone)).all())
        removed = [{"id": r.id, "seat": r.seat, "command": r.command, "action": r.action,
                    "events": json.loads(r.events), "at": r.created_at.isoformat()} for r in undone_rows]
        s.execute(delete(MoveLog).where(col(MoveLog.game_id) == game_id, col(MoveLog.id) >= first_undone))
        now = ctx.clock.now()
        values: dict[str, Any] = {"state": engine.to_json(state), "version": game.version + 1, "status": "active",
                                  "outcome": None, "updated_at": now,
                                  "deadline": now + timedelta(hours=ctx.settings.turn_hours)}
        result = s.execute(update(Game).where(col(Game.id) == game_id, col(Game.version) == game.version)
                           .values(**values))
        if result.rowcount != 1:  # type: ignore[attr-defined]
            raise StaleGame(f"game {game_id} changed under us")
        for name, value in values.items():
            setattr(game, name, value)
        # digests restart before the undone rows (SQLite may hand their ids out again), and the
        # keys of the undone decisions are forgotten: a menu number from such a mail is refused
        for seat_row, _player in seats_of(s, game_id):
            seat_row.last_log_id = min(seat_row.last_log_id, first_undone - 1)
            seat_row.reply_key = None
            s.add(seat_row)
        s.execute(delete(ReplyKey).where(col(ReplyKey.game_id) == game_id))
        s.flush()
        plural = "s" if n != 1 else ""
        sent = tell_seats(s, ctx, game, engine, state, lambda p: tr("The operator took back the last {n} move{plural}; the game continues from the earlier position below.", n=n, plural=plural)[p.lang])
        record(s, ctx, operator=operator_name(by), game_id=game_id, command="undo",
               arguments={"n": n, "undone": removed}, why=why)
        s.commit()
        return {"game": game_id, "command": "undo", "status": game.status, "undone": n,
                "deadline": game.deadline.isoformat() if game.deadline else None,
                "message": f"game #{game_id}: {n} move(s) taken back, now at state version "
                           f"{engine.state_version(state)}", "mailed": sent}
