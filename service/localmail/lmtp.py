"""A minimal asyncio LMTP client (RFC 2033) for handing mail to Dovecot.

Why not ``smtplib.LMTP``: with several recipients it reads a single reply after DATA and then
desyncs the connection — LMTP answers once per accepted recipient (MAILSTACK.md pitfall 7).
And aiosmtplib speaks no LHLO. This client keeps one connection open and reads every reply.
"""

from __future__ import annotations

import asyncio

from service.localmail.smtpfront import DeliveryRefused


class LmtpError(DeliveryRefused):
    """A 4xx/5xx answer from the LMTP server; the SMTP front passes it on to its client."""


class LmtpClient:
    """One persistent LMTP connection; ``deliver`` is serialised by a lock and reconnects once."""

    def __init__(self, host: str, port: int, hostname: str = "localhost") -> None:
        self._host, self._port, self._hostname = host, port, hostname
        self._reader: asyncio.StreamReader | None = None
        self._writer: asyncio.StreamWriter | None = None
        self._lock = asyncio.Lock()

    async def _reply(self) -> tuple[int, str]:
        assert self._reader is not None
        lines: list[str] = []
        while True:
            raw = await self._reader.readline()
            if not raw:
                raise ConnectionError("LMTP server closed the connection")
            line = raw.decode("utf-8", "replace").rstrip("\r\n")
            lines.append(line[4:])
            if len(line) < 4 or line[3] != "-":
                return int(line[:3]), "\n".join(lines)

    async def _command(self, line: str, expect: int = 250) -> None:
        assert self._writer is not None
        self._writer.write(line.encode() + b"\r\n")
        code, text = await self._reply()
        if code != expect:
            raise LmtpError(code, text)

    async def _connect(self) -> None:
        self._reader, self._writer = await asyncio.open_connection(self._host, self._port)
        code, text = await self._reply()
        if code != 220:
            raise LmtpError(code, text)
        await self._command(f"LHLO {self._hostname}")

    async def close(self) -> None:
        if self._writer is not None:
            self._writer.close()
            self._reader = self._writer = None

    async def deliver(self, mail_from: str, recipients: list[str], data: bytes) -> None:
        async with self._lock:
            try:
                await self._transaction(mail_from, recipients, data)
            except (ConnectionError, OSError, LmtpError) as exc:
                # a dropped connection, or 421 from a Dovecot that shut down since: reconnect once
                if isinstance(exc, LmtpError) and exc.code != 421:
                    raise
                await self.close()
                await self._transaction(mail_from, recipients, data)

    async def _transaction(self, mail_from: str, recipients: list[str], data: bytes) -> None:
        if self._writer is None:
            await self._connect()
        assert self._writer is not None
        await self._command(f"MAIL FROM:<{mail_from}>")
        accepted = 0
        try:
            for rcpt in recipients:
                await self._command(f"RCPT TO:<{rcpt}>")
                accepted += 1
            await self._command("DATA", expect=354)
            self._writer.write(_dot_stuff(data) + b".\r\n")
            failures = []
            for _ in range(accepted):
                code, text = await self._reply()
                if code != 250:
                    failures.append(LmtpError(code, text))
            if failures:
                raise failures[0]
        except LmtpError:
            await self._command("RSET")
            raise


def _dot_stuff(data: bytes) -> bytes:
    """CRLF line endings, a leading '.' doubled, a final CRLF: the DATA encoding."""
    lines = data.replace(b"\r\n", b"\n").split(b"\n")
    if lines and lines[-1] == b"":
        lines.pop()
    return b"".join((b"." + line if line.startswith(b".") else line) + b"\r\n" for line in lines)
