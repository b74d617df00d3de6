"""``pbem mailserver``: the local stack as a standalone server for a human's mail client.

Someone who wants to play by hand points Thunderbird (or any client) at the printed ports:
IMAP and SMTP without TLS on 127.0.0.1, login = full address, password as printed. The compose
file of ``deploy/`` runs it in its own container (``--host 0.0.0.0`` and fixed ports) as the mail
server for trying pbem; it is never a server for real mail (no TLS, mail kept in memory).
"""

from __future__ import annotations

import signal
import threading
from collections.abc import Callable, Sequence

from service.localmail.stack import DEFAULT_DOMAIN, LocalMailStack

DEFAULT_USERS = ("play", "alice", "bob", "carol", "dave")
DEFAULT_PASSWORD = "pbem"


def parse_user(spec: str, domain: str) -> tuple[str, str]:
    """``ann@x.test:pw`` / ``ann@x.test`` / ``ann`` -> (address, password)."""
    address, _, password = spec.partition(":")
    if "@" not in address:
        address = f"{address}@{domain}"
    return address.lower(), password or DEFAULT_PASSWORD


def describe(stack: LocalMailStack) -> str:
    """The text a person needs to configure a mail client for this stack."""
    lines = [
        f"pbem local mail server for {stack.domain} (no TLS, mail in memory: for trying pbem only)",
        f"  IMAP  {stack.host}:{stack.imap_port}",
        f"  SMTP  {stack.host}:{stack.smtp_port}  (no authentication needed)",
        "  logins (user = full address):",
    ]
    lines += [f"    {address}  password: {password}" for address, password in sorted(stack.users.items())]
    if stack.auto_create:
        lines.append("  mail to any other address creates that mailbox (password: pbem)")
    return "\n".join(lines)


def run_mailserver(
    users: Sequence[str],
    domain: str = DEFAULT_DOMAIN,
    *,
    auto_create: bool = False,
    echo: Callable[[str], None] = print,
    stop: threading.Event | None = None,
    host: str = "127.0.0.1",
    smtp_port: int = 0,
    imap_port: int = 0,
) -> None:
    """Start the stack with ``users`` (default set when empty), print logins, run until stopped.

    ``stop`` lets tests end it; otherwise Ctrl-C / SIGTERM does.
    """
    stop = stop or threading.Event()
    specs = list(users) or list(DEFAULT_USERS)
    with LocalMailStack(domain, auto_create=auto_create, host=host, smtp_port=smtp_port,
                        imap_port=imap_port) as stack:
        for spec in specs:
            stack.add_user(*parse_user(spec, domain))
        echo(describe(stack))
        echo("Press Ctrl-C to stop.")
        if threading.current_thread() is threading.main_thread():
            signal.signal(signal.SIGTERM, lambda *_: stop.set())
        try:
            while not stop.wait(0.5):
                pass
        except KeyboardInterrupt:
            pass
    echo("mail server stopped")
