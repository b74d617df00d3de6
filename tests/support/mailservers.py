"""pytest fixtures for real mail servers on loopback, and two small client helpers.

Import the fixtures by name in a test package's conftest.py
(``from tests.support.mailservers import mail_stack, dovecot_stack, any_stack``): pytest allows
``pytest_plugins`` only in the top-level conftest.py.

- ``mail_stack``: a fresh, started ``LocalMailStack`` (aiosmtpd + pymap) per test.
- ``dovecot_stack``: a fresh ``DovecotStack``; skipped when Dovecot is not installed, unless
  ``PBEM_REQUIRE_DOVECOT=1`` (CI) — then its absence fails the test instead of hiding it.
- ``any_stack``: parametrised over both, for tests that must hold on either server.
"""

from __future__ import annotations

import os
import smtplib
from collections.abc import Iterator, Sequence
from email.message import EmailMessage
from email.policy import SMTP as SMTP_POLICY
from typing import Protocol

import pytest

from service.inbound.imapconn import open_imap
from service.localmail.dovecot import DovecotStack
from service.localmail.stack import LocalMailStack


class MailStack(Protocol):
    """What tests may rely on in either stack."""

    host: str
    smtp_port: int
    imap_port: int
    domain: str

    def add_user(self, address: str, password: str) -> None: ...


def dovecot_required() -> bool:
    return os.environ.get("PBEM_REQUIRE_DOVECOT", "") not in ("", "0")


def _need_dovecot() -> None:
    if DovecotStack.available():
        return
    if dovecot_required():
        pytest.fail("PBEM_REQUIRE_DOVECOT=1 but Dovecot is not installed")
    pytest.skip("Dovecot is not installed (set PBEM_REQUIRE_DOVECOT=1 to make this a failure)")


@pytest.fixture
def mail_stack() -> Iterator[LocalMailStack]:
    with LocalMailStack() as stack:
        yield stack


@pytest.fixture
def dovecot_stack() -> Iterator[DovecotStack]:
    _need_dovecot()
    with DovecotStack() as stack:
        yield stack


@pytest.fixture(params=["local", "dovecot"])
def any_stack(request: pytest.FixtureRequest) -> Iterator[LocalMailStack | DovecotStack]:
    if request.param == "dovecot":
        _need_dovecot()
        with DovecotStack() as dovecot:
            yield dovecot
    else:
        with LocalMailStack() as local:
            yield local


def send_mail(
    stack: MailStack,
    message: bytes | EmailMessage,
    mail_from: str,
    rcpt_to: str | Sequence[str],
) -> None:
    """Send over SMTP to the stack; raises ``smtplib.SMTPRecipientsRefused`` on a 550."""
    recipients = [rcpt_to] if isinstance(rcpt_to, str) else list(rcpt_to)
    raw = message.as_bytes(policy=SMTP_POLICY) if isinstance(message, EmailMessage) else message
    raw = crlf(raw)
    with smtplib.SMTP(stack.host, stack.smtp_port, timeout=30) as client:
        client.sendmail(mail_from, recipients, raw)


def crlf(raw: bytes) -> bytes:
    """Bare LF line endings to CRLF, as every real client sends them over SMTP."""
    return raw.replace(b"\r\n", b"\n").replace(b"\n", b"\r\n")


def fetch_all(stack: MailStack, address: str, password: str, mailbox: str = "INBOX") -> list[bytes]:
    """Every message in the mailbox, oldest first, without setting ``\\Seen``."""
    client = open_imap(stack.host, stack.imap_port, address, password)
    try:
        client.select_folder(mailbox, readonly=True)
        uids = sorted(client.search("ALL"))
        if not uids:
            return []
        fetched = client.fetch(uids, ["BODY.PEEK[]"])
        return [fetched[uid][b"BODY[]"] for uid in uids]
    finally:
        client.logout()
