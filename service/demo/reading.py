"""What a human-like bot can read from a pbem mail: the text, the menu, the game, the key.

Only the mail itself is used — never the database — so the demo exercises exactly what a
person sees: the numbered menu lines ``  N. <command> — <label>`` of the text part.
"""

from __future__ import annotations

import email
import email.utils
import re
from dataclasses import dataclass
from email.header import decode_header, make_header
from email.message import Message

from service.addresses import address_detail

MENU_LINE = re.compile(r"^  (\d+)\. (.+?) — (.*)$", re.MULTILINE)
GAME_TAG = re.compile(r"\[([A-Z0-9_-]+) #(\d+)\]")
OVER_SUBJECTS = ("Game over", "Ván chơi kết thúc")
REJECTED_SUBJECTS = ("Not understood", "Không hiểu")
RECEIPT_SUBJECTS = ("Choice received", "Đã nhận lựa chọn")


@dataclass(frozen=True)
class MenuItem:
    number: int
    command: str
    label: str


@dataclass(frozen=True)
class ServiceMail:
    """One mail from the service, as a player's mail client shows it."""

    raw: bytes
    message_id: str
    subject: str
    text: str
    game: str | None  # "TAC #42"
    key: str | None  # the reply key of its Reply-To
    reply_to: str
    menu: tuple[MenuItem, ...]

    @property
    def is_over(self) -> bool:
        return any(s in self.subject for s in OVER_SUBJECTS)

    @property
    def is_receipt(self) -> bool:
        return any(s in self.subject for s in RECEIPT_SUBJECTS)

    @property
    def is_rejection(self) -> bool:
        return any(s in self.subject for s in REJECTED_SUBJECTS)


def _decoded(value: object) -> str:
    try:
        return str(make_header(decode_header(str(value))))
    except (UnicodeError, LookupError, ValueError):
        return str(value)


def _plain_text(msg: Message) -> str:
    for part in msg.walk():
        if part.get_content_type() == "text/plain" and part.get_content_disposition() != "attachment":
            payload = part.get_payload(decode=True)
            if isinstance(payload, bytes):
                return payload.decode(part.get_content_charset() or "utf-8", "replace")
    return ""


def read_mail(raw: bytes) -> ServiceMail:
    """Parse with the fast compat32 parser (the demo reads thousands of mails in the same
    process as the service); headers are decoded by hand where they may be encoded."""
    msg = email.message_from_bytes(raw)
    text = _plain_text(msg).replace("\r\n", "\n")
    subject = _decoded(msg.get("Subject", ""))
    tag = GAME_TAG.search(subject)
    reply_to = str(msg.get("Reply-To") or msg.get("From") or "")
    menu = tuple(MenuItem(int(n), cmd.strip(), label.strip()) for n, cmd, label in MENU_LINE.findall(text))
    return ServiceMail(
        raw=raw,
        message_id=str(msg.get("Message-ID", "")),
        subject=subject,
        text=text,
        game=f"{tag.group(1)} #{tag.group(2)}" if tag else None,
        key=address_detail(reply_to),
        reply_to=email.utils.parseaddr(reply_to)[1],
        menu=menu,
    )
