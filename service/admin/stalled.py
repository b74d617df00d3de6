"""The operator's view: ``pbem admin stalled``, ``show GAME``, ``log GAME``.

``stalled`` lists active games, the longest-waiting first: on whom, since when (the last
change of the game), the deadline, reminders sent (operator nudges, and seats the deadline
sweep reminded), bounces (failed deliveries, and players a hard bounce marked unreachable) and
absences (``vacation N`` until ``away_until``).
"""

from __future__ import annotations

import json
from datetime import datetime, timedelta
from typing import Any

from sqlalchemy import func
from sqlmodel import Session, col, select

from service.admin.audit import entries
from service.admin.operations import open_game, pause_info, say_duration
from service.context import AppContext
from service.store.games import load, seats_of
from service.store.models import Game, MoveLog, Outbox, Player

#: Outbox kinds that remind a player of a waiting move (``nudge`` is the operator's; the
#: deadline policy's automatic reminders are expected as ``reminder``).
REMINDER_KINDS = ("reminder", "nudge")


def _count(session: Session, query: Any) -> int:
    return int(session.exec(query).one())


def _absent(player: Player, now: datetime) -> bool:
    """Away now (``vacation N``): the absence runs until ``away_until``."""
    until = player.away_until
    if until is not None and until.tzinfo is None:
        until = until.replace(tzinfo=now.tzinfo)
    return until is not None and until > now


def stalled_games(ctx: AppContext, limit: int = 50) -> list[dict[str, Any]]:
    now = ctx.clock.now()
    out: list[dict[str, Any]] = []
    with ctx.session() as s:
        games = s.exec(select(Game).where(Game.status == "active").order_by(col(Game.updated_at), col(Game.id))
                       .limit(limit)).all()
        for game in games:
            assert game.id is not None
            engine, state = load(game)
            seats = seats_of(s, game.id)
            waiting = [(row, p) for row, p in seats if row.seat in engine.to_act(state)]
            addresses = [p.address for _, p in waiting]
            reminders = _count(s, select(func.count()).select_from(Outbox).where(
                Outbox.game_id == game.id, col(Outbox.kind).in_(REMINDER_KINDS), Outbox.created_at >= game.updated_at))
            # the merged reminder mails carry no game: each reminded seat records when it was
            reminders += sum(1 for row, _ in waiting if row.reminded_at is not None)
            bounces = _count(s, select(func.count()).select_from(Outbox).where(
                Outbox.game_id == game.id, Outbox.status == "failed", col(Outbox.to_address).in_(addresses)))
            bounces += sum(1 for _, p in waiting if p.unreachable)
            out.append({
                "game": game.id, "engine": game.engine,
                "waiting_on": [f"{p.name} ({row.seat})" for row, p in waiting],
                "since": game.updated_at.isoformat(timespec="minutes"),
                "waiting": say_duration(max(now - game.updated_at, timedelta(0)), "en"),
                "deadline": game.deadline.isoformat(timespec="minutes") if game.deadline else None,
                "overdue": bool(game.deadline and game.deadline <= now),
                "reminders": reminders, "bounces": bounces,
                "absent": [p.name for _, p in waiting if _absent(p, now)],
                "paused": pause_info(s, game.id) is not None,
            })
    return out


def show(ctx: AppContext, game_id: int, seat: int | None = None, lang: str = "en", *,
         with_state: bool = False) -> dict[str, Any]:
    """Everything the operator may see about one game (all seats, the observer board, and with
    ``with_state`` the engine's whole state, secrets included)."""
    now = ctx.clock.now()
    with ctx.session() as s:
        game = open_game(s, game_id)
        engine, state = load(game)
        to_act = engine.to_act(state) if game.status == "active" else frozenset()
        seats = []
        for row, p in seats_of(s, game_id):
            last = s.exec(select(Outbox).where(Outbox.game_id == game_id, Outbox.to_address == p.address)
                          .order_by(col(Outbox.id).desc())).first()
            seats.append({"seat": row.seat, "name": p.name, "address": p.address, "lang": p.lang, "tz": p.tz,
                          "to_act": row.seat in to_act, "absent": _absent(p, now),
                          "last_mail": f"{last.kind} {last.status} {last.created_at:%Y-%m-%d %H:%M}" if last else None})
        if seat is not None and seat not in {x["seat"] for x in seats}:
            from service.admin.errors import NotFound

            raise NotFound(f"game #{game_id} has no seat {seat}")
        moves = _count(s, select(func.count()).select_from(MoveLog).where(MoveLog.game_id == game_id))
        return {
            "game": game.id, "engine": game.engine, "title": engine.title, "status": game.status,
            "version": game.version, "state_version": engine.state_version(state), "seed": game.seed,
            "options": json.loads(game.options), "created": game.created_at.isoformat(timespec="minutes"),
            "updated": game.updated_at.isoformat(timespec="minutes"),
            "deadline": game.deadline.isoformat(timespec="minutes") if game.deadline else None,
            "paused": pause_info(s, game_id), "outcome": json.loads(game.outcome) if game.outcome else None,
            "seats": seats, "moves": moves, "operator_actions": len(entries(s, game_id)),
            "board_seat": seat,
            "board": engine.render_view(engine.view(state, seat), lang),
            **({"state": json.loads(game.state)} if with_state else {}),
        }


def log_lines(ctx: AppContext, game_id: int) -> list[dict[str, Any]]:
    """The move log (every event, operator view) and the operator's actions, in time order."""
    with ctx.session() as s:
        open_game(s, game_id)
        rows: list[tuple[datetime, int, dict[str, Any]]] = []
        for m in s.exec(select(MoveLog).where(MoveLog.game_id == game_id).order_by(col(MoveLog.id))).all():
            events = "; ".join(e["text"]["en"] for e in json.loads(m.events))
            rows.append((m.created_at, 0, {"at": m.created_at.isoformat(timespec="minutes"), "kind": "move",
                                           "seat": m.seat, "command": m.command, "events": events}))
        for a in entries(s, game_id):
            args = json.loads(a.arguments)
            if a.command == "undo":  # the count only: the undone moves are in `export`-like detail
                args = {"n": args.get("n"), "undone_commands": [u.get("command") for u in args.get("undone", [])]}
            rows.append((a.at, 1, {"at": a.at.isoformat(timespec="minutes"), "kind": "operator",
                                   "operator": a.operator, "command": a.command, "arguments": args, "why": a.why}))
        rows.sort(key=lambda r: (r[0], r[1]))
        return [r[2] for r in rows]
