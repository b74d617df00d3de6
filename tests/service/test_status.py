"""``pbem status`` and ``pbem db upgrade`` through the command line."""

from __future__ import annotations

import json
from datetime import UTC, datetime, timedelta
from pathlib import Path

import pytest
from typer.testing import CliRunner

from service.cli.app import app
from service.config import load_settings
from service.context import AppContext
from service.store.models import InboundMail

from .conftest import SECRET


@pytest.fixture
def env(tmp_path: Path) -> dict[str, str]:
    config = tmp_path / "pbem.toml"
    config.write_text('service_address = "play@pbem.test"\n', encoding="utf-8")
    return {"PBEM_CONFIG": str(config), "PBEM_DATABASE_URL": f"sqlite:///{tmp_path / 'st.sqlite3'}",
            "PBEM_SECRET": SECRET}


def test_db_upgrade_is_idempotent(env: dict[str, str]) -> None:
    for _ in range(2):
        result = CliRunner().invoke(app, ["db", "upgrade"], env=env)
        assert result.exit_code == 0 and "database at revision" in result.output


def test_status_is_healthy_then_reports_an_old_waiting_mail(env: dict[str, str], monkeypatch: pytest.MonkeyPatch) -> None:
    result = CliRunner().invoke(app, ["status", "--check"], env=env)
    assert result.exit_code == 0 and "healthy" in result.output
    for key, value in env.items():
        monkeypatch.setenv(key, value)
    ctx = AppContext.create(load_settings(Path(env["PBEM_CONFIG"])))
    with ctx.session() as s:
        s.add(InboundMail(message_id="<old@x>", raw=b"x", received_at=datetime.now(UTC) - timedelta(hours=1)))
        s.commit()
    result = CliRunner().invoke(app, ["status", "--json", "--check"], env=env)
    assert result.exit_code == 1
    data = json.loads(result.output)
    assert data["inbound_waiting"] == 1 and "received mail has waited" in data["problems"][0]


def test_status_without_a_database_says_so_in_one_line(env: dict[str, str], tmp_path: Path) -> None:
    bad = {**env, "PBEM_DATABASE_URL": "postgresql+psycopg://nobody@127.0.0.1:1/none"}
    result = CliRunner().invoke(app, ["status"], env=bad)
    assert result.exit_code == 1 and "Traceback" not in result.output
