"""The new part of a reply: what the player wrote, without our mail quoted back.

``new_text(msg, marker)`` picks the body (text/plain preferred, HTML converted otherwise),
decodes any transfer encoding and charset, undoes format=flowed, then ``trim_reply`` cuts:

1. at our own marker line when it appears unquoted (clients that quote without ``>``),
2. at an Outlook-style header block (``From: … Sent: …``, also Vietnamese ``Từ: … Đã gửi: …``),
   "-----Original Message-----" / forwarded-message separators and Outlook's underscore rule,
3. at "sent from my phone" footers and the ``-- `` signature delimiter,
4. at an attribution line ("On … wrote:", "Vào … đã viết:", "Le … a écrit :", "Am … schrieb …:")
   followed by unquoted text; an attribution followed by ``>`` quotes is only dropped, so
   bottom-posted and inline replies keep what follows the quote,

and then drops every ``>``-quoted line and a closing valediction ("Thanks, Ann", "Thân, Ann").

Library choice: mail-parser-reply (a regex port of GitHub's email_reply_parser) was evaluated
against ``tests/fixtures/mail/replies`` (see ``tests/mail/test_extract.py::
test_mail_parser_reply_evaluation``) and dropped: it knows no Vietnamese attributions or
footers, cannot use our marker, and its signature rule cuts at any line starting ``- word``.
html2text (well kept, pure Python) converts HTML: it renders ``<blockquote>`` as ``>`` quotes,
so HTML-only mails go through the same trimming as plain text.
"""

from __future__ import annotations

import codecs
import re
import unicodedata
from email.message import Message

import html2text

# -- choosing and decoding the body -------------------------------------------------------------


def new_text(msg: Message, marker: str) -> str:
    """Only what the sender wrote in this reply (may be empty: a subject-only reply)."""
    return trim_reply(body_text(msg), marker)


def body_text(msg: Message) -> str:
    """The readable body: text/plain parts when there are any, else HTML converted to text."""
    pieces = _collect(msg)
    plain = [text for text, kind in pieces if kind == "plain"]
    if plain:
        return "\n".join(plain)
    return "\n".join(html_to_text(text) for text, kind in pieces if kind == "html")


def _is_attachment(part: Message) -> bool:
    return (part.get_content_disposition() or "") == "attachment"


def _collect(part: Message) -> list[tuple[str, str]]:
    """(text, 'plain'|'html') pieces in reading order, one alternative chosen per alternative."""
    ctype = part.get_content_type()
    if part.is_multipart():
        children = [c for c in part.get_payload() if isinstance(c, Message) and not _is_attachment(c)]
        if ctype == "multipart/alternative":
            for wanted in ("text/plain", "text/html"):
                for child in children:
                    if child.get_content_type() == wanted or (
                        child.is_multipart() and _has_type(child, wanted)
                    ):
                        return _collect(child)
            return _collect(children[-1]) if children else []
        pieces: list[tuple[str, str]] = []
        for child in children:
            if child.get_content_maintype() != "message":  # a forwarded mail's text is not new
                pieces += _collect(child)
        return pieces
    if _is_attachment(part):
        return []
    if ctype == "text/plain":
        text = decode_part(part)
        if str(part.get_param("format") or "").lower() == "flowed":
            text = unflow(text, delsp=str(part.get_param("delsp") or "").lower() == "yes")
        return [(text, "plain")]
    if ctype == "text/html":
        return [(decode_part(part), "html")]
    return []


def _has_type(part: Message, ctype: str) -> bool:
    return any(p.get_content_type() == ctype for p in part.walk())


def decode_part(part: Message) -> str:
    """Transfer encoding and charset undone; unknown or lying charsets fall back sensibly.

    Windows-1258 writes Vietnamese tones as combining marks; NFC composes them so "đánh" from
    any client compares equal.
    """
    raw = part.get_payload(decode=True)
    if not isinstance(raw, bytes):
        raw = str(part.get_payload()).encode("utf-8", "surrogateescape")
    declared = part.get_content_charset() or "us-ascii"
    text: str | None = None
    for charset in (declared, "utf-8"):
        try:
            codecs.lookup(charset)
            text = raw.decode(charset)
            break
        except (LookupError, UnicodeDecodeError):
            continue
    if text is None:
        text = raw.decode("windows-1252", "replace")
    return unicodedata.normalize("NFC", text)


def unflow(text: str, delsp: bool = False) -> str:
    """Undo RFC 3676 format=flowed: a line ending in a space continues on the next line."""
    out: list[str] = []
    pending: str | None = None
    pending_depth = -1
    for line in text.replace("\r\n", "\n").split("\n"):
        depth = len(line) - len(line.lstrip(">"))
        content = line[depth:]
        if content.startswith(" "):
            content = content[1:]  # space-stuffing
        if pending is not None and depth == pending_depth:
            content = pending + content
        elif pending is not None:
            out.append(_quote_prefix(pending_depth) + pending)
        pending = None
        if content.endswith(" ") and content != "-- ":
            pending, pending_depth = (content[:-1] if delsp else content), depth
            continue
        out.append(_quote_prefix(depth) + content)
    if pending is not None:
        out.append(_quote_prefix(pending_depth) + pending)
    return "\n".join(out)


def _quote_prefix(depth: int) -> str:
    return "> " * depth if depth else ""


_MD_ESCAPE = re.compile(r"\\([\\`*_{}\[\]()#+\-.!>])")


def html_to_text(html: str) -> str:
    """HTML to plain text with ``>`` for blockquotes and no Markdown decoration."""
    converter = html2text.HTML2Text()
    converter.body_width = 0
    converter.ignore_images = True
    converter.ignore_emphasis = True
    converter.ignore_links = True
    converter.unicode_snob = True
    return _MD_ESCAPE.sub(r"\1", converter.handle(html))


# -- trimming -----------------------------------------------------------------------------------

_SPACES = str.maketrans({"\u00a0": " ", "\u202f": " ", "\u2007": " ", "\u200b": "", "\ufeff": "", "\t": " "})

_ATTRIBUTION_OPENERS = re.compile(r"^(on|vào|vao|le|am|el|il|op|em|в)\b", re.IGNORECASE)
_ATTRIBUTION = [
    re.compile(p, re.IGNORECASE)
    for p in (
        r"^on\b.{4,300}\bwrote\s*:?$",
        r"^(vào|vao)\b.{4,300}\b(đã viết|da viet|viết|viet)\s*:?$",
        r"^le\b.{4,300}\ba écrit\s*:?$",
        r"^am\b.{4,300}\bschrieb\b.*:$",
        r"^el\b.{4,300}\bescribió\s*:?$",
        r"^.{0,300}<[^<>\s]+@[^<>\s]+>\s*(wrote|đã viết|a écrit|schrieb|escribió|ha scritto|schreef)\s*:?$",
        r"^.{0,200}[\w.+-]+@[\w.-]+\s+(wrote|đã viết)\s*:?$",
    )
]
_SEPARATOR = re.compile(
    r"^[-_=*\s]*(original message|forwarded message|forwarded|thư gốc|thư chuyển tiếp|tin nhắn gốc|"
    r"tin nhắn chuyển tiếp|message d.origine|message transféré|ursprüngliche nachricht|"
    r"weitergeleitete nachricht|mensaje original|mensaje reenviado)[-_=*\s]*$",
    re.IGNORECASE,
)
_BEGIN_FORWARD = re.compile(r"^(begin forwarded message|bắt đầu thư được chuyển tiếp)\s*:$", re.IGNORECASE)
_RULE = re.compile(r"^(_{10,}|-{10,}|(\* ?){3,})$")
_FOOTER = re.compile(
    r"^(sent from (my|yahoo|mail|outlook|aol|proton|samsung)|sent with |get outlook for |"
    r"envoyé de mon|gesendet von meinem|enviado desde mi|"
    r"gửi từ |được gửi từ |đã gửi từ )",
    re.IGNORECASE,
)
_HEADER_FIRST = re.compile(r"^\*?(from|từ|de|von|van|da)\s*\*?\s*:", re.IGNORECASE)
_HEADER_NEXT = re.compile(
    r"^\*?(sent|date|to|subject|cc|đã gửi|ngày|đến|chủ đề|gửi|envoyé|date|à|objet|gesendet|datum|an|betreff|"
    r"enviado|fecha|para|asunto)\s*\*?\s*:",
    re.IGNORECASE,
)
_VALEDICTION = re.compile(
    r"^(thanks|thank you|many thanks|thx|regards|best|best regards|kind regards|warm regards|cheers|br|"
    r"cảm ơn|cám ơn|cảm ơn bạn|thân|thân ái|thân mến|trân trọng|chào|merci|cordialement|à bientôt|"
    r"mfg|viele grüße|grüße|gruß|saludos|un saludo)\b[\s,.!]*$",
    re.IGNORECASE,
)
_VALEDICTION_TAIL_LINES = 2
_VALEDICTION_TAIL_WIDTH = 40


def _squash(text: str) -> str:
    """Letters and digits only, case-folded: survives escaping, "?" for lost characters, spacing."""
    return re.sub(r"[\W_]+", "", unicodedata.normalize("NFC", text)).casefold()


def _marker_parts(marker: str) -> list[str]:
    """The marker and, for a bilingual one, each half: a legacy charset may mangle one half."""
    parts = [marker, *re.split(r"\s[·|/]\s", marker)]
    squashed = [_squash(p) for p in parts]
    return [p for p in dict.fromkeys(squashed) if len(p) >= 10]


def _is_quoted(line: str) -> bool:
    return line.lstrip().startswith(">")


def _is_marker(lines: list[str], i: int, parts: list[str]) -> bool:
    here = _squash(lines[i])
    if not here:
        return False
    if any(p in here for p in parts):
        return True
    if i + 1 < len(lines):  # the marker wrapped onto the next line
        nxt = _squash(lines[i + 1])
        return any(p in here + nxt and p not in nxt for p in parts)
    return False


def _attribution_span(lines: list[str], i: int) -> int:
    """How many lines (1-3) starting at ``i`` form an attribution, 0 when none."""
    first = lines[i].strip()
    if not first:
        return 0
    joined = first
    for span in (1, 2, 3):
        if span > 1:
            if (
                i + span - 1 >= len(lines)
                or not lines[i + span - 1].strip()
                or not _ATTRIBUTION_OPENERS.match(first)
            ):
                return 0
            joined = f"{joined} {lines[i + span - 1].strip()}"
        if len(joined) <= 400 and any(p.match(joined) for p in _ATTRIBUTION):
            return span
    return 0


def _is_header_block(lines: list[str], i: int) -> bool:
    if not _HEADER_FIRST.match(lines[i].strip()):
        return False
    following = [line.strip() for line in lines[i + 1 : i + 5]]
    return any(_HEADER_NEXT.match(line) for line in following)


def _next_content(lines: list[str], i: int) -> str | None:
    for line in lines[i:]:
        if line.strip():
            return line
    return None


def trim_reply(text: str, marker: str) -> str:
    """Cut quoted mail, attributions, separators, signatures and footers; see module doc."""
    lines = [line.translate(_SPACES).rstrip() for line in unicodedata.normalize("NFC", text).splitlines()]
    parts = _marker_parts(marker)
    kept: list[str] = []
    i = 0
    while i < len(lines):
        line = lines[i]
        stripped = line.strip()
        if _is_quoted(line):
            i += 1
            continue
        if (
            _is_marker(lines, i, parts)
            or _SEPARATOR.match(stripped)
            or _BEGIN_FORWARD.match(stripped)
            or _RULE.match(stripped)
            or _is_header_block(lines, i)
            or line == "--"
            or (_FOOTER.match(stripped) and len(stripped) <= 100)
        ):
            break
        span = _attribution_span(lines, i)
        if span:
            after = _next_content(lines, i + span)
            if after is None or not _is_quoted(after):
                break  # the original follows unquoted: nothing after this is new
            i += span
            continue
        kept.append(stripped)
        i += 1
    return _tidy(_drop_valediction(kept))


def _drop_valediction(lines: list[str]) -> list[str]:
    content = [n for n, line in enumerate(lines) if line]
    for n in content[-(_VALEDICTION_TAIL_LINES + 1) :]:
        if _VALEDICTION.match(lines[n]):
            tail = [line for line in lines[n + 1 :] if line]
            if len(tail) <= _VALEDICTION_TAIL_LINES and all(_looks_like_a_name(t) for t in tail):
                return lines[:n]
    return lines


def _looks_like_a_name(line: str) -> bool:
    """'Ann', 'Nguyễn Văn An', 'A.': short, no digits — unlike a command such as '7 a4 c3'."""
    return len(line) <= _VALEDICTION_TAIL_WIDTH and len(line.split()) <= 4 and not re.search(r"\d", line)


def _tidy(lines: list[str]) -> str:
    """At most one blank line in a row, none at either end, no trailing separator lines."""
    out: list[str] = []
    for line in lines:
        if line or (out and out[-1]):
            out.append(line)
    while out and (not out[-1] or re.fullmatch(r"[-_=*\s]+", out[-1])):
        out.pop()
    return "\n".join(out)
