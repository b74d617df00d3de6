"""The health check a supervisor calls (``GET /healthz``, ``pbem health``) and the exit codes of
``pbem serve``: each unhealthy cause is produced for real (the mail server stopped, an answer
left unsent, the database file unreachable) and read back through HTTP."""

from __future__ import annotations

import asyncio
import json
import os
import signal
import socket
import subprocess
import sys
import time
import urllib.error
import urllib.request
from pathlib import Path
from typing import Any

import pytest
from sqlalchemy import create_engine
from typer.testing import CliRunner

from service.admin.health import HealthServer, evaluate
from service.cli.app import app

from .conftest import SECRET
from .world import PASSWORD, SERVICE, World

pytestmark = pytest.mark.e2e


def get(port: int, path: str = "/healthz") -> tuple[int, dict[str, Any]]:
    try:
        with urllib.request.urlopen(f"http://127.0.0.1:{port}{path}", timeout=10) as answer:
            return answer.status, json.load(answer)
    except urllib.error.HTTPError as exc:
        return exc.code, json.load(exc)


@pytest.fixture
def world(mail_stack: Any, tmp_path: Path) -> World:
    return World.create(mail_stack, tmp_path, health_max_poll_age_seconds=120)


def serve_health(world: World) -> HealthServer:
    return HealthServer("127.0.0.1", 0, lambda: evaluate(world.service)).start()


def test_healthy_after_a_poll_and_unhealthy_when_the_inbox_cannot_be_read(world: World) -> None:
    health = serve_health(world)
    try:
        code, body = get(health.port)  # just started: no poll yet, but within the limit
        assert (code, body["healthy"]) == (200, True)
        asyncio.run(world.step())
        assert get(health.port) == (200, {"healthy": True, "problems": [],
                                          "last_poll": world.service.last_poll_ok.isoformat()})  # type: ignore[union-attr]
        world.stack.stop()  # the IMAP server goes away: polls fail from now on
        world.service.inbox.close()
        world.clock.advance(seconds=121)
        asyncio.run(world.step())
        code, body = get(health.port)
        assert code == 503 and body["healthy"] is False
        assert body["problems"] == ["last successful inbox poll 121 s ago (limit 120 s)"]
        assert get(health.port, "/other")[0] == 404
        world.service.settings.poll_interval_seconds = 100  # polled that rarely: 200 s is still fine
        assert get(health.port)[0] == 200
    finally:
        health.stop()


def test_an_answer_left_unsent_is_unhealthy(world: World) -> None:
    ann, bob = world.player("ann@pbem.test", "Ann"), world.player("bob@pbem.test", "Bob")
    world.game("toy", [ann, bob], seed=1)  # its start mails wait in the outbox
    health = serve_health(world)
    try:
        asyncio.run(world.service.poll_once())  # the inbox is fine, the outbox is never flushed
        assert get(health.port)[0] == 200
        world.clock.advance(minutes=11)
        asyncio.run(world.service.poll_once())
        code, body = get(health.port)
        assert code == 503 and len(body["problems"]) == 1
        assert body["problems"][0].startswith("an answer has been unsent since 2026-01-01 12:00")
        asyncio.run(world.service.flush_outbox())
        assert get(health.port)[0] == 200
    finally:
        health.stop()


def test_an_unreachable_database_is_unhealthy(world: World, tmp_path: Path) -> None:
    asyncio.run(world.step())
    health = serve_health(world)
    try:
        world.service.ctx.db = create_engine(f"sqlite:///{tmp_path / 'no' / 'such' / 'dir.sqlite3'}")
        code, body = get(health.port)
        assert code == 503
        assert body["problems"] == ["database unreachable: OperationalError: (sqlite3.OperationalError) "
                                    "unable to open database file"]
    finally:
        health.stop()


# -- pbem serve and pbem health as a supervisor runs them -------------------------------------

def _free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return int(sock.getsockname()[1])


def _env(tmp_path: Path, stack: Any, **extra: str) -> dict[str, str]:
    return {**os.environ, "PBEM_CONFIG": str(tmp_path / "absent.toml"),
            "PBEM_DATABASE_URL": f"sqlite:///{tmp_path / 'serve.sqlite3'}", "PBEM_SECRET": SECRET,
            "PBEM_SERVICE_ADDRESS": SERVICE, "PBEM_IMAP_HOST": stack.host, "PBEM_IMAP_PORT": str(stack.imap_port),
            "PBEM_IMAP_SSL": "false", "PBEM_IMAP_PASSWORD": PASSWORD, "PBEM_SMTP_HOST": stack.host,
            "PBEM_SMTP_PORT": str(stack.smtp_port), **extra}


@pytest.mark.slow  # four interpreter starts of the whole CLI: ~20 s on two busy cores
def test_pbem_health_follows_a_running_serve_which_stops_with_0(mail_stack: Any, tmp_path: Path) -> None:
    mail_stack.add_user(SERVICE, PASSWORD)
    port = _free_port()
    env = _env(tmp_path, mail_stack, PBEM_HEALTH_PORT=str(port))
    pbem = [sys.executable, "-m", "service.cli"]
    assert subprocess.run([*pbem, "health"], env=env, capture_output=True, text=True).returncode == 1
    serve = subprocess.Popen([*pbem, "serve"], env=env, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    try:
        deadline = time.monotonic() + 60
        while True:
            check = subprocess.run([*pbem, "health"], env=env, capture_output=True, text=True)
            if check.returncode == 0 or time.monotonic() > deadline:
                break
            time.sleep(0.3)
        assert (check.returncode, check.stdout) == (0, "healthy\n"), check.stderr
        as_json = subprocess.run([*pbem, "health", "--json"], env=env, capture_output=True, text=True)
        assert json.loads(as_json.stdout)["healthy"] is True
    finally:
        serve.send_signal(signal.SIGTERM)
        out, err = serve.communicate(timeout=30)
    assert serve.returncode == 0, err
    assert f"health check on http://127.0.0.1:{port}/healthz" in out
    gone = subprocess.run([*pbem, "health"], env=env, capture_output=True, text=True)
    assert gone.returncode == 1
    assert gone.stderr.startswith(f"unhealthy: pbem serve does not answer at http://127.0.0.1:{port}/healthz")


def test_pbem_health_without_a_port_judges_the_database(tmp_path: Path) -> None:
    env = {"PBEM_CONFIG": str(tmp_path / "absent.toml"), "PBEM_SECRET": SECRET,
           "PBEM_DATABASE_URL": f"sqlite:///{tmp_path / 'h.sqlite3'}"}
    assert CliRunner().invoke(app, ["db", "upgrade"], env=env).exit_code == 0
    result = CliRunner().invoke(app, ["health"], env=env)
    assert (result.exit_code, result.output) == (0, "healthy (no health_port configured: the inbox poll was "
                                                    "not checked)\n")


def test_serve_exit_codes_a_supervisor_understands(tmp_path: Path) -> None:
    runner = CliRunner()
    env = {"PBEM_CONFIG": str(tmp_path / "absent.toml"), "PBEM_SECRET": SECRET,
           "PBEM_DATABASE_URL": f"sqlite:///{tmp_path / 's.sqlite3'}"}
    missing = runner.invoke(app, ["serve", "--config", str(tmp_path / "typo.toml")], env=env)
    assert (missing.exit_code, missing.output) == (78, f"error: no configuration file {tmp_path / 'typo.toml'}\n")
    bad = runner.invoke(app, ["serve"], env={**env, "PBEM_SECRET": "short"})
    assert bad.exit_code == 78 and bad.output.startswith("error: bad configuration: secret:")
    url = runner.invoke(app, ["serve"], env={**env, "PBEM_DATABASE_URL": "nosuchdb://x"})
    assert url.exit_code == 78 and url.output.startswith("error: bad configuration: database_url:")
    with socket.socket() as taken:
        taken.bind(("127.0.0.1", 0))
        taken.listen()
        port = taken.getsockname()[1]
        busy = runner.invoke(app, ["serve", "--health-port", str(port)], env=env)
    assert busy.exit_code == 69
    assert busy.output.startswith(f"error: cannot answer health checks on 127.0.0.1:{port}: ")
    assert runner.invoke(app, ["serve", "--health-port", "99999"], env=env).exit_code == 2


def test_serve_exits_70_on_an_unexpected_error(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    from service.schedule.runtime import Service

    async def broken(self: Service) -> None:
        raise RuntimeError("a bug in a worker")

    monkeypatch.setattr(Service, "serve_forever", broken)
    env = {"PBEM_CONFIG": str(tmp_path / "absent.toml"), "PBEM_SECRET": SECRET,
           "PBEM_DATABASE_URL": f"sqlite:///{tmp_path / 's.sqlite3'}"}
    result = CliRunner().invoke(app, ["serve"], env=env)
    assert result.exit_code == 70
    assert result.output.endswith("error: stopped on an unexpected error: RuntimeError: a bug in a worker\n")


@pytest.mark.parametrize("command", [["status"], ["db", "upgrade"], ["health"], ["db", "verify"],
                                     ["db", "backup", "x.backup"]])
def test_a_missing_config_file_is_an_error_not_a_new_database(command: list[str], tmp_path: Path) -> None:
    typo = tmp_path / "pbem.tmol"
    result = CliRunner().invoke(app, [*command, "--config", str(typo)], env={"PBEM_SECRET": SECRET})
    assert (result.exit_code, result.output) == (2, f"error: no configuration file {typo}\n")
    assert list(tmp_path.iterdir()) == []
