"""``DovecotStack``: aiosmtpd -> Dovecot LMTP -> Dovecot IMAP, each instance in its own temp dir.

Same interface as ``LocalMailStack``. Dovecot is what many operators run, so the end-to-end
tests also run against it. The configuration follows MAILSTACK.md: the instance dir lives
outside pytest's 0700 tmp_path (Dovecot's unprivileged processes could not enter it) — on
/dev/shm when present, which is also much faster — and belongs to the ``dovecot`` user when we
run as root; ``anvil-auth-penalty`` is disabled (a failed login would slow every later login by
4 s) and the per-user connection limit is raised.
"""

from __future__ import annotations

import asyncio
import contextlib
import os
import pwd
import shutil
import signal
import socket
import ssl
import subprocess
import tempfile
import time
from dataclasses import dataclass
from pathlib import Path
from typing import Self

from service.addresses import base_address
from service.localmail.lifecycle import StackLifecycle
from service.localmail.lmtp import LmtpClient
from service.localmail.loopthread import LoopThread
from service.localmail.smtpfront import FrontHandler, start_smtp_server
from service.localmail.stack import AUTO_CREATE_PASSWORD, DEFAULT_DOMAIN

DOVECOT_BINARY = "dovecot"
STARTUP_TIMEOUT = 15.0


def _free_port(host: str) -> int:
    """A port free right now (Dovecot must be told its port; it cannot report one it chose)."""
    with socket.socket(socket.AF_INET, socket.SOCK_STREAM) as sock:
        sock.bind((host, 0))
        return int(sock.getsockname()[1])


def _wait_for_greeting(host: str, port: int, prefix: bytes, deadline: float) -> None:
    while True:
        try:
            with socket.create_connection((host, port), timeout=1.0) as sock:
                if sock.recv(64).startswith(prefix):
                    return
        except OSError:
            pass
        if time.monotonic() > deadline:
            raise TimeoutError(f"Dovecot did not greet on {host}:{port}")
        time.sleep(0.02)


def _config_text(
    root: Path, host: str, imap_port: int, lmtp_port: int, domain: str, allow_all_users: bool,
    imaps_port: int = 0, tls: bool = False,
) -> str:
    if os.geteuid() == 0:
        internal_user, login_user, uid, gid = "dovecot", "dovenull", "dovecot", "dovecot"
    else:
        me = pwd.getpwuid(os.geteuid()).pw_name
        internal_user = login_user = uid = me
        gid = str(os.getegid())
    return f"""\
base_dir = {root}/run
state_dir = {root}/state
log_path = {root}/dovecot.log
info_log_path = {root}/dovecot.log
protocols = imap lmtp
listen = {host}
{_ssl_lines(root) if tls else "ssl = no"}
disable_plaintext_auth = no
auth_mechanisms = plain login
auth_failure_delay = 0
default_internal_user = {internal_user}
default_login_user = {login_user}
first_valid_uid = 1
first_valid_gid = 1
mail_location = maildir:~/Maildir
mail_fsync = never
recipient_delimiter = +
lmtp_save_to_detail_mailbox = no
passdb {{
  driver = passwd-file
  args = scheme=PLAIN username_format=%u {root}/users
}}
userdb {{
  driver = static
  args = uid={uid} gid={gid} home={root}/mail/%d/%n allow_all_users={"yes" if allow_all_users else "no"}
}}
service anvil {{
  chroot =
  unix_listener anvil-auth-penalty {{
    mode = 0
  }}
}}
service imap-login {{
  chroot =
  inet_listener imap {{
    address = {host}
    port = {imap_port}
  }}
  inet_listener imaps {{
    address = {host}
    port = {imaps_port if tls else 0}
    ssl = yes
  }}
}}
service pop3-login {{
  chroot =
}}
service lmtp {{
  inet_listener lmtp {{
    address = {host}
    port = {lmtp_port}
  }}
}}
protocol imap {{
  mail_max_userip_connections = 200
}}
protocol lmtp {{
  postmaster_address = postmaster@{domain}
}}
"""


def _ssl_lines(root: Path) -> str:
    """TLS on: IMAPS on its own port and STARTTLS on the plain one (``tls`` of ``DovecotStack``)."""
    return f"ssl = yes\nssl_cert = <{root}/tls/cert.pem\nssl_key = <{root}/tls/key.pem"


@dataclass(frozen=True)
class TlsFiles:
    """A server certificate and its key (PEM files) for a stack that speaks TLS."""

    cert: Path
    key: Path


class DovecotStack(StackLifecycle):
    """aiosmtpd in front of a private Dovecot instance. ``with DovecotStack() as stack: ...``."""

    def __init__(self, domain: str = DEFAULT_DOMAIN, *, host: str = "127.0.0.1", auto_create: bool = False,
                 tls: TlsFiles | None = None):
        """``tls``: the stack also speaks TLS — IMAPS on ``imaps_port``, STARTTLS on ``imap_port``,
        STARTTLS on ``smtp_port`` and SMTPS on ``smtps_port`` — with this certificate."""
        self.domain = domain
        self.host = host
        self.auto_create = auto_create
        self.tls = tls
        self.smtp_port = 0
        self.smtps_port = 0
        self.imap_port = 0
        self.imaps_port = 0
        self.lmtp_port = 0
        self.root: Path | None = None
        self._passwords: dict[str, str] = {}
        self._process: subprocess.Popen[bytes] | None = None
        self._thread: LoopThread | None = None
        self._handler: FrontHandler | None = None
        self._lmtp: LmtpClient | None = None
        self._servers: list[asyncio.Server] = []

    @staticmethod
    def available() -> bool:
        """True when a ``dovecot`` binary is installed (PATH or /usr/sbin)."""
        return DovecotStack._binary() is not None

    @staticmethod
    def _binary() -> str | None:
        return shutil.which(DOVECOT_BINARY) or shutil.which(DOVECOT_BINARY, path="/usr/sbin:/usr/local/sbin")

    @property
    def users(self) -> dict[str, str]:
        return dict(self._passwords)

    @property
    def delivered(self) -> int:
        return self._handler.delivered if self._handler else 0

    def add_user(self, address: str, password: str) -> None:
        """Add a line to the passwd-file; Dovecot re-reads it when it changes."""
        address = base_address(address)
        self._passwords[address] = password
        if self.root is not None:
            self._write_users()

    def _write_users(self) -> None:
        assert self.root is not None
        users = self.root / "users"
        tmp = self.root / "users.tmp"
        tmp.write_text("".join(f"{a}:{{PLAIN}}{p}\n" for a, p in self._passwords.items()))
        self._chown(tmp)
        tmp.replace(users)  # atomic: the auth process never reads a half-written file

    def _chown(self, path: Path) -> None:
        if os.geteuid() == 0:
            shutil.chown(path, "dovecot", "dovecot")

    def start(self) -> Self:
        if self._process is not None:
            return self
        binary = self._binary()
        if binary is None:
            raise RuntimeError(
                "Dovecot is not installed (apt-get install dovecot-core dovecot-imapd dovecot-lmtpd)"
            )
        base = "/dev/shm" if os.path.isdir("/dev/shm") and os.access("/dev/shm", os.W_OK) else None
        self.root = Path(tempfile.mkdtemp(prefix="pbem-dovecot-", dir=base))
        try:
            self._start_dovecot(binary)
            self._start_front()
        except BaseException:
            self.stop()
            raise
        return self

    def _start_dovecot(self, binary: str) -> None:
        root = self.root
        assert root is not None
        root.chmod(0o755)
        for sub in ("run", "state", "mail"):
            (root / sub).mkdir()
        self._write_users()
        self.imap_port, self.lmtp_port = _free_port(self.host), _free_port(self.host)
        if self.tls is not None:
            self.imaps_port = _free_port(self.host)
            (root / "tls").mkdir()
            shutil.copyfile(self.tls.cert, root / "tls" / "cert.pem")
            shutil.copyfile(self.tls.key, root / "tls" / "key.pem")
        conf = root / "dovecot.conf"
        # With auto_create, LMTP must accept a user added a moment ago: Dovecot notices a changed
        # passwd-file only about once a second, so the static userdb then takes every recipient
        # (the SMTP front still refuses unknown users when auto_create is off).
        conf.write_text(
            _config_text(root, self.host, self.imap_port, self.lmtp_port, self.domain, self.auto_create,
                         self.imaps_port, self.tls is not None)
        )
        if os.geteuid() == 0:
            for path in [root, *root.rglob("*")]:
                self._chown(path)
        self._launch(binary)

    def _launch(self, binary: str) -> None:
        assert self.root is not None
        self._process = subprocess.Popen(
            [binary, "-F", "-c", str(self.root / "dovecot.conf")],
            stdout=subprocess.DEVNULL,
            stderr=subprocess.PIPE,
            start_new_session=True,  # our own process group, so stop() can end all of it
        )
        deadline = time.monotonic() + STARTUP_TIMEOUT
        try:
            _wait_for_greeting(self.host, self.imap_port, b"* OK", deadline)
            _wait_for_greeting(self.host, self.lmtp_port, b"220", deadline)
        except TimeoutError as exc:
            raise RuntimeError(f"Dovecot failed to start: {self._diagnostics()}") from exc

    # -- faults (tests): Dovecot away while the SMTP front stays, an SMTP front refusing --------

    def stop_dovecot(self) -> None:
        """Stop Dovecot alone (IMAP and LMTP go away; mail and the SMTP front stay, which now
        answers 451 because it cannot store)."""
        self._end_process()

    def start_dovecot(self) -> None:
        """Start Dovecot again on the same ports with the same mail (after ``stop_dovecot``)."""
        binary = self._binary()
        assert binary is not None and self.root is not None and self._process is None
        self._launch(binary)

    def refuse_smtp(self, reply: str | None, addresses: list[str] | None = None) -> None:
        """Answer RCPT for ``addresses`` (every one when None) with ``reply`` (e.g.
        ``"451 4.3.0 try later"``); ``reply=None`` stops refusing."""
        assert self._handler is not None
        if reply:
            self._handler.refusals.update({base_address(a): reply for a in addresses or ["*"]})
        else:
            self._handler.refusals.clear()

    def _diagnostics(self) -> str:
        parts = []
        if self._process is not None and self._process.poll() is not None and self._process.stderr:
            parts.append(self._process.stderr.read().decode("utf-8", "replace"))
        if self.root is not None and (self.root / "dovecot.log").exists():
            parts.append((self.root / "dovecot.log").read_text(errors="replace")[-3000:])
        return "\n".join(parts) or "no output"

    def _start_front(self) -> None:
        self._thread = LoopThread(f"pbem-dovecot-front-{self.domain}")
        self._thread.start()
        self._lmtp = LmtpClient(self.host, self.lmtp_port, self.domain)

        async def create(address: str) -> None:
            self.add_user(address, AUTO_CREATE_PASSWORD)

        async def deliver(mail_from: str, original_rcpt: str, user: str, data: bytes) -> None:
            assert self._lmtp is not None
            await self._lmtp.deliver(mail_from, [original_rcpt], data)

        self._handler = FrontHandler(
            is_user=lambda address: address in self._passwords,
            create_user=create if self.auto_create else None,
            deliver=deliver,
            check_login=lambda user, password: self._passwords.get(base_address(user)) == password,
        )

        context = None
        if self.tls is not None:
            context = ssl.create_default_context(ssl.Purpose.CLIENT_AUTH)
            context.load_cert_chain(self.tls.cert, self.tls.key)
        self._servers.clear()

        async def start_server(implicit_tls: bool) -> int:
            assert self._handler is not None
            server = await start_smtp_server(self._handler, self.host, self.domain, tls_context=context,
                                             implicit_tls=implicit_tls)
            self._servers.append(server)
            return int(server.sockets[0].getsockname()[1])

        self.smtp_port = self._thread.run(start_server(False))
        if context is not None:
            self.smtps_port = self._thread.run(start_server(True))

    def stop(self) -> None:
        thread, self._thread = self._thread, None
        if thread is not None:

            async def close() -> None:
                for server in self._servers:
                    server.close()
                if self._lmtp is not None:
                    await self._lmtp.close()

            try:
                thread.run(close(), timeout=10)
            finally:
                thread.stop()
        self._end_process()
        root, self.root = self.root, None
        if root is not None:
            shutil.rmtree(root, ignore_errors=True)

    def _end_process(self) -> None:
        process, self._process = self._process, None
        if process is not None:
            with contextlib.suppress(ProcessLookupError):
                os.killpg(process.pid, signal.SIGTERM)
            try:
                process.wait(10)
            except subprocess.TimeoutExpired:
                with contextlib.suppress(ProcessLookupError):
                    os.killpg(process.pid, signal.SIGKILL)
                process.wait(5)
            if process.stderr:
                process.stderr.close()

