"""``pbem db backup`` / ``restore`` / ``verify`` on SQLite and on a real PostgreSQL: a restored
backup holds the same games, move logs and installation id, and every game replays from its
seed and move log to its stored state; a tampered game is found."""

from __future__ import annotations

import json
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest
from sqlalchemy import update
from sqlmodel import col, select
from typer.testing import CliRunner

from service.admin.backup import backup, restore, verify_replays
from service.admin.errors import BadArgument, NotFound, Refused
from service.admin.operations import force
from service.cli.app import app
from service.config import Settings
from service.context import AppContext
from service.play.start import create_game
from service.store.games import create_player, load
from service.store.models import Game, Installation, MoveLog

from .conftest import SECRET


def sqlite_url(tmp: Path, name: str) -> str:
    return f"sqlite:///{tmp / name}"


def postgres_url(tmp: Path, name: str) -> str:
    from tests.support.postgres import fresh_database, running_postgres

    return fresh_database(running_postgres())


DATABASES: dict[str, Callable[[Path, str], str]] = {"sqlite": sqlite_url, "postgresql": postgres_url}


def context(url: str) -> AppContext:
    return AppContext.create(Settings(database_url=url, service_address="play@pbem.test", secret=SECRET))


def play_some_games(ctx: AppContext) -> None:
    """Games of three engines with a few moves each (the operator's default move, through the
    service's own code: state saved, move logged, mails queued), one of them finished."""
    with ctx.session() as s:
        players = [create_player(s, f"p{i}@x.test", f"P{i}", ctx=ctx).address for i in range(4)]
        s.commit()
    plan = [("toy", 2, 12), ("tagteam", 2, 4), ("grizzled", 3, 3), ("toy", 2, 3)]
    for engine_id, count, moves in plan:
        with ctx.session() as s:
            game = create_game(s, engine_id, players[:count], None, 7, ctx=ctx)
            s.commit()
            assert game.id is not None
            game_id = game.id
        for _ in range(moves):
            with ctx.session() as s:
                row = s.get_one(Game, game_id)
                engine, state = load(row)
                if row.status != "active":
                    break
                seat = min(engine.to_act(state))
            force(ctx, game_id, seat, by="test")


def snapshot(ctx: AppContext) -> dict[str, Any]:
    with ctx.session() as s:
        games = [(g.id, g.engine, g.status, g.version, json.loads(g.state))
                 for g in s.exec(select(Game).order_by(col(Game.id))).all()]
        moves = [(m.game_id, m.seat, m.command, m.action) for m in s.exec(select(MoveLog).order_by(col(MoveLog.id)))]
        installation = s.get_one(Installation, 1).installation_id
    return {"games": games, "moves": moves, "installation": installation}


@pytest.mark.parametrize("kind", ["sqlite", "postgresql"])
def test_a_restored_backup_replays_to_the_same_states(kind: str, tmp_path: Path) -> None:
    source_url, target_url = DATABASES[kind](tmp_path, "live.sqlite3"), DATABASES[kind](tmp_path, "new.sqlite3")
    live = context(source_url)
    play_some_games(live)
    before = snapshot(live)
    assert {g[2] for g in before["games"]} == {"active", "finished"} and len(before["moves"]) > 15

    assert backup(source_url, tmp_path / "pbem.backup") == kind
    with pytest.raises(Refused, match="exists"):
        backup(source_url, tmp_path / "pbem.backup")
    with pytest.raises(Refused, match="already holds 4 game"):
        restore(source_url, tmp_path / "pbem.backup")

    assert restore(target_url, tmp_path / "pbem.backup") == kind
    restored = context(target_url)
    assert snapshot(restored) == before
    report = verify_replays(restored)
    assert (report.games, report.mismatched) == (4, [])

    with restored.session() as s:  # the restored database goes on: one more move is applied
        game = s.get_one(Game, 2)
        engine, state = load(game)
        seat = min(engine.to_act(state))
    force(restored, 2, seat, by="test")
    assert verify_replays(restored).ok

    with restored.session() as s:  # a state that no longer matches its log is found
        s.execute(update(Game).where(col(Game.id) == 4).values(state=json.dumps(before["games"][0][4])))
        s.commit()
    assert verify_replays(restored).mismatched == ["game #4: the replayed state differs from the stored one"]


def test_bad_backup_files_are_refused_in_one_line(tmp_path: Path) -> None:
    url = sqlite_url(tmp_path, "db.sqlite3")
    with pytest.raises(NotFound, match="no backup file"):
        restore(url, tmp_path / "missing.backup")
    junk = tmp_path / "junk.backup"
    junk.write_bytes(b"this is not a database" * 100)
    with pytest.raises(BadArgument, match="is not a SQLite backup"):
        restore(url, junk)
    with pytest.raises(NotFound, match="no folder"):
        backup(url, tmp_path / "nowhere" / "x.backup")
    with pytest.raises(BadArgument, match="not supported"):
        backup("mysql://x/y", tmp_path / "x.backup")


def test_db_backup_restore_verify_on_the_command_line(tmp_path: Path) -> None:
    url = sqlite_url(tmp_path, "cli.sqlite3")
    play_some_games(context(url))
    env = {"PBEM_CONFIG": str(tmp_path / "absent.toml"), "PBEM_SECRET": SECRET, "PBEM_DATABASE_URL": url}
    runner = CliRunner()
    file = tmp_path / "cli.backup"
    made = runner.invoke(app, ["db", "backup", str(file)], env=env)
    assert (made.exit_code, made.output) == (0, f"backed up the sqlite database to {file}\n")
    again = runner.invoke(app, ["db", "backup", str(file)], env=env)
    assert again.exit_code == 4 and again.output.startswith("error: ") and again.output.count("\n") == 1
    refused = runner.invoke(app, ["db", "restore", str(file)], env=env)
    assert refused.exit_code == 4 and "--replace" in refused.output
    back = runner.invoke(app, ["db", "restore", str(file), "--replace"], env=env)
    assert (back.exit_code, back.output) == (0, f"restored {file}\n4 game(s) replay to their stored states\n")
    ctx = context(url)
    with ctx.session() as s:
        s.execute(update(Game).where(col(Game.id) == 1).values(seed=8))
        s.commit()
    bad_day = runner.invoke(app, ["db", "reread", "--since", "yesterday"], env=env)
    assert (bad_day.exit_code, bad_day.output) == (2, "error: bad date 'yesterday': write YYYY-MM-DD\n")
    broken = runner.invoke(app, ["db", "verify"], env=env)
    assert broken.exit_code == 1
    assert broken.output.endswith("error: 1 of 4 game(s) do not replay to their stored state\n")


@pytest.mark.e2e
def test_restore_then_reread_brings_every_game_back_to_where_it_was(mail_stack: Any, tmp_path: Path) -> None:
    """Back up mid-game, play on by mail, restore the backup (the later moves are gone from the
    database, their mails are flagged done in the inbox), reread since the backup's day: the
    next poll applies exactly the lost moves, and every game is where it was."""
    import asyncio
    from datetime import date, timedelta

    from service.admin.backup import reread_since

    from .world import World, make_settings, menu_of

    world = World.create(mail_stack, tmp_path)
    ann, bob = world.player("ann@pbem.test", "Ann"), world.player("bob@pbem.test", "Bob")
    games = [world.game("toy", [ann, bob], seed=seed) for seed in (1, 2)]
    asyncio.run(world.step())

    def play_round() -> None:
        """Each player answers the newest mail of each game with its first menu option."""
        for game_id in games:
            for address in (ann, bob):
                mail = next(m for m in reversed(world.mails(address)) if f"#{game_id}]" in str(m["Subject"]))
                if menu_of(mail):
                    world.reply(address, "1", to=mail)
            asyncio.run(world.step())

    play_round()
    url = world.service.settings.database_url
    backup(url, tmp_path / "mid.backup")
    at_backup = snapshot(world.service.ctx)
    play_round()
    asyncio.run(world.step())
    live = snapshot(world.service.ctx)
    assert len(live["moves"]) > len(at_backup["moves"]) > 0
    handled = [(m.message_id, m.status) for m in world.inbound()]
    assert {status for _, status in handled} == {"applied"}

    restore(url, tmp_path / "mid.backup", replace=True)
    world.restart(make_settings(mail_stack, tmp_path, database_url=url))
    assert snapshot(world.service.ctx) == at_backup
    asyncio.run(world.step())
    assert snapshot(world.service.ctx) == at_backup  # the inbox says done: nothing is read again

    assert reread_since(world.service.settings, date.today() - timedelta(days=1)) == len(handled)
    for _ in range(3):
        asyncio.run(world.step())
    again = snapshot(world.service.ctx)
    assert again["games"] == live["games"]
    assert [m[:3] for m in again["moves"]] == [m[:3] for m in live["moves"]]
    assert verify_replays(world.service.ctx).ok
    assert [(m.message_id, m.status) for m in world.inbound()] == handled
    world.close()
