"""``deploy/Containerfile``, ``deploy/compose.yaml`` and the example configurations, checked
without a container runtime (none runs on CI machines here): the compose file parses, its
services start in the right order (migrations before ``pbem serve``), every ``PBEM_*`` variable
anywhere in deploy/ is a setting the code reads, the image runs as a non-root user and its
health check is ``pbem health``; and the trial mail server really listens on the fixed ports
the compose file maps."""

from __future__ import annotations

import re
import socket
import subprocess
import threading
import time
from pathlib import Path
from typing import Any

import pytest

from service.config import SECRET_FIELDS, Settings, load_settings
from service.localmail.mailserver import run_mailserver

yaml = pytest.importorskip("yaml")

DEPLOY = Path(__file__).resolve().parents[2] / "deploy"
#: variables pbem reads that are not settings
NOT_SETTINGS = {"PBEM_CONFIG", "PBEM_DEBUG"}


def compose() -> dict[str, Any]:
    return dict(yaml.safe_load((DEPLOY / "compose.yaml").read_text()))


def known(variable: str) -> bool:
    return variable in NOT_SETTINGS or variable.removeprefix("PBEM_").lower() in Settings.model_fields


def test_every_pbem_variable_in_deploy_is_a_real_setting() -> None:
    found: dict[str, set[str]] = {}
    for path in [*DEPLOY.glob("*"), *DEPLOY.glob("examples/*")]:
        if path.is_file():
            for variable in re.findall(r"\bPBEM_[A-Z0-9_]*[A-Z0-9]\b", path.read_text()):
                found.setdefault(variable, set()).add(path.name)
    assert {"PBEM_SECRET", "PBEM_DATABASE_URL", "PBEM_HEALTH_PORT", "PBEM_IMAP_PASSWORD"} <= found.keys()
    assert {v: sorted(files) for v, files in found.items() if not known(v)} == {}
    environment = compose()["x-pbem-environment"]
    assert all(known(v) for v in environment)
    assert known("PBEM_NO_SUCH") is False  # the check itself can fail


def test_compose_migrates_before_serving_and_checks_health() -> None:
    services = compose()["services"]
    assert set(services) == {"db", "mail", "migrate", "pbem"}
    assert services["migrate"]["command"] == ["pbem", "db", "upgrade"]
    assert services["migrate"]["depends_on"] == {"db": {"condition": "service_healthy"}}
    assert services["pbem"]["command"] == ["pbem", "serve"]
    assert services["pbem"]["depends_on"]["migrate"] == {"condition": "service_completed_successfully"}
    assert services["pbem"]["healthcheck"]["test"] == ["CMD", "pbem", "health"]
    env = services["pbem"]["environment"]
    assert env["PBEM_DATABASE_URL"].startswith("postgresql+psycopg://pbem:")
    assert env["PBEM_DATABASE_URL"].endswith("@db:5432/pbem")
    assert env["PBEM_IMAP_HOST"] == env["PBEM_SMTP_HOST"] == "mail"
    mail = services["mail"]["command"]
    ports = {arg.split("=")[0]: arg.split("=")[1] for arg in mail if arg.startswith("--") and "=" in arg}
    assert (ports["--imap-port"], ports["--smtp-port"]) == (env["PBEM_IMAP_PORT"], env["PBEM_SMTP_PORT"])
    assert f"127.0.0.1:{env['PBEM_IMAP_PORT']}:{env['PBEM_IMAP_PORT']}" in services["mail"]["ports"]
    for secret in SECRET_FIELDS - {"smtp_password"}:  # secrets are references to .env, never values
        value = env.get(f"PBEM_{secret.upper()}", "${")
        assert value.startswith("${"), secret
    assert services["db"]["environment"]["POSTGRES_PASSWORD"].startswith("${")
    # the image's pg_dump (Debian 12's postgresql-client 15) must not be older than the server
    assert services["db"]["image"].endswith(":15")
    # Debian 12: client 15; the base is an ARG only so deploy/check-image.sh can build offline
    containerfile = (DEPLOY / "Containerfile").read_text()
    assert "ARG BASE=python:3.11-slim-bookworm\n" in containerfile
    assert re.findall(r"^FROM .*$", containerfile, re.MULTILINE) == ["FROM ${BASE}"]


def test_the_image_runs_as_a_user_with_the_health_check() -> None:
    text = (DEPLOY / "Containerfile").read_text()
    users = re.findall(r"^USER\s+(\S+)", text, re.MULTILINE)
    assert users and users[-1] not in ("root", "0")
    assert re.search(r'^HEALTHCHECK .*CMD \["pbem", "health"\]$', text, re.MULTILINE)
    env = dict(re.findall(r"(PBEM_[A-Z_]+)=(\S+)", text))
    assert env["PBEM_HEALTH_PORT"] == "8025" and env["PBEM_DATABASE_URL"] == "sqlite:////data/pbem.sqlite3"
    assert "pbem db upgrade && exec pbem serve" in text
    code = "\n".join(line for line in text.splitlines() if not line.lstrip().startswith("#"))
    assert not re.search(r"PBEM_(SECRET|IMAP_PASSWORD|SMTP_PASSWORD)=", code)  # no secret baked in


def test_the_example_configurations_load(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("PBEM_SECRET", "s" * 32)
    hosted = load_settings(DEPLOY / "examples" / "hosted-mailbox.toml")
    assert (hosted.imap_port, hosted.imap_ssl, hosted.imap_idle) == (993, True, True)
    assert (hosted.smtp_port, hosted.smtp_tls, hosted.smtp_ssl) == (587, True, False)
    assert hosted.tls_ca_file == "" and hosted.health_port == 8025
    example_env = dict(line.split("=", 1) for line in (DEPLOY / "example.env").read_text().splitlines()
                       if line and not line.startswith("#"))
    assert all(known(v) for v in example_env if v.startswith("PBEM_"))


def _free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return int(sock.getsockname()[1])


def test_the_trial_mail_server_listens_on_the_ports_given() -> None:
    smtp_port, imap_port = _free_port(), _free_port()
    stop, lines = threading.Event(), []
    thread = threading.Thread(target=run_mailserver, args=(["play@pbem.test:pw"], "pbem.test"), kwargs={
        "echo": lines.append, "stop": stop, "host": "127.0.0.1", "smtp_port": smtp_port, "imap_port": imap_port,
        "auto_create": True})
    thread.start()
    try:
        deadline = time.monotonic() + 30
        while not lines and time.monotonic() < deadline:
            time.sleep(0.05)
        with socket.create_connection(("127.0.0.1", smtp_port), 5) as smtp:
            assert smtp.recv(64).startswith(b"220")
        with socket.create_connection(("127.0.0.1", imap_port), 5) as imap:
            assert imap.recv(64).startswith(b"* OK")
        assert f"IMAP  127.0.0.1:{imap_port}" in lines[0]
    finally:
        stop.set()
        thread.join(30)


def test_check_image_script_refuses_arguments_in_one_line_and_explains_itself() -> None:
    """deploy/check-image.sh (the real build-and-run check; too slow for the suite) takes its
    settings from the environment: an argument is a one-line error before anything is built."""
    script = DEPLOY / "check-image.sh"
    assert subprocess.run(["bash", "-n", str(script)]).returncode == 0
    wrong = subprocess.run(["bash", str(script), "--rebuild"], capture_output=True, text=True, timeout=30)
    assert wrong.returncode == 2 and wrong.stdout == ""
    assert wrong.stderr.count("\n") == 1 and "--rebuild" in wrong.stderr
    usage = subprocess.run(["bash", str(script), "--help"], capture_output=True, text=True, timeout=30)
    assert usage.returncode == 0
    assert all(word in usage.stdout for word in ("debootstrap", "KEEP=1", "ROOTFS_CACHE", "--format docker"))
