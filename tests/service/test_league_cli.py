"""``pbem league`` through the real command line, bad arguments included (one line, no traceback)."""

from __future__ import annotations

from pathlib import Path

import pytest
from typer.testing import CliRunner

from service.cli.app import app

from .conftest import SECRET


@pytest.fixture
def env(tmp_path: Path) -> dict[str, str]:
    config = tmp_path / "pbem.toml"
    config.write_text('service_address = "play@pbem.test"\n', encoding="utf-8")
    return {"PBEM_CONFIG": str(config), "PBEM_DATABASE_URL": f"sqlite:///{tmp_path / 'cli.sqlite3'}",
            "PBEM_SECRET": SECRET}


def _run(env: dict[str, str], *args: str) -> tuple[int, str]:
    result = CliRunner().invoke(app, ["league", *args], env=env, terminal_width=200)
    assert "Traceback" not in result.output
    return result.exit_code, result.output


def test_a_league_from_the_command_line(env: dict[str, str], monkeypatch: pytest.MonkeyPatch) -> None:
    code, out = _run(env, "new", "spring", "tagteam", "--rounds", "3", "--round-days", "7")
    assert code == 0 and "open for sign-up" in out
    from service.config import load_settings
    from service.context import AppContext
    from service.leagues.season import join
    from service.store.games import create_player

    for key, value in env.items():
        monkeypatch.setenv(key, value)
    ctx = AppContext.create(load_settings(Path(env["PBEM_CONFIG"])))
    with ctx.session() as s:
        for i, name in enumerate(["Anh", "Bình", "Chi", "Dũng"]):
            join(s, ctx, "spring", create_player(s, f"p{i}@x.test", name, ctx=ctx))
        s.commit()
    code, out = _run(env, "pair", "spring")
    assert code == 0 and out.count(" vs ") == 2 and "round 1 would be" in out
    assert all(name in out for name in ["Anh", "Bình", "Chi", "Dũng"]), "players by name, not row id"
    code, out = _run(env, "start", "spring")
    assert code == 0 and "round 1 of 3 started" in out
    code, out = _run(env, "list")
    assert code == 0 and "spring" in out and "running" in out and "1/3" in out
    code, out = _run(env, "show", "spring")
    assert code == 0 and "Anh <p0@x.test>" in out
    assert out.count(" vs ") == 0 and sum(f"{a}, {b}" in out for a in ["Anh", "Bình", "Chi", "Dũng"]
                                          for b in ["Anh", "Bình", "Chi", "Dũng"]) == 2, "the games' players by name"
    code, out = _run(env, "standings", "spring", "--lang", "vi", "--mail")
    assert code == 0 and "Người chơi" in out and "Dũng" in out
    with ctx.session() as s:
        from sqlmodel import select

        from service.store.models import Outbox
        assert len(s.exec(select(Outbox).where(Outbox.kind == "league")).all()) == 4, "one standings mail a member"
    code, out = _run(env, "ratings", "spring")
    assert code == 0 and "Anh" in out and "now" in out
    code, out = _run(env, "ratings", "spring", "--player", "p1@x.test", "--lang", "vi")
    assert code == 0 and "Bình <p1@x.test>" in out and "Chưa có vòng nào" in out
    code, out = _run(env, "ratings", "spring", "--player", "nobody@x.test")
    assert code == 1 and "not a member of spring" in out and len(out.strip().splitlines()) == 1
    code, out = _run(env, "drop", "spring", "p3@x.test")
    assert code == 0 and "dropped" in out
    code, out = _run(env, "new", "h2h", "tagteam", "--tie-breaks", "h2h,wins")
    assert code == 0
    code, out = _run(env, "standings", "h2h")
    assert code == 0 and "tie-breaks: points, h2h, wins" in out


@pytest.mark.parametrize("args, message", [
    (("new", "two words", "tagteam"), "one word"),
    (("new", "x", "chess"), "no game"),
    (("new", "x", "tagteam", "--format", "tables"), "round-robin or swiss"),
    (("new", "x", "tagteam", "--round-days", "0"), "positive"),
    (("new", "x", "tagteam", "-o", "draft"), "NAME=VALUE"),
    (("new", "x", "tagteam", "--policy", "hours=0"), "bad deadline policy"),
    (("show", "nope"), "no league 'nope'"),
    (("start", "nope"), "no league"),
    (("standings", "nope"), "no league"),
    (("settle", "nope", "3"), "no league"),
    (("new", "x", "tagteam", "--tie-breaks", "points,luck"), "unknown tie-break 'luck'"),
    (("new", "x", "tagteam", "--tie-breaks", "wins,wins"), "listed twice"),
    (("ratings", "nope"), "no league"),
    (("ratings", "nope", "--lang", "fr"), "en or vi"),
    (("standings", "nope", "--lang", "fr"), "no league"),
])
def test_bad_arguments_give_one_line(env: dict[str, str], args: tuple[str, ...], message: str) -> None:
    code, out = _run(env, *args)
    assert code == 1, out
    assert message in out and len(out.strip().splitlines()) == 1, out


def test_starting_a_league_without_players_is_refused(env: dict[str, str]) -> None:
    assert _run(env, "new", "empty", "tac")[0] == 0
    code, out = _run(env, "start", "empty")
    assert code == 1 and "needs at least 4 players" in out
