"""Operator functions behind ``pbem game new|list|show|log`` (testable without the CLI)."""

from __future__ import annotations

import json
from typing import Any

from sqlmodel import col, select

from service.admin.errors import NotFound
from service.config import Settings
from service.context import AppContext
from service.play.start import create_game
from service.store.games import create_player, load, seats_of
from service.store.models import Game, MoveLog


def new_game_from_cli(settings: Settings, engine_id: str, players: list[tuple[str, str]],
                      options: dict[str, Any], seed: int | None, lang: str = "en") -> int:
    ctx = AppContext.create(settings)
    with ctx.session() as s:
        addresses = []
        for name, address in players:
            if "@" not in address:
                raise ValueError(f"not an address: {address!r}")
            create_player(s, address, name or address.split("@")[0], lang, ctx=ctx)
            addresses.append(address)
        game = create_game(s, engine_id, addresses, options or None, seed, ctx=ctx)
        s.commit()
        assert game.id is not None
        return game.id


def list_games(settings: Settings, status: str | None = None) -> list[tuple[Any, ...]]:
    ctx = AppContext.create(settings)
    out: list[tuple[Any, ...]] = []
    with ctx.session() as s:
        query = select(Game).order_by(col(Game.id))
        if status:
            query = query.where(Game.status == status)
        for game in s.exec(query).all():
            assert game.id is not None
            engine, state = load(game)
            seats = seats_of(s, game.id)
            names = [p.name for _, p in seats]
            to_act = ", ".join(names[i] for i in sorted(engine.to_act(state))) if game.status == "active" else "-"
            out.append((game.id, game.engine, game.status, ", ".join(names), to_act,
                        game.deadline.isoformat(timespec="minutes") if game.deadline else "-"))
    return out


def show_game(settings: Settings, game_id: int, seat: int | None, lang: str = "en") -> str:
    ctx = AppContext.create(settings)
    with ctx.session() as s:
        game = s.get(Game, game_id)
        if game is None:
            raise NotFound(f"no game #{game_id}")
        engine, state = load(game)
        if seat is not None and seat not in {row.seat for row, _ in seats_of(s, game_id)}:
            raise NotFound(f"game #{game_id} has no seat {seat}")
        head = f"#{game.id} {engine.title} ({game.status}, version {game.version})"
        return head + "\n" + engine.render_view(engine.view(state, seat), lang)


def game_log_lines(settings: Settings, game_id: int) -> list[str]:
    ctx = AppContext.create(settings)
    lines: list[str] = []
    with ctx.session() as s:
        if s.get(Game, game_id) is None:
            raise NotFound(f"no game #{game_id}")
        for row in s.exec(select(MoveLog).where(MoveLog.game_id == game_id).order_by(col(MoveLog.id))).all():
            events = "; ".join(e["text"]["en"] for e in json.loads(row.events))
            lines.append(f"{row.created_at:%Y-%m-%d %H:%M} seat {row.seat}: {row.command!r} -> {events}")
    return lines
