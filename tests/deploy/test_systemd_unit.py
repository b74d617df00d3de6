"""``deploy/pbem.service``: the sandbox keys are there, systemd accepts the unit, and its own
security analysis rates it well (both run when ``systemd-analyze`` is installed)."""

from __future__ import annotations

import re
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

UNIT = Path(__file__).resolve().parents[2] / "deploy" / "pbem.service"


def unit_keys(text: str) -> dict[str, list[str]]:
    """``Section.Key`` -> every value given (systemd allows a key several times)."""
    keys: dict[str, list[str]] = {}
    section = ""
    for line in text.splitlines():
        line = line.strip()
        if not line or line.startswith(("#", ";")):
            continue
        if line.startswith("["):
            section = line.strip("[]")
            continue
        key, _, value = line.partition("=")
        keys.setdefault(f"{section}.{key.strip()}", []).append(value.strip())
    return keys


def test_the_unit_has_the_hardened_sandbox() -> None:
    keys = unit_keys(UNIT.read_text())
    one = {k: v[-1] for k, v in keys.items()}
    expected = {
        "Service.DynamicUser": "yes", "Service.NoNewPrivileges": "yes", "Service.ProtectSystem": "strict",
        "Service.ProtectHome": "yes", "Service.PrivateTmp": "yes", "Service.PrivateDevices": "yes",
        "Service.CapabilityBoundingSet": "", "Service.AmbientCapabilities": "",
        "Service.RestrictAddressFamilies": "AF_INET AF_INET6 AF_UNIX", "Service.Restart": "on-failure",
        "Service.ReadWritePaths": "/var/lib/pbem", "Service.StateDirectory": "pbem",
        "Service.EnvironmentFile": "/etc/pbem/env", "Service.RestartPreventExitStatus": "78",
        "Service.KillSignal": "SIGTERM", "Service.UMask": "0077",
    }
    assert {k: one.get(k) for k in expected} == expected
    assert "@system-service" in keys["Service.SystemCallFilter"]
    assert "Service.WatchdogSec" not in keys  # pbem does not speak sd_notify
    assert one["Service.ExecStartPre"].endswith("pbem db upgrade")
    assert one["Service.ExecStart"].endswith("pbem serve")
    assert not any(k.endswith(("PBEM_SECRET", "PASSWORD")) or "PBEM_SECRET=" in v or "PASSWORD=" in v
                   for k, vs in keys.items() for v in vs)  # secrets only in the EnvironmentFile


def _installed_copy(tmp_path: Path) -> Path:
    """The unit with ``ExecStart`` pointing at this checkout's ``pbem``: ``verify`` checks that
    the commands exist, and /opt/pbem is where an operator installs it, not where tests run."""
    pbem = Path(sys.executable).with_name("pbem")
    if not pbem.exists():
        pytest.skip("the pbem console script is not installed next to this Python")
    copy = tmp_path / "pbem.service"
    copy.write_text(UNIT.read_text().replace("/opt/pbem/venv/bin/pbem", str(pbem)))
    return copy


def test_systemd_accepts_the_unit(tmp_path: Path) -> None:
    if shutil.which("systemd-analyze") is None:
        pytest.skip("systemd-analyze is not installed")
    done = subprocess.run(["systemd-analyze", "verify", str(_installed_copy(tmp_path))],
                          capture_output=True, text=True, timeout=60)
    assert done.returncode == 0 and "pbem.service" not in done.stderr, done.stderr


def test_systemd_rates_the_sandbox_ok(tmp_path: Path) -> None:
    if shutil.which("systemd-analyze") is None:
        pytest.skip("systemd-analyze is not installed")
    done = subprocess.run(["systemd-analyze", "security", "--offline=yes", str(_installed_copy(tmp_path))],
                          capture_output=True, text=True, timeout=60)
    if "--offline" in done.stderr and "unrecognized" in done.stderr:
        pytest.skip("this systemd-analyze has no --offline (systemd < 252)")
    found = re.search(r"Overall exposure level for pbem\.service: (\d+\.\d+)", done.stdout)
    assert found, done.stdout[-2000:] + done.stderr
    assert float(found.group(1)) <= 2.0  # "OK" starts below 4.0; 10 is an unsandboxed service
