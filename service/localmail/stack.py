"""Local mail stacks on free ports of 127.0.0.1: SMTP in, IMAP out, nothing to install.

``LocalMailStack`` is the embedded default (tests, ``pbem demo``, ``pbem mailserver``): aiosmtpd
for SMTP and pymap's in-memory IMAP server, both in one asyncio loop in a background thread.
Delivery stores the message straight into the recipient's pymap INBOX (the in-process equivalent
of an IMAP APPEND, without a second protocol hop), which also wakes any IMAP IDLE on that INBOX.

``DovecotStack`` (``service.localmail.dovecot``) offers the same interface with Dovecot behind LMTP,
for fidelity with what operators run; it is re-exported here.
"""

from __future__ import annotations

import asyncio
import threading
from argparse import Namespace
from collections.abc import Iterable
from datetime import UTC, datetime
from typing import Any, Self, cast

from proxyprotocol.reader import ProxyProtocolReader
from pymap.backend.dict import Config as PymapConfig
from pymap.backend.dict import DictBackend, Identity, Login
from pymap.imap import IMAPServer
from pymap.parsing.message import AppendMessage
from pymap.user import UserMetadata
from pysasl.hashing import Cleartext

from service.addresses import base_address
from service.localmail.lifecycle import StackLifecycle
from service.localmail.loopthread import LoopThread
from service.localmail.smtpfront import FrontHandler, start_smtp_server, trace_headers

DEFAULT_DOMAIN = "pbem.test"
AUTO_CREATE_PASSWORD = "pbem"  # password of users created on first delivery (auto_create=True)


def _make_pymap_behave_like_dovecot() -> None:
    """Two fixes to pymap's in-memory backend, applied once per process.

    1. Keywords: the dict backend's PERMANENTFLAGS lists only the system flags, so a custom
       keyword (the service flags handled mail with one) silently became a session flag and
       was gone on the next connection. Adding ``\\*`` (RFC 3501: any keyword may be stored
       permanently) makes pymap keep them, as Dovecot does.
    2. SEARCH: pymap evaluated SEARCH against the session's view *before* taking in mail
       delivered since the last command, so a SEARCH sent right after a delivery missed it.
       Refreshing the view first makes SEARCH see every message stored before the command
       (Dovecot needs a NOOP before SEARCH for that; pymap now needs none).
    """
    from pymap.backend.dict.mailbox import MailboxData
    from pymap.backend.mailbox import MailboxDataInterface
    from pymap.backend.session import BaseSession
    from pymap.parsing.specials.flag import Wildcard

    if getattr(BaseSession, "_pbem_patched", False):
        return
    system_flags = MailboxDataInterface.permanent_flags.fget  # type: ignore[attr-defined]
    MailboxData.permanent_flags = property(lambda self: system_flags(self) | {Wildcard})  # type: ignore[method-assign,assignment]
    search = BaseSession.search_mailbox

    async def search_mailbox(self: Any, selected: Any, keys: Any) -> Any:
        await (await self._get_selected(selected)).update_selected(selected)
        return await search(self, selected, keys)

    BaseSession.search_mailbox = search_mailbox  # type: ignore[method-assign]
    BaseSession._pbem_patched = True  # type: ignore[attr-defined]


class _CoalescingWriter:
    """Buffers pymap's many small ``write()`` calls and sends them as one chunk on ``drain()``.

    Why: pymap writes one response line in several pieces; asyncio sends each at once
    (TCP_NODELAY), and imapclient's IDLE reads the socket non-blocking, so it saw half a line
    (``* 1 FETCH (``) and aborted. Real servers (Dovecot) write whole lines; so does this.
    """

    def __init__(self, writer: asyncio.StreamWriter) -> None:
        self._writer = writer
        self._buffer: list[bytes] = []

    def write(self, data: bytes) -> None:
        self._buffer.append(bytes(data))

    def writelines(self, lines: Iterable[bytes]) -> None:
        self._buffer.extend(bytes(line) for line in lines)

    def _flush(self) -> None:
        if self._buffer:
            self._writer.write(b"".join(self._buffer))
            self._buffer.clear()

    async def drain(self) -> None:
        self._flush()
        await self._writer.drain()

    def close(self) -> None:
        self._flush()
        self._writer.close()

    def __getattr__(self, name: str) -> Any:
        return getattr(self._writer, name)


class LocalMailStack(StackLifecycle):
    """aiosmtpd -> pymap (in memory). ``with LocalMailStack() as stack: ...``.

    Attributes ``host``, ``smtp_port``, ``imap_port`` and ``domain`` are set once started. Every
    login is a user's full address with its password. With ``queue_delivery=True`` the SMTP
    ``250`` comes as soon as the message is accepted and the store (pymap parses every message)
    follows, in order per mailbox — as a real MTA queues; tests that read right after sending
    keep the default, synchronous store. With ``auto_create=True`` mail to an
    unknown user creates that user (password ``AUTO_CREATE_PASSWORD``) instead of a 550.
    """

    def __init__(
        self,
        domain: str = DEFAULT_DOMAIN,
        *,
        host: str = "127.0.0.1",
        auto_create: bool = False,
        queue_delivery: bool = False,
        smtp_port: int = 0,
        imap_port: int = 0,
    ):
        """``smtp_port``/``imap_port``: listen there (0: any free port, what tests want)."""
        self.domain = domain
        self.host = host
        self._listen = (smtp_port, imap_port)
        self.auto_create = auto_create
        self.queue_delivery = queue_delivery
        self._store_locks: dict[str, asyncio.Lock] = {}
        self._store_tasks: set[asyncio.Task[None]] = set()
        self.smtp_port = smtp_port
        self.imap_port = imap_port
        self._passwords: dict[str, str] = {}
        self._pending_users: dict[str, str] = {}
        self._thread: LoopThread | None = None
        self._login: Login | None = None
        self._config: PymapConfig | None = None
        self._servers: list[asyncio.Server] = []
        self._handler: FrontHandler | None = None
        self._deliveries: dict[str, int] = {}
        self._delivery_made = threading.Condition()

    # -- public interface ------------------------------------------------------------------
    @property
    def users(self) -> dict[str, str]:
        """address -> password of every user (a copy)."""
        return dict(self._passwords)

    @property
    def delivered(self) -> int:
        """How many recipient copies were stored since start."""
        return self._handler.delivered if self._handler else 0

    def deliveries(self, address: str) -> int:
        """How many messages were stored for ``address`` so far: a cheap "you have mail"
        signal (like a phone's push notification) for pollers that would otherwise ask
        the IMAP server every few milliseconds."""
        return self._deliveries.get(base_address(address), 0)

    def all_deliveries(self) -> dict[str, int]:
        """``deliveries`` for every mailbox at once (one question instead of one per player)."""
        return dict(self._deliveries)

    def wait_deliveries(self, seen_total: int, timeout: float) -> dict[str, int]:
        """``all_deliveries`` as soon as their sum differs from ``seen_total`` (or after
        ``timeout`` seconds): a push notification, so a poller need not ask every millisecond."""
        with self._delivery_made:
            self._delivery_made.wait_for(lambda: sum(self._deliveries.values()) != seen_total, timeout)
            return dict(self._deliveries)

    def add_user(self, address: str, password: str) -> None:
        """Create (or re-password) a mailbox; works before and after ``start()``."""
        address = base_address(address)
        if self._thread is None:
            self._pending_users[address] = password
            self._passwords[address] = password
            return
        self._thread.run(self._add_user(address, password))

    def start(self) -> Self:
        if self._thread is not None:
            return self
        self._thread = LoopThread(f"pbem-mailstack-{self.domain}")
        self._thread.start()
        try:
            self._thread.run(self._start())
        except BaseException:
            self.stop()
            raise
        return self

    def stop(self) -> None:
        thread, self._thread = self._thread, None
        if thread is None:
            return
        try:
            thread.run(self._close_servers(), timeout=10)
        finally:
            thread.stop()

    # -- inside the loop ---------------------------------------------------------------------
    async def _start(self) -> None:
        _make_pymap_behave_like_dovecot()
        args = Namespace(passlib_cfg=None, proxy_protocol=None, inherited_sockets=None, debug=False)
        config = PymapConfig(
            args,
            host=self.host,
            port=0,
            demo_data=False,
            demo_user="",
            demo_password="",
            tls_enabled=False,
            hash_context=Cleartext(),
            invalid_user_sleep=0.0,
            reject_dnsbl=False,
        )
        config.apply_context()
        login = Login(config)
        self._config, self._login = config, login
        backend = DictBackend(login, config)
        imap = IMAPServer(backend.login, config)

        async def serve_imap(
            reader: asyncio.StreamReader, writer: asyncio.StreamWriter, sock_info: Any
        ) -> None:
            await imap(reader, cast(asyncio.StreamWriter, _CoalescingWriter(writer)), sock_info)

        imap_callback = ProxyProtocolReader(config.proxy_protocol).get_callback(serve_imap)
        imap_server = await asyncio.start_server(imap_callback, host=self.host, port=self._listen[1])
        self._servers.append(imap_server)
        self.imap_port = imap_server.sockets[0].getsockname()[1]

        for address, password in self._pending_users.items():
            await self._add_user(address, password)
        self._pending_users.clear()

        self._handler = FrontHandler(
            is_user=lambda address: address in self._passwords,
            create_user=self._auto_create if self.auto_create else None,
            deliver=self._deliver,
            check_login=lambda user, password: self._passwords.get(base_address(user)) == password,
        )
        smtp_server = await start_smtp_server(self._handler, self.host, self.domain, port=self._listen[0])
        self._servers.append(smtp_server)
        self.smtp_port = smtp_server.sockets[0].getsockname()[1]

    async def _close_servers(self) -> None:
        for server in self._servers:
            server.close()
        self._servers.clear()

    def _identity(self, address: str) -> Identity:
        assert self._login is not None
        return Identity(address, self._login, None, frozenset())

    async def _add_user(self, address: str, password: str) -> None:
        assert self._config is not None
        await self._identity(address).set(UserMetadata(self._config, address, password=password))
        self._passwords[address] = password

    async def _auto_create(self, address: str) -> None:
        if address not in self._passwords:
            await self._add_user(address, AUTO_CREATE_PASSWORD)

    async def _deliver(self, mail_from: str, original_rcpt: str, user: str, data: bytes) -> None:
        if not self.queue_delivery:
            await self._store(mail_from, original_rcpt, user, data)
            return
        lock = self._store_locks.setdefault(user, asyncio.Lock())  # FIFO: order kept per mailbox

        async def store_in_order() -> None:
            async with lock:
                await self._store(mail_from, original_rcpt, user, data)

        task = asyncio.create_task(store_in_order())
        self._store_tasks.add(task)
        task.add_done_callback(self._store_tasks.discard)

    async def _store(self, mail_from: str, original_rcpt: str, user: str, data: bytes) -> None:
        async with self._identity(user).new_session() as session:
            inbox = await session.mailbox_set.get_mailbox("INBOX")
            message = AppendMessage(trace_headers(mail_from, original_rcpt) + data, datetime.now(UTC))
            await inbox.append(message, recent=True)
        with self._delivery_made:
            self._deliveries[user] = self._deliveries.get(user, 0) + 1
            self._delivery_made.notify_all()
