"""We know what we sent: no line of a mail this service sent, through any quoting
transformation a client applies, is ever read as new text (so never as a command), while the
player's own lines above it are read exactly. The mails are real: games of every engine started
through the service, their outbox rows decoded as a client would."""

from __future__ import annotations

import email
import functools
import tempfile
import textwrap
import unicodedata
from pathlib import Path

from hypothesis import given, settings
from hypothesis import strategies as st

from service.inbound.extract import SentText, fold, html_to_text, sent_text_of, trim_reply
from service.inbound.pipeline import parse_message, split_commands
from service.outbound.render import MARKER

from .test_reading import make_ctx, new_game, outbox

GAMES = [("tac", ("ann", "bob", "cat", "dan")), ("tagteam", ("ann", "bob")),
         ("grizzled", ("ann", "bob", "cat")), ("barcadia", ("ann", "bob"))]

HEADER_BLOCKS = {
    "en": ("From", "Sent", "To", "Subject"), "sv": ("Från", "Skickat", "Till", "Ämne"),
    "fr": ("De", "Envoyé", "À", "Objet"), "es": ("De", "Enviado", "Para", "Asunto"),
    "it": ("Da", "Inviato", "A", "Oggetto"), "pt": ("De", "Enviado", "Para", "Assunto"),
    "pl": ("Od", "Wysłano", "Do", "Temat"), "nl": ("Van", "Verzonden", "Aan", "Onderwerp"),
    "cs": ("Od", "Odesláno", "Komu", "Předmět"), "tr": ("Kimden", "Gönderildi", "Kime", "Konu"),
    "ru": ("От", "Отправлено", "Кому", "Тема"), "ja": ("差出人", "送信日時", "宛先", "件名"),
    "zh": ("发件人", "发送时间", "收件人", "主题"), "ko": ("보낸 사람", "보낸 날짜", "받는 사람", "제목"),
    "vi": ("Từ", "Đã gửi", "Đến", "Chủ đề"),
}


@functools.cache
def sent_mails() -> list[tuple[str, str, str, list[str]]]:
    """(subject, plain text, html text, menu commands) of every mail the games' start sent."""
    ctx = make_ctx(Path(tempfile.mkdtemp(prefix="pbem-sent-")))
    for engine, names in GAMES:
        new_game(ctx, engine, tuple(f"{n}.{engine}" for n in names))
    mails = []
    for row in outbox(ctx):
        msg = parse_message(row.raw)
        texts = sent_text_of(msg)
        plain = next(p for p in msg.walk() if p.get_content_type() == "text/plain")
        html = next(p for p in msg.walk() if p.get_content_type() == "text/html")
        from service.inbound.extract import decode_part

        menu = sorted(SentText(texts).commands)
        mails.append((texts[0], decode_part(plain), html_to_text(decode_part(html)), [
            c for c in (line.split(" — ")[0].split(". ", 1)[-1].strip() for line in decode_part(plain).splitlines()
                        if " — " in line and line.strip()[:1].isdigit()) if fold(c) in menu]))
    assert len(mails) >= 11
    return mails


def deaccent(text: str) -> str:
    return "".join(c for c in unicodedata.normalize("NFKD", text.replace("đ", "d").replace("Đ", "D"))
                   if not unicodedata.combining(c))


def transform(text: str, *, prefix: str, width: int | None, lose_continuation: bool, drop_marker: bool,
              accents: bool) -> str:
    """A client's quote of ``text``: prefixed, re-wrapped (continuations maybe without ``>``),
    de-accented, its marker line maybe dropped."""
    out = []
    for line in text.splitlines():
        if drop_marker and MARKER in line:
            continue
        if not accents:
            line = deaccent(line)
        pieces = textwrap.wrap(line, width, break_on_hyphens=False) if width and line.strip() else [line]
        for n, piece in enumerate(pieces or [""]):
            out.append(piece if (n and lose_continuation) or not prefix else (prefix + piece).rstrip())
    return "\n".join(out)


@settings(max_examples=300, deadline=None)
@given(data=st.data(), prefix=st.sampled_from(["> ", ">", "> > ", "  ", ""]),
       width=st.one_of(st.none(), st.integers(18, 100)), lose_continuation=st.booleans(),
       drop_marker=st.booleans(), accents=st.booleans(), html=st.booleans(),
       intro=st.sampled_from(["attribution", "header", "none"]), lang=st.sampled_from(sorted(HEADER_BLOCKS)))
def test_no_line_of_a_sent_mail_ever_becomes_new_text(
        data: st.DataObject, prefix: str, width: int | None,
        lose_continuation: bool, drop_marker: bool, accents: bool, html: bool, intro: str, lang: str) -> None:
    mails = sent_mails()
    subject, plain, html_text, menu = mails[data.draw(st.integers(0, len(mails) - 1), label="mail")]
    mine = data.draw(st.sampled_from(["", "3", "help", "K", *menu[:6]]))
    sent = SentText([*sent_text_of(email.message_from_string(f"Subject: {subject}\nContent-Type: text/plain; charset=utf-8\n\n{plain}")), html_text])
    quote = transform(html_text if html else plain, prefix=prefix, width=width,
                      lose_continuation=lose_continuation, drop_marker=drop_marker, accents=accents)
    if intro == "attribution":
        head = "On Mon, 30 Nov 2026 at 10:00, pbem <play@pbem.test> wrote:"
    elif intro == "header":
        names = HEADER_BLOCKS[lang]
        head = (f"{names[0]}: pbem <play@pbem.test>\n{names[1]}: 30.11.2026 10:00\n"
                f"{names[2]}: Ann <ann@x.test>\n{names[3]}: {subject}")
    else:
        head = ""
    reply = f"{mine}\n\n{head}\n{quote}\n" if head else f"{mine}\n\n{quote}\n"
    got = split_commands(trim_reply(reply, MARKER, sent))
    assert got == ([mine] if mine else []), got


def test_a_short_reply_is_not_glued_to_the_subject_ref_across_texts() -> None:
    """Found by CI: the subject's random ref ended in "k", the plain part starts with the
    marker line; "K" + the indented marker line was then "a piece of our text" and the
    player's K was dropped. A piece of ours never spans two of our texts."""
    sent = SentText(["[TAC #1] The game starts · ref 2o45o6pk67axbsk434yk",
                     f"{MARKER}\nHello Ann, a game of TAC starts."])
    reply = f"K\n\n  {MARKER}\n  Hello Ann, a game of TAC starts.\n"
    assert split_commands(trim_reply(reply, MARKER, sent)) == ["K"]
