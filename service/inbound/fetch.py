"""The fetch stage: reading new mail from the service mailbox over IMAP (imapclient).

Messages are read with ``BODY.PEEK[]`` so reading never marks them; only after the database
commit that handled a message is it flagged ``\\Seen`` plus our keyword ``PbemDone``, and
the search for new mail asks for messages without that keyword. A crash between commit and
flag re-fetches the message on restart, where the Message-ID dedupe recognises it.
IDLE is used where the server offers it to wake up as soon as mail arrives.
"""

from __future__ import annotations

import contextlib
import logging
import socket
from typing import Any

from imapclient import IMAPClient  # type: ignore[import-untyped]
from imapclient.exceptions import IMAPClientError  # type: ignore[import-untyped]

from service.config import Settings
from service.inbound.imapconn import open_imap

log = logging.getLogger(__name__)

DONE_KEYWORD = "PbemDone"


class Inbox:
    """One IMAP connection to the service mailbox; blocking (run it in a worker thread)."""

    def __init__(self, settings: Settings) -> None:
        self.settings = settings
        self.client: IMAPClient | None = None
        #: connections opened so far: a new one after an error means "search again"
        self.connections = 0

    def connect(self) -> IMAPClient:
        if self.client is None:
            cfg = self.settings
            client = open_imap(cfg.imap_host, cfg.imap_port, cfg.imap_user, cfg.imap_password, ssl=cfg.imap_ssl,
                               starttls=cfg.imap_starttls, ca_file=cfg.tls_ca_file)
            client.select_folder(cfg.imap_mailbox)
            self.client = client
            self.connections += 1
        return self.client

    def close(self) -> None:
        if self.client is not None:
            with contextlib.suppress(IMAPClientError, OSError):
                self.client.logout()
            self.client = None

    def fetch_new(self, limit: int = 100, above: int | None = None) -> list[tuple[int, bytes]]:
        """Up to ``limit`` messages not yet done, oldest first, as ``(uid, raw bytes)``;
        with ``above``, only those with a greater UID (the batch after one not yet flagged)."""
        try:
            client = self.connect()
            client.noop()  # lets the server report mail that arrived since the last command
            uids = sorted(u for u in client.search(["NOT", "KEYWORD", DONE_KEYWORD]) if above is None or u > above)[:limit]
            if not uids:
                return []
            data = client.fetch(uids, ["BODY.PEEK[]"])
        except (IMAPClientError, OSError):
            self.close()
            raise
        return [(uid, bytes(data[uid][b"BODY[]"])) for uid in uids if uid in data and b"BODY[]" in data[uid]]

    def mark_done(self, uids: list[int]) -> None:
        """Flag handled messages (only ever called after their database commit)."""
        if not uids:
            return
        try:
            client = self.connect()
            client.add_flags(uids, [b"\\Seen", DONE_KEYWORD.encode()])
        except (IMAPClientError, OSError):
            self.close()
            raise

    def interrupt(self) -> None:
        """Wake a ``wait`` blocked in IDLE from another thread (shutdown): close the socket."""
        client = self.client
        if client is not None:
            with contextlib.suppress(OSError):
                client._imap.sock.shutdown(socket.SHUT_RDWR)

    def supports_idle(self) -> bool:
        return bool(self.connect().has_capability("IDLE"))

    def wait(self, timeout: float) -> bool:
        """Block until new mail may have arrived (IDLE) or ``timeout`` passed; True on news.

        A NOOP first: mail stored since this connection's last command is reported there,
        while some servers (pymap) report in IDLE only what changes after IDLE began — a
        reply landing between two waits would otherwise sleep until the next poll interval.
        """
        client = self.connect()
        if not (self.settings.imap_idle and client.has_capability("IDLE")):
            return False
        try:
            if _reports_new_mail(client.noop()[1]):
                return True
            client.idle()
            responses: list[Any] = client.idle_check(timeout=timeout)
            client.idle_done()
        except (TimeoutError, IMAPClientError, OSError):
            self.close()
            return False
        return _reports_new_mail(responses)


def _reports_new_mail(responses: list[Any]) -> bool:
    return any(isinstance(r, tuple) and len(r) > 1 and r[1] in (b"EXISTS", b"RECENT") for r in responses)
