"""Hard bounces of our own mails (RFC 3464 delivery status notifications).

The automatic-mail filter (``autoreply.py``) already keeps a DSN from being answered; this
module reads it: when a report says delivery *failed* permanently (``Action: failed``,
``Status: 5.x.x``) for a mail we sent — its ``Message-ID``, quoted in the report, is one of
our outbox rows — the recipient's player is marked unreachable (``play.seats.mark_unreachable``).
A report that quotes no mail of ours changes nothing, so a forged bounce cannot cut a
player off by naming their address.
"""

from __future__ import annotations

from dataclasses import dataclass
from email.message import Message
from email.parser import HeaderParser

from sqlmodel import Session, select

from service.addresses import bare_address
from service.store.models import Outbox


@dataclass(frozen=True)
class Bounce:
    """One permanently failed recipient of one of our mails."""

    address: str
    status: str
    message_id: str


def _status_blocks(msg: Message) -> list[Message]:
    blocks: list[Message] = []
    for part in msg.walk():
        if part.get_content_type() == "message/delivery-status":
            payload = part.get_payload()
            if isinstance(payload, list):
                blocks.extend(p for p in payload if isinstance(p, Message))
            elif isinstance(payload, str):  # some parsers leave it as text
                blocks.extend(HeaderParser().parsestr(chunk) for chunk in payload.split("\n\n") if chunk.strip())
    return blocks


def _original_message_id(msg: Message) -> str:
    for part in msg.walk():
        kind = part.get_content_type()
        if kind == "message/rfc822":
            payload = part.get_payload()
            if isinstance(payload, list) and payload and isinstance(payload[0], Message):
                return "".join(str(payload[0].get("Message-ID", "")).split())
        elif kind == "text/rfc822-headers":
            text = part.get_payload(decode=True)
            headers = HeaderParser().parsestr(text.decode("utf-8", "replace") if isinstance(text, bytes) else str(text))
            return "".join(str(headers.get("Message-ID", "")).split())
    return ""


def hard_bounces(session: Session, msg: Message) -> list[Bounce]:
    """The permanent failures a DSN reports for one of our mails ([] for anything else)."""
    if msg.get_content_type() != "multipart/report":
        return []
    message_id = _original_message_id(msg)
    if not message_id:
        return []
    ours = session.exec(select(Outbox.to_address).where(Outbox.message_id == message_id)).first()
    if ours is None:
        return []
    out: list[Bounce] = []
    for block in _status_blocks(msg):
        action = str(block.get("Action", "")).strip().lower()
        status = str(block.get("Status", "")).strip()
        recipient = str(block.get("Final-Recipient", "") or block.get("Original-Recipient", ""))
        if action != "failed" or not status.startswith("5"):
            continue
        address = bare_address(recipient.partition(";")[2].strip() or recipient)
        if address == bare_address(ours):  # only the recipient of the mail we sent
            out.append(Bounce(address, status, message_id))
    return out
