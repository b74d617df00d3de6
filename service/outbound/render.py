"""Rendering mails from jinja2 templates named by purpose, in any language of the catalogs.

Templates live in ``mail_templates/<purpose>.txt.j2`` (its ``subject`` block is the subject)
and ``<purpose>.html.j2``, one tree for every language: their words are English ``{% trans %}``
blocks and ``_()`` calls (jinja2.ext.i18n), translated from the ``pbem`` gettext catalogs
(engines.i18n), so a new language needs a new catalog and no new template. They receive plain values only — names, lines of text,
the board rendered by ``engine.render_view`` from a view — never a game state, so a
template cannot leak a secret the view does not hold.
"""

from __future__ import annotations

import base64
import binascii
import hashlib
import hmac
import itertools
import re
import sys
import uuid
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from datetime import datetime
from email.header import Header
from email.policy import compat32
from email.utils import format_datetime, formataddr
from pathlib import Path
from typing import Any
from zoneinfo import ZoneInfo

from jinja2 import Environment, FileSystemLoader, StrictUndefined, select_autoescape
from markupsafe import Markup

from engines import i18n
from service.addresses import clean_name

#: The line every mail carries; the reply above it is what we read.
MARKER = "##- Please reply above this line · Vui lòng trả lời phía trên dòng này -##"

#: Our loop header: a mail carrying it was written by a pbem service and is never answered.
LOOP_HEADER = "X-PBEM-Loop"

#: Subject tag of mails that belong to no game (answers to the plain service address).
SERVICE_TAG = "[PBEM]"

PURPOSES = ("started", "turn", "received", "moved", "over", "rejected", "help", "info", "finished", "invite",
            "reminder", "waiting")


def default_templates_dir() -> Path:
    """The checkout's ``mail_templates`` (source and editable installs), else the copy a wheel
    installs as data files under ``<prefix>/share/pbem/mail_templates``."""
    in_checkout = Path(__file__).resolve().parents[2] / "mail_templates"
    installed = Path(sys.prefix) / "share" / "pbem" / "mail_templates"
    return in_checkout if in_checkout.is_dir() or not installed.is_dir() else installed


@dataclass(frozen=True)
class InlineImage:
    """A picture shown in the HTML part, referenced as ``cid:<cid>`` (multipart/related)."""

    cid: str
    png: bytes
    alt: str


@dataclass(frozen=True)
class Attachment:
    """A file sent with a mail (a deadline as an iCalendar event)."""

    content_type: str  # e.g. "text/calendar; method=PUBLISH"
    filename: str
    data: bytes


@dataclass(frozen=True)
class Rendered:
    subject: str
    text: str
    html: str
    images: tuple[InlineImage, ...] = ()


class Renderer:
    """Renders one purpose in one language; missing values are errors, not blank text."""

    def __init__(self, templates_dir: Path | str | None = None, service_name: str = "pbem") -> None:
        folder = Path(templates_dir) if templates_dir else default_templates_dir()
        if not (folder / "_layout.txt.j2").is_file():
            raise FileNotFoundError(f"mail templates not found in {folder}")
        self.service_name = service_name
        self._folder = folder
        self._envs: dict[str, tuple[Environment, Environment]] = {}

    def _environments(self, lang: str) -> tuple[Environment, Environment]:
        """The text and HTML environments of one language, made on first use: the gettext
        callables are bound to the language, so one environment never serves two."""
        if lang not in self._envs:
            # auto_reload off: templates are compiled once per process, not stat()ed per mail
            text = Environment(loader=FileSystemLoader(self._folder), auto_reload=False, trim_blocks=True,
                               lstrip_blocks=True, keep_trailing_newline=True, undefined=StrictUndefined,
                               autoescape=False, extensions=["jinja2.ext.i18n"])
            html = Environment(loader=FileSystemLoader(self._folder), auto_reload=False, trim_blocks=True,
                               lstrip_blocks=True, undefined=StrictUndefined,
                               autoescape=select_autoescape(["j2", "html"]), extensions=["jinja2.ext.i18n"])
            for env, escaped in ((text, False), (html, True)):
                env.install_gettext_callables(  # type: ignore[attr-defined]  # added by the i18n extension
                    gettext=lambda msgid: i18n.gettext(lang, msgid),
                    ngettext=lambda one, many, n: i18n.ngettext(lang, one, many, n),
                    pgettext=lambda context, msgid: i18n.gettext(lang, msgid, context),
                    npgettext=lambda context, one, many, n: i18n.ngettext(lang, one, many, n, context),
                    newstyle=True)  # the templates compile to newstyle calls ...
                env.globals.update(gettext_callables(lang, escaped))  # ... answered by these
            self._envs[lang] = (text, html)
        return self._envs[lang]

    def render(self, purpose: str, lang: str, **values: Any) -> Rendered:
        if purpose not in PURPOSES:
            raise ValueError(f"no mail purpose {purpose!r}")
        lang = lang if lang in i18n.languages() else i18n.SOURCE_LANG
        for name_key in ("player", "host"):  # names are data: one line, capped (see clean_name)
            if isinstance(values.get(name_key), str):
                values[name_key] = clean_name(values[name_key])
        if isinstance(values.get("players"), list):
            values["players"] = [clean_name(n) if isinstance(n, str) else n for n in values["players"]]
        ctx: dict[str, Any] = {
            "marker": MARKER, "service_name": self.service_name, "lang": lang, "game": None,
            "results": None, "digest": [], "board": "", "menu": [], "examples": [], "deadline": None, "lines": [], "commands": [],
            "board_image": None, "games": [], "sections": [], "menu_more": "", "next": "", "short": False,
            "lines_first": [],
            **values,
        }
        picture = ctx.pop("picture", None)
        images: tuple[InlineImage, ...] = ()
        if picture is not None:
            cid = f"board.{uuid.uuid4().hex[:16]}@pbem"
            ctx["board_image"] = {"cid": cid, "alt": picture.alt, "width": picture.width}
            images = (InlineImage(cid, picture.png, picture.alt),)
        text_env, html_env = self._environments(lang)
        text_tpl = text_env.get_template(f"{purpose}.txt.j2")
        subject = "".join(text_tpl.blocks["subject"](text_tpl.new_context(ctx))).strip()
        text = _tidy(text_tpl.render(ctx))
        html = html_env.get_template(f"{purpose}.html.j2").render({**ctx, "subject": subject})
        return Rendered(subject, text, html, images)


def gettext_callables(lang: str, escaped: bool) -> dict[str, Callable[..., str]]:
    """jinja2's newstyle ``gettext``, ``ngettext``, ``pgettext``, ``npgettext`` and ``_`` for one
    language, for an environment whose templates are all ``escaped`` (autoescaped) or none.

    They answer exactly as jinja2's (``jinja2.ext._make_new_gettext`` and its siblings): the
    translation, marked safe when escaped, formatted with the variables (``num`` and ``context``
    added). jinja2's read the template's autoescape flag through the context and call the
    translation through ``Context.call``, twice for each ``_()``: ~50 texts a mail made that a
    third of rendering. ``tests/service/test_render.py`` compares every purpose with jinja2's."""
    mark: Callable[[str], str] = Markup if escaped else str

    def gettext(msgid: str, /, **variables: Any) -> str:
        return mark(i18n.gettext(lang, msgid)) % variables

    def ngettext(one: str, many: str, num: int, /, **variables: Any) -> str:
        variables.setdefault("num", num)
        return mark(i18n.ngettext(lang, one, many, num)) % variables

    def pgettext(context: str, msgid: str, /, **variables: Any) -> str:
        variables.setdefault("context", context)
        return mark(i18n.gettext(lang, msgid, context)) % variables

    def npgettext(context: str, one: str, many: str, num: int, /, **variables: Any) -> str:
        variables.setdefault("context", context)
        variables.setdefault("num", num)
        return mark(i18n.ngettext(lang, one, many, num, context)) % variables

    return {"gettext": gettext, "_": gettext, "ngettext": ngettext, "pgettext": pgettext, "npgettext": npgettext}


def _tidy(text: str) -> str:
    """At most one blank line in a row: templates with optional sections stay readable."""
    out: list[str] = []
    for line in text.splitlines():
        if line.strip() or (out and out[-1].strip()):
            out.append(line.rstrip() if line.strip() != "--" else "-- ")
    return "\n".join(out).strip("\n") + "\n"


def format_deadline(when: datetime, tz: str, lang: str) -> str:
    """A deadline in the player's own time zone, e.g. ``2026-01-04 13:00 (Asia/Ho_Chi_Minh)``."""
    try:
        zone = ZoneInfo(tz)
    except Exception:  # an unknown zone stored long ago: fall back rather than fail a mail
        zone, tz = ZoneInfo("UTC"), "UTC"
    local = when.astimezone(zone)
    return f"{local:%Y-%m-%d %H:%M} ({tz})"


def subject_tag(engine_id: str, game_id: int) -> str:
    return f"[{engine_id.upper()} #{game_id}]"


def thread_root(key_secret: str, game_id: int, seat: int, domain: str) -> str:
    """The Message-ID of a seat's first mail of a game; every later mail refers to it.

    Stable (every mail of the seat must point at the same root) but unguessable: a MAC under
    the secret and the installation id, so nobody can name it in a forged In-Reply-To and two
    databases never share a thread id (clients would merge unrelated games)."""
    mac = hmac.new(key_secret.encode(), f"pbem-thread:{game_id}:{seat}".encode(), hashlib.sha256).hexdigest()
    return f"<{mac[:32]}.start@{domain}>"


def build_message(
    *,
    from_name: str,
    from_address: str,
    to: str,
    reply_to: str,
    subject: str,
    rendered: Rendered,
    message_id: str,
    date: datetime,
    in_reply_to: str | None = None,
    attachments: Sequence[Attachment] = (),
) -> bytes:
    """The raw bytes of a multipart/alternative mail with our loop defences and threading
    headers; both parts UTF-8 quoted-printable, so the raw mail stays readable. With an
    ``attachments`` (calendar events) the alternative is the first part of a multipart/mixed.

    Only the header block goes through the email package (compat32: encoding and folding);
    the body is assembled here. The mail is only serialised, never read back, and the email
    package's generator writing the bodies line by line (plus its pure-Python QP encoder)
    was the largest cost of a sent mail. The boundary starts with ``=_``, which
    quoted-printable text can never contain, so it cannot collide with the parts.
    """
    boundary = f"=_pbem_{uuid.uuid4().hex}"
    headers: list[tuple[str, str | Header]] = [
        ("From", formataddr((from_name, from_address), charset="utf-8")),
        ("To", to),
        ("Reply-To", reply_to),
        ("Subject", subject_header(subject)),
        ("Message-ID", message_id),
        ("Date", format_datetime(date)),
    ]
    if in_reply_to and in_reply_to != message_id:
        headers += [("In-Reply-To", in_reply_to), ("References", in_reply_to)]
    headers += [("Auto-Submitted", "auto-generated"), (LOOP_HEADER, from_address)]
    head = b"".join(header_line(name, value) for name, value in headers)
    # the multipart lines by hand: a payload-less compat32 multipart would get empty parts
    alternative = f'Content-Type: multipart/alternative;\n boundary="{boundary}"\n'.encode("ascii")
    mixed = f"=_pbem_mixed_{uuid.uuid4().hex}" if attachments else ""
    if not attachments:
        parts = [b"MIME-Version: 1.0\n" + alternative, head]
    else:
        parts = [f'MIME-Version: 1.0\nContent-Type: multipart/mixed;\n boundary="{mixed}"\n'.encode("ascii"),
                 head, f"\n--{mixed}\n".encode("ascii") + alternative]
    parts.append(_text_part(boundary, "plain", rendered.text))
    if rendered.images:
        # the HTML and its pictures travel together: multipart/related inside the alternative
        related = f"=_pbem_rel_{uuid.uuid4().hex}"
        parts.append(f'\n--{boundary}\nContent-Type: multipart/related;\n boundary="{related}";\n type="text/html"\n'
                     .encode("ascii"))
        parts.append(_text_part(related, "html", rendered.html))
        for image in rendered.images:
            parts.append(
                f"\n--{related}\nContent-Type: image/png\nContent-Transfer-Encoding: base64\n"
                f"Content-ID: <{image.cid}>\nContent-Disposition: inline; filename=\"board.png\"\n\n".encode("ascii"))
            parts.append(b"\n".join(_chunks(binascii.b2a_base64(image.png, newline=False), 76)))
        parts.append(f"\n--{related}--\n".encode("ascii"))
    else:
        parts.append(_text_part(boundary, "html", rendered.html))
    parts.append(f"\n--{boundary}--\n".encode("ascii"))
    for attachment in attachments:
        parts.append(
            f"\n--{mixed}\nContent-Type: {attachment.content_type}; charset=\"utf-8\"; name=\"{attachment.filename}\"\n"
            f"Content-Disposition: attachment; filename=\"{attachment.filename}\"\n"
            "Content-Transfer-Encoding: base64\n\n".encode("ascii")
        )
        parts.append(base64.encodebytes(attachment.data).rstrip(b"\n"))
    if attachments:
        parts.append(f"\n--{mixed}--\n".encode("ascii"))
    return b"".join(parts)


#: Characters at which ``str.splitlines`` (and so compat32's header folding) breaks an ASCII value.
_LINE_BREAK = re.compile(r"[\r\n\x0b\x0c\x1c\x1d\x1e]")


def header_line(name: str, value: str | Header) -> bytes:
    """One header exactly as ``Message.as_bytes`` (compat32) writes it.

    Why not the email package alone: its folding (``Header.encode``) was ~8 % of a reply's CPU,
    for headers that are nearly all short ASCII lines compat32 writes unchanged — the case
    taken here directly (an ASCII value without line breaks or edge whitespace whose line fits
    the 78 columns). Everything else (the Subject's encoded words, long values) still goes
    through ``compat32.fold_binary``; ``tests/mail/test_header_line.py`` compares both."""
    if (isinstance(value, str) and value.isascii() and len(name) + len(value) + 2 <= _FOLD_AT
            and value[:1] not in _EDGE and value[-1:] not in _EDGE and not _LINE_BREAK.search(value)):
        return f"{name}: {value}\n".encode("ascii")
    return compat32.fold_binary(name, value)  # type: ignore[arg-type]  # compat32 folds a Header as well


#: compat32's longest header line, and the whitespace the fast path leaves to it at a value's ends.
_FOLD_AT = compat32.max_line_length or 78
_EDGE = ("", " ", "\t")


def _text_part(boundary: str, subtype: str, body: str) -> bytes:
    head = (f"\n--{boundary}\nContent-Type: text/{subtype}; charset=\"utf-8\"\n"
            "Content-Transfer-Encoding: quoted-printable\n\n").encode("ascii")
    return head + utf8_qp(body)


def _chunks(data: bytes, size: int) -> list[bytes]:
    return [data[i:i + size] for i in range(0, len(data), size)]


def utf8_qp(body: str) -> bytes:
    """UTF-8 quoted-printable by ``binascii`` (C), without a trailing newline."""
    return binascii.b2a_qp(body.encode("utf-8")).rstrip(b"\n")


def subject_header(subject: str) -> Header:
    """Encode only the non-ASCII words, so ``[TAC #42]`` and ``ref KEY`` stay plain in the raw
    header (filters and the subject-key fallback of other tools can read them)."""
    header = Header(header_name="Subject")
    for is_ascii, words in itertools.groupby(subject.split(" "), key=str.isascii):
        header.append(" ".join(words), "us-ascii" if is_ascii else "utf-8")
    return header
