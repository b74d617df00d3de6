"""The admin operations on PostgreSQL: migration 0006 and every write (audit rows, pauses,
version-checked deadline updates, undo's deletes) on the production database."""

from __future__ import annotations

import json
from datetime import timedelta

import pytest
from sqlmodel import col, select

from service.admin import operations
from service.admin.export import export_game, replay_export
from service.admin.stalled import log_lines, stalled_games
from service.admin.undo import undo
from service.clock import ManualClock
from service.config import Settings
from service.context import AppContext
from service.play.start import create_game
from service.store.games import create_player
from service.store.models import AuditLog, Game

from .conftest import SECRET
from .test_postgres import postgres_url  # noqa: F401  (the throw-away server fixture)

pytestmark = pytest.mark.postgres


def test_admin_operations_on_postgresql(postgres_url: str) -> None:  # noqa: F811
    clock = ManualClock()
    ctx = AppContext.create(Settings(database_url=postgres_url, secret=SECRET), clock)
    with ctx.session() as s:
        players = [create_player(s, f"{n}@adm.test", n.title(), ctx=ctx).address for n in ("ann", "bob")]
        game = create_game(s, "toy", players, seed=9, ctx=ctx)
        s.commit()
        gid = game.id
        assert gid is not None and game.deadline is not None
        start = game.deadline
    operations.extend(ctx, gid, "1d6h", by="ops", why="pg")
    operations.force(ctx, gid, 0, by="ops")
    operations.force(ctx, gid, 1, by="ops")
    operations.pause(ctx, gid)
    clock.advance(days=3)
    operations.resume(ctx, gid)
    operations.replace(ctx, gid, 1, "cat@adm.test", name="Cat")
    assert stalled_games(ctx)[0]["game"] == gid
    data = export_game(ctx, gid)
    assert replay_export(data)[0] and data["players"] == ["Ann", "Bob"]
    assert undo(ctx, gid, 2)["undone"] == 2
    with ctx.session() as s:
        row = s.get_one(Game, gid)
        assert row.deadline == clock.now() + timedelta(hours=72) == start + timedelta(days=3)  # undo: a fresh turn
        commands = [a.command for a in s.exec(select(AuditLog).where(AuditLog.game_id == gid)
                                               .order_by(col(AuditLog.id))).all()]
    assert commands == ["extend", "force", "force", "pause", "resume", "replace", "undo"]
    assert json.loads(json.dumps(log_lines(ctx, gid), default=str))[-1]["command"] == "undo"
