"""TLS for the connections to the mail servers: one verifying client context, clear errors.

Why one place: the IMAP fetcher, the IDLE watcher and both SMTP senders must trust the same
certificates. Verification (chain and host name) is always on; an operator whose server uses a
private CA names it in ``tls_ca_file`` instead of turning verification off. A certificate that
does not verify is reported as ``TlsTrustError`` naming the server and the setting to change,
not as a bare ``CERTIFICATE_VERIFY_FAILED`` deep in a traceback.
"""

from __future__ import annotations

import ssl
from functools import lru_cache


class TlsTrustError(ConnectionError):
    """The server's certificate does not chain to a trusted CA or does not name the host.

    A ``ConnectionError``: the service keeps retrying with its backoff (the certificate may be
    fixed on the server) and logs this message at every failed attempt."""


@lru_cache(maxsize=8)
def client_context(ca_file: str = "") -> ssl.SSLContext:
    """A client context that verifies the server: ``ca_file`` (PEM) or the system trust store.

    Cached: loading the system store costs milliseconds, and contexts are safe to reuse."""
    context = ssl.create_default_context(cafile=ca_file or None)
    context.minimum_version = ssl.TLSVersion.TLSv1_2
    return context


def trust_error(what: str, host: str, port: int, exc: BaseException, ca_file: str) -> TlsTrustError:
    """The one-line explanation of a failed certificate check."""
    trusted = f"the CA file {ca_file}" if ca_file else "the system's trust store"
    reason = getattr(exc, "verify_message", None) or str(exc)
    return TlsTrustError(f"{what} {host}:{port}: the server's certificate is not trusted ({reason}); "
                         f"checked against {trusted} — set tls_ca_file (PBEM_TLS_CA_FILE) to the CA "
                         "that signed it")
