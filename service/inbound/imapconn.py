"""Opening IMAP connections the way every part of pbem should.

Why a helper: imaplib writes an APPEND's literal in a separate small write, and without
``TCP_NODELAY`` each one waits ~40 ms for a delayed ACK (Nagle), which cuts throughput from
~1,350 to ~21 operations per second (see MAILSTACK.md). ``IMAPClient`` also defaults to TLS,
which the plain loopback test servers do not speak: TLS (port 993) and STARTTLS (port 143) are
asked for explicitly, always with certificate verification (``service.tls``).
"""

from __future__ import annotations

import socket
import ssl as ssl_module

from imapclient import IMAPClient  # type: ignore[import-untyped]

from service.tls import client_context, trust_error


def set_nodelay(client: IMAPClient) -> None:
    """Turn off Nagle's algorithm on an open IMAPClient's socket."""
    sock = client._imap.sock  # imapclient exposes no public accessor for the socket
    sock.setsockopt(socket.IPPROTO_TCP, socket.TCP_NODELAY, 1)


def open_imap(
    host: str,
    port: int,
    user: str | None = None,
    password: str | None = None,
    *,
    ssl: bool = False,
    starttls: bool = False,
    ca_file: str = "",
    timeout: float | None = 30.0,
) -> IMAPClient:
    """Connect (TCP_NODELAY set), upgrade with STARTTLS if asked, and, when a user is given, log in.

    ``ssl``: TLS from the first byte (IMAPS); ``starttls``: upgrade a plain connection before
    login. Either verifies the certificate against ``ca_file`` or the system store; a failed
    check raises ``service.tls.TlsTrustError`` with what to change."""
    context = client_context(ca_file) if ssl or starttls else None
    try:
        client = IMAPClient(host, port=port, ssl=ssl, ssl_context=context, timeout=timeout)
        set_nodelay(client)
        if starttls:
            client.starttls(context)
    except ssl_module.SSLCertVerificationError as exc:
        raise trust_error("IMAP", host, port, exc, ca_file) from exc
    if user is not None:
        client.login(user, password or "")
    return client
