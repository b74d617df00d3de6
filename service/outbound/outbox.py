"""The transactional outbox: mails are rows written in the same transaction as the move.

``queue_mail`` only inserts a row (so a rolled-back move sends nothing); ``send_due`` delivers
due rows over SMTP (aiosmtplib) and marks each sent in its own commit. A crash between the
SMTP ``250`` and that commit resends the same bytes with the same Message-ID, which a
mail client recognises as one mail: at-least-once delivery, never a lost mail.
Temporary failures back off exponentially; after ``max_send_attempts`` a row is ``failed``.
Error answers (``rejected``, ``finished``) are limited per address and day, so a loop with a
misbehaving robot stops after a few mails.
"""

from __future__ import annotations

import contextlib
import logging
import uuid
from datetime import timedelta

import aiosmtplib
from sqlalchemy import func, update
from sqlmodel import Session, col, select

from service.context import AppContext
from service.outbound.render import Rendered, build_message
from service.store.models import Outbox

log = logging.getLogger(__name__)

#: Kinds of mail that answer a problem; these are rate-limited per address and day.
ERROR_KINDS = frozenset({"rejected", "finished"})
BACKOFF_BASE = timedelta(seconds=30)
BACKOFF_MAX = timedelta(hours=6)


def new_message_id(ctx: AppContext, kind: str) -> str:
    """A fresh id with 128 random bits: never predictable, never shared with another database."""
    return f"<{uuid.uuid4().hex}.{kind}@{ctx.settings.domain}>"


def error_answers_today(session: Session, ctx: AppContext, address: str) -> int:
    since = ctx.clock.now() - timedelta(days=1)
    query = select(func.count()).select_from(Outbox).where(
        Outbox.to_address == address, col(Outbox.kind).in_(ERROR_KINDS), Outbox.created_at >= since
    )
    return int(session.exec(query).one())


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
) -> Outbox | None:
    """Add a mail to the outbox (no commit). ``None`` when the daily error limit is reached."""
    if kind in ERROR_KINDS and error_answers_today(session, ctx, to) >= ctx.settings.error_answers_per_day:
        log.info("not answering %s (%s): daily limit of error answers reached", to, kind)
        return None
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
