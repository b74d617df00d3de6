"""The SMTP side shared by both local stacks: aiosmtpd accepting mail for known users.

Each stack supplies how a message reaches a mailbox (``deliver``); this module owns the SMTP
conversation: recipients are checked at ``RCPT`` time so an unknown user gets ``550`` before any
data is sent, exactly as a real MTA answers, and plus-addresses are accepted for their base user.
"""

from __future__ import annotations

import asyncio
import ssl
from collections.abc import Awaitable, Callable
from datetime import UTC, datetime
from email.utils import format_datetime
from typing import Any

from aiosmtpd.smtp import SMTP, AuthResult, Envelope, LoginPassword, Session

from service.addresses import base_address


class DeliveryRefused(Exception):
    """The store refused a message (e.g. Dovecot's LMTP said 550); the SMTP client is told so."""

    def __init__(self, code: int, text: str) -> None:
        super().__init__(f"{code} {text}")
        self.code = code
        self.text = text


# deliver(mail_from, original_rcpt, base_rcpt, data) stores one copy for one recipient.
Deliver = Callable[[str, str, str, bytes], Awaitable[None]]


class FrontHandler:
    """aiosmtpd handler: accept known recipients (or create them), hand DATA to ``deliver``."""

    def __init__(
        self,
        *,
        is_user: Callable[[str], bool],
        create_user: Callable[[str], Awaitable[None]] | None,
        deliver: Deliver,
        check_login: Callable[[str, str], bool],
    ) -> None:
        self._is_user = is_user
        self._create_user = create_user
        self._deliver = deliver
        self._check_login = check_login
        self.delivered = 0
        #: temporary refusals for fault tests: address (or "*" for every one) -> SMTP reply,
        #: e.g. ``"451 4.3.0 try again later"``, answered at RCPT
        self.refusals: dict[str, str] = {}

    async def handle_RCPT(
        self, server: SMTP, session: Session, envelope: Envelope, address: str, rcpt_options: list[str]
    ) -> str:
        user = base_address(address)
        refusal = self.refusals.get(user) or self.refusals.get("*")
        if refusal:
            return refusal
        if not self._is_user(user):
            if self._create_user is None:
                return f"550 5.1.1 <{address}>: no such user here"
            await self._create_user(user)
        envelope.rcpt_tos.append(address)
        return "250 2.1.5 OK"

    async def handle_DATA(self, server: SMTP, session: Session, envelope: Envelope) -> str:
        data = envelope.original_content or b""
        for rcpt in envelope.rcpt_tos:
            try:
                await self._deliver(envelope.mail_from or "", rcpt, base_address(rcpt), data)
            except DeliveryRefused as exc:
                return f"{exc.code} {exc.text}".replace("\n", " ")
            except OSError as exc:  # the store is down (Dovecot stopped): try later, as an MTA says
                return f"451 4.3.0 mailbox store unavailable ({type(exc).__name__})"
            self.delivered += 1
        return "250 2.0.0 OK: delivered"

    def authenticate(
        self, server: SMTP, session: Session, envelope: Envelope, mechanism: str, auth_data: Any
    ) -> AuthResult:
        """Accept AUTH for known users, so a service configured with SMTP login works too."""
        if isinstance(auth_data, LoginPassword):
            user = auth_data.login.decode("utf-8", "replace")
            if self._check_login(user, auth_data.password.decode("utf-8", "replace")):
                return AuthResult(success=True, auth_data=user)
        return AuthResult(success=False, handled=False)


def trace_headers(mail_from: str, original_rcpt: str) -> bytes:
    """The headers a delivering MTA prepends (as Dovecot LMTP does): Return-Path, Delivered-To.

    ``Delivered-To`` keeps the plus-detail, so the reply key survives even when it was only in
    the envelope (a Bcc, a forwarding rule).
    """
    stamp = format_datetime(datetime.now(UTC))
    return (
        f"Return-Path: <{mail_from}>\r\n"
        f"Delivered-To: {original_rcpt}\r\n"
        f"Received: from localhost by pbem-local-stack; {stamp}\r\n"
    ).encode()


async def start_smtp_server(handler: FrontHandler, host: str, domain: str, *,
                            tls_context: ssl.SSLContext | None = None, implicit_tls: bool = False,
                            port: int = 0) -> asyncio.Server:
    """An aiosmtpd server on ``port`` (0: a free one) of ``host`` in the running loop.

    With ``tls_context`` it offers STARTTLS (port 587 style), or, with ``implicit_tls``, speaks
    TLS from the first byte (port 465 style) — for testing the service's TLS paths."""
    loop = asyncio.get_running_loop()

    def factory() -> SMTP:
        return SMTP(
            handler,
            hostname=domain,
            ident="pbem local stack",
            enable_SMTPUTF8=True,
            authenticator=handler.authenticate,
            auth_require_tls=False,
            auth_required=False,
            tls_context=None if implicit_tls else tls_context,
        )

    return await loop.create_server(factory, host=host, port=port, ssl=tls_context if implicit_tls else None)
