"""The demo's players: each reads its own mailbox over IMAP and answers over SMTP.

A bot answers the newest mail of a game that shows a menu, once per mail — except a "choice
received" mail, whose menu only offers to replace a secret choice already made: people leave
those alone. A "Not understood" mail is answered with a plain menu number.
The choice is random among the menu items, seeded, so a demo run can be repeated.
"""

from __future__ import annotations

import contextlib
import random
import smtplib
from dataclasses import dataclass, field
from email.message import EmailMessage
from email.utils import make_msgid

from imapclient import IMAPClient  # type: ignore[import-untyped]
from imapclient.exceptions import IMAPClientError  # type: ignore[import-untyped]

from service.demo.reading import ServiceMail, read_mail
from service.demo.styles import Persona
from service.inbound.imapconn import open_imap


@dataclass
class GameView:
    """What a bot remembers of one game thread."""

    latest: ServiceMail | None = None
    answered: set[str] = field(default_factory=set)  # Message-IDs of mails answered
    over: bool = False


class MailBot:
    """One player with a mailbox, a persona and a random source."""

    def __init__(
        self,
        address: str,
        password: str,
        name: str,
        persona: Persona,
        rng: random.Random,
        host: str,
        imap_port: int,
    ) -> None:
        self.address, self.password, self.name = address, password, name
        self.persona = persona
        self.rng = rng
        self.host, self.imap_port = host, imap_port
        self.games: dict[str, GameView] = {}
        self.replies_sent = 0
        self._last_uid = 0
        self._seen_deliveries = -1
        self._imap: IMAPClient | None = None

    def _client(self) -> IMAPClient:
        if self._imap is None:
            self._imap = open_imap(self.host, self.imap_port, self.address, self.password)
            self._imap.select_folder("INBOX")
        return self._imap

    def close(self) -> None:
        if self._imap is not None:
            with contextlib.suppress(IMAPClientError, OSError):
                self._imap.logout()
            self._imap = None

    def check_mail(self, delivered: int | None = None) -> int:
        """Read mail that arrived since the last check; returns how many.

        ``delivered`` (the server's count of messages stored for us, when it tells) lets the
        bot skip the IMAP round trip while nothing new arrived.
        """
        if delivered is not None and delivered == self._seen_deliveries:
            return 0
        self._seen_deliveries = delivered if delivered is not None else self._seen_deliveries
        client = self._client()
        try:
            uids = [u for u in client.search(["UID", f"{self._last_uid + 1}:*"]) if u > self._last_uid]
            if not uids:
                return 0
            fetched = client.fetch(uids, ["BODY.PEEK[]"])
        except (IMAPClientError, OSError):
            self.close()
            raise
        for uid in sorted(uids):
            data = fetched.get(uid, {}).get(b"BODY[]")
            if data is None:
                continue
            self._last_uid = max(self._last_uid, uid)
            mail = read_mail(bytes(data))
            if mail.game is None:
                continue
            view = self.games.setdefault(mail.game, GameView())
            view.latest = mail
            view.over = view.over or mail.is_over
        return len(uids)

    def replies_due(self) -> list[EmailMessage]:
        """The replies this player would write now, one per game that waits for it."""
        out: list[EmailMessage] = []
        for view in self.games.values():
            mail = view.latest
            if view.over or mail is None or not mail.menu or mail.is_receipt:
                continue
            if mail.message_id in view.answered:
                continue
            item = self.rng.choice(mail.menu)
            # After a refusal, answer like a careful person: with the menu number, no quote.
            body = str(item.number) if mail.is_rejection else self.persona.write(mail, item, self.name)
            view.answered.add(mail.message_id)
            out.append(self._reply(mail, body))
        return out

    def _reply(self, mail: ServiceMail, body: str) -> EmailMessage:
        msg = EmailMessage()
        msg["From"] = f"{self.name} <{self.address}>"
        msg["To"] = mail.reply_to
        msg["Subject"] = f"Re: {mail.subject}"
        msg["Message-ID"] = make_msgid(domain="players.pbem.test")
        if mail.message_id:
            msg["In-Reply-To"] = mail.message_id
            msg["References"] = mail.message_id
        msg.set_content(body)
        return msg

    def send(self, smtp: smtplib.SMTP, msg: EmailMessage) -> None:
        smtp.send_message(msg, from_addr=self.address, to_addrs=[str(msg["To"])])
        self.replies_sent += 1
