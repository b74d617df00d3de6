"""The service's real mail paths over TLS, against Dovecot with a certificate from a private CA:
IMAPS (993 style) and SMTPS (465 style), and STARTTLS on the plain IMAP port (143 style) and on
SMTP submission (587 style). Certificates are verified against ``tls_ca_file``; a server whose
certificate chains to another CA is refused with a message that says what to set."""

from __future__ import annotations

import asyncio
import ssl
from collections.abc import Iterator
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path
from typing import Any

import pytest

from service.config import ConfigError, Settings, load_settings
from service.inbound.fetch import Inbox
from service.localmail.dovecot import DovecotStack, TlsFiles
from service.outbound.outbox import smtp_client, smtp_connect
from service.tls import TlsTrustError
from tests.support.mailservers import _need_dovecot
from tests.support.tlscerts import Certificates, make_ca, make_certificates

from .world import SERVICE, World, make_settings

pytestmark = pytest.mark.e2e


@pytest.fixture
def certificates(tmp_path: Path) -> Certificates:
    return make_certificates(tmp_path / "tls")


@pytest.fixture
def tls_stack(certificates: Certificates) -> Iterator[DovecotStack]:
    _need_dovecot()
    with DovecotStack(tls=TlsFiles(certificates.cert, certificates.key)) as stack:
        yield stack


def tls_settings(stack: DovecotStack, how: str, ca_file: Path | str) -> dict[str, Any]:
    """The settings of one way to speak TLS to the stack."""
    if how == "tls":  # IMAPS + SMTPS: TLS from the first byte
        return {"imap_port": stack.imaps_port, "imap_ssl": True, "smtp_port": stack.smtps_port,
                "smtp_ssl": True, "tls_ca_file": str(ca_file)}
    return {"imap_port": stack.imap_port, "imap_ssl": False, "imap_starttls": True,
            "smtp_port": stack.smtp_port, "smtp_tls": True, "tls_ca_file": str(ca_file)}


@pytest.mark.parametrize("how", ["tls", "starttls"])
def test_the_service_fetches_idles_and_sends_over_verified_tls(
        tls_stack: DovecotStack, certificates: Certificates, tmp_path: Path, how: str) -> None:
    world = World.create(tls_stack, tmp_path, **tls_settings(tls_stack, how, certificates.ca))
    ann, bob = world.player("ann@pbem.test", "Ann"), world.player("bob@pbem.test", "Bob")
    game_id = world.game("toy", [ann, bob], seed=1)
    asyncio.run(world.step())  # the start mails go out over SMTP with TLS
    assert {o.status for o in world.outbox()} == {"sent"}
    start = world.last(ann)

    watcher = Inbox(world.service.settings)
    watcher.connect()
    assert watcher.client is not None and isinstance(watcher.client._imap.sock, ssl.SSLSocket)
    with ThreadPoolExecutor(1) as pool:
        news = pool.submit(watcher.wait, 15)
        world.reply(ann, "high", to=start)
        assert news.result(timeout=20) is True  # IDLE over TLS reported the reply
    watcher.close()

    asyncio.run(world.step())  # fetched over IMAP with TLS, applied, answered over SMTP with TLS
    assert [m.command for m in world.moves(game_id)] == ["high"]
    assert {o.status for o in world.outbox()} == {"sent"}
    assert len(world.mails(ann)) > 1
    world.close()


def test_a_certificate_from_another_ca_is_a_clear_error(
        tls_stack: DovecotStack, certificates: Certificates, tmp_path: Path) -> None:
    tls_stack.add_user(SERVICE, "secret")
    other_ca, _key = make_ca(tmp_path / "other", "some other CA")
    for ca_file, trusted in ((other_ca, str(other_ca)), ("", "the system's trust store")):
        for how in ("tls", "starttls"):
            settings = make_settings(tls_stack, tmp_path, **tls_settings(tls_stack, how, ca_file))
            with pytest.raises(TlsTrustError) as imap_error:
                Inbox(settings).fetch_new()
            message = str(imap_error.value)
            assert message.startswith("IMAP 127.0.0.1:") and "not trusted" in message
            assert trusted in message and "tls_ca_file" in message
            with pytest.raises(TlsTrustError, match=r"^SMTP 127\.0\.0\.1:\d+: the server's certificate is not"):
                asyncio.run(smtp_connect(smtp_client(settings), settings))


def test_tls_settings_are_checked_at_start(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("PBEM_SECRET", "x" * 20)
    absent = tmp_path / "absent.toml"
    with pytest.raises(ConfigError, match="no CA file"):
        load_settings(absent, tls_ca_file=str(tmp_path / "missing.pem"))
    with pytest.raises(ConfigError, match="exclude each other"):
        load_settings(absent, smtp_tls=True, smtp_ssl=True)
    with pytest.raises(ConfigError, match="exclude each other"):
        load_settings(absent, imap_starttls=True)  # imap_ssl is on by default
    assert Settings(secret="x" * 20).imap_ssl is True  # TLS is the default for IMAP
