"""Mail that must never be answered: auto-replies, bounces, list mail, our own mail.

Answering any of these risks a mail loop (two auto-responders answering each other forever)
or spamming a list, so the pipeline drops them silently. The checks follow RFC 3834
(Auto-Submitted), the de-facto Precedence / X-Autoreply headers, RFC 3464 delivery reports
and RFC 2369/2919 list headers; out-of-office subjects catch the clients that set none of these.
The first matching rule gives the reason, which the pipeline stores for the admin.
"""

from __future__ import annotations

import functools
import re
import unicodedata
from collections.abc import Collection
from email.header import decode_header, make_header
from email.message import Message

from service.addresses import base_address, parse_addresses

#: Our loop header (kept equal to ``service.outbound.render.LOOP_HEADER``): present = a pbem mail.
LOOP_HEADER = "X-PBEM-Loop"

_AUTOMATIC_PRECEDENCE = {"bulk", "list", "junk", "auto_reply", "auto-reply"}
_AUTOMATIC_LOCAL_PARTS = re.compile(
    r"^(mailer-daemon|postmaster|no-?reply|do-?not-?reply|donotreply|noreply-[\w.-]+|bounces?|"
    r"bounce-[\w.-]+|auto-?reply|autoresponder|daemon|listserv|majordomo|[\w.-]+-(request|owner|bounces))$",
    re.IGNORECASE,
)
# Subjects are compared without diacritics, so "Vang mat" matches "Vắng mặt".
_OUT_OF_OFFICE = re.compile(
    r"\b(out of (the )?office|automatic reply|auto(matic)?[- ]?reply|autoreply|auto[- ]?response|"
    r"away from (the )?office|on vacation|vacation (reply|notice|message)|on leave|abwesenheit|"
    r"absence du bureau|reponse automatique|respuesta automatica|fuera de la oficina|"
    r"tra loi tu dong|tu dong tra loi|thu tra loi tu dong|vang mat|khong co mat|dang di vang|"
    r"nghi phep|khong o van phong|delivery status notification|undeliver(ed|able)|"
    r"returned mail|mail delivery (failed|failure|subsystem)|failure notice)\b",
    re.IGNORECASE,
)


def automatic_reason(msg: Message, own_addresses: Collection[str]) -> str | None:
    """Why ``msg`` must not be answered, or None for a mail a person wrote."""
    own = {base_address(a) for a in own_addresses}
    present = {name.lower() for name in msg}  # its header names; msg.get walks them all for each name
    if LOOP_HEADER.lower() in present:
        return f"loop: carries our {LOOP_HEADER} header"
    senders = _senders(msg)
    for sender in senders:
        if base_address(sender) in own:
            return f"own address: sent from {sender}"
    auto_submitted = _header(msg, "Auto-Submitted").lower()
    if auto_submitted and auto_submitted.split(";")[0].strip() != "no":
        return f"auto-submitted: {auto_submitted}"
    if msg.get_content_type() == "multipart/report":
        return f"delivery report (multipart/report; report-type={msg.get_param('report-type') or '?'})"
    for name in ("X-Autoreply", "X-Autorespond", "X-Autoresponder", "X-Auto-Reply"):
        if name.lower() in present:
            return f"{name.lower()}: {_header(msg, name)}"
    precedence = _header(msg, "Precedence").lower()
    if precedence in _AUTOMATIC_PRECEDENCE:
        return f"precedence: {precedence}"
    for name in ("List-Id", "List-Unsubscribe", "List-Post"):
        if name.lower() in present:
            return f"mailing list: has {name.lower()}"
    for sender in senders:
        local = base_address(sender).partition("@")[0]
        if _AUTOMATIC_LOCAL_PARTS.match(local):
            return f"automatic sender: {sender}"
    subject = _plain_subject(msg)
    if _OUT_OF_OFFICE.search(subject):
        return f"automatic subject: {_header(msg, 'Subject')}"
    return None


def _header(msg: Message, name: str) -> str:
    value = msg.get(name)
    if value is None:
        return ""
    return decoded_text(str(value))


def decoded_text(value: str) -> str:
    """A header value's text with RFC 2047 encoded words decoded, stripped.

    A pure function of the value, remembered for values of ordinary size (1,024 answers of at
    most 1,000 characters): this filter and the pipeline (``header_text_of``) read the same
    Subject, and decoding its encoded words was ~2 % of a reply."""
    return _decoded_cached(value) if len(value) <= CACHED_HEADER_MAX else _decoded(value)


#: Longest header value whose decoded text is remembered.
CACHED_HEADER_MAX = 1000


@functools.lru_cache(maxsize=1024)
def _decoded_cached(value: str) -> str:
    return _decoded(value)


def _decoded(value: str) -> str:
    """A header's text with RFC 2047 encoded words decoded."""
    if "=?" not in value:  # no encoded word: decoding would give the text back unchanged
        return value.strip()
    try:
        return str(make_header(decode_header(value))).strip()
    except (UnicodeError, LookupError, ValueError):
        return value.strip()


def _senders(msg: Message) -> list[str]:
    """From, Sender and the envelope sender (Return-Path), when present."""
    values = [_header(msg, name) for name in ("From", "Sender", "Return-Path")]
    return [addr for _, addr in parse_addresses([v for v in values if v]) if addr]


def _plain_subject(msg: Message) -> str:
    """Decoded subject without diacritics (đ too), case-folded."""
    subject = unicodedata.normalize("NFKD", _header(msg, "Subject").replace("đ", "d").replace("Đ", "D"))
    return "".join(ch for ch in subject if not unicodedata.combining(ch)).casefold()
