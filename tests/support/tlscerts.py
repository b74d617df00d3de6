"""Throw-away certificates for TLS tests: a CA and a server certificate it signed, made with the
``openssl`` command (the ``cryptography`` package is not a dependency of pbem).

The server certificate names ``127.0.0.1`` and ``localhost`` (subjectAltName), so a client that
verifies host names — as the service always does — accepts it when it trusts the CA.
"""

from __future__ import annotations

import shutil
import subprocess
from dataclasses import dataclass
from pathlib import Path

import pytest


@dataclass(frozen=True)
class Certificates:
    ca: Path  # the CA certificate a client must trust
    cert: Path  # the server's certificate
    key: Path  # the server's private key


def _openssl(*args: str, cwd: Path) -> None:
    subprocess.run(["openssl", *args], cwd=cwd, check=True, capture_output=True, timeout=60)


def make_ca(folder: Path, name: str = "pbem test CA") -> tuple[Path, Path]:
    """A self-signed CA: (certificate, key)."""
    folder.mkdir(parents=True, exist_ok=True)
    cert, key = folder / "ca.pem", folder / "ca.key"
    _openssl("req", "-x509", "-newkey", "ec", "-pkeyopt", "ec_paramgen_curve:prime256v1", "-nodes",
             "-keyout", str(key), "-out", str(cert), "-days", "2", "-subj", f"/CN={name}",
             "-addext", "basicConstraints=critical,CA:TRUE", "-addext", "keyUsage=critical,keyCertSign,cRLSign",
             cwd=folder)
    return cert, key


def make_certificates(folder: Path) -> Certificates:
    """A CA and a server certificate for 127.0.0.1/localhost signed by it."""
    if shutil.which("openssl") is None:
        pytest.skip("the openssl command is not installed")
    ca_cert, ca_key = make_ca(folder)
    key, csr, cert = folder / "server.key", folder / "server.csr", folder / "server.pem"
    _openssl("req", "-newkey", "ec", "-pkeyopt", "ec_paramgen_curve:prime256v1", "-nodes", "-keyout", str(key),
             "-out", str(csr), "-subj", "/CN=localhost", cwd=folder)
    extensions = folder / "server.ext"
    extensions.write_text("subjectAltName=IP:127.0.0.1,DNS:localhost\nextendedKeyUsage=serverAuth\n"
                          "basicConstraints=CA:FALSE\n")
    _openssl("x509", "-req", "-in", str(csr), "-CA", str(ca_cert), "-CAkey", str(ca_key), "-CAcreateserial",
             "-out", str(cert), "-days", "2", "-extfile", str(extensions), cwd=folder)
    for path in (cert, key, ca_cert):
        path.chmod(0o644)
    return Certificates(ca=ca_cert, cert=cert, key=key)
