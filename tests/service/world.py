"""A small world for end-to-end tests: a real mail stack, the service, and players who read
their mailbox and reply like people (menu numbers, free text, quoting the mail below)."""

from __future__ import annotations

import contextlib
import email
import email.policy
import itertools
import re
from dataclasses import dataclass, field
from email.message import EmailMessage
from pathlib import Path
from typing import Any

from sqlmodel import col, select

from service.clock import ManualClock
from service.config import Settings
from service.play.start import create_game
from service.schedule.runtime import Service
from service.store.games import create_player
from service.store.models import Game, InboundMail, MoveLog, Outbox
from tests.support.mailservers import fetch_all, send_mail
from tests.support.postgres import database_url_for

SERVICE = "play@pbem.test"
PASSWORD = "secret"
MENU_LINE = re.compile(r"^  (\d+)\. (.+?) — (.*)$", re.MULTILINE)
_ids = itertools.count(1)


def parse(raw: bytes) -> EmailMessage:
    return email.message_from_bytes(raw, policy=email.policy.default)  # type: ignore[return-value]


def text_of(msg: EmailMessage) -> str:
    part = msg.get_body(("plain",))
    assert part is not None
    return str(part.get_content())  # type: ignore[attr-defined]


def menu_of(msg: EmailMessage) -> list[tuple[int, str, str]]:
    return [(int(n), cmd, label) for n, cmd, label in MENU_LINE.findall(text_of(msg))]


def make_settings(stack: Any, tmp: Path, **extra: Any) -> Settings:
    values: dict[str, Any] = {
        "database_url": database_url_for(tmp),
        "service_address": SERVICE,
        "secret": "e2e-secret-0123456789abcdef",
        "imap_host": stack.host, "imap_port": stack.imap_port, "imap_user": SERVICE,
        "imap_password": PASSWORD, "imap_ssl": False,
        "smtp_host": stack.host, "smtp_port": stack.smtp_port,
        "state_dir": str(tmp),  # the notices' journal stays in the test's folder
    }
    values.update(extra)
    return Settings(**values)


@dataclass
class World:
    stack: Any
    service: Service
    clock: ManualClock
    seen: dict[str, int] = field(default_factory=dict)
    connections: dict[str, Any] = field(default_factory=dict)

    @classmethod
    def create(cls, stack: Any, tmp: Path, **extra: Any) -> World:
        stack.add_user(SERVICE, PASSWORD)
        clock = ManualClock()
        return cls(stack, Service(make_settings(stack, tmp, **extra), clock), clock)

    def restart(self, settings: Any) -> Service:
        """A new service process on ``settings``: the old one's mailbox lock and IMAP connection
        are let go first, as its process ending would (on PostgreSQL the mailbox is read by the
        holder of an advisory lock only)."""
        old = self.service
        old.mailbox_lock.release()
        with contextlib.suppress(Exception):
            old.inbox.close()
        self.service = Service(settings, self.clock)
        return self.service

    def player(self, address: str, name: str, lang: str = "en") -> str:
        self.stack.add_user(address, PASSWORD)
        with self.service.session() as s:
            create_player(s, address, name, lang, ctx=self.service.ctx)
            s.commit()
        return address

    def game(self, engine_id: str, players: list[str], seed: int = 1, **options: Any) -> int:
        with self.service.session() as s:
            game = create_game(s, engine_id, players, options or None, seed, ctx=self.service.ctx)
            s.commit()
            assert game.id is not None
            return game.id

    def mails(self, address: str) -> list[EmailMessage]:
        return [parse(raw) for raw in fetch_all(self.stack, address, PASSWORD)]

    def last(self, address: str) -> EmailMessage:
        mails = self.mails(address)
        assert mails, f"{address} has no mail"
        return mails[-1]

    def latest(self, address: str) -> EmailMessage:
        """Only the newest mail, over one kept-open connection per player (long games)."""
        from service.inbound.imapconn import open_imap

        client = self.connections.get(address)
        if client is None:
            client = self.connections[address] = open_imap(self.stack.host, self.stack.imap_port, address, PASSWORD)
        client.select_folder("INBOX", readonly=True)  # re-select: see mail that arrived meanwhile
        uid = max(client.search("ALL"))
        return parse(client.fetch([uid], ["BODY.PEEK[]"])[uid][b"BODY[]"])

    def close(self) -> None:
        for client in self.connections.values():
            client.logout()
        self.connections.clear()

    def new_mails(self, address: str) -> list[EmailMessage]:
        """Mails that arrived since the last call for this address."""
        mails = self.mails(address)
        start = self.seen.get(address, 0)
        self.seen[address] = len(mails)
        return mails[start:]

    def reply(self, sender: str, text: str, to: EmailMessage | None = None, *, subject: str | None = None,
              quote: bool = True, headers: dict[str, str] | None = None, message_id: str | None = None,
              from_header: str | None = None) -> EmailMessage:
        """Reply like a mail client: new text on top, the original quoted below."""
        original = to or self.last(sender)
        msg = EmailMessage()
        msg["From"] = from_header or sender
        msg["To"] = str(original["Reply-To"] or SERVICE)
        msg["Subject"] = subject if subject is not None else f"Re: {original['Subject']}"
        msg["Message-ID"] = message_id or f"<reply{next(_ids)}@client.test>"
        msg["In-Reply-To"] = str(original["Message-ID"])
        for name, value in (headers or {}).items():
            msg[name] = value
        body = text
        if quote:
            quoted = "\n".join("> " + line for line in text_of(original).splitlines())
            body = f"{text}\n\nOn Mon, 1 Jan 2026 at 12:00, pbem <{SERVICE}> wrote:\n{quoted}\n"
        msg.set_content(body)
        send_mail(self.stack, msg, sender, str(msg["To"]))
        return msg

    async def step(self) -> int:
        """One service round: read the inbox, then send what it queued."""
        handled = await self.service.poll_once()
        await self.service.flush_outbox()
        return handled

    def moves(self, game_id: int) -> list[MoveLog]:
        with self.service.session() as s:
            return list(s.exec(select(MoveLog).where(MoveLog.game_id == game_id).order_by(col(MoveLog.id))).all())

    def game_row(self, game_id: int) -> Game:
        with self.service.session() as s:
            return s.get_one(Game, game_id)

    def inbound(self) -> list[InboundMail]:
        with self.service.session() as s:
            return list(s.exec(select(InboundMail).order_by(col(InboundMail.id))).all())

    def outbox(self) -> list[Outbox]:
        with self.service.session() as s:
            return list(s.exec(select(Outbox).order_by(col(Outbox.id))).all())
