"""``pbem game`` and ``pbem admin`` through the real command line."""

from __future__ import annotations

from pathlib import Path

import pytest
from typer.testing import CliRunner

from service.cli.app import app

from .conftest import SECRET


@pytest.fixture
def env(tmp_path: Path) -> dict[str, str]:
    return {
        "PBEM_CONFIG": str(tmp_path / "absent.toml"),
        "PBEM_DATABASE_URL": f"sqlite:///{tmp_path / 'cli.sqlite3'}",
        "PBEM_SECRET": SECRET,
        "PBEM_EXTRA_ENGINES": '["tests.support.toy:ENGINE"]',
    }


def test_game_new_list_show_log(env: dict[str, str]) -> None:
    runner = CliRunner()
    result = runner.invoke(app, ["game", "new", "toy", "-p", "Ann <ann@x.test>", "-p", "bob@x.test",
                                 "--seed", "3", "-o", "rounds=2"], env=env)
    assert result.exit_code == 0, result.output
    assert "game #1 started" in result.output
    listing = runner.invoke(app, ["game", "list"], env=env, terminal_width=200)
    assert listing.exit_code == 0 and "toy" in listing.output and "Ann, bob" in listing.output
    shown = runner.invoke(app, ["game", "show", "1", "--seat", "0"], env=env)
    assert "Round 1/2" in shown.output and "Your hand" in shown.output
    assert runner.invoke(app, ["game", "log", "1"], env=env).exit_code == 0
    assert runner.invoke(app, ["admin", "quarantine"], env=env).exit_code == 0


def test_bad_configuration_exits_with_a_clear_message(env: dict[str, str]) -> None:
    result = CliRunner().invoke(app, ["game", "list"], env={**env, "PBEM_SECRET": "short"})
    assert result.exit_code == 2 and "PBEM_SECRET" in result.output


def test_unknown_engine_is_an_error_not_a_traceback(env: dict[str, str]) -> None:
    result = CliRunner().invoke(app, ["game", "new", "chess", "-p", "a@x.test", "-p", "b@x.test"], env=env)
    assert result.exit_code == 1 and "chess" in result.output
