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
import contextlib
import re
import unicodedata
from email.message import Message

import html2text

#: Default cap on the text of one reply (characters); the pipeline passes the configured one.
MAX_TEXT_CHARS = 2_000_000

# -- choosing and decoding the body -------------------------------------------------------------


def new_text(msg: Message, marker: str, sent: SentText | None = None, max_chars: int = MAX_TEXT_CHARS) -> str:
    """Only what the sender wrote in this reply (may be empty: a subject-only reply).
    Raises ``Unreadable`` for a mail whose body we cannot read at all, ``TooLarge`` for one
    with more than ``max_chars`` of text.

    ``sent`` is the text of the mail(s) this reply answers: any line that is part of it is
    quoted text, never new (see ``SentText``)."""
    body = body_text(msg)
    if len(body) > max_chars:
        raise TooLarge(f"{len(body)} characters of text")
    return trim_reply(body, marker, sent)


class Unreadable(Exception):
    """A reply with no text we can read (only a winmail.dat, only attachments, an encrypted
    body): the player is told so, rather than getting a status mail that ignores the move."""


class TooLarge(Unreadable):
    """A reply with more text than ``max_text_chars``: answered briefly, never read line by line."""


def body_text(msg: Message) -> str:
    """The readable body: text/plain parts when they hold anything, else HTML converted to text
    (clients that send an empty plain part beside the real HTML one), else the text inside an
    Outlook winmail.dat. Raises ``Unreadable`` when the mail has parts but none we can read."""
    pieces = _collect(msg)
    plain = [text for text, kind in pieces if kind == "plain"]
    if any(text.strip() for text in plain):
        return "\n".join(plain)
    html = "\n".join(html_to_text(text) for text, kind in pieces if kind == "html")
    if html.strip():
        return html
    tnef = _tnef_text(msg)
    if tnef is not None:
        return tnef
    if _has_unreadable_parts(msg):
        raise Unreadable("no text/plain, text/html or readable winmail.dat part")
    return "\n".join(plain)


_TNEF_TYPES = ("application/ms-tnef", "application/vnd.ms-tnef")


def _is_tnef(part: Message) -> bool:
    return part.get_content_type() in _TNEF_TYPES or (part.get_filename() or "").lower() == "winmail.dat"


def _tnef_text(msg: Message) -> str | None:
    """The plain or HTML body inside a winmail.dat (TNEF), decoded with ``tnefparse`` (a small,
    maintained pure-Python TNEF reader); ``None`` when there is none or it holds only RTF."""
    from tnefparse import TNEF

    for part in msg.walk():
        if part.is_multipart() or not _is_tnef(part):
            continue
        data = part.get_payload(decode=True)
        if not isinstance(data, bytes):
            continue
        try:
            tnef = TNEF(data)
        except Exception:  # a damaged or unsupported TNEF stream is simply unreadable
            continue
        for attr, convert in (("body", None), ("htmlbody", html_to_text)):
            value = getattr(tnef, attr, None)
            if isinstance(value, bytes):
                value = value.decode("utf-8", "replace") if attr == "htmlbody" else value.decode("cp1252", "replace")
            if isinstance(value, str) and value.strip("\x00 \r\n"):
                value = value.strip("\x00")
                return convert(value) if convert else value
    return None


def _has_unreadable_parts(msg: Message) -> bool:
    """Parts that are neither text nor an image/signature a phone adds beside the text."""
    for part in msg.walk():
        if part.is_multipart():
            continue
        ctype = part.get_content_type()
        if _is_tnef(part) or ctype in ("application/pkcs7-mime", "application/x-pkcs7-mime", "application/pgp-encrypted"):
            return True
    return False


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
                        chosen = _collect(child)
                        if any(text.strip() for text, _ in chosen):
                            return chosen  # else an empty plain part: try the HTML one
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


# -- what we sent ----------------------------------------------------------------------------------

_FOLD_EXTRA = str.maketrans({"đ": "d", "Đ": "d", "ø": "o", "Ø": "o", "ł": "l", "Ł": "l", "ı": "i"})
_NOT_ALNUM = re.compile(r"[\W_]+")
#: A fragment this long (letters and digits) that is part of what we sent is ours on its own;
#: shorter pieces need a neighbour (a quoted line they continue) to count as ours.
MIN_OWN_FRAGMENT = 16
#: A menu line as our templates write it: "  3. COMMAND — label" (the command is the player's to copy).
_MENU_LINE = re.compile(r"^\s*\d+\.\s+(.+?)\s+[—–-]\s+.*$")
#: Lines of ours that echo the player's own words ("  NOT done: "play rain" — …"): they only
#: count as ours when they continue a quoted line, so a retried command is never taken for ours.
_ECHO = re.compile(r"^\s*(\*\s*)?(done|not done|ignored|đã làm|chưa làm|bỏ qua)\s*:", re.IGNORECASE)
_OFFER_SPLIT = re.compile(r"\s[|·]\s|[,;:]\s")


def fold(text: str) -> str:
    """Letters and digits only, case-folded, accents removed: what survives re-wrapping,
    re-quoting, de-accenting clients, legacy charsets and HTML conversion."""
    if text.isascii():  # the common case, without per-character work
        return _NOT_ALNUM.sub("", text).casefold()
    decomposed = unicodedata.normalize("NFKD", text.translate(_FOLD_EXTRA))
    bare = "".join(ch for ch in decomposed if not unicodedata.combining(ch))
    return _NOT_ALNUM.sub("", bare).casefold()


class SentText:
    """The text of the mails a reply answers (plain part, HTML part converted, header values),
    folded line by line. We know our own text exactly, which no generic quote detector can:

    * a reply line that contains one of our lines (at least ``MIN_OWN_FRAGMENT`` folded
      characters) or is a piece of our text that long is ours — except a line that is exactly
      a command our menu offered, which the player may copy;
    * a shorter line is ours when it continues the line above it (quoted or ours) inside one of
      our lines: a quote re-wrapped by the client without ``>`` on the continuation;
    * a line that is exactly our text between the lines around it (ours or quoted) is ours;
    * a line equal to a whole line of ours is ours when its neighbours are ours too (our mail
      pasted back unquoted).

    A player's line is never dropped for being short and common ("3", "K", "help"): short
    lines need one of the neighbour rules, and a neighbour rule only fires when the reply
    line continues or fills in OUR text exactly. Our lines that echo the player's earlier
    words ("NOT done: …") count only for the neighbour rules, so a retried command stays theirs.
    """

    def __init__(self, texts: list[str]) -> None:
        lines: list[str] = []
        all_lines: list[str] = []
        commands: set[str] = set()
        offered: set[str] = set()
        joined: list[str] = []  # per text: "a piece of our text" never spans two texts
        joined_all: list[str] = []
        for text in texts:
            text_lines: list[str] = []
            text_all: list[str] = []
            for raw in text.splitlines():
                folded = fold(raw)
                if folded:
                    text_all.append(folded)
                    if not _ECHO.match(raw):
                        text_lines.append(folded)
                menu = _MENU_LINE.match(raw)
                if menu:
                    commands.add(fold(menu.group(1)))
                if " | " in raw:  # a list of commands: "Commands: play N | charm | intensity 3"
                    for piece in _OFFER_SPLIT.split(raw):
                        if 2 <= len(fold(piece)) <= 24:
                            offered.add(fold(piece))
            lines += text_lines
            all_lines += text_all
            joined.append("".join(text_lines))
            joined_all.append("".join(text_all))
        self.lines = lines
        self.whole = set(lines)
        self.long_lines = [line for line in dict.fromkeys(lines) if len(line) >= MIN_OWN_FRAGMENT]
        self.single = "\x00".join(all_lines)
        # The texts (subject, plain part, HTML part) are separate: the subject's random ref
        # ending in "k" glued to the marker line must not make a player's "K" a piece of ours.
        self.joined = "\x00".join(joined)
        self.joined_all = "\x00".join(joined_all)
        self.commands = commands - {""}
        self.offered = self.commands | offered

    def __bool__(self) -> bool:
        return bool(self.lines)

    def ours(self, lines: list[str]) -> list[bool]:
        """For each line of a reply (quote marks included), whether it is text we sent."""
        folded = [fold(_unquote(line)) for line in lines]
        quoted = [_is_quoted(line) for line in lines]
        mine = [False] * len(lines)
        for i, text in enumerate(folded):
            if not text or quoted[i]:
                continue
            if text in self.offered:
                continue  # the player copied a command we offered (menu, command list): theirs
            if len(text) >= MIN_OWN_FRAGMENT and (text in self.joined or any(o in text for o in self.long_lines)):
                mine[i] = True
        for i, text in enumerate(folded):  # a run of short lines that together are a piece of ours
            if not text or quoted[i] or mine[i]:
                continue
            run, members, j = text, [i], i
            while True:
                nxt = j + 1
                while nxt < len(lines) and not folded[nxt] and not lines[nxt].strip():
                    nxt += 1
                if nxt >= len(lines) or quoted[nxt] or not folded[nxt] or run + folded[nxt] not in self.joined:
                    break
                run += folded[nxt]
                members.append(nxt)
                j = nxt
            if len(members) > 1 and len(run) >= MIN_OWN_FRAGMENT:
                for m in members:
                    mine[m] = True
        changed = True
        while changed:  # continuations and sandwiched whole lines, until nothing more is found
            changed = False
            for i, text in enumerate(folded):
                if mine[i] or quoted[i] or not lines[i].strip():
                    continue
                above = i - 1
                if not text:  # "-##", "--", "-.": no letters, the tail of a quoted line above
                    if above >= 0 and (quoted[above] or mine[above]):
                        mine[i] = changed = True
                    continue
                if above >= 0 and folded[above] and (quoted[above] or mine[above]) \
                        and folded[above] + text in self.single:
                    mine[i] = changed = True
                    continue
                if above >= 0 and folded[above] and (quoted[above] or mine[above]):
                    end = self._bridge(folded, quoted, mine, i)
                    if end is not None:  # exactly the text between two of our lines
                        mine[i:end] = [True] * (end - i)
                        changed = True
                        continue
                if text in self.whole and text not in self.commands and self._neighbours_ours(folded, quoted, mine, i):
                    mine[i] = changed = True
        return mine

    def _bridge(self, folded: list[str], quoted: list[bool], mine: list[bool], i: int) -> int | None:
        """End (exclusive) of the lines from ``i`` that fill exactly the gap between the line
        above and the next line of ours: a line of our mail the client re-wrapped into pieces."""
        run = folded[i - 1]
        for j in range(i, min(i + 8, len(folded))):
            if not folded[j]:
                return None
            run += folded[j]
            nxt = j + 1
            while nxt < len(folded) and not folded[nxt]:
                nxt += 1
            if nxt < len(folded) and (quoted[nxt] or mine[nxt]) and run + folded[nxt] in self.joined_all:
                return j + 1
            if nxt != j + 1 or nxt >= len(folded) or quoted[nxt] or mine[nxt]:
                return None
        return None

    @staticmethod
    def _neighbours_ours(folded: list[str], quoted: list[bool], mine: list[bool], i: int) -> bool:
        def near(step: int) -> bool | None:
            j = i + step
            while 0 <= j < len(folded):
                if folded[j]:
                    return quoted[j] or mine[j]
                j += step
            return None

        before, after = near(-1), near(1)
        return bool(before and after) or (before is None and bool(after)) or (after is None and bool(before))


def sent_text_of(msg: Message) -> list[str]:
    """The texts of one mail we sent: subject, the plain part, the HTML part."""
    # the subject only: our address appears in every attribution line ("… <play+key@…> a"),
    # which must stay an attribution for the generic rules, not become "ours" on its own
    texts = [str(msg.get("Subject", ""))]
    from email.header import decode_header, make_header

    with contextlib.suppress(UnicodeError, LookupError, ValueError):
        texts[0] = str(make_header(decode_header(texts[0])))
    for part in msg.walk():
        if part.get_content_type() == "text/plain":
            texts.append(decode_part(part))
        elif part.get_content_type() == "text/html":
            texts.append(html_to_text(decode_part(part)))
    return texts


def _unquote(line: str) -> str:
    return re.sub(r"^(\s*>)+", "", line)


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
        # any language: the sender's address, at most eight words, a colon ("… <a@b> escreveu:",
        # "… <a@b> napisał(a):", "… <a@b> пишет:", "2026年11月30日(月) 10:00 pbem <a@b>:")
        r"^.{0,300}[\w.+-]+@[\w.-]+>?\S*(\s+\S+){0,8}\s*[:：]$",
    )
]
#: Every attribution pattern needs one of these words: a cheap test before the regexes, which
#: backtrack badly on long lines (a 1 MB reply of long lines took seconds).
_ATTRIBUTION_WORDS = ("wrote", "viết", "viet", "écrit", "schrieb", "escribió", "scritto", "schreef", "@")
_SEPARATOR = re.compile(
    r"^[-_=*\s]*(original message|forwarded message|forwarded|thư gốc|thư chuyển tiếp|tin nhắn gốc|"
    r"tin nhắn chuyển tiếp|message d.origine|message transféré|ursprüngliche nachricht|"
    r"weitergeleitete nachricht|mensaje original|mensaje reenviado)[-_=*\s]*$",
    re.IGNORECASE,
)
#: Lotus/HCL Notes: "-----pbem <play@…> wrote: -----" above the original.
_NOTES_SEPARATOR = re.compile(r"^-{3,}.{1,200}\b(wrote|schrieb|a écrit|escribió|đã viết)\s*:?\s*-{3,}$", re.IGNORECASE)
_BEGIN_FORWARD = re.compile(r"^(begin forwarded message|bắt đầu thư được chuyển tiếp)\s*:$", re.IGNORECASE)
_RULE = re.compile(r"^(_{10,}|-{10,}|(\* ?){3,})$")
_FOOTER = re.compile(
    r"^(sent from (my|yahoo|mail|outlook|aol|proton|samsung)|sent with |sent via |get outlook for |"
    r"envoyé de mon|envoyé depuis|obtenir outlook pour|téléchargez outlook pour|"
    r"gesendet von meinem|von meinem .{1,30} gesendet|outlook für .{1,20} (herunterladen|beziehen)|"
    r"enviado desde mi|enviado do meu|enviado de meu|obtener outlook para|baixe o outlook para|obter o outlook para|"
    r"inviato da|scarica outlook per|verzonden (met|vanaf) mijn|outlook voor .{1,20} downloaden|"
    r"wysłane z (mojego|iphone|aplikacji)|pobierz outlook dla|odesláno z|stáhnout outlook pro|"
    r"iphone'?umdan gönderildi|ios için outlook|отправлено с (моего )?|скачайте outlook для|"
    r"skickat från min|hämta outlook för|sendt fra min|lähetetty iphonesta|"
    r"gửi từ |được gửi từ |đã gửi từ |tải outlook cho |"
    r"从我的|从 ?iphone ?发送|获取 ?ios ?版 ?outlook|iphoneから送信|ios ?用 ?outlook ?を入手|"
    r"내 iphone에서 보냄|ios용 outlook 다운로드)",
    re.IGNORECASE,
)
#: A writer's own mark for text they cut out of the quote: "[...]", "[…]", "<snip>", "[snip]".
_TRIM_MARK = re.compile(r"^(\[\s*(\.{2,}|…|snip|cut|bỏ bớt)\s*\]|<\s*(snip|cut)\s*>|\.{3,}|…)$", re.IGNORECASE)
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
    if not first or len(first) > 400:  # no attribution is that long; skip the costly patterns
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
        lowered = joined.lower()
        if len(joined) <= 400 and any(w in lowered for w in _ATTRIBUTION_WORDS) \
                and any(p.match(joined) for p in _ATTRIBUTION):
            return span
    return 0


def _is_header_block(lines: list[str], i: int) -> bool:
    if not _HEADER_FIRST.match(lines[i].strip()):
        return False
    following = [line.strip() for line in lines[i + 1 : i + 5]]
    return any(_HEADER_NEXT.match(line) for line in following)


_ANY_HEADER = re.compile(r"^\*{0,2}[^\W\d_][\w'.-]*(?: [\w'.-]+){0,3}\*{0,2}\s*[:：]\*{0,2}(\s|$)")


def _is_header_block_by_shape(lines: list[str], i: int, ours: list[bool]) -> bool:
    """A quoted mail's header block in any language ("Från: … Till: … Ämne: …", "差出人: …"):
    four or more "Label: value" lines in a row (a blank line between them allowed), or three
    when one of them names an address or is ours."""
    block: list[int] = []
    blanks = 0
    for j in range(i, min(i + 12, len(lines))):
        if not lines[j].strip():  # HTML converted: one paragraph per header line
            blanks += 1
            if blanks > 1:
                break
            continue
        blanks = 0
        if not _ANY_HEADER.match(lines[j].strip()):
            break
        block.append(j)
    return len(block) >= 4 or (len(block) >= 3 and any("@" in lines[j] or ours[j] for j in block))


def _next_content(lines: list[str], i: int) -> str | None:
    for line in lines[i:]:
        if line.strip():
            return line
    return None


def trim_reply(text: str, marker: str, sent: SentText | None = None) -> str:
    """Cut quoted mail, attributions, separators, signatures and footers; see module doc."""
    # one translate for the whole text: none of the characters _SPACES maps breaks a line
    lines = [line.rstrip() for line in unicodedata.normalize("NFC", text).translate(_SPACES).splitlines()]
    parts = _marker_parts(marker)
    ours = sent.ours(lines) if sent else [False] * len(lines)
    kept: list[str] = []
    i = 0
    while i < len(lines):
        line = lines[i]
        stripped = line.strip()
        if _is_quoted(line) or ours[i] or _TRIM_MARK.match(stripped):
            i += 1
            continue
        if (
            _is_marker(lines, i, parts)
            or _SEPARATOR.match(stripped)
            or _BEGIN_FORWARD.match(stripped)
            or _NOTES_SEPARATOR.match(stripped)
            or _RULE.match(stripped)
            or _is_header_block(lines, i)
            or _is_header_block_by_shape(lines, i, ours)
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
