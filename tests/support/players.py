"""Simulated players for fault tests: each reads its own mailbox over IMAP and answers every
turn mail by mail, as a person would, while the test breaks the service's database and mail
servers underneath.

What they measure is what a player sees: the delay from sending a reply to the next mail of
that game (a "received, will be applied soon" notice does not count as the answer), and how
many copies of one mail (one Message-ID) reached a mailbox.
"""

from __future__ import annotations

import contextlib
import email
import email.policy
import itertools
import random
import re
import smtplib
import threading
import time
from collections import Counter
from dataclasses import dataclass, field
from email.message import EmailMessage
from typing import Any

from service.inbound.imapconn import open_imap
from tests.support.mailservers import MailStack, send_mail

MENU_LINE = re.compile(r"^  (\d+)\. (.+?) — (.*)$", re.MULTILINE)
TAG = re.compile(r"\[[A-Z]+ #\d+\]")
NOTICE_SUBJECTS = ("Received, will be applied soon", "Đã nhận, sẽ xử lý sớm")
_ids = itertools.count(1)


def _text(msg: EmailMessage) -> str:
    part = msg.get_body(("plain",))
    return "" if part is None else str(part.get_content())  # type: ignore[attr-defined]


@dataclass
class Reply:
    player: str
    tag: str
    message_id: str
    sent: float
    answered: float | None = None


@dataclass(eq=False)  # a Thread must stay hashable
class Players(threading.Thread):
    """A thread that plays for every address in ``players`` (password ``password``)."""

    stack: MailStack
    players: list[str]
    password: str
    service: str
    think: tuple[float, float] = (0.2, 1.0)
    seed: int = 1
    replies: list[Reply] = field(default_factory=list)
    copies: Counter[tuple[str, str]] = field(default_factory=Counter)
    subjects: dict[str, str] = field(default_factory=dict)  # Message-ID -> Subject, for the report
    notices: int = 0
    send_retries: int = 0

    def __post_init__(self) -> None:
        super().__init__(name="pbem-players", daemon=True)
        self._stop_event = threading.Event()
        self._lock = threading.Lock()
        self._rng = random.Random(self.seed)
        self._clients: dict[str, Any] = {}
        self._seen: dict[str, set[int]] = {p: set() for p in self.players}
        self._answered_keys: set[str] = set()
        self._todo: dict[tuple[str, str], tuple[float, EmailMessage]] = {}
        self._awaiting: dict[tuple[str, str], Reply] = {}

    # -- the loop ----------------------------------------------------------------------

    def run(self) -> None:
        while not self._stop_event.is_set():
            for player in self.players:
                try:
                    self._read(player)
                except Exception:  # the IMAP server is away: try again on the next round
                    self._drop(player)
            self._answer_due()
            self._stop_event.wait(0.1)
        for player in list(self._clients):
            self._drop(player)

    def stop(self) -> None:
        self._stop_event.set()
        self.join(timeout=60)

    def _drop(self, player: str) -> None:
        client = self._clients.pop(player, None)
        if client is not None:
            with contextlib.suppress(Exception):
                client.logout()

    def _read(self, player: str) -> None:
        client = self._clients.get(player)
        if client is None:
            client = self._clients[player] = open_imap(self.stack.host, self.stack.imap_port, player, self.password,
                                                       timeout=10)
        client.select_folder("INBOX", readonly=True)
        new = [uid for uid in client.search("ALL") if uid not in self._seen[player]]
        if not new:
            return
        fetched = client.fetch(new, ["BODY.PEEK[]"])
        now = time.time()
        for uid in sorted(new):
            self._seen[player].add(uid)
            msg: EmailMessage = email.message_from_bytes(fetched[uid][b"BODY[]"], policy=email.policy.default)  # type: ignore[assignment]
            self._receive(player, msg, now)

    def _receive(self, player: str, msg: EmailMessage, now: float) -> None:
        subject = str(msg["Subject"] or "")
        with self._lock:
            self.copies[(player, str(msg["Message-ID"]))] += 1
            self.subjects.setdefault(str(msg["Message-ID"]), subject)
            if self.copies[(player, str(msg["Message-ID"]))] > 1:
                return
            if subject.startswith(NOTICE_SUBJECTS):
                self.notices += 1
                return
            found = TAG.search(subject)
            if not found:
                return
            tag = found.group(0)
            waiting = self._awaiting.pop((player, tag), None)
            if waiting is not None:
                waiting.answered = now
            key = str(msg["Reply-To"] or "")
            if MENU_LINE.search(_text(msg)) and key.startswith(self.service.split("@")[0] + "+") \
                    and key not in self._answered_keys:
                self._todo[(player, tag)] = (now + self._rng.uniform(*self.think), msg)

    def _answer_due(self) -> None:
        now = time.time()
        with self._lock:
            due = [(k, m) for k, (at, m) in self._todo.items() if at <= now]
            for k, _ in due:
                del self._todo[k]
        for (player, tag), original in due:
            key = str(original["Reply-To"])
            if key in self._answered_keys:
                continue
            self._answered_keys.add(key)
            self._send(player, tag, original)

    def _send(self, player: str, tag: str, original: EmailMessage) -> None:
        reply = EmailMessage()
        reply["From"] = player
        reply["To"] = str(original["Reply-To"])
        reply["Subject"] = f"Re: {original['Subject']}"
        message_id = f"<fault{next(_ids)}.{self.seed}@client.test>"
        reply["Message-ID"] = message_id
        reply["In-Reply-To"] = str(original["Message-ID"])
        reply.set_content("1")
        first_try = time.time()
        while not self._stop_event.is_set():  # an MTA's queue: 4xx and a server away mean later
            try:
                send_mail(self.stack, reply, player, str(reply["To"]))
                break
            except (smtplib.SMTPResponseException, smtplib.SMTPRecipientsRefused, smtplib.SMTPServerDisconnected,
                    OSError) as exc:
                code = getattr(exc, "smtp_code", 451)
                if isinstance(exc, smtplib.SMTPRecipientsRefused):
                    code = min(c for c, _ in exc.recipients.values())
                if 500 <= code < 600:
                    raise
                self.send_retries += 1
                self._stop_event.wait(0.5)
        record = Reply(player, tag, message_id, first_try)
        with self._lock:
            self.replies.append(record)
            self._awaiting[(player, tag)] = record

    # -- what the test reads ---------------------------------------------------------------

    def sent_between(self, start: float, end: float) -> list[Reply]:
        with self._lock:
            return [r for r in self.replies if start <= r.sent <= end]

    def max_copies(self) -> int:
        with self._lock:
            return max(self.copies.values(), default=0)
