"""The transactional outbox: mails are rows written in the same transaction as the move.

``queue_mail`` only inserts a row (so a rolled-back move sends nothing); ``send_due`` delivers
due rows over SMTP (aiosmtplib) and marks each sent in its own commit. A crash between the
SMTP ``250`` and that commit resends the same bytes with the same Message-ID, which a
mail client recognises as one mail: at-least-once delivery, never a lost mail.
Temporary failures back off exponentially; after ``max_send_attempts`` a row is ``failed``.
Answers (help, state, errors, invitations) are limited per address and hour/day, errors also per
day, so neither a loop with a misbehaving robot nor a flood of forged mails can aim the service
at an inbox; the last answer before a limit says so.
"""

from __future__ import annotations

import contextlib
import dataclasses
import logging
import uuid
from collections.abc import Sequence
from datetime import timedelta
from html import escape

import aiosmtplib
from sqlalchemy import func, update
from sqlmodel import Session, col, select

from service.context import AppContext
from service.outbound.render import Attachment, Rendered, build_message
from service.store.models import Outbox, Player

log = logging.getLogger(__name__)

#: Kinds of mail that answer a problem; these are rate-limited per address and day.
ERROR_KINDS = frozenset({"rejected", "finished", "too_large"})
#: Every kind of answer a mail can cause (someone else can write that mail, with a forged From):
#: limited per address and hour/day, so the service cannot be aimed at an inbox. Mails the game
#: itself causes (turn, started, received, moved, over) are never limited.
ANSWER_KINDS = ERROR_KINDS | {"help", "info", "invite"}

LAST_ANSWER_NOTE = {
    "en": "This is the last answer I send to this address for now (too many in a short time); "
          "mail about your games keeps coming, and I answer again {when}.",
    "vi": "Đây là thư trả lời cuối cùng tôi gửi đến địa chỉ này lúc này (quá nhiều trong thời gian ngắn); "
          "thư về các ván chơi vẫn được gửi, và tôi sẽ trả lời lại {when}.",
}
LAST_ANSWER_WHEN = {"en": {"hour": "in an hour", "day": "tomorrow"}, "vi": {"hour": "sau một giờ", "day": "vào ngày mai"}}
BACKOFF_BASE = timedelta(seconds=30)
BACKOFF_MAX = timedelta(hours=6)


def new_message_id(ctx: AppContext, kind: str) -> str:
    """A fresh id with 128 random bits: never predictable, never shared with another database."""
    return f"<{uuid.uuid4().hex}.{kind}@{ctx.settings.domain}>"


def error_answers_today(session: Session, ctx: AppContext, address: str) -> int:
    return _answers(session, ctx, address, ERROR_KINDS, timedelta(days=1))


def _answers(session: Session, ctx: AppContext, address: str, kinds: frozenset[str], window: timedelta,
             game_id: int | None = None) -> int:
    since = ctx.clock.now() - window
    query = select(func.count()).select_from(Outbox).where(
        Outbox.to_address == address, col(Outbox.kind).in_(kinds), Outbox.created_at >= since
    )
    if game_id is not None:
        query = query.where(Outbox.game_id == game_id)
    return int(session.exec(query).one())


def answer_allowed(session: Session, ctx: AppContext, to: str, kind: str,
                   game_id: int | None) -> tuple[bool, str | None]:
    """(send it?, the window it is the LAST answer of — "hour" or "day" — or None).

    Limits are per address: errors per day, all answers per hour and per day. A limit never
    hides the first answer about a game that got no answer in the window (a bad hour in one
    game does not silence a correct reply in another).
    """
    if kind not in ANSWER_KINDS:
        return True, None
    cfg = ctx.settings
    limits = [(ANSWER_KINDS, timedelta(hours=1), cfg.answers_per_hour, "hour"),
              (ANSWER_KINDS, timedelta(days=1), cfg.answers_per_day, "day")]
    if kind in ERROR_KINDS:
        limits.append((ERROR_KINDS, timedelta(days=1), cfg.error_answers_per_day, "day"))
    last: str | None = None
    for kinds, window, limit, name in limits:
        used = _answers(session, ctx, to, kinds, window)
        if used >= limit:
            if game_id is not None and _answers(session, ctx, to, ANSWER_KINDS, window, game_id) == 0:
                continue  # the first answer about this game in the window is always sent
            return False, None
        if used == limit - 1:
            last = last or name
    return True, last


def _with_note(rendered: Rendered, note: str) -> Rendered:
    """The mail with one more paragraph above the signature (text) or at the end (HTML)."""
    text = rendered.text
    cut = text.rfind("\n-- \n")
    text = f"{text[:cut]}\n\n{note}\n{text[cut:]}" if cut >= 0 else f"{text.rstrip()}\n\n{note}\n"
    html = rendered.html
    paragraph = f"<p>{escape(note)}</p>"
    at = html.rfind("</body>")
    html = f"{html[:at]}{paragraph}\n{html[at:]}" if at >= 0 else html + paragraph
    return dataclasses.replace(rendered, text=text, html=html)  # pictures and all


def queue_mail(
    session: Session,
    ctx: AppContext,
    *,
    to: str,
    kind: str,
    subject: str,
    rendered: Rendered,
    reply_to: str | None = None,
    game_id: int | None = None,
    in_reply_to: str | None = None,
    message_id: str | None = None,
    reply_key: str | None = None,
    attachments: Sequence[Attachment] = (),
) -> Outbox | None:
    """Add a mail to the outbox (no commit). ``None`` when an answer limit for ``to`` is reached
    (see ``answer_allowed``); the last answer before a limit says so."""
    allowed, last = answer_allowed(session, ctx, to, kind, game_id)
    if not allowed:
        log.info("not answering %s (%s): answer limit reached", to, kind)
        return None
    if last is not None:
        lang = session.exec(select(Player.lang).where(Player.address == to)).first() or "en"
        lang = lang if lang in LAST_ANSWER_NOTE else "en"
        rendered = _with_note(rendered, LAST_ANSWER_NOTE[lang].format(when=LAST_ANSWER_WHEN[lang][last]))
    now = ctx.clock.now()
    message_id = message_id or new_message_id(ctx, kind)
    raw = build_message(
        from_name=ctx.settings.service_name,
        from_address=ctx.settings.service_address,
        to=to,
        reply_to=reply_to or ctx.settings.service_address,
        subject=subject,
        rendered=rendered,
        message_id=message_id,
        date=now,
        in_reply_to=in_reply_to,
        attachments=attachments,
    )
    row = Outbox(message_id=message_id, to_address=to, kind=kind, game_id=game_id, reply_key=reply_key,
                 raw=raw,
                 next_attempt_at=now, created_at=now)
    session.add(row)
    return row


def backoff(attempts: int) -> timedelta:
    delay: timedelta = BACKOFF_BASE * (2 ** max(attempts - 1, 0))
    return min(delay, BACKOFF_MAX)


async def send_due(ctx: AppContext, limit: int = 200) -> int:
    """Send every due mail (up to ``limit``) over one SMTP connection; returns mails sent.

    The due rows are read in one query; each mail sent is then marked in its own small
    commit (a Core ``UPDATE``, no ORM round trip), so a crash resends at most one mail.
    """
    now = ctx.clock.now()
    with ctx.session() as s:
        due = s.exec(
            select(Outbox.id, Outbox.to_address, Outbox.raw).where(Outbox.status == "pending", Outbox.next_attempt_at <= now)
            .order_by(col(Outbox.id)).limit(limit)
        ).all()
    if not due:
        return 0
    cfg = ctx.settings
    smtp = aiosmtplib.SMTP(hostname=cfg.smtp_host, port=cfg.smtp_port, start_tls=cfg.smtp_tls or None,
                           timeout=30)
    sent = 0
    try:
        await smtp.connect()
        if cfg.smtp_user:
            await smtp.login(cfg.smtp_user, cfg.smtp_password)
    except (aiosmtplib.SMTPException, OSError) as exc:
        log.warning("SMTP server unavailable: %s", exc)
        with ctx.session() as s:
            for outbox_id, _to, _raw in due:
                _failed(s, ctx, s.get_one(Outbox, outbox_id), f"connect: {exc}", permanent=False)
            s.commit()
        return 0
    try:
        for outbox_id, to_address, raw in due:
            error: str | None = None
            permanent = gone = False
            try:
                await smtp.sendmail(cfg.service_address, [to_address], raw)
            except aiosmtplib.SMTPRecipientsRefused as exc:
                codes = [r.code for r in exc.recipients]
                error = "; ".join(f"{r.code} {r.message}" for r in exc.recipients)
                permanent = all(500 <= c < 600 for c in codes)
            except aiosmtplib.SMTPResponseException as exc:
                error, permanent = f"{exc.code} {exc.message}", 500 <= exc.code < 600
            except (aiosmtplib.SMTPException, OSError) as exc:
                error, gone = str(exc), True
            if error is None:
                with ctx.db.begin() as conn:
                    conn.execute(update(Outbox).where(col(Outbox.id) == outbox_id, col(Outbox.status) == "pending")
                                 .values(status="sent", sent_at=ctx.clock.now(), attempts=col(Outbox.attempts) + 1))
                sent += 1
                continue
            with ctx.session() as s:
                _failed(s, ctx, s.get_one(Outbox, outbox_id), error, permanent=permanent)
                s.commit()
            if gone:
                break  # the connection is gone; the rest waits for the next flush
    finally:
        with contextlib.suppress(aiosmtplib.SMTPException, OSError):
            await smtp.quit()
    return sent


def _failed(session: Session, ctx: AppContext, row: Outbox, error: str, *, permanent: bool) -> None:
    row.attempts += 1
    row.last_error = error[:1000]
    if permanent or row.attempts >= ctx.settings.max_send_attempts:
        row.status = "failed"
        log.error("giving up on mail %s to %s: %s", row.message_id, row.to_address, error)
    else:
        row.next_attempt_at = ctx.clock.now() + backoff(row.attempts)
