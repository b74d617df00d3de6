"""``pbem admin …`` through typer's CliRunner (and ``pbem`` as a subprocess): every command,
with good and bad arguments. Bad arguments give ``error: <one line>`` and a non-zero exit code
and leave the game exactly as it was."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from datetime import timedelta
from pathlib import Path
from typing import Any

import pytest
from sqlmodel import Session, col, create_engine, select
from typer.testing import CliRunner

from service.cli.app import app
from service.store.models import AuditLog, Game, GamePause, MoveLog, Outbox, Player

from .conftest import SECRET

runner = CliRunner()


@pytest.fixture
def env(tmp_path: Path) -> dict[str, str]:
    return {
        "PBEM_CONFIG": str(tmp_path / "absent.toml"),
        "PBEM_DATABASE_URL": f"sqlite:///{tmp_path / 'cli.sqlite3'}",
        "PBEM_SECRET": SECRET,
        "PBEM_EXTRA_ENGINES": '["tests.support.toy:ENGINE"]',
        "USER": "carol",
        "COLUMNS": "130",
    }


def pbem(env: dict[str, str], *args: str) -> Any:
    return runner.invoke(app, list(args), env=env, terminal_width=200)


def db(env: dict[str, str]) -> Session:
    return Session(create_engine(env["PBEM_DATABASE_URL"]), expire_on_commit=False)


def game_row(env: dict[str, str], game_id: int = 1) -> Game:
    with db(env) as s:
        return s.get_one(Game, game_id)


def new_toy(env: dict[str, str], *players: str) -> None:
    args = ["game", "new", "toy", "--seed", "3"]
    for p in players or ("Ann <ann@x.test>", "Bob <bob@x.test>"):
        args += ["-p", p]
    result = pbem(env, *args)
    assert result.exit_code == 0, result.output


def one_line_error(result: Any, code: int, text: str) -> None:
    assert result.exit_code == code, result.output
    lines = result.stderr.strip().splitlines()
    assert len(lines) == 1 and lines[0].startswith("error: ") and text in lines[0], result.output
    assert "Traceback" not in result.output


GAME_COMMANDS = [
    ["show", "99"], ["log", "99"], ["nudge", "99"], ["extend", "99", "2d"], ["deadline", "99", "--hours", "5"],
    ["force", "99", "0"], ["replace", "99", "0", "new@x.test"], ["pause", "99"], ["resume", "99"],
    ["undo", "99"], ["resend", "99"], ["abort", "99"], ["export", "99"],
]


@pytest.mark.parametrize("args", GAME_COMMANDS, ids=lambda a: a[0])
def test_every_admin_command_answers_a_missing_game_with_one_line(env: dict[str, str], args: list[str]) -> None:
    new_toy(env)
    one_line_error(pbem(env, "admin", *args), 3, "no game #99")


@pytest.mark.parametrize(("args", "code", "text"), [
    (["force", "1", "7"], 3, "has no seat 7"),
    (["nudge", "1", "5"], 3, "has no seat 5"),
    (["resend", "1", "5"], 3, "has no seat 5"),
    (["replace", "1", "9", "new@x.test"], 3, "has no seat 9"),
    (["show", "1", "--seat", "4"], 3, "has no seat 4"),
    (["force", "1", "1"], 4, "nothing to decide"),  # Bob does not act: Ann calls first
    (["nudge", "1", "1"], 4, "nothing to decide"),
    (["extend", "1", "3x"], 2, "bad duration"),
    (["extend", "1", "0d"], 2, "longer than zero"),
    (["extend", "1", "2h1d"], 2, "bad duration"),
    (["extend", "1", ""], 2, "bad duration"),
    (["deadline", "1", "--hours", "-1"], 2, "bad number of hours"),
    (["replace", "1", "1", "not an address"], 2, "bad address"),
    (["replace", "1", "1", "play@pbem.test"], 2, "service's own address"),
    (["replace", "1", "1", "ann@x.test"], 4, "already holds a seat"),
    (["replace", "1", "1", "new@x.test", "--lang", "fr"], 2, "bad language"),
    (["undo", "1"], 2, "only 0 move(s)"),
    (["undo", "1", "0"], 2, "bad number of moves"),
    (["resume", "1"], 4, "not paused"),
])
def test_bad_arguments_are_one_line_errors_and_change_nothing(
        env: dict[str, str], args: list[str], code: int, text: str) -> None:
    new_toy(env)
    before = game_row(env)
    one_line_error(pbem(env, "admin", *args), code, text)
    after = game_row(env)
    assert (after.version, after.state, after.deadline, after.status) == (
        before.version, before.state, before.deadline, before.status)
    with db(env) as s:
        assert s.exec(select(AuditLog)).all() == []


def test_a_finished_game_refuses_every_action(env: dict[str, str]) -> None:
    new_toy(env)
    assert pbem(env, "admin", "abort", "1", "--why", "players gone").exit_code == 0
    for args in (["nudge", "1"], ["extend", "1", "1d"], ["deadline", "1", "--hours", "3"], ["force", "1", "0"],
                 ["replace", "1", "0", "new@x.test"], ["pause", "1"], ["resume", "1"], ["resend", "1"],
                 ["abort", "1"], ["undo", "1"]):
        result = pbem(env, "admin", *args)
        assert result.exit_code in (2, 4), (args, result.output)
        one_line_error(result, result.exit_code, "game #1")
    assert pbem(env, "admin", "show", "1").exit_code == 0  # looking is always allowed
    assert pbem(env, "admin", "export", "1").exit_code == 0


def test_every_action_is_audited_with_who_when_and_why(env: dict[str, str]) -> None:
    new_toy(env)
    assert pbem(env, "admin", "extend", "1", "1d6h", "--why", "Bob is travelling").exit_code == 0
    assert pbem(env, "admin", "nudge", "1", "--by", "dave").exit_code == 0
    with db(env) as s:
        rows = s.exec(select(AuditLog).order_by(col(AuditLog.id))).all()
    assert [(r.operator, r.game_id, r.command, r.why) for r in rows] == [
        ("carol", 1, "extend", "Bob is travelling"), ("dave", 1, "nudge", "")]
    assert json.loads(rows[0].arguments)["duration"] == "1d6h"
    assert rows[0].at is not None
    log = pbem(env, "admin", "log", "1")
    assert log.exit_code == 0
    assert "operator carol: extend" in log.output and "why: Bob is travelling" in log.output
    assert "operator dave: nudge" in log.output


def test_extend_deadline_pause_resume_move_the_deadline(env: dict[str, str]) -> None:
    new_toy(env)
    start = game_row(env).deadline
    assert start is not None
    result = pbem(env, "admin", "extend", "1", "1d6h", "--json")
    assert result.exit_code == 0, result.output
    out = json.loads(result.stdout)
    assert out["command"] == "extend" and out["mailed"] == ["ann@x.test", "bob@x.test"]
    assert game_row(env).deadline == start + timedelta(hours=30)
    assert pbem(env, "admin", "extend", "1", "90m").exit_code == 0
    assert game_row(env).deadline == start + timedelta(hours=31, minutes=30)
    assert pbem(env, "admin", "deadline", "1", "--hours", "5").exit_code == 0
    first = game_row(env).deadline
    assert first is not None and first < start
    assert pbem(env, "admin", "pause", "1").exit_code == 0
    assert game_row(env).deadline is None
    with db(env) as s:
        pause = s.get_one(GamePause, 1)
        assert pause.remaining_seconds is not None and 4.9 * 3600 < pause.remaining_seconds <= 5 * 3600
    one_line_error(pbem(env, "admin", "pause", "1"), 4, "already paused")
    one_line_error(pbem(env, "admin", "extend", "1", "1d"), 4, "paused")
    one_line_error(pbem(env, "admin", "force", "1", "0"), 4, "paused")
    assert pbem(env, "admin", "resume", "1").exit_code == 0
    resumed = game_row(env).deadline
    assert resumed is not None and resumed >= first  # the remaining ~5 hours, from now
    with db(env) as s:
        assert s.get(GamePause, 1) is None
        kinds = [r.kind for r in s.exec(select(Outbox).where(Outbox.to_address == "bob@x.test")).all()]
    # one short mail per action to each seat (after the "started" one)
    assert kinds == ["started", "operator", "operator", "operator", "operator", "operator"]


def test_force_plays_the_default_move_and_undo_takes_it_back(env: dict[str, str]) -> None:
    new_toy(env)
    initial = game_row(env).state
    assert pbem(env, "admin", "force", "1", "0", "--why", "Ann asked").exit_code == 0
    after_call = game_row(env).state
    assert after_call != initial
    assert pbem(env, "admin", "force", "1", "1").exit_code == 0  # Bob's secret card, now pending
    with db(env) as s:
        rows = s.exec(select(MoveLog).where(MoveLog.game_id == 1)).all()
        assert [r.command for r in rows] == ["(operator: default move)"] * 2
    result = pbem(env, "admin", "undo", "1", "--json")
    assert result.exit_code == 0, result.output
    assert json.loads(result.stdout)["undone"] == 1
    assert json.loads(game_row(env).state) == json.loads(after_call)
    assert pbem(env, "admin", "undo", "1", "1").exit_code == 0
    assert json.loads(game_row(env).state) == json.loads(initial)
    with db(env) as s:
        assert s.exec(select(MoveLog).where(MoveLog.game_id == 1)).all() == []
        undos = s.exec(select(AuditLog).where(AuditLog.command == "undo")).all()
    assert len(undos) == 2 and json.loads(undos[0].arguments)["undone"][0]["seat"] == 1


def context(env: dict[str, str], clock: Any = None) -> Any:
    """The service context the CLI would build for ``env`` (optionally with a manual clock)."""
    from service.config import load_settings
    from service.context import AppContext

    saved = {name: os.environ.get(name) for name in env}
    os.environ.update(env)
    try:
        return AppContext.create(load_settings(), clock)
    finally:
        for name, value in saved.items():
            if value is None:
                os.environ.pop(name, None)
            else:
                os.environ[name] = value


def test_stalled_lists_the_longest_waiting_game_first(env: dict[str, str], capsys: pytest.CaptureFixture[str]) -> None:
    from datetime import UTC, datetime

    from service.admin.operations import force, nudge
    from service.clock import ManualClock
    from service.play.start import create_game
    from service.store.games import create_player

    clock = ManualClock(datetime.now(UTC).replace(microsecond=0) - timedelta(days=5, hours=3))
    ctx = context(env, clock)

    def game(*names: str) -> None:
        with ctx.session() as s:
            addresses = [create_player(s, f"{n.lower()}@x.test", n, ctx=ctx).address for n in names]
            create_game(s, "toy", addresses, seed=3, ctx=ctx)
            s.commit()

    game("Cat", "Dan")  # 1: five days without a move, deadline passed
    clock.advance(days=3)
    game("Ann", "Bob", "Eve")  # 2: started two days ago, moved yesterday
    clock.advance(days=1)
    force(ctx, 2, 0, by="ops")
    nudge(ctx, 1, by="ops")
    with db(env) as s:  # a bounce to the waiting player and an absence
        s.add(Outbox(message_id="<b@x>", to_address="cat@x.test", kind="turn", game_id=1, raw=b"x",
                     status="failed", next_attempt_at=clock.now(), created_at=clock.now()))
        cat = s.exec(select(Player).where(Player.address == "cat@x.test")).one()
        cat.vacation, cat.away_until = True, clock.now() + timedelta(days=3)  # `vacation 3`
        s.add(cat)
        s.commit()
    assert pbem(env, "admin", "pause", "2").exit_code == 0
    result = pbem(env, "admin", "stalled", "--json")
    assert result.exit_code == 0, result.output
    rows = json.loads(result.stdout)
    assert [r["game"] for r in rows] == [1, 2]
    assert rows[0]["waiting_on"] == ["Cat (0)"] and rows[0]["reminders"] == 1 and rows[0]["bounces"] == 1
    assert rows[0]["absent"] == ["Cat"] and rows[0]["paused"] is False and rows[0]["overdue"] is True
    assert rows[0]["waiting"].startswith("5 days")
    assert rows[1]["waiting_on"] == ["Ann (0)", "Bob (1)", "Eve (2)"] and rows[1]["paused"] is True
    assert rows[1]["deadline"] is None and rows[1]["reminders"] == 0 and rows[1]["absent"] == []
    table = pbem(env, "admin", "stalled")
    assert table.exit_code == 0
    for word in ("waiting on", "reminders", "bounces", "absent", "paused", "#1", "Cat (0)", "OVERDUE"):
        assert word in table.output
    with capsys.disabled():
        print("\n" + table.output)  # the table the report shows


def test_show_is_the_operator_view(env: dict[str, str]) -> None:
    new_toy(env, "Ann <ann@x.test>", "Bob <bob@x.test>", "Cat <cat@x.test>")
    result = pbem(env, "admin", "show", "1")
    assert result.exit_code == 0, result.output
    for text in ("#1", "toy", "active", "seed 3", "ann@x.test", "bob@x.test", "Round 1/3", "observer view"):
        assert text in result.output
    info = json.loads(pbem(env, "admin", "show", "1", "--seat", "1", "--json").stdout)
    assert [x["to_act"] for x in info["seats"]] == [True, False, False]
    assert "Your hand" in info["board"] and info["paused"] is None and "state" not in info
    full = pbem(env, "admin", "show", "1", "--state", "--json")
    assert json.loads(full.stdout)["state"]["hands"] and "engine state" in pbem(env, "admin", "show", "1", "--state").output


def test_resend_and_nudge_mail_the_right_seats(env: dict[str, str]) -> None:
    new_toy(env)
    assert json.loads(pbem(env, "admin", "nudge", "1", "--json").stdout)["mailed"] == ["ann@x.test"]
    assert json.loads(pbem(env, "admin", "resend", "1", "1", "--json").stdout)["mailed"] == ["bob@x.test"]
    assert json.loads(pbem(env, "admin", "resend", "1", "--json").stdout)["mailed"] == ["ann@x.test", "bob@x.test"]
    with db(env) as s:
        rows = s.exec(select(Outbox).where(col(Outbox.kind).in_(["nudge", "resend"])).order_by(col(Outbox.id))).all()
    assert [(r.to_address, r.kind) for r in rows] == [
        ("ann@x.test", "nudge"), ("bob@x.test", "resend"), ("ann@x.test", "resend"), ("bob@x.test", "resend")]
    assert b"Reminder: the game is waiting for your move." in rows[0].raw


def test_export_and_replay_verdicts(env: dict[str, str], tmp_path: Path) -> None:
    new_toy(env)
    for seat in ("0", "0", "1"):
        assert pbem(env, "admin", "force", "1", seat).exit_code == 0
    out = tmp_path / "game1.json"
    assert pbem(env, "admin", "export", "1", "--out", str(out)).exit_code == 0
    data = json.loads(out.read_text())
    assert data["engine"] == "toy" and data["seed"] == 3 and data["options"] == {"rounds": 3}
    assert [m["seat"] for m in data["moves"]] == [0, 0, 1]
    assert [s["name"] for s in data["seats"]] == ["Ann", "Bob"]
    ok = pbem(env, "game", "replay", str(out))
    assert ok.exit_code == 0 and ok.stdout.startswith("OK: game #1") and len(ok.stdout.splitlines()) == 1
    data["seed"] = 4
    bad = tmp_path / "tampered.json"
    bad.write_text(json.dumps(data))
    mismatch = pbem(env, "game", "replay", str(bad))
    assert mismatch.exit_code == 1 and mismatch.stdout.startswith("MISMATCH") and len(mismatch.stdout.splitlines()) == 1
    one_line_error(pbem(env, "game", "replay", str(tmp_path / "nothing.json")), 3, "no file")
    (tmp_path / "junk.json").write_text("{not json")
    one_line_error(pbem(env, "game", "replay", str(tmp_path / "junk.json")), 2, "not a JSON export")
    (tmp_path / "other.json").write_text("{}")
    one_line_error(pbem(env, "game", "replay", str(tmp_path / "other.json")), 2, "not a pbem export")


def test_replace_hands_the_seat_over_and_revokes_its_keys(env: dict[str, str]) -> None:
    new_toy(env)
    result = pbem(env, "admin", "replace", "1", "1", "Eve@X.test", "--name", "Eve", "--lang", "vi")
    assert result.exit_code == 0, result.output
    with db(env) as s:
        eve = s.exec(select(Player).where(Player.address == "eve@x.test")).one()
        assert eve.lang == "vi" and eve.name == "Eve"
        kinds = [(r.to_address, r.kind) for r in s.exec(select(Outbox).where(Outbox.kind == "operator")).all()]
        audit = s.exec(select(AuditLog)).one()
    assert sorted(kinds) == [("ann@x.test", "operator"), ("bob@x.test", "operator"), ("eve@x.test", "operator")]
    args = json.loads(audit.arguments)
    assert args["old_address"] == "bob@x.test" and args["new_address"] == "eve@x.test" and args["revoked_keys"] >= 1
    shown = pbem(env, "admin", "show", "1").output
    assert "eve@x.test" in shown and "bob@x.test" not in shown


def test_game_commands_give_one_line_errors(env: dict[str, str], tmp_path: Path) -> None:
    new_toy(env)
    one_line_error(pbem(env, "game", "show", "99"), 3, "no game #99")
    one_line_error(pbem(env, "game", "log", "99"), 3, "no game #99")
    one_line_error(pbem(env, "game", "show", "1", "--seat", "9"), 3, "no seat 9")
    one_line_error(pbem(env, "admin", "quarantine", "--retry", "42"), 3, "no such record")
    missing = tmp_path / "typo.toml"
    other_db = tmp_path / "other.sqlite3"
    result = pbem({**env, "PBEM_DATABASE_URL": f"sqlite:///{other_db}"}, "game", "list", "--config", str(missing))
    one_line_error(result, 2, "no configuration file")
    assert not other_db.exists()  # no new, empty database
    one_line_error(pbem(env, "admin", "stalled", "--config", str(missing)), 2, "no configuration file")


def test_pbem_as_a_subprocess(env: dict[str, str]) -> None:
    new_toy(env)
    root = str(Path(__file__).resolve().parents[2])  # the toy engine lives in tests/
    full_env = {**os.environ, **env, "PYTHONPATH": root}
    script = Path(sys.executable).parent / "pbem"  # the installed console script
    cmd = [str(script)] if script.exists() else [sys.executable, "-m", "service.cli"]
    bad = subprocess.run([*cmd, "admin", "extend", "1", "soon"], env=full_env, capture_output=True, text=True,
                         timeout=120)
    assert bad.returncode == 2 and bad.stderr.strip() == "error: bad duration 'soon': write e.g. 2d, 12h, 1d6h or 90m"
    assert "Traceback" not in bad.stderr
    good = subprocess.run([*cmd, "admin", "stalled", "--json"], env=full_env, capture_output=True, text=True,
                          timeout=120)
    assert good.returncode == 0, good.stderr
    assert json.loads(good.stdout)[0]["game"] == 1


def test_undo_reopens_a_finished_game_and_refuses_a_log_that_does_not_replay(env: dict[str, str]) -> None:
    from service.admin.operations import force
    from service.admin.undo import undo
    new_toy(env)
    ctx = context(env)
    import engines

    engine = engines.get("toy")
    while game_row(env).status == "active":
        state = engine.from_json(game_row(env).state)
        force(ctx, 1, min(engine.to_act(state)), by="test")
    assert game_row(env).status == "finished" and game_row(env).outcome
    assert undo(ctx, 1, 1, by="test")["status"] == "active"
    row = game_row(env)
    assert row.status == "active" and row.outcome is None and row.deadline is not None
    # a log that no longer reproduces the stored state: undo refuses and changes nothing
    with db(env) as s:
        first = s.exec(select(MoveLog).where(MoveLog.game_id == 1).order_by(col(MoveLog.id))).first()
        assert first is not None
        first.action = json.dumps(["call", "low" if "high" in (first.action or "") else "high"])
        s.add(first)
        s.commit()
    before = game_row(env)
    one_line_error(pbem(env, "admin", "undo", "1"), 4, "does not reproduce the stored state")
    assert game_row(env).version == before.version and game_row(env).state == before.state


def test_an_action_whose_mail_cannot_be_built_changes_nothing(env: dict[str, str]) -> None:
    """The change, its audit row and its mails commit together: a failure while building the
    mails (here: a renderer that breaks) leaves no half-done action behind."""
    from service.admin.errors import AdminError
    from service.admin.operations import extend, pause
    from service.outbound.render import Renderer

    class BrokenRenderer(Renderer):
        def render(self, purpose: str, lang: str, **values: Any) -> Any:
            raise RuntimeError("template store unavailable")

    new_toy(env)
    ctx = context(env)
    ctx.renderer = BrokenRenderer()
    before = game_row(env)
    for action in (lambda: extend(ctx, 1, "2d"), lambda: pause(ctx, 1)):
        with pytest.raises(RuntimeError):
            action()
    after = game_row(env)
    assert (after.version, after.deadline) == (before.version, before.deadline)
    with db(env) as s:
        assert s.exec(select(AuditLog)).all() == [] and s.get(GamePause, 1) is None
        assert [r.kind for r in s.exec(select(Outbox)).all()] == ["started", "started"]
    assert not issubclass(RuntimeError, AdminError)
